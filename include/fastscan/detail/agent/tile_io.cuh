#pragma once
// Moving one tile between global memory and a block's registers, in the arrangement the block scans
// expect (striped_element in config.cuh). Shared by every agent.
//
// Two paths: element by element through any iterator (coalesced, since a warp's items k cover
// contiguous spans), and 16-byte vectors for contiguous memory of the element type itself, aligned to
// 16 bytes. The dispatch layer chooses at run time (vector_access_possible); only full tiles use
// vectors. The partial last tile clamps its loads to the last element, so no identity is needed to
// fill it: positions past the end only feed results that are never stored (a scan's output at i
// depends on 0..i only).

#include <fastscan/detail/config.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fastscan::detail {

// True when `It` is contiguous memory of exactly T (a raw or device pointer, a vector iterator).
template <class It, class T>
constexpr bool contiguous_of() {
  if constexpr (std::is_pointer_v<It> || thrust::is_contiguous_iterator_v<It>) {
    return std::is_same_v<std::remove_cv_t<thrust::detail::it_value_t<It>>, T>;
  } else {
    return false;
  }
}
template <class It, class T>
constexpr bool is_contiguous_of = contiguous_of<It, T>();

// Host side: may a tile loop over [it, it + n) use 16-byte vectors?
template <class T, int Vector, class It>
bool vector_access_possible(It it) {
  if constexpr (Vector > 1 && is_contiguous_of<It, T>) {
    return reinterpret_cast<std::uintptr_t>(thrust::raw_pointer_cast(&*it)) % 16 == 0;
  } else {
    return false;
  }
}

template <int Threads, int ItemsPerThread, int Vector>
struct tile_io {
  static_assert(ItemsPerThread % Vector == 0, "a thread's items must be whole vectors");
  static constexpr int tile_items = Threads * ItemsPerThread;

  __device__ static int element(int k) { return striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x)); }

  template <bool FullTile, class InputIt, class T>
  __device__ static void load(InputIt input, offset_t tile_base, int valid, T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      int e = element(k);
      if (!FullTile && e >= valid) e = valid - 1;
      items[k] = input[tile_base + e];
    }
  }

  template <bool FullTile, class OutputIt, class T>
  __device__ static void store(OutputIt output, offset_t tile_base, int valid, T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int e = element(k);
      if (FullTile || e < valid) output[tile_base + e] = items[k];
    }
  }

  // A full tile: as vectors where `vectorized` (the host checked vector_access_possible), else element
  // by element. One kernel serves both, so aligned and misaligned calls share an instantiation.
  template <class InputIt, class T>
  __device__ static void load_full(InputIt input, offset_t tile_base, T (&items)[ItemsPerThread], bool vectorized) {
    if constexpr (Vector > 1 && is_contiguous_of<InputIt, T>) {
      if (vectorized) return load_vectors(input, tile_base, items);
    }
    load<true>(input, tile_base, tile_items, items);
  }

  template <class OutputIt, class T>
  __device__ static void store_full(OutputIt output, offset_t tile_base, T (&items)[ItemsPerThread], bool vectorized) {
    if constexpr (Vector > 1 && is_contiguous_of<OutputIt, T>) {
      if (vectorized) return store_vectors(output, tile_base, items);
    }
    store<true>(output, tile_base, tile_items, items);
  }

  // A full tile of contiguous, 16-byte aligned memory: one 16-byte load per vector, all issued
  // before the first is used.
  template <class InputIt, class T>
  __device__ static void load_vectors(InputIt input, offset_t tile_base, T (&items)[ItemsPerThread]) {
    static_assert(Vector * sizeof(T) == 16, "vectors are 16 bytes");
    const uint4* vectors = reinterpret_cast<const uint4*>(thrust::raw_pointer_cast(&*input) + tile_base);
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      const uint4 raw = vectors[j * Threads + threadIdx.x];
      std::memcpy(&items[j * Vector], &raw, sizeof(raw));
    }
  }

  template <class OutputIt, class T>
  __device__ static void store_vectors(OutputIt output, offset_t tile_base, T (&items)[ItemsPerThread]) {
    static_assert(Vector * sizeof(T) == 16, "vectors are 16 bytes");
    uint4* vectors = reinterpret_cast<uint4*>(thrust::raw_pointer_cast(&*output) + tile_base);
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      uint4 raw;
      std::memcpy(&raw, &items[j * Vector], sizeof(raw));
      vectors[j * Threads + threadIdx.x] = raw;
    }
  }
};

}  // namespace fastscan::detail
