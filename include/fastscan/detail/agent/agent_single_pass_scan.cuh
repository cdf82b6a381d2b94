#pragma once
// One thread block's work in a single-pass scan: draw a tile number (launch order), load the tile,
// scan it with the block algorithm whose prefix callback is the decoupled look-back, store it. Every
// element is read once and written once (2n traffic). In-place calls are safe: a tile reads only its
// own input before writing its own output.
//
// agent_single_pass_scan serves every block algorithm and, over (head, value) pairs with the
// segmented operator, the scans by key of blelloch and hillis_steele. agent_single_pass_segmented_scan
// is the matrix scan by key: the paper's segmented block kernel (Fig. 5) for tiles holding a head, the
// plain block scan for tiles inside one segment, both behind the same look-back over pairs.

#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/segmented.cuh>

namespace fastscan::detail {

// The tile this block scans: drawn from the call's counter, or 0 when the grid has one block (and no state).
template <class AccT>
__device__ offset_t draw_tile(offset_t& shared_tile, tile_state<AccT> const& state) {
  if (gridDim.x == 1) return 0;
  if (threadIdx.x == 0) shared_tile = state.draw_tile();
  __syncthreads();
  return shared_tile;
}

template <class Tuning, class AccT>
struct agent_single_pass_scan {
  static constexpr int tile_items = Tuning::tile_items;
  using block_scan = typename Tuning::block_scan;
  using io = tile_io<Tuning::threads, Tuning::items_per_thread, Tuning::vector>;

  struct temp_storage {
    typename block_scan::temp_storage scan;
    offset_t tile;
  };

  template <scan_kind Kind, bool Vectorized, class InputIt, class OutputIt, class Op>
  __device__ static void consume_tile(temp_storage& storage, InputIt input, OutputIt output, offset_t n, Op op,
                                      maybe<AccT> init, tile_state<AccT> const& state) {
    const offset_t tile = draw_tile(storage.tile, state);
    const offset_t tile_base = tile * tile_items;
    const offset_t remaining = n - tile_base;
    const bool last = remaining <= tile_items;
    const single_pass_prefix<AccT, Op, Tuning::lookback_tiles_per_lane> prefix{state, tile, !last, op, init};
    AccT items[Tuning::items_per_thread];
    if (remaining >= tile_items) {
      if constexpr (Vectorized) io::load_vectors(input, tile_base, items);
      else io::template load<true>(input, tile_base, tile_items, items);
      block_scan(storage.scan).template scan<Kind>(items, op, prefix);
      if constexpr (Vectorized) io::store_vectors(output, tile_base, items);
      else io::template store<true>(output, tile_base, tile_items, items);
    } else {
      const int valid = static_cast<int>(remaining);
      io::template load<false>(input, tile_base, valid, items);
      block_scan(storage.scan).template scan<Kind>(items, op, prefix);
      io::template store<false>(output, tile_base, valid, items);
    }
  }
};

template <class Tuning, class AccT>
struct agent_single_pass_segmented_scan {
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  using pair_t = segmented_value<AccT>;
  using block_scan = typename Tuning::block_scan;
  using block_segmented_scan = typename Tuning::block_segmented_scan;
  using io = tile_io<Tuning::threads, items_per_thread, Tuning::vector>;

  struct temp_storage {
    union {
      typename block_scan::temp_storage plain;
      typename block_segmented_scan::temp_storage segmented;
    } scan;
    offset_t tile;
  };

  // The plain block scan's callback for a tile inside one segment: its aggregate as a head-free pair.
  template <class PairPrefix>
  struct value_prefix {
    PairPrefix const& pairs;
    __device__ maybe<AccT> operator()(AccT const& aggregate) const {
      const maybe<pair_t> carry = pairs(pair_t{aggregate, false});
      return maybe<AccT>{carry.value.value, carry.valid};
    }
  };

  // `input` yields (head, value) pairs; `output` takes them.
  template <scan_kind Kind, class InputIt, class OutputIt, class Op>
  __device__ static void consume_tile(temp_storage& storage, InputIt input, OutputIt output, offset_t n, Op op,
                                      tile_state<pair_t> const& state) {
    const offset_t tile = draw_tile(storage.tile, state);
    const offset_t tile_base = tile * tile_items;
    const offset_t remaining = n - tile_base;
    const int valid = remaining < tile_items ? static_cast<int>(remaining) : tile_items;
    using pair_prefix_t = single_pass_prefix<pair_t, segmented_op<Op>, Tuning::lookback_tiles_per_lane>;
    const pair_prefix_t prefix{state, tile, remaining > tile_items, segmented_op<Op>{op}, none<pair_t>()};
    // Pairs are split as they load (no array of pairs held besides the values and flags).
    AccT values[items_per_thread];
    unsigned heads = 0;  // bit k: item k starts a segment
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const int e = io::element(k);
      const pair_t item = input[tile_base + (e < valid ? e : valid - 1)];
      values[k] = item.value;
      heads |= static_cast<unsigned>(item.head) << k;
    }
    if (__syncthreads_or(heads != 0)) {
      block_segmented_scan(storage.scan.segmented).template scan<Kind>(values, heads, op, prefix);
    } else {
      // Wholly inside one segment: the faster unsegmented scan gives the same values.
      block_scan(storage.scan.plain).template scan<Kind>(values, op, value_prefix<pair_prefix_t>{prefix});
    }
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const int e = io::element(k);
      if (e < valid) output[tile_base + e] = pair_t{values[k], ((heads >> k) & 1u) != 0};
    }
  }
};

}  // namespace fastscan::detail
