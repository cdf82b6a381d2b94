#pragma once
// Stream compaction in one pass (copy_if and its relatives): a tile's selection flags are scanned by the
// algorithm's own block scan, the tiles' counts are stitched together by the single-pass look-back
// (single_pass_lookback.cuh, 64-bit counts, so any size), and the selected items are compacted in
// shared memory and written out by consecutive threads to consecutive places (each thread writing its
// own selected items where they go touched many partial sectors per warp store: half CUB's speed).
// Each element is read once (and its stencil, if any) and each selected one written once.
//
// Flags are scanned as 32-bit counts inside the tile, inclusively (a block scan's exclusive result has
// no defined first element without a carry), and the tile's 64-bit carry comes from the look-back in
// the block scan's prefix callback, kept in shared memory rather than fed into the 32-bit scan. The
// last tile writes the total count for the host.

#include <fastscan/detail/agent/agent_single_pass_scan.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/uninitialized.cuh>

#include <cuda/std/functional>

#include <type_traits>

namespace fastscan::detail {

// The stencil iterator of a copy_if without one.
struct no_stencil {};

template <class Tuning>
struct agent_select {
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  using count_t = unsigned;  // a tile's counts
  using block_scan = typename Tuning::block_scan;  // over count_t
  using io = tile_io<Tuning::threads, items_per_thread, Tuning::vector>;

  template <class T>
  struct temp_storage {
    union {
      typename block_scan::temp_storage scan;
      uninitialized_array<T, tile_items> selected;  // the tile's selected items, compacted
    } work;
    offset_t tile;
    offset_t carry;  // selected items in the tiles before this one
  };

  // The block scan's prefix callback (warp 0): the look-back over the tiles' counts. The carry goes to
  // shared memory; the block scan itself gets none, so it scans the tile alone.
  struct carry_prefix {
    single_pass_prefix<offset_t, ::cuda::std::plus<offset_t>, Tuning::lookback_tiles_per_lane> counts;
    offset_t& carry;
    offset_t* total;  // written by the last tile
    bool last;

    __device__ maybe<count_t> operator()(count_t const& tile_count) const {
      const maybe<offset_t> before = counts(static_cast<offset_t>(tile_count));
      if (threadIdx.x == 0) {
        carry = before.valid ? before.value : 0;
        if (last) *total = carry + tile_count;
      }
      return none<count_t>();
    }
  };

  // Items of the tile and whether each is selected (bit k of the result: item k), by pred(item), or
  // pred(stencil item) with a stencil. Flags as bits: a third array of 32 registers spilled to local
  // memory, which tripled the kernel's DRAM traffic.
  template <class T, class InputIt, class StencilIt, class Pred>
  __device__ static unsigned load(InputIt input, StencilIt stencil, offset_t tile_base, int valid, Pred& pred,
                                  T (&items)[items_per_thread], bool vectorized) {
    static_assert(items_per_thread <= 32, "selection flags are bits of one word");
    if (valid == tile_items) {
      if constexpr (sizeof(T) * Tuning::vector == 16) io::load_full(input, tile_base, items, vectorized);
      else io::template load<true>(input, tile_base, tile_items, items);
    } else {
      io::template load<false>(input, tile_base, valid, items);
    }
    unsigned flags = 0;
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const int e = io::element(k);
      bool selected = false;
      if (e < valid) {
        if constexpr (std::is_same_v<StencilIt, no_stencil>) selected = static_cast<bool>(pred(items[k]));
        else selected = static_cast<bool>(pred(stencil[tile_base + e]));
      }
      flags |= static_cast<unsigned>(selected) << k;
    }
    return flags;
  }

  template <class T, class InputIt, class StencilIt, class OutputIt, class Pred>
  __device__ static void consume_tile(temp_storage<T>& storage, InputIt input, StencilIt stencil, OutputIt output,
                                      offset_t n, Pred pred, tile_state<offset_t> const& state, offset_t* total,
                                      bool vectorized) {
    const offset_t tile = draw_tile(storage.tile, state);
    const offset_t tile_base = tile * tile_items;
    const offset_t remaining = n - tile_base;
    const bool last = remaining <= tile_items;
    const int valid = last ? static_cast<int>(remaining) : tile_items;
    T items[items_per_thread];
    const unsigned flags = load(input, stencil, tile_base, valid, pred, items, vectorized);
    count_t offsets[items_per_thread];
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) offsets[k] = (flags >> k) & 1u;
    const carry_prefix prefix{{state, tile, !last, ::cuda::std::plus<offset_t>{}, none<offset_t>()}, storage.carry,
                              total, last};
    const count_t tile_count =
        block_scan(storage.work.scan).template scan<scan_kind::inclusive>(offsets, ::cuda::std::plus<count_t>{}, prefix);
    const offset_t carry = storage.carry;  // written by the prefix callback, before the block scan's barriers
    __syncthreads();                       // the block scan's storage becomes the compacted items
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k)
      if ((flags >> k) & 1u) storage.work.selected[static_cast<int>(offsets[k] - 1)] = items[k];
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(tile_count); i += Tuning::threads)
      output[carry + i] = storage.work.selected[i];
  }
};

}  // namespace fastscan::detail
