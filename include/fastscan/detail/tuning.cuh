#pragma once
// One tuning struct per algorithm. Each names its block algorithm and its multi-block strategy;
// the tile size is always derived (threads * items per thread), never set on its own.
// Items per thread shrink with the element size so a tile stays about the same number of bytes.

#include <fastscan/detail/block/block_scan_blelloch.cuh>
#include <fastscan/detail/block/block_scan_hillis_steele.cuh>
#include <fastscan/detail/block/block_scan_matrix.cuh>
#include <fastscan/detail/block/block_segmented_scan_matrix.cuh>

namespace fastscan::detail {

// How tiles are stitched together across the grid.
enum class multi_block {
  reduce_then_scan,     // reduce each tile, scan the totals recursively, scan each tile from its prefix (3n traffic)
  scan_then_propagate,  // scan each tile, scan the totals recursively, add each prefix to its tile (4n traffic)
};

// How scans by key are stitched together.
enum class segmented_strategy {
  pair_scan,            // the unsegmented drivers over (head, value) pairs with the segmented operator
  first_segment_fixup,  // matrix paper 4.2.2: one segmented pass recording (r_b, f_b, s_b) per tile, the
                        // tile records scanned recursively, then only each tile's first s_b elements fixed
};

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

// The matrix scan of Dotsenko et al. Defaults: H = 256 rows of W = 16 four-byte elements, rows padded
// to 17, column scanned by one warp, reduce-then-scan. The template parameters are the paper's ablations.
template <bool PadRows = true, column_scan Column = column_scan::warp_matrix,
          multi_block Strategy = multi_block::reduce_then_scan>
struct matrix_algorithm {
  static constexpr const char* name = "fastscan::matrix";

  template <class T>
  struct tuning {
    static constexpr int threads = 256;
    static constexpr int items_per_thread = scaled_items_per_thread<T>(16);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr int rows = threads;
    static constexpr multi_block strategy = Strategy;
    static constexpr segmented_strategy segmented = segmented_strategy::first_segment_fixup;
    using block_scan = block_scan_matrix<T, threads, items_per_thread, rows, PadRows, Column>;
    using block_segmented_scan = block_segmented_scan_matrix<T, threads, items_per_thread, rows, PadRows, Column>;
  };
};

// Blelloch's tree as Harris et al. give it: 2048-element tiles of four-byte elements.
struct blelloch_algorithm {
  static constexpr const char* name = "fastscan::blelloch";

  template <class T>
  struct tuning {
    static constexpr int threads = 256;
    static constexpr int items_per_thread = scaled_items_per_thread<T>(8);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr multi_block strategy = multi_block::scan_then_propagate;
    static constexpr segmented_strategy segmented = segmented_strategy::pair_scan;
    using block_scan = block_scan_blelloch<T, threads, items_per_thread, true>;
  };
};

// Hillis-Steele: 1024-element tiles of four-byte elements (10 steps).
struct hillis_steele_algorithm {
  static constexpr const char* name = "fastscan::hillis_steele";

  template <class T>
  struct tuning {
    static constexpr int threads = 256;
    static constexpr int items_per_thread = scaled_items_per_thread<T>(4);
    static constexpr int tile_items = threads * items_per_thread;
    static constexpr multi_block strategy = multi_block::scan_then_propagate;
    static constexpr segmented_strategy segmented = segmented_strategy::pair_scan;
    using block_scan = block_scan_hillis_steele<T, threads, items_per_thread>;
  };
};

}  // namespace fastscan::detail
