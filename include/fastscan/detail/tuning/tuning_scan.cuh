#pragma once
// The scans' tuning: one description per block algorithm. Each gives
//   name                          the policy's spelling, for messages;
//   tuning<T>                     the scan's shape for element type T: threads, items_per_thread, vector
//                                 (consecutive elements a thread holds together, tile_io.cuh),
//                                 lookback_tiles_per_lane (the look-back reads 32 times this many tiles a
//                                 round), min_blocks_per_sm (the register budget the tile kernels are
//                                 compiled for), strategy, segmented, block_scan;
//   block_scan_for<T, Threads, Items, Vector>
//                                 its block scan of another shape, which the other families borrow
//                                 (stream compaction's counts, reduce_by_key's pairs, the sort's digits);
//   block_scan_takes(threads)     whether that block scan takes a block of `threads` threads;
//   has_large_tuning<T>, large_tuning<T>, large_scan_items
//                                 a second shape for large single-pass scans, where one was measured faster;
//   by_key_tuning<T>              the shape of a scan by key of values of type T (tuning<T> unless a
//                                 shape of its own was measured faster).
// by_key_min_blocks_per_sm<Tuning, Key, Value>() is the register budget of a scan by key's tile kernel.
// Measurements behind each shape: bench/PERFORMANCE.md, "Tuning choices".

#include <fastscan/detail/block/block_scan_blelloch.cuh>
#include <fastscan/detail/block/block_scan_hillis_steele.cuh>
#include <fastscan/detail/block/block_scan_matrix.cuh>
#include <fastscan/detail/block/block_segmented_scan_matrix.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

#include <type_traits>

namespace fastscan::detail {

// The pipelined single pass's shape (agent_pipelined_scan.cuh) for element type T: Stages stages of
// StageBytes (one tile each), ScanWarps warps scanning a segment of the tile each (rows of one 16-byte
// vector, Rounds rounds of 32 rows), ReduceWarps warps publishing the tiles' aggregates, one warp drawing
// and copying tiles, one looking back; per-tile metadata in a ring of twice as many slots as stages.
// Strategy: single_pass, or single_pass_deterministic (each tile's prefix a fixed formula of the tiles'
// aggregates: deterministic_lookback.cuh). BlocksPerSm persistent blocks an SM, each with its own rings;
// Memory: the devices it is taken on (tuning_common.cuh); FastMemoryL2Eighths: on devices of the fast
// memory class, the share of the L2 (in eighths) past which a call takes the pass (takes, below).
// CarryLag: how many tiles a scan warp may leave parked in their stages, scanned up to their carries,
// before it waits for the oldest one's carry (inclusive scans whose Tiles park; 0: it waits for each
// tile's carry before it takes the next).
template <class T, int StageBytes, int Stages, int ScanWarps, int ReduceWarps,
          multi_block Strategy = multi_block::single_pass, int BlocksPerSm = 1, memory_class Memory = memory_class::any,
          int FastMemoryL2Eighths = 4, int CarryLag = 0>
struct pipelined_scan_tuning {
  static constexpr multi_block strategy = Strategy;
  static constexpr int blocks_per_sm = BlocksPerSm;
  static constexpr int vector = 16 / static_cast<int>(sizeof(T));
  static constexpr int stage_bytes = StageBytes;
  static constexpr int stages = Stages;
  static constexpr int scan_warps = ScanWarps;
  static constexpr int reduce_warps = ReduceWarps;
  static constexpr int rounds = StageBytes / (ScanWarps * 32 * 16);
  static constexpr int segment_items = rounds * 32 * vector;
  static constexpr int tile_items = scan_warps * segment_items;
  static constexpr int threads = 32 * (2 + reduce_warps + scan_warps);
  static constexpr int metadata_slots = 2 * stages;
  static constexpr int carry_lag = CarryLag;
  // The deterministic look-back's groups folded from tile aggregates (deterministic_lookback.cuh): two,
  // as this pass has more tiles in flight than the one-tile-a-block pass, whose look-back folds one
  // (bench/PERFORMANCE.md).
  static constexpr int deterministic_folded_groups = 2;
  static_assert(rounds * ScanWarps * 32 * 16 == StageBytes && ScanWarps % ReduceWarps == 0, "a tile splits evenly");
  static_assert(CarryLag < Stages, "a parked tile's stage is freed before its scan warps wait for a later stage");

  // Calls whose input exceeds the device's L2: a safe threshold rather than the crossover. On data
  // from DRAM the pipelined pass is ahead from 8-16 MiB, but inputs the previous call left in the L2
  // can run faster on the one-tile-a-block pass (16 and 32 MiB on the H100). On devices of the fast
  // memory class, whose tiles take the least memory time, the pass is level or ahead whether the input
  // is in the L2 or not from half the L2 for plain scans and compaction, and from five eighths for
  // scans by key (bench/PERFORMANCE.md). The deterministic pass's threshold is the same on every device
  // (the L2 of the GPUs it was measured on), so that its tiling, and with it its bits, depend on n alone.
  static bool takes(std::size_t input_bytes, device_facts const& device) {
    if constexpr (Strategy == multi_block::single_pass_deterministic) {
      return input_bytes > deterministic_min_bytes;
    } else {
      if (has_memory_class(device, memory_class::fast)) return input_bytes > device.l2_bytes / 8 * FastMemoryL2Eighths;
      return input_bytes > device.l2_bytes;
    }
  }
  static constexpr std::size_t deterministic_min_bytes = std::size_t{50} << 20;
  // Whether the tuning is the one for this device (its memory class), whatever the call.
  static bool suits(device_facts const& device) { return has_memory_class(device, Memory); }
};

// The matrix scan of Dotsenko et al. Defaults: H = 128 rows of W = 32 four-byte elements (128 bytes a
// thread, 16 for 8-byte elements), rows padded to an odd length, column scanned by one warp, single
// pass. The template parameters are the paper's ablations, the multi-block strategy (single-pass
// deterministic; reduce_then_scan: the paper's own multi-pass driver), the block shape and look-back
// width for tuning experiments, and the blocks an SM of single-pass tiles staged in shared memory (0:
// tiles in registers).
template <bool PadRows = true, column_scan Column = column_scan::warp_matrix,
          multi_block Strategy = multi_block::single_pass, int Threads = 128, int ThreadBytes = 128,
          int LookbackTilesPerLane = 1, int StagedBlocksPerSm = 0>
struct matrix_algorithm {
  static constexpr const char* name = Strategy == multi_block::single_pass               ? "fastscan::matrix"
                                      : Strategy == multi_block::single_pass_deterministic ? "fastscan::matrix_deterministic"
                                      : Strategy == multi_block::reduce_then_scan          ? "fastscan::matrix_multi_pass"
                                                                                           : "fastscan::matrix_scan_then_propagate";

  template <class T>
  struct tuning {
    static constexpr int items_per_thread = matrix_items_per_thread<T, ThreadBytes>();
    static constexpr int threads = scaled_threads<T>(Threads, items_per_thread, Threads * ThreadBytes);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr int vector = vector_for<T, items_per_thread>();
    static constexpr int rows = threads;
    static constexpr int lookback_tiles_per_lane = LookbackTilesPerLane;
    using block_scan = block_scan_matrix<T, threads, items_per_thread, rows, PadRows, Column, vector>;
    // Single-pass tiles staged in shared memory (agent_staged_single_pass_scan), StagedBlocksPerSm
    // blocks an SM, where the block scan takes a staged tile of 16-byte vectors.
    static constexpr bool staged = StagedBlocksPerSm > 0 && is_single_pass(Strategy) && block_scan::stages_vectors &&
                                   vector * sizeof(T) == 16;
    static constexpr int min_blocks_per_sm =
        staged ? StagedBlocksPerSm : sizeof(T) <= 8 ? 1024 / threads : 1;  // eight 128-thread blocks
    static constexpr multi_block strategy = Strategy;
    static constexpr segmented_strategy segmented = segmented_strategy::segmented_block_kernel;
    using block_segmented_scan =
        block_segmented_scan_matrix<T, threads, items_per_thread, rows, PadRows, Column, vector>;
  };

  template <class T, int Threads_, int Items = 1, int Vector = 1>
  using block_scan_for = block_scan_matrix<T, Threads_, Items, Threads_, PadRows, Column, Vector>;
  static constexpr bool block_scan_takes(int threads) { return threads % 32 == 0; }
  // The one algorithm type whose block_scan_for and block_scan_takes are this one's, whatever the
  // driver and tile: kernels that take only those (radix sort, compaction) are compiled once for every
  // policy of the family.
  using block_scans = matrix_algorithm<PadRows, Column>;

  // Single-pass scans of at least 2^25 elements: 8-byte ones 224 threads x 192 bytes (CUB's sm90 shape
  // for 8-byte types); 4-byte ones the same 128 x 128-byte tile staged in shared memory, eleven blocks
  // an SM (the tile out of the registers lets more blocks and so more loads be resident), where the
  // tile moves as 16-byte vectors (dispatch_single_pass.cuh). Both faster there and slower below.
  static constexpr offset_t large_scan_items = offset_t{1} << 25;
  template <class T>
  static constexpr bool has_large_tuning = (sizeof(T) == 8 || sizeof(T) == 4) && is_single_pass(Strategy) &&
                                           Threads == 128 && ThreadBytes == 128 && StagedBlocksPerSm == 0;
  template <class T>
  using large_tuning = typename std::conditional_t<
      sizeof(T) == 8, matrix_algorithm<PadRows, Column, Strategy, 224, 192, LookbackTilesPerLane>,
      matrix_algorithm<PadRows, Column, Strategy, 128, 128, LookbackTilesPerLane, 11>>::template tuning<T>;

  // Single-pass scans (plain and deterministic) of 4- and 8-byte arithmetic types of large inputs (past
  // the L2, or half of it where the memory is fast), on sm_90 and later: the pipelined single pass
  // (agent_pipelined_scan.cuh), 32 KiB tiles in seven stages, eight scan and four reduce warps; which
  // calls it takes on a device: pipelined_scan_tuning::takes.
  template <class T>
  static constexpr bool has_pipelined_tuning = is_single_pass(Strategy) && std::is_arithmetic_v<T> &&
                                               (sizeof(T) == 4 || sizeof(T) == 8) && PadRows &&
                                               Column == column_scan::warp_matrix && Threads == 128 &&
                                               ThreadBytes == 128 && LookbackTilesPerLane == 1 && StagedBlocksPerSm == 0;
  template <class T>
  using pipelined_tuning = pipelined_scan_tuning<T, 32768, 7, 8, 4, Strategy>;

  // Single-pass scans by key of 8-byte arithmetic values with 4- or 8-byte arithmetic keys (K not void)
  // of large inputs (past the L2, or five eighths of it where the memory is fast), on sm_90 and later:
  // the same pass over values with heads beside them, 16 KiB of values a tile with their keys, in eight
  // stages (4-byte keys) or six. Larger or smaller tiles measured slower on both GPUs. With 4-byte keys
  // on devices of the fast memory class, where one block's tile hand-offs rather than the memory set the
  // rate: two blocks an SM of four stages each, whose inclusive scans' scan warps park up to two tiles
  // before they wait for a carry (8-byte keys, at the memory's limit already, measured faster with one
  // block; the other class keeps the shape measured on it).
  template <class K, class V>
  static constexpr bool has_pipelined_by_key_tuning = has_pipelined_tuning<V> && Strategy == multi_block::single_pass &&
                                                      sizeof(V) == 8 && std::is_arithmetic_v<K> &&
                                                      (sizeof(K) == 8 || sizeof(K) == 4);
  template <class K, class V>
  using pipelined_by_key_tuning =
      pipelined_scan_tuning<V, 16384, sizeof(K) == 4 ? 8 : 6, 8, 4, multi_block::single_pass, 1, memory_class::any, 5>;
  template <class K, class V>
  static constexpr bool has_pipelined_by_key_fast_memory_tuning = has_pipelined_by_key_tuning<K, V> && sizeof(K) == 4;
  template <class K, class V>
  using pipelined_by_key_fast_memory_tuning =
      pipelined_scan_tuning<V, 16384, 4, 8, 4, multi_block::single_pass, 2, memory_class::fast, 5, 2>;

  // Single-pass scans by key of 8-byte values: 96 threads x 96 bytes (12 values a thread); the keys'
  // registers and the smaller tile's lower latency outweigh its extra look-backs.
  template <class T>
  using by_key_tuning = std::conditional_t<
      sizeof(T) == 8 && is_single_pass(Strategy) && Threads == 128 && ThreadBytes == 128,
      typename matrix_algorithm<PadRows, Column, Strategy, 96, 96, LookbackTilesPerLane>::template tuning<T>, tuning<T>>;
};

// A block algorithm over plainly striped items (no vectors in its tiles): BlockScan<T, threads, items,
// vector> on `NominalItems` four-byte items a thread in `NominalThreads` threads (fewer for wider
// types), two blocks per SM, scans by key over (head, value) pairs; single pass (plain or deterministic),
// or scan-then-propagate (the multi-pass flavour). Names: the policies' spellings (single pass,
// deterministic, multi-pass).
template <template <class, int, int, int> class BlockScan, int NominalThreads, int NominalItems,
          bool PowerOfTwoThreads, auto const& Names, multi_block Strategy>
struct striped_algorithm {
  static constexpr const char* name = Names[Strategy == multi_block::single_pass                 ? 0
                                            : Strategy == multi_block::single_pass_deterministic ? 1
                                                                                                 : 2];

  template <class T>
  struct tuning {
    static constexpr int items_per_thread = scaled_items_per_thread<T>(NominalItems);
    static constexpr int threads =
        scaled_threads<T>(NominalThreads, items_per_thread, NominalThreads * NominalItems * 4);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr int vector = 1;  // Blelloch's conflict-free offsets assume plain striping
    static constexpr int lookback_tiles_per_lane = 1;
    static constexpr int min_blocks_per_sm = 2;
    static constexpr bool staged = false;
    static constexpr multi_block strategy = Strategy;
    static constexpr segmented_strategy segmented = segmented_strategy::pair_scan;
    using block_scan = BlockScan<T, threads, items_per_thread, 1>;
  };
  template <class T, int Threads, int Items = 1, int Vector = 1>
  using block_scan_for = BlockScan<T, Threads, Items, Vector>;
  static constexpr bool block_scan_takes(int threads) {
    return threads % 32 == 0 && (!PowerOfTwoThreads || (threads & (threads - 1)) == 0);
  }
  using block_scans = striped_algorithm<BlockScan, NominalThreads, NominalItems, PowerOfTwoThreads, Names,
                                        multi_block::single_pass>;
  template <class T>
  static constexpr bool has_large_tuning = false;
  template <class T>
  static constexpr bool has_pipelined_tuning = false;
  template <class T>
  using by_key_tuning = tuning<T>;
};

// Blelloch's tree as Harris et al. give it, with their conflict-free offsets: 2048-element tiles of
// four-byte elements; its tree needs a power-of-two block.
template <class T, int Threads, int Items, int Vector>
using conflict_free_blelloch = block_scan_blelloch<T, Threads, Items, true, Vector>;
inline constexpr const char* blelloch_names[] = {"fastscan::blelloch", "fastscan::blelloch_deterministic",
                                                  "fastscan::blelloch_multi_pass"};
template <multi_block Strategy = multi_block::single_pass>
using blelloch_algorithm = striped_algorithm<conflict_free_blelloch, 256, 8, true, blelloch_names, Strategy>;

// Hillis-Steele: 1024-element tiles of four-byte elements (10 steps).
inline constexpr const char* hillis_steele_names[] = {"fastscan::hillis_steele", "fastscan::hillis_steele_deterministic",
                                                       "fastscan::hillis_steele_multi_pass"};
template <multi_block Strategy = multi_block::single_pass>
using hillis_steele_algorithm = striped_algorithm<block_scan_hillis_steele, 256, 4, false, hillis_steele_names, Strategy>;

// Each block algorithm's three drivers, as the policies name them (execution_policy.cuh).
template <template <multi_block> class Algorithm, multi_block MultiPass>
struct drivers_of {
  using single_pass = Algorithm<multi_block::single_pass>;
  using deterministic = Algorithm<multi_block::single_pass_deterministic>;
  using multi_pass = Algorithm<MultiPass>;
};
template <multi_block Strategy>
using matrix_with = matrix_algorithm<true, column_scan::warp_matrix, Strategy>;
// The blocks per SM a single-pass scan by key's tile kernel is compiled for: the values' tuning's, but
// three quarters of it where the keys (Key: void for keys from a fancy iterator) are wider than the
// values, whose registers the tuning did not count.
template <class Tuning, class Key, class Value>
constexpr int by_key_min_blocks_per_sm() {
  if constexpr (!std::is_void_v<Key>) {
    if (sizeof(Key) > sizeof(Value)) return Tuning::min_blocks_per_sm * 3 / 4 > 0 ? Tuning::min_blocks_per_sm * 3 / 4 : 1;
  }
  return Tuning::min_blocks_per_sm;
}

using matrix_drivers = drivers_of<matrix_with, multi_block::reduce_then_scan>;
using blelloch_drivers = drivers_of<blelloch_algorithm, multi_block::scan_then_propagate>;
using hillis_steele_drivers = drivers_of<hillis_steele_algorithm, multi_block::scan_then_propagate>;

}  // namespace fastscan::detail
