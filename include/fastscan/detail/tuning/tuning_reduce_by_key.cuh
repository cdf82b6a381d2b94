#pragma once
// reduce_by_key's tuning (agent_reduce_by_key.cuh), for every block algorithm: 128 threads of 32
// four-byte values (fewer for wider values), five blocks per SM (the staged tile leaves a thread one
// chunk in registers), a thread's chunks 16 bytes of values and the same items' keys, whatever their
// width; the algorithm's block scan runs over one (heads, value) pair per chunk.

#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

namespace fastscan::detail {

template <class Algorithm, class Key, class Value>
struct reduce_by_key_tuning {
  using pair_t = counted_segment<Value, unsigned>;
  static constexpr int items_per_thread = scaled_items_per_thread<Value>(32);
  static constexpr int threads = scaled_threads<pair_t>(128, items_per_thread, 128 * 32 * 8);
  static constexpr int tile_items = threads * items_per_thread;
  static constexpr int vector = vector_for<Value, items_per_thread>();
  static constexpr int lookback_tiles_per_lane = 1;
  static constexpr int min_blocks_per_sm = 5;
  using block_scan = typename Algorithm::template block_scan_for<pair_t, threads, items_per_thread / vector>;
};

}  // namespace fastscan::detail
