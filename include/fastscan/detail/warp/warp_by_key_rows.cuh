#pragma once
// A row source for warp_segmented_vector_rows that makes a scan by key's rows of values and heads from a
// segment of values and keys in shared memory. Rows (the scan's layout): lane l of round r reads the
// values of row 32 r + l as one 16-byte vector, their keys as one vector (8 or 16 bytes), and the key
// before them. Runs (the reduction's layout): lane l reads the Rounds x Vector consecutive elements from
// element l Rounds Vector, as 16-byte vectors in an order rotated by lane (warp_runs.cuh). Element i is
// a head where !pred(key[i - 1], key[i]) (Thrust's definition) or where it is the scan's first element;
// an exclusive scan folds its init into each head's value (segmented.cuh). Warp code only: it knows
// shared memory and nothing else.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/warp/warp_runs.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

#include <cstring>
#include <type_traits>

namespace fastscan::detail {

template <scan_kind Kind, class V, class K, int Vector, int Rounds, class Pred, class Op>
struct by_key_rows_source {
  static_assert(Vector * sizeof(V) == 16 && (Vector * sizeof(K) == 16 || Vector * sizeof(K) == 8),
                "rows are a 16-byte vector of values and an 8- or 16-byte vector of keys");
  static constexpr int run_items = Rounds * Vector;

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
    using key_word = chunk_word<K, Vector>;  // the row's keys: 8 or 16 bytes
    const key_word key_bits = reinterpret_cast<const key_word*>(keys + first)[0];
    std::memcpy(key, &key_bits, sizeof(key));
    return heads_of(first, keys[first - 1], key, row);
  }

  // Lane's run into `run`; returns its heads, bit j for element j. All 32 lanes call it.
  __device__ __forceinline__ unsigned load_run(int lane, V (&run)[run_items]) const {
    static_assert(run_items * sizeof(K) % 16 == 0, "a run's keys are whole 16-byte vectors");
    const int first = lane * run_items;
    load_rotated_run(values + first, lane, run);
    K key[run_items];
    load_rotated_run(keys + first, lane, key);
    // The key before the run: the previous lane's last (lane 0 reads the one before the segment).
    K previous = shuffle_any<shuffle_from::lower_lane>(key[run_items - 1], 1);
    if (lane == 0) previous = keys[-1];
    return heads_of(first, previous, key, run);
  }

 private:
  // Heads of the N elements from `first` whose keys are `key` and whose key before is `previous`; an
  // exclusive scan's heads take the init.
  template <int N>
  __device__ __forceinline__ unsigned heads_of(int first, K previous, K const (&key)[N], V (&items)[N]) const {
    unsigned heads = 0;
#pragma unroll
    for (int j = 0; j < N; ++j) {
      // The scan's first element has no key before it (what lies there is not compared).
      const bool head = (starts_scan && first + j == 0) || !pred(previous, key[j]);
      previous = key[j];
      if (Kind == scan_kind::exclusive && head) items[j] = static_cast<V>(op(init, items[j]));
      heads |= static_cast<unsigned>(head) << j;
    }
    return heads;
  }
};

}  // namespace fastscan::detail
