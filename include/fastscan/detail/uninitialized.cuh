#pragma once
// Raw storage for values of any element type in shared memory: __shared__ variables cannot have
// constructors, and user types (tuples, structs with constructors) often do.

#include <cstddef>

namespace fastscan::detail {

template <class T, int N>
struct uninitialized_array {
  alignas(T) unsigned char bytes[sizeof(T) * N];

  __device__ T& operator[](int i) { return reinterpret_cast<T*>(bytes)[i]; }
  __device__ T const& operator[](int i) const { return reinterpret_cast<T const*>(bytes)[i]; }
};

template <class T>
struct uninitialized {
  alignas(T) unsigned char bytes[sizeof(T)];

  __device__ T& get() { return *reinterpret_cast<T*>(bytes); }
};

}  // namespace fastscan::detail
