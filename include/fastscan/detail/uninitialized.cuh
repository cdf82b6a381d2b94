#pragma once
// Raw storage for values of any element type in shared memory: __shared__ variables cannot have
// constructors, and user types (tuples, structs with constructors) often do.
//
// A value goes into raw storage by copy construction (construct_in), never by assignment: a type's
// operator= may rely on its target being an object already (Thrust constructs into uninitialized
// memory for that reason). For trivially copyable types the two compile to the same stores.

#include <cstddef>
#include <new>
#include <type_traits>

namespace fastscan::detail {

// The leading bytes of a T that hold its state: sizeof(T) unless a type's trailing padding is declared
// (specialized beside such types), so that copies of its bytes can skip the padding (the look-back's
// packed status words, agent/single_pass_lookback.cuh).
template <class T>
inline constexpr std::size_t value_bytes = sizeof(T);

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

// Places a copy of `value` at `slot`, raw storage or a value of the same type whose old state does
// not matter.
template <class T>
__host__ __device__ void construct_in(T& slot, T const& value) {
  ::new (static_cast<void*>(&slot)) T(value);
}

// Output through a pointer into raw global storage (temporary buffers): each element written is
// constructed there.
template <class T>
struct constructing_pointer {
  T* first;

  struct slot {
    T* at;
    __device__ void operator=(T const& value) const { construct_in(*at, value); }
  };
  __device__ slot operator[](std::ptrdiff_t i) const { return slot{first + i}; }
  __host__ __device__ constructing_pointer operator+(std::ptrdiff_t i) const { return constructing_pointer{first + i}; }
};

// The pointer itself where assignment is construction (trivially copy-assignable types: the kernels'
// vector paths stay open), a constructing_pointer otherwise.
template <class T>
__host__ __device__ auto raw_output(T* first) {
  if constexpr (std::is_trivially_copy_assignable_v<T>) return first;
  else return constructing_pointer<T>{first};
}

}  // namespace fastscan::detail
