#pragma once
// One thread block's work on one tile of a matrix scan by key (paper section 4.2.2). Elements arrive
// as (head, value) pairs from a by_key_element. A tile without heads lies inside one segment and takes
// the unsegmented block scan; others take the segmented one. Each tile records its total (r_b, f_b)
// and the length s_b of its first segment; the fix-up later re-scans only those s_b elements with the
// carry. The first pass leaves a later tile's first s_b outputs unwritten, so every output is written
// once and an in-place scan (values == result) still finds those inputs intact for the fix-up.

#include <fastscan/detail/agent/agent_scan.cuh>
#include <fastscan/detail/segmented.cuh>

namespace fastscan::detail {

template <class Tuning, class AccT>
struct agent_segmented_scan {
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  using pair_t = segmented_value<AccT>;
  using block_scan = typename Tuning::block_scan;
  using block_segmented_scan = typename Tuning::block_segmented_scan;
  using io = tile_io<threads, items_per_thread, Tuning::vector>;

  union temp_storage {
    typename block_scan::temp_storage plain;
    typename block_segmented_scan::temp_storage segmented;
  };

  // No carry into a tile in the first pass: tile 0 starts with a head, later tiles get theirs in the fix-up.
  struct no_carry {
    __device__ maybe<pair_t> operator()(pair_t const&) const { return none<pair_t>(); }
  };

  // Stores elements [skip, valid) of the tile (output: by_key_output, told each element's own head).
  template <bool FullTile, class OutputIt>
  __device__ static void store(OutputIt output, offset_t tile_base, int valid, int skip,
                               AccT (&values)[items_per_thread], unsigned heads) {
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const int element = io::element(k);
      if ((FullTile || element < valid) && element >= skip)
        output.write(tile_base + element, values[k], ((heads >> k) & 1u) != 0);
    }
  }

  // Returns the tile's total; *first_segment receives s_b (elements before the first head). `element`
  // gives element i as a (head, value) pair (by_key_element); positions past `valid` repeat the last.
  template <scan_kind Kind, bool FullTile, class Element, class OutputIt, class Op>
  __device__ static pair_t scan_tile(temp_storage& storage, Element const& element, OutputIt output,
                                     offset_t tile_base, int valid, Op op, int* first_segment) {
    AccT values[items_per_thread];
    const unsigned heads = load_by_key_elements<io, FullTile>(element, tile_base, valid, values);
    pair_t total;
    if (__syncthreads_or(heads != 0)) {
      block_segmented_scan segmented(storage.segmented);
      total = segmented.template scan<Kind>(values, heads, op, no_carry{});
      *first_segment = min(segmented.first_head(), valid);
    } else {
      // Wholly inside one segment: the faster unsegmented scan gives the same values.
      total = pair_t{block_scan(storage.plain).template scan<Kind>(values, op, known_prefix<AccT>{none<AccT>()}), false};
      *first_segment = valid;
    }
    // A later tile's first segment still lacks its carry: the fix-up writes it.
    store<FullTile>(output, tile_base, valid, tile_base > 0 ? *first_segment : 0, values, heads);
    return total;
  }

  // Re-scans the first `length` elements of a tile from the carry. They come before the tile's first
  // head, so their values are the user's values as they are: no keys to compare (an exclusive scan
  // folds its init in at heads only). Comparing them anyway cost the exclusive fix-up 1.7x the time.
  template <scan_kind Kind, class Element, class OutputIt, class Op>
  __device__ static void fix_first_segment(temp_storage& storage, Element const& element, OutputIt output,
                                           offset_t tile_base, int length, Op op, AccT carry) {
    AccT values[items_per_thread];
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      int e = io::element(k);
      if (e >= length) e = length - 1;
      values[k] = static_cast<AccT>(element.values[tile_base + e]);
    }
    const unsigned heads = 0;
    block_scan(storage.plain).template scan<Kind>(values, op, known_prefix<AccT>{some<AccT>(carry)});
    if (length == tile_items) store<true>(output, tile_base, length, 0, values, heads);
    else store<false>(output, tile_base, length, 0, values, heads);
  }
};

}  // namespace fastscan::detail
