#pragma once
// reduce_by_key's tuning (agent_reduce_by_key.cuh), for every block algorithm: 128 threads of 32
// four-byte values (fewer for wider values), five blocks per SM (the staged tile leaves a thread one
// chunk in registers), a thread's chunks 16 bytes of values (32 of 8-byte values) and the same items'
// keys, whatever their width; the algorithm's block scan runs over one (heads, value) pair per chunk.
// Pairs of more than 8 bytes with values of up to 8 (8-byte keys or values) take 16 items a thread at
// six blocks an SM: more tiles in flight than five (or, with 8-byte keys, three) larger ones.

#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

namespace fastscan::detail {

// A thread's chunk: 16 bytes of values (vector_for's vectors), 32 for 8-byte values: their (count, value)
// pairs take 16 bytes each, and half as many of them leave the block storage small enough for six
// blocks an SM.
template <class Value, int ItemsPerThread>
constexpr int reduce_by_key_vector() {
  constexpr int vector = vector_for<Value, ItemsPerThread>();
  return sizeof(Value) == 8 && vector > 1 && ItemsPerThread % (2 * vector) == 0 ? 2 * vector : vector;
}

template <class Algorithm, class Key, class Value>
struct reduce_by_key_tuning {
  using pair_t = counted_segment<Value, unsigned>;
  static constexpr bool wide_pair = sizeof(Key) + sizeof(Value) > 8 && sizeof(Value) <= 8;
  static constexpr int items_per_thread =
      wide_pair && scaled_items_per_thread<Value>(32) > 16 ? 16 : scaled_items_per_thread<Value>(32);
  static constexpr int threads = scaled_threads<pair_t>(128, items_per_thread, 128 * 32 * 8);
  static constexpr int tile_items = threads * items_per_thread;
  static constexpr int vector = reduce_by_key_vector<Value, items_per_thread>();
  static constexpr int lookback_tiles_per_lane = 1;
  static constexpr int min_blocks_per_sm = wide_pair ? 6 : 5;
  // Where warp 0 waits for the carry: beside the rescan where the pair is wide (its scans outlast the
  // look-back), in the block scan otherwise (bench/PERFORMANCE.md, 2026-11-28).
  static constexpr bool carry_beside_rescan = wide_pair;
  using block_scan = typename Algorithm::template block_scan_for<pair_t, threads, items_per_thread / vector>;
};

}  // namespace fastscan::detail
