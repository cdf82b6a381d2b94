#pragma once
// Radix sort's tuning (agent_radix_sort_onesweep.cuh), for every block algorithm: 8-bit digits, one
// digit per thread of the first 256, items per thread by the bytes a key and its value take (a tile's
// keys and values sit in shared memory together, beyond 48 KiB as dynamic shared memory:
// kernels/block_storage.cuh). The algorithm contributes the block scan of the digit counts, in each
// tile and over the whole input (digit_scan); the tuning, and with it every sort kernel, is the same
// for every policy of an algorithm family (radix_sort_tuning below: Algorithm::block_scans).

#include <fastscan/detail/radix_key.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

#include <cstddef>
#include <type_traits>

namespace fastscan::detail {

template <class BlockScans, class Key, class Value, memory_class Memory>
struct radix_sort_shape {
  static constexpr int item_bytes =
      static_cast<int>(sizeof(Key)) + (std::is_empty_v<Value> ? 0 : static_cast<int>(sizeof(Value)));
  // Pairs of at most 8 bytes (keys of at most 4): 512 threads of 18, the digits on the first 256; on
  // devices of fast memory 16 a thread, reading two look-back words at a time.
  static constexpr bool small_pairs = !std::is_empty_v<Value> && item_bytes > 4 && item_bytes <= 8 && sizeof(Key) <= 4;
  // 12-byte pairs (4-byte keys with 8-byte values, 8-byte keys with 4-byte values): on devices of fast
  // memory 384 threads of 18 and of 16, where the algorithm's digit scan takes 384 threads (elsewhere, as
  // other pairs of more than 8 bytes, 256 of 28).
  static constexpr bool twelve_byte_pairs = !std::is_empty_v<Value> && item_bytes == 12 &&
                                            (sizeof(Key) == 4 || sizeof(Key) == 8) && BlockScans::block_scan_takes(384);
  // Whether the shape differs by memory class (dispatch_radix_sort.cuh tries the fast one first).
  static constexpr bool has_fast_memory_shape = small_pairs || twelve_byte_pairs;
  static constexpr bool fast_small_pairs = small_pairs && Memory == memory_class::fast;
  static constexpr bool fast_twelve_byte_pairs = twelve_byte_pairs && Memory == memory_class::fast;
  // 64-bit integer keys alone: 384 threads of 14, where the algorithm's digit scan takes 384 threads.
  static constexpr bool wide_keys_alone =
      std::is_empty_v<Value> && std::is_integral_v<Key> && sizeof(Key) == 8 && BlockScans::block_scan_takes(384);
  static constexpr int threads =
      small_pairs ? 2 * radix_digits : wide_keys_alone || fast_twelve_byte_pairs ? 384 : radix_digits;
  static constexpr int items_per_thread = fast_small_pairs ? 16
                                          : small_pairs    ? 18
                                          : wide_keys_alone ? 14
                                          : fast_twelve_byte_pairs ? (sizeof(Key) == 4 ? 18 : 16)
                                          : item_bytes <= 4 ? 32
                                          : item_bytes <= 8 ? 18
                                                            : 28;
  static constexpr int tile_items = threads * items_per_thread;
  // Keys alone fit three 256-thread blocks per SM; pairs and wide keys alone run two.
  static constexpr int min_blocks_per_sm = std::is_empty_v<Value> && !wide_keys_alone ? 3 : 2;
  // Floating-point and 8-byte keys alone count their digits first and vote after (block_radix_rank.cuh).
  static constexpr bool counts_first = std::is_empty_v<Value> && (std::is_floating_point_v<Key> || sizeof(Key) == 8);
  // Predecessors' look-back words read at a time (agent_radix_sort_onesweep.cuh): keys alone 2, pairs 1
  // (2 in the fast-memory shape of pairs of at most 8 bytes).
  static constexpr int lookback_batch = std::is_empty_v<Value> || fast_small_pairs ? 2 : 1;
  static constexpr int histogram_threads = 256;
  static constexpr int histogram_items_per_thread = sizeof(Key) <= 4 ? 16 : 8;
  // The most items one launch of a pass sorts (its counts must stay below 2^30); whole tiles.
  static constexpr offset_t portion_items = ((offset_t{1} << 29) / tile_items) * tile_items;
  static bool suits(device_facts const& device) { return has_memory_class(device, Memory); }
  template <class Count>
  using digit_scan = typename BlockScans::template block_scan_for<Count, threads>;
};

// The keys' fill (agent_radix_sort_fill.cuh) of keys alone: at most 1024 blocks, each reading the digits'
// starts once for many runs (bench/PERFORMANCE.md).
inline constexpr unsigned radix_fill_max_blocks = 1024;

// The single pass of 8-bit keys with values (agent_radix_sort_counted.cuh): 512 threads of 16 items for
// values of at most 4 bytes, 8 items for wider ones, so that a tile of random keys sends 128 bytes of
// each digit's values out as one run while its storage stays in static shared memory (dynamic shared
// memory is reached through generic addresses: kernels/block_storage.cuh). Three blocks an SM: a tile's
// phases (loads, ranking, stores) overlap only across blocks. The counting blocks cover 8 tiles each,
// so that a digit's counts of them fill one 32-byte sector, each thread loading 16 keys of each. The
// keys' fill copies the values back in the same launch (grids of at most 4096 blocks). Once the values
// take more than 8 times the L2, where the copy back runs at DRAM's rate, the pass writes what it safely
// can straight to the caller's buffer, a tile waiting for the tiles 128 before it to be consumed (nearly
// always long done: about 400 tiles run at once on an H200); below that the draw and the flags cost more
// than the copy they save (bench/PERFORMANCE.md).
template <class BlockScans, class Value>
struct radix_counted_shape {
  static constexpr int threads = 2 * radix_digits;
  static constexpr int items_per_thread = sizeof(Value) <= 4 ? 16 : 8;
  static constexpr int tile_items = threads * items_per_thread;
  static constexpr int min_blocks_per_sm = 3;
  static constexpr int count_threads = tile_items / 16;
  static constexpr int tiles_per_count_block = 8;
  static constexpr unsigned fill_with_copy_max_blocks = 4096;
  static constexpr std::size_t straight_writes_min_l2s = 8;
  static constexpr offset_t straight_lag = 128;
  template <class Count>
  using digit_scan = typename BlockScans::template block_scan_for<Count, threads>;
};

// An algorithm's radix sort tuning: its family's shape, so that the single-pass, deterministic and
// multi-pass policies of one block algorithm share their sort kernels.
template <class Algorithm, class Key, class Value, memory_class Memory = memory_class::any>
using radix_sort_tuning = radix_sort_shape<typename Algorithm::block_scans, Key, Value, Memory>;

template <class Algorithm, class Value>
using radix_counted_tuning = radix_counted_shape<typename Algorithm::block_scans, Value>;

}  // namespace fastscan::detail
