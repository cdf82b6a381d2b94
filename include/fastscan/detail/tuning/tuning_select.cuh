#pragma once
// Stream compaction's tuning (agent_select.cuh), for every block algorithm: the matrix scan's
// single-pass tile shape (at most 32 items a thread: the selection flags are bits of one word), pairs
// of two arrays in chunks of their wider component; the algorithm contributes the block scan of the
// threads' packed selection counts, the same for every policy of an algorithm family (select_tuning
// below: Algorithm::block_scans).

#include <fastscan/detail/tuning/tuning_common.cuh>
#include <fastscan/detail/tuning/tuning_scan.cuh>

#include <cuda/std/tuple>

namespace fastscan::detail {

// A tuple of two (unique_by_key's (key, value) items) moves a chunk of each component where its arrays
// allow (tile_io.cuh: zip_of_two); `widest` is its wider component's size.
template <class T>
struct pair_item {
  static constexpr bool value = false;
};
template <class A, class B>
struct pair_item<::cuda::std::tuple<A, B>> {
  static constexpr bool value = true;
  using first = A;
  using second = B;
  static constexpr int widest = sizeof(A) > sizeof(B) ? static_cast<int>(sizeof(A)) : static_cast<int>(sizeof(B));
};

// Elements a thread holds together: vector_for's 16-byte vectors; a pair too wide for one (16 bytes or
// more) takes 16 bytes of its wider component, where that divides the thread's items.
template <class T, int ItemsPerThread>
constexpr int select_vector() {
  if constexpr (pair_item<T>::value) {
    if (vector_for<T, ItemsPerThread>() == 1 && pair_item<T>::widest <= 8 && ItemsPerThread % (16 / pair_item<T>::widest) == 0)
      return 16 / pair_item<T>::widest;
  }
  return vector_for<T, ItemsPerThread>();
}

template <class BlockScans, class T>
struct select_shape {
  // 16-byte pairs: 16 items a thread at six blocks an SM (a larger tile for the same look-back).
  static constexpr bool wide_pair = pair_item<T>::value && sizeof(T) == 16;
  // 8-byte elements (not pairs): 256 threads of 16 at four blocks an SM, the same items in flight as
  // 128 threads at eight, in half as many tiles (half the look-backs).
  static constexpr bool wide_element = !pair_item<T>::value && sizeof(T) == 8;
  static constexpr int threads = wide_element ? 256 : 128;
  static constexpr int items_per_thread = wide_pair ? matrix_items_per_thread<T, 256>() : matrix_items_per_thread<T>();
  static constexpr int tile_items = threads * items_per_thread;
  static constexpr int vector = select_vector<T, items_per_thread>();
  static constexpr int lookback_tiles_per_lane = 1;
  // unique_by_key's two-step read (agent_select.cuh) prefetches a tile's second components where the
  // `density_window` tiles ending `density_lag` tiles before its launch-order guess kept more than half
  // their items (tiles that far back have published their prefixes while this many are in flight).
  static constexpr int density_lag = 1024;
  static constexpr int density_window = 8;
  // 1024 threads an SM for elements of up to 8 bytes and pairs of fewer than 16, six blocks for 16-byte
  // pairs.
  static constexpr int min_blocks_per_sm = sizeof(T) <= 8 || (pair_item<T>::value && sizeof(T) < 16) ? 1024 / threads
                                           : wide_pair                                                ? 6
                                                                                                      : 1;
  template <class Counts>
  using count_scan = typename BlockScans::template block_scan_for<Counts, threads>;

  // 4-byte arithmetic items selected by a predicate of the item, from 16-byte aligned memory, inputs past
  // half the L2, on sm_90 and later with fast memory, where the family's scans have the pipelined
  // single pass: that pass (pipelined_select_tiles), the flags counted in 32 bits (calls of fewer than
  // 2^31 items), 32 KiB tiles in six stages (the flag words take the seventh's room). The other memory
  // class (not measured) and 8-byte items keep the tile above (bench/PERFORMANCE.md).
  static constexpr bool has_pipelined = BlockScans::template has_pipelined_tuning<T> && sizeof(T) == 4;
  using pipelined_tuning = pipelined_scan_tuning<T, 32768, 6, 8, 4, multi_block::single_pass, 1, memory_class::fast>;
  using pipelined_count = int;
  static constexpr offset_t pipelined_max_items = offset_t{1} << 31;

  // unique_by_key's pairs of 4- or 8-byte arithmetic keys and 8-byte arithmetic values from 16-byte
  // aligned arrays into arrays apart from them, with the same rules: the pipelined pass over the keys'
  // run heads (pipelined_unique_by_key_tiles) in the scans by key's tile, 16 KiB of values with their
  // keys; two blocks an SM of four stages (4-byte keys; one block's tile hand-offs set the rate, as for
  // the scans by key), one block of six (8-byte keys).
  static constexpr bool has_pipelined_pairs() {
    if constexpr (pair_item<T>::value) {
      using key_t = typename pair_item<T>::first;
      using value_t = typename pair_item<T>::second;
      if constexpr (BlockScans::template has_pipelined_tuning<value_t>)
        return BlockScans::template has_pipelined_by_key_tuning<key_t, value_t>;
    }
    return false;
  }
  template <class K, class V>
  using pipelined_pairs_tuning =
      pipelined_scan_tuning<V, 16384, sizeof(K) == 4 ? 4 : 6, 8, 4, multi_block::single_pass, sizeof(K) == 4 ? 2 : 1,
                            memory_class::fast, 5>;
};

// An algorithm's compaction tuning: its family's shape, so that the single-pass, deterministic and
// multi-pass policies of one block algorithm share their compaction kernels (the counts are integers:
// every driver's answer is the same).
template <class Algorithm, class T>
using select_tuning = select_shape<typename Algorithm::block_scans, T>;

}  // namespace fastscan::detail
