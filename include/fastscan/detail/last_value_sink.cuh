#pragma once
// An output iterator that keeps only the element written at position `last`: a scan into it leaves the
// ordered total of its range (the ordered reduction's last step, and the distributed algorithms'
// shard totals) without writing the rest.

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/iterator_adaptor.h>

namespace fastscan::detail {

// Writes only the element at `last` of a range (a scan's last value: the range's ordered total).
template <class T>
struct last_value_reference {
  T* target;
  bool keep;
  __host__ __device__ last_value_reference const& operator=(T const& value) const {
    if (keep) *target = value;
    return *this;
  }
};

template <class T>
class last_value_sink
    : public thrust::iterator_adaptor<last_value_sink<T>, thrust::counting_iterator<long long>, T, thrust::use_default,
                                      thrust::use_default, last_value_reference<T>> {
  using super_t = thrust::iterator_adaptor<last_value_sink<T>, thrust::counting_iterator<long long>, T,
                                           thrust::use_default, thrust::use_default, last_value_reference<T>>;
  friend class thrust::iterator_core_access;

 public:
  __host__ __device__ last_value_sink(T* target, long long last)
      : super_t(thrust::counting_iterator<long long>(0)), target_(target), last_(last) {}

 private:
  __host__ __device__ last_value_reference<T> dereference() const { return {target_, *this->base() == last_}; }
  T* target_;
  long long last_;
};

}  // namespace fastscan::detail
