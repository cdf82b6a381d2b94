#pragma once
// Shared vocabulary of the library: offsets, scan kinds, the optional carry value, error plumbing.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace fastscan::detail {

// Element positions are 64-bit everywhere, so any n up to the device's memory works.
using offset_t = std::int64_t;

enum class scan_kind { inclusive, exclusive };

// A value that may be absent: the carry into a tile or row when no earlier element and no init exist.
// Thrust's inclusive_scan has no identity element, so "nothing yet" must be representable.
template <class T>
struct maybe {
  T value;
  bool valid;
};

template <class T>
__host__ __device__ maybe<T> none() {
  maybe<T> m{};
  m.valid = false;
  return m;
}

template <class T>
__host__ __device__ maybe<T> some(T const& value) {
  return maybe<T>{value, true};
}

// The tile element that item k of a thread holds. Items come in vectors of Vector consecutive
// elements, and the vectors are striped over the threads: thread t's j-th vector is vector
// j * Threads + t. Vector = 1 is plain striping (item k is element k * Threads + t); larger vectors let
// a thread load 16 bytes at once while a warp's loads still cover one contiguous span.
template <int Threads, int Vector>
__host__ __device__ constexpr int striped_element(int k, int thread) {
  return ((k / Vector) * Threads + thread) * Vector + k % Vector;
}

// Elements of T in one 16-byte vector, or 1 when T does not tile 16 bytes evenly.
template <class T>
constexpr int elements_per_vector() {
  return sizeof(T) < 16 && 16 % sizeof(T) == 0 ? static_cast<int>(16 / sizeof(T)) : 1;
}

}  // namespace fastscan::detail

// Returns the status of a failing CUDA call from the enclosing function (which returns cudaError_t).
#define FASTSCAN_CUDA_TRY(call)                \
  do {                                         \
    cudaError_t fastscan_status_ = (call);     \
    if (fastscan_status_ != cudaSuccess) {     \
      return fastscan_status_;                 \
    }                                          \
  } while (0)
