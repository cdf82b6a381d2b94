#pragma once
// One tuning struct per algorithm. Each names its block algorithm and its multi-block strategy;
// the tile size is always derived (threads * items per thread), never set on its own.
// Items per thread shrink with the element size so a tile stays about the same number of bytes.
// `vector` is how many consecutive elements a thread holds together (a 16-byte vector where the
// element size allows, see tile_io.cuh); the block scans take their items in that arrangement.
// `lookback_tiles_per_lane`: the single-pass look-back reads 32 times this many tiles per round.
// `min_blocks_per_sm`: resident blocks the single-pass and reduce-then-scan tile kernels are compiled
// for (a register budget), since the single-pass driver hides one block's look-back behind the others'
// loads. Eight 128-thread blocks (64 registers) won for scans, scans by key (even with a few dozen
// bytes of spills there: 7-11% faster than five blocks at 96 registers) and the deterministic passes;
// the deterministic scan by key's kernels keep no budget (5, 6 and 8 blocks measured slower: their
// spills grow to hundreds of bytes). bench/PERFORMANCE.md.
// `block_scan_for<T, Threads, Items, Vector>`: the algorithm's block scan of another shape: one value of
// selection counts per thread for stream compaction (select_tuning at the end) and the radix sort's
// digit counts, (count, value) pairs for reduce_by_key;
// `count_scan_any_warps`: whether it takes any multiple of 32 threads (Blelloch's tree needs a power
// of two).

#include <fastscan/detail/block/block_scan_blelloch.cuh>
#include <fastscan/detail/block/block_scan_hillis_steele.cuh>
#include <fastscan/detail/block/block_scan_matrix.cuh>
#include <fastscan/detail/block/block_segmented_scan_matrix.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>
#include <fastscan/detail/segmented.cuh>

#include <type_traits>

namespace fastscan::detail {

// How tiles are stitched together across the grid.
enum class multi_block {
  single_pass,          // decoupled look-back: one launch, each element read and written once (2n traffic)
  reduce_then_scan,     // reduce each tile, scan the totals recursively, scan each tile from its prefix (3n
                        // traffic); deterministic: the same combination order on every run
  scan_then_propagate,  // scan each tile, scan the totals recursively, add each prefix to its tile (4n traffic)
};

// How scans by key run.
enum class segmented_strategy {
  pair_scan,               // the algorithm's own driver over (head, value) pairs with the segmented operator
  segmented_block_kernel,  // the matrix paper's segmented block scan (4.2, Fig. 5): in one pass with the
                           // single-pass driver; with reduce-then-scan, the paper's own driver (4.2.2): one
                           // pass recording (r_b, f_b, s_b) per tile, the records scanned, each tile's first
                           // s_b elements fixed up
};

// Elements a thread holds together: a 16-byte vector where it divides the thread's items, else 1.
template <class T, int ItemsPerThread>
constexpr int vector_for() {
  constexpr int vector = elements_per_vector<T>();
  return ItemsPerThread % vector == 0 ? vector : 1;
}

// Items per thread for element type T: `nominal` for 4-byte types, fewer for wider types, rounded
// down to a power of two so the tile is one too.
template <class T>
constexpr int scaled_items_per_thread(int nominal) {
  int items = nominal * 4 / static_cast<int>(sizeof(T));
  if (items > nominal) items = nominal;
  if (items < 1) items = 1;
  int power = 1;
  while (power * 2 <= items) power *= 2;
  return power;
}

// Threads per block for element type T: `nominal`, halved (down to one warp) while a tile would take
// more bytes than `tile_bytes`, the algorithm's nominal tile of 4-byte elements. Items per thread
// shrink with the element first; once they are down to one, large elements shrink the block, so its
// shared memory stays that of the nominal tile up to a few hundred bytes an element (beyond that,
// kernels/block_storage.cuh places a block's storage elsewhere).
template <class T>
constexpr int scaled_threads(int nominal, int items_per_thread, long long tile_bytes) {
  int threads = nominal;
  while (threads > 32 && static_cast<long long>(threads) * items_per_thread * static_cast<long long>(sizeof(T)) > tile_bytes)
    threads /= 2;
  return threads;
}

// Matrix row length W (items per thread): 128 bytes a thread (32 four-byte or 16 eight-byte elements:
// the best of the block shapes measured on an H100, bench/PERFORMANCE.md), at least one element and at
// most 32 (a row's head flags fill one word), whole 16-byte vectors where the element allows them.
template <class T, int ThreadBytes = 128>
constexpr int matrix_items_per_thread() {
  int items = ThreadBytes / static_cast<int>(sizeof(T));
  items = items < 1 ? 1 : items > 32 ? 32 : items;
  const int vector = elements_per_vector<T>();
  return items >= vector ? items / vector * vector : items;
}

// The matrix scan of Dotsenko et al. Defaults: H = 128 rows of W = 32 four-byte elements (tile 4096),
// rows padded to an odd length, column scanned by one warp, single pass with look-back windows of 32
// tiles. The template parameters are the paper's ablations, the multi-block strategy (reduce_then_scan:
// the deterministic flavour), and the block shape and look-back width for tuning experiments.
template <bool PadRows = true, column_scan Column = column_scan::warp_matrix,
          multi_block Strategy = multi_block::single_pass, int Threads = 128, int ThreadBytes = 128,
          int LookbackTilesPerLane = 1>
struct matrix_algorithm {
  static constexpr const char* name =
      Strategy == multi_block::reduce_then_scan ? "fastscan::matrix_deterministic" : "fastscan::matrix";

  template <class T>
  struct tuning {
    static constexpr int items_per_thread = matrix_items_per_thread<T, ThreadBytes>();
    static constexpr int threads = scaled_threads<T>(Threads, items_per_thread, Threads * ThreadBytes);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr int vector = vector_for<T, items_per_thread>();
    static constexpr int rows = threads;
    static constexpr int lookback_tiles_per_lane = LookbackTilesPerLane;
    static constexpr int min_blocks_per_sm = sizeof(T) <= 8 ? 1024 / threads : 1;
    static constexpr multi_block strategy = Strategy;
    static constexpr segmented_strategy segmented = segmented_strategy::segmented_block_kernel;
    using block_scan = block_scan_matrix<T, threads, items_per_thread, rows, PadRows, Column, vector>;
    using block_segmented_scan =
        block_segmented_scan_matrix<T, threads, items_per_thread, rows, PadRows, Column, vector>;
  };

  // This algorithm's block scan of any other shape: over the packed counts of stream compaction and
  // the radix sort (one per thread), and over reduce_by_key's (count, value) pairs.
  template <class T, int Threads_, int Items = 1, int Vector = 1>
  using block_scan_for = block_scan_matrix<T, Threads_, Items, Threads_, PadRows, Column, Vector>;
  static constexpr bool count_scan_any_warps = true;

  // Single-pass scans of at least large_scan_items 8-byte elements take larger blocks holding more per
  // thread: 224 threads x 192 bytes (24 elements; CUB's sm90 shape for 8-byte types), measured 3-4%
  // faster from 2^26 elements on, equal at 2^24 and 7% slower at 2^20-2^22 (bench/PERFORMANCE.md).
  static constexpr offset_t large_scan_items = offset_t{1} << 25;
  template <class T>
  static constexpr bool has_large_tuning =
      sizeof(T) == 8 && Strategy == multi_block::single_pass && Threads == 128 && ThreadBytes == 128;
  template <class T>
  using large_tuning = typename matrix_algorithm<PadRows, Column, Strategy, 224, 192, LookbackTilesPerLane>::template tuning<T>;
};

// Blelloch's tree as Harris et al. give it: 2048-element tiles of four-byte elements. Strategy:
// single pass, or scan-then-propagate (the deterministic flavour).
template <multi_block Strategy = multi_block::single_pass>
struct blelloch_algorithm {
  static constexpr const char* name =
      Strategy == multi_block::single_pass ? "fastscan::blelloch" : "fastscan::blelloch_deterministic";

  template <class T>
  struct tuning {
    static constexpr int items_per_thread = scaled_items_per_thread<T>(8);
    static constexpr int threads = scaled_threads<T>(256, items_per_thread, 256 * 8 * 4);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr int vector = 1;  // the conflict-free offsets assume plain striping
    static constexpr int lookback_tiles_per_lane = 1;
    static constexpr int min_blocks_per_sm = 2;
    static constexpr multi_block strategy = Strategy;
    static constexpr segmented_strategy segmented = segmented_strategy::pair_scan;
    using block_scan = block_scan_blelloch<T, threads, items_per_thread, true>;
  };
  template <class T, int Threads, int Items = 1, int Vector = 1>
  using block_scan_for = block_scan_blelloch<T, Threads, Items, true, Vector>;
  static constexpr bool count_scan_any_warps = false;
  template <class T>
  static constexpr bool has_large_tuning = false;
};

// Hillis-Steele: 1024-element tiles of four-byte elements (10 steps). Strategy as for Blelloch.
template <multi_block Strategy = multi_block::single_pass>
struct hillis_steele_algorithm {
  static constexpr const char* name =
      Strategy == multi_block::single_pass ? "fastscan::hillis_steele" : "fastscan::hillis_steele_deterministic";

  template <class T>
  struct tuning {
    static constexpr int items_per_thread = scaled_items_per_thread<T>(4);
    static constexpr int threads = scaled_threads<T>(256, items_per_thread, 256 * 4 * 4);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr int vector = 1;
    static constexpr int lookback_tiles_per_lane = 1;
    static constexpr int min_blocks_per_sm = 2;
    static constexpr multi_block strategy = Strategy;
    static constexpr segmented_strategy segmented = segmented_strategy::pair_scan;
    using block_scan = block_scan_hillis_steele<T, threads, items_per_thread>;
  };
  template <class T, int Threads, int Items = 1, int Vector = 1>
  using block_scan_for = block_scan_hillis_steele<T, Threads, Items, Vector>;
  static constexpr bool count_scan_any_warps = true;
  template <class T>
  static constexpr bool has_large_tuning = false;
};

// Stream compaction (agent_select.cuh) for every algorithm: the tile shape of the matrix scan's
// single pass (at most 32 items a thread: the selection flags are bits of one word); the algorithm
// contributes the block scan of the threads' packed selection counts.
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

// reduce_by_key (agent_reduce_by_key.cuh) for every algorithm: 128 threads of 32 four-byte values (fewer
// for wider values), four blocks per SM, keys and values as 16-byte vectors where they are as wide as
// each other; the algorithm's own block scan runs over one (heads, value) pair per vector (shapes
// measured: bench/PERFORMANCE.md).
template <class Algorithm, class Key, class Value>
struct reduce_by_key_tuning {
  using pair_t = counted_segment<Value, unsigned>;
  static constexpr int items_per_thread = scaled_items_per_thread<Value>(32);
  static constexpr int threads = scaled_threads<pair_t>(128, items_per_thread, 128 * 32 * 8);
  static constexpr int tile_items = threads * items_per_thread;
  static constexpr int vector = sizeof(Key) == sizeof(Value) ? vector_for<Value, items_per_thread>() : 1;
  static constexpr int lookback_tiles_per_lane = 1;
  static constexpr int min_blocks_per_sm = 4;
  using block_scan = typename Algorithm::template block_scan_for<pair_t, threads, items_per_thread / vector>;
};

// Radix sort (agent_radix_sort_onesweep.cuh) for every algorithm: 8-bit digits, one digit per thread
// of the first 256, items per thread shrinking with the bytes a key and its value take (measured on an
// H100, bench/PERFORMANCE.md; a tile's keys and values sit in shared memory together, beyond 48 KiB as
// dynamic shared memory: kernels/block_storage.cuh). The algorithm contributes the block scan of the
// digit counts, in each tile and over the whole input (digit_scan).
// portion_items: the most items one launch of a pass sorts (its counts must stay below 2^30); a
// multiple of the tile.
template <class Algorithm, class Key, class Value>
struct radix_sort_tuning {
  static constexpr int item_bytes = static_cast<int>(sizeof(Key)) + (std::is_empty_v<Value> ? 0 : static_cast<int>(sizeof(Value)));
  // Pairs of keys and values of at most 8 bytes together (keys of at most 4) run 512 threads of 18
  // items, the digits on the first 256 (block_radix_rank.cuh): with keys and values exchanged together
  // (agent_radix_sort_onesweep.cuh) the larger tile pays, 4.6% faster than 512 x 12 at 2^28 and 10% over
  // few distinct keys (512 x 16 and 20, 384 x 22 and 26, 1024 x 12 measured; counting first and
  // two-word look-back reads slower). 64-bit integer keys alone run 384 threads of 14 at two blocks
  // per SM: 1.4-2.7% faster than 256 x 18 at three from 2^24 on, 5% at 2^20 (320 x 16, 448 x 12,
  // 512 x 10 and 384 x 12 at two, 256 x 16 and 256 x 20 at three were not); double keys ran 1-3% slower that way and 4-byte keys alone slower with more threads
  // (bench/PERFORMANCE.md). Blelloch's digit scan needs a power-of-two block: its keys stay at 256 x 18.
  // Pairs of more than 8 bytes (8-byte keys or values) run 256 x 28: 10-18% faster at 2^28 than 256 x 12
  // once keys and values were exchanged together (256 x 24, 384 x 16, 20 and 24 measured).
  static constexpr bool small_pairs = !std::is_empty_v<Value> && item_bytes > 4 && item_bytes <= 8 && sizeof(Key) <= 4;
  static constexpr bool wide_keys_alone =
      std::is_empty_v<Value> && std::is_integral_v<Key> && sizeof(Key) == 8 && Algorithm::count_scan_any_warps;
  static constexpr int threads = small_pairs ? 2 * radix_digits : wide_keys_alone ? 384 : radix_digits;
  static constexpr int items_per_thread =
      small_pairs ? 18 : wide_keys_alone ? 14 : item_bytes <= 4 ? 32 : item_bytes <= 8 ? 18 : 28;
  static constexpr int tile_items = threads * items_per_thread;
  // Keys alone in 256-thread blocks fit three blocks per SM (80 registers, a few spilled): 6-12% faster
  // at 2^24-2^28 for 4-byte integers, 9-11% for floats at 2^28. Pairs (the values' registers) spill more
  // and ran slower at three.
  static constexpr int min_blocks_per_sm = std::is_empty_v<Value> && !wide_keys_alone ? 3 : 2;
  // Floating-point and 8-byte keys alone count their digits first and vote after (block_radix_rank.cuh):
  // float 2^24 8% faster, 2^28 3%, 64-bit keys 1-2.5%. 4-byte integer keys spilled more that way (5-22%
  // slower), pairs gained nothing (bench/PERFORMANCE.md).
  static constexpr bool counts_first = std::is_empty_v<Value> && (std::is_floating_point_v<Key> || sizeof(Key) == 8);
  // The per-digit look-back reads this many predecessors' words at a time (agent_radix_sort_onesweep.cuh):
  // keys alone 2 (with the exchange before the look-back, 2^28 uint32 and float 6-7% faster than one
  // word a round after it, uint64 3%; 4 and 8 gained less); pairs 1 (2, 4 and 8 were 3-6% slower: their
  // pass is bound by L2 traffic, and a batch reads past the inclusive word). bench/PERFORMANCE.md.
  static constexpr int lookback_batch = std::is_empty_v<Value> ? 2 : 1;
  static constexpr int histogram_threads = 256;
  static constexpr int histogram_items_per_thread = sizeof(Key) <= 4 ? 16 : 8;
  static constexpr offset_t portion_items = ((offset_t{1} << 29) / tile_items) * tile_items;
  template <class Count>
  using digit_scan = typename Algorithm::template block_scan_for<Count, threads>;
};

}  // namespace fastscan::detail
