#pragma once
// A row source for warp_segmented_vector_rows that makes a scan by key's rows of values and heads from a
// segment of values and keys in shared memory: lane l of round r reads the values of row 32 r + l as one
// 16-byte vector, their keys as another (keys as wide as the values), and the key before them. Element
// i is a head where !pred(key[i - 1], key[i]) (Thrust's definition) or where it is the scan's first
// element; an exclusive scan folds its init into each head's value (segmented.cuh). Warp code only: it
// knows shared memory and nothing else.

#include <fastscan/detail/config.cuh>

#include <cstring>

namespace fastscan::detail {

template <scan_kind Kind, class V, class K, int Vector, int Rounds, class Pred, class Op>
struct by_key_rows_source {
  static_assert(Vector * sizeof(V) == 16 && sizeof(K) == sizeof(V), "rows are 16-byte vectors of values and of keys");

  V const* values;   // the segment's first value
  K const* keys;     // the segment's first key; keys[-1] is the key before it
  bool starts_scan;  // the segment's first element is the scan's first
  Pred pred;
  Op op;
  V init;  // exclusive scans only

  // Lane's row of round r into `row`; returns its heads, bit j for element j.
  __device__ __forceinline__ unsigned load_row(int r, int lane, V (&row)[Vector]) const {
    const int first = (r * 32 + lane) * Vector;
    const uint4 bits = reinterpret_cast<const uint4*>(values)[r * 32 + lane];
    std::memcpy(row, &bits, sizeof(bits));
    K key[Vector];
    const uint4 key_bits = reinterpret_cast<const uint4*>(keys + first)[0];
    std::memcpy(key, &key_bits, sizeof(key));
    K previous = keys[first - 1];
    unsigned heads = 0;
#pragma unroll
    for (int j = 0; j < Vector; ++j) {
      // The scan's first element has no key before it (what lies there is not compared).
      const bool head = (starts_scan && first + j == 0) || !pred(previous, key[j]);
      previous = key[j];
      if (Kind == scan_kind::exclusive && head) row[j] = static_cast<V>(op(init, row[j]));
      heads |= static_cast<unsigned>(head) << j;
    }
    return heads;
  }
};

}  // namespace fastscan::detail
