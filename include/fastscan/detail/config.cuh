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

}  // namespace fastscan::detail

// Returns the status of a failing CUDA call from the enclosing function (which returns cudaError_t).
#define FASTSCAN_CUDA_TRY(call)                \
  do {                                         \
    cudaError_t fastscan_status_ = (call);     \
    if (fastscan_status_ != cudaSuccess) {     \
      return fastscan_status_;                 \
    }                                          \
  } while (0)
