#pragma once
// Stream compaction's tuning (agent_select.cuh), for every block algorithm: the matrix scan's
// single-pass tile shape (at most 32 items a thread: the selection flags are bits of one word); the
// algorithm contributes the block scan of the threads' packed selection counts.

#include <fastscan/detail/tuning/tuning_common.cuh>

namespace fastscan::detail {

template <class Algorithm, class T>
struct select_tuning {
  static constexpr int threads = 128;
  static constexpr int items_per_thread = matrix_items_per_thread<T>();
  static constexpr int tile_items = threads * items_per_thread;
  static constexpr int vector = vector_for<T, items_per_thread>();
  static constexpr int lookback_tiles_per_lane = 1;
  static constexpr int min_blocks_per_sm = sizeof(T) <= 8 ? 1024 / threads : 1;
  template <class Counts>
  using count_scan = typename Algorithm::template block_scan_for<Counts, threads>;
};

}  // namespace fastscan::detail
