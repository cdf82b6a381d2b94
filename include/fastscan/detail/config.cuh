#pragma once
// Shared vocabulary of the library: offsets, scan kinds, the optional carry value, error plumbing, how
// a thread's items lie in a tile and move as machine words.

#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

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

// A thread's `Vector` consecutive elements of T in vector memory (a chunk) move as one access of 2, 4,
// 8 or 16 bytes, or as several of 16 bytes: 16 bytes for the accumulator, whose Vector the tuning
// derives from it; keys narrower or wider than the values they go with take chunks of other sizes.
template <class T, int Vector>
inline constexpr std::size_t chunk_bytes = Vector * sizeof(T);
template <class T, int Vector>
inline constexpr bool chunk_movable = chunk_bytes<T, Vector> % 16 == 0 || chunk_bytes<T, Vector> == 8 ||
                                      chunk_bytes<T, Vector> == 4 || chunk_bytes<T, Vector> == 2;
template <class T, int Vector>
inline constexpr std::size_t chunk_alignment = chunk_bytes<T, Vector> < 16 ? chunk_bytes<T, Vector> : 16;
template <class T, int Vector>
using chunk_word = std::conditional_t<
    chunk_bytes<T, Vector> % 16 == 0, uint4,
    std::conditional_t<chunk_bytes<T, Vector> == 8, uint2,
                       std::conditional_t<chunk_bytes<T, Vector> == 4, unsigned, unsigned short>>>;
template <class T, int Vector>
inline constexpr int chunk_words = static_cast<int>(chunk_bytes<T, Vector> / sizeof(chunk_word<T, Vector>));

}  // namespace fastscan::detail

// Returns the status of a failing CUDA call from the enclosing function (which returns cudaError_t).
#define FASTSCAN_CUDA_TRY(call)                \
  do {                                         \
    cudaError_t fastscan_status_ = (call);     \
    if (fastscan_status_ != cudaSuccess) {     \
      return fastscan_status_;                 \
    }                                          \
  } while (0)
