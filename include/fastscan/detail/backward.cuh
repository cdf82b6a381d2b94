#pragma once
// Backward scans. A thrust::reverse_iterator over contiguous memory is replaced by a raw downward
// view: tile 0 is the last tile of memory, each tile is walked from its end, and the scan's loops run
// over the reversed sequence, so the operands of op keep the traversal's order and non-commutative
// operators stay right. Nothing is copied reversed. Other iterators keep the forward path.

#include <fastscan/detail/config.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <type_traits>

namespace fastscan::detail {

// Element i is last[-i].
template <class T>
struct backward_pointer {
  T* last;
  __host__ __device__ T& operator[](offset_t i) const { return *(last - i); }
};

// The value type of an iterator the kernels get (a backward_pointer's element, else the iterator's
// value type): what function objects are given, loaded, as Thrust's CUDA backend gives them.
template <class It>
struct element_value {
  using type = thrust::detail::it_value_t<It>;
};
template <class T>
struct element_value<backward_pointer<T>> {
  using type = std::remove_cv_t<T>;
};
template <class It>
using element_value_t = typename element_value<It>::type;

template <class It>
struct is_backward_over_contiguous : std::false_type {};
template <class Base>
struct is_backward_over_contiguous<thrust::reverse_iterator<Base>>
    : std::bool_constant<thrust::is_contiguous_iterator_v<Base>> {};

// The iterator to hand the kernels: a backward_pointer for a reverse iterator over contiguous
// memory, the iterator itself otherwise.
template <class It>
auto native_iterator(It it) {
  if constexpr (is_backward_over_contiguous<It>::value) {
    auto* element_before = thrust::raw_pointer_cast(&*it.base()) - 1;  // *it is *(base - 1)
    return backward_pointer<std::remove_pointer_t<decltype(element_before)>>{element_before};
  } else {
    return it;
  }
}

}  // namespace fastscan::detail
