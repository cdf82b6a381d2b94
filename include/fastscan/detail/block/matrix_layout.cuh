#pragma once
// The shared-memory matrix of the matrix scans (Dotsenko et al., ICS 2008, 4.1): a tile of Rows x W
// elements, row r holding elements r*W .. r*W + W - 1, rows padded so that the threads of a warp,
// each walking its own row, do not collide in the 32 banks. Shared by the plain and the segmented
// matrix scans.
//
// The padding depends on how rows are accessed:
//   vector rows (a row is whole 16-byte vectors): a row is read and written as 16-byte vectors and
//     padded to an odd number of vectors (one or two more). A warp's 16-byte accesses are served eight
//     threads at a time, and eight consecutive rows then start at eight different 16-byte offsets
//     modulo 128: no conflict. The striped 16-byte
//     vectors the tile loads deliver go in and out as whole vectors too (with rows of eight vectors,
//     the tuned shape, a quarter warp's eight vectors fill one row: no conflict either);
//   scalar rows: padded to an odd number of 4-byte words, coprime with the 32 banks (the paper's
//     padding).
// Without padding (the paper's ablation) rows are scalar and every row starts in the same bank.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>

#include <cstring>
#include <type_traits>

namespace fastscan::detail {

// Trivially copyable 16-byte elements move between shared memory and registers as one 16-byte access:
// copied member by member (an 8-byte and a 4-byte access for a (double, count) pair) they meet the same
// banks several times a warp. Their slots are 16-byte aligned.
template <class T>
inline constexpr bool whole_word_element = sizeof(T) == 16 && std::is_trivially_copyable_v<T>;

// One 16-byte vector between shared memory and 16 / sizeof(T) consecutive registers.
template <class T>
__device__ void load_shared_vector(T const* at, T* items) {
  const uint4 raw = *reinterpret_cast<const uint4*>(at);
  std::memcpy(items, &raw, sizeof(raw));
}
template <class T>
__device__ void store_shared_vector(T* at, T const* items) {
  uint4 raw;
  std::memcpy(&raw, items, sizeof(raw));
  *reinterpret_cast<uint4*>(at) = raw;
}

// One element between a shared-memory slot and a register.
template <class T>
__device__ void store_shared_element(T& slot, T const& value) {
  if constexpr (whole_word_element<T>) store_shared_vector(&slot, &value);
  else construct_in(slot, value);
}
template <class T>
__device__ T load_shared_element(T const& slot) {
  if constexpr (whole_word_element<T>) {
    uninitialized<T> value;
    load_shared_vector(&slot, &value.get());
    return value.get();
  } else {
    return slot;
  }
}

template <class T, int Rows, int RowItems, bool PadRows>
struct matrix_layout {
  static constexpr int row_items = RowItems;
  static constexpr int vector = elements_per_vector<T>();
  static constexpr bool vector_rows = PadRows && vector > 1 && RowItems % vector == 0;
  static constexpr int row_stride = vector_rows ? ((RowItems / vector + 1) | 1) * vector
                                    : PadRows   ? (RowItems | 1)
                                                : RowItems;
  static constexpr int elements = Rows * row_stride;

  struct alignas(16) storage {
    uninitialized_array<T, elements> slots;
  };

  __device__ static int index(int element) { return (element / RowItems) * row_stride + element % RowItems; }

  __device__ static void load_row(storage& m, int row, T (&items)[RowItems]) {
    T* first = &m.slots[row * row_stride];
    if constexpr (vector_rows) {
#pragma unroll
      for (int v = 0; v < RowItems / vector; ++v) load_shared_vector(first + v * vector, &items[v * vector]);
    } else {
#pragma unroll
      for (int i = 0; i < RowItems; ++i) items[i] = load_shared_element(first[i]);
    }
  }

  // Vector number `chunk` of the tile (elements chunk * vector ..): its place in the matrix (vector rows only).
  __device__ static T* vector_at(storage& m, int chunk) { return &m.slots[index(chunk * vector)]; }

  // Items in registers, striped in vectors of Vector elements (striped_element in config.cuh), to and
  // from the matrix: as 16-byte vectors when the rows are vector rows of the same vector size.
  template <int Threads, int Vector, int ItemsPerThread>
  __device__ static void store_striped(storage& m, T const (&items)[ItemsPerThread]) {
    if constexpr (vector_rows && Vector == vector) {
#pragma unroll
      for (int j = 0; j < ItemsPerThread / Vector; ++j)
        store_shared_vector(vector_at(m, j * Threads + static_cast<int>(threadIdx.x)), &items[j * Vector]);
    } else {
#pragma unroll
      for (int k = 0; k < ItemsPerThread; ++k)
        store_shared_element(m.slots[index(striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x)))], items[k]);
    }
  }

  template <int Threads, int Vector, int ItemsPerThread>
  __device__ static void load_striped(storage& m, T (&items)[ItemsPerThread]) {
    if constexpr (vector_rows && Vector == vector) {
#pragma unroll
      for (int j = 0; j < ItemsPerThread / Vector; ++j)
        load_shared_vector(vector_at(m, j * Threads + static_cast<int>(threadIdx.x)), &items[j * Vector]);
    } else {
#pragma unroll
      for (int k = 0; k < ItemsPerThread; ++k)
        items[k] = load_shared_element(m.slots[index(striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x)))]);
    }
  }

  __device__ static void store_row(storage& m, int row, T const (&items)[RowItems]) {
    T* first = &m.slots[row * row_stride];
    if constexpr (vector_rows) {
#pragma unroll
      for (int v = 0; v < RowItems / vector; ++v) store_shared_vector(first + v * vector, &items[v * vector]);
    } else {
#pragma unroll
      for (int i = 0; i < RowItems; ++i) store_shared_element(first[i], items[i]);
    }
  }
};

}  // namespace fastscan::detail
