#pragma once
// Stream compaction in one pass (copy_if, remove_if, partition_copy, unique_copy and their relatives).
//
// A tile is loaded in the scans' striped arrangement (16-byte vectors where memory allows). Each
// thread turns its items into selection flags, bits of one word (a selector below says how: a
// predicate of the item or of a stencil item, or "differs from its predecessor"), and counts the
// selected items of each of its vectors. Those counts, one per vector, striped like the vectors, are
// scanned by the algorithm's own block scan (Tuning::count_scan): vectors hold consecutive elements,
// so a vector's scanned count plus the selected bits below an item in that vector is the item's rank
// among the tile's selected items. Scanning a count per vector rather than a flag per item keeps the
// block scan's work and registers small (a flag array per item spilled under the register budget).
// The tiles' counts are joined by the single-pass look-back over 64-bit counts (any size), from the
// block scan's prefix callback. Selected items are then compacted in shared memory (rejected ones
// after them when they have an output of their own) and written by consecutive threads to
// consecutive places.
//
// In place (output == input) is safe: a tile writes only below the start of the next tile's input
// (its carry plus its count is at most the next tile's first index), and only once the look-back has
// seen every earlier tile's aggregate, which each tile publishes after its loads. unique's extra load
// of the element before the tile reads a place an earlier tile can only have rewritten with the same
// value (it is written only when every element before it was kept).

#include <fastscan/detail/agent/agent_single_pass_scan.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/uninitialized.cuh>

#include <cuda/std/functional>

#include <type_traits>

namespace fastscan::detail {

// Selects item i when pred(item i) holds.
template <class Pred>
struct select_by_predicate {
  Pred pred;
  template <class Io, class InputIt, class T, int Items>
  __device__ unsigned flags(InputIt, offset_t, int valid, T (&items)[Items]) {
    unsigned bits = 0;
#pragma unroll
    for (int k = 0; k < Items; ++k)
      bits |= static_cast<unsigned>(Io::element(k) < valid && static_cast<bool>(pred(items[k]))) << k;
    return bits;
  }
};

// Selects item i when pred(stencil[i]) holds.
template <class StencilIt, class Pred>
struct select_by_stencil {
  StencilIt stencil;
  Pred pred;
  template <class Io, class InputIt, class T, int Items>
  __device__ unsigned flags(InputIt, offset_t tile_base, int valid, T (&)[Items]) {
    unsigned bits = 0;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int e = Io::element(k);
      if (e < valid && static_cast<bool>(pred(stencil[tile_base + e]))) bits |= 1u << k;
    }
    return bits;
  }
};

// Selects item i when i == 0 or !equal(item i-1, item i): the first of each run of equal items
// (unique_copy). The predecessor is in registers inside a vector, else read again (an L1 hit mostly).
template <class EqualOp>
struct select_run_heads {
  EqualOp equal;
  template <class Io, class InputIt, class T, int Items>
  __device__ unsigned flags(InputIt input, offset_t tile_base, int valid, T (&items)[Items]) {
    unsigned bits = 0;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const int e = Io::element(k);
      if (e >= valid) continue;
      bool head;
      if (k % Io::vector != 0) {
        head = !static_cast<bool>(equal(items[k - 1], items[k]));
      } else if (tile_base + e == 0) {
        head = true;
      } else {
        const T before = input[tile_base + e - 1];
        head = !static_cast<bool>(equal(before, items[k]));
      }
      if (head) bits |= 1u << k;
    }
    return bits;
  }
};

// The output of rejected items when they have none (copy_if and its relatives).
struct no_output {};

template <class Tuning>
struct agent_select {
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int vector = Tuning::vector;
  static constexpr int counts_per_thread = items_per_thread / vector;
  using count_t = unsigned;  // counts inside a tile
  using count_scan = typename Tuning::count_scan;
  using io = tile_io<threads, items_per_thread, vector>;
  static_assert(items_per_thread <= 32, "selection flags are bits of one word");

  template <class T>
  struct temp_storage {
    union {
      typename count_scan::temp_storage scan;
      uninitialized_array<T, tile_items> items;  // selected items first, then rejected ones
    } work;
    offset_t tile;
    offset_t carry;  // selected items in the tiles before this one
  };

  // The block scan's prefix callback (warp 0): the look-back over the tiles' counts. The carry goes to
  // shared memory; the block scan itself gets none, so it scans the tile alone in 32 bits.
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

  // Selected items to selected_out[0, selected), in order; rejected ones to rejected_out[0, n -
  // selected), in order, unless RejectedIt is no_output. *total receives the selected count.
  template <class T, class InputIt, class Selector, class SelectedIt, class RejectedIt>
  __device__ static void consume_tile(temp_storage<T>& storage, InputIt input, Selector& selector,
                                      SelectedIt selected_out, RejectedIt rejected_out, offset_t n,
                                      tile_state<offset_t> const& state, offset_t* total, bool vectorized) {
    const offset_t tile = draw_tile(storage.tile, state);
    const offset_t tile_base = tile * tile_items;
    const offset_t remaining = n - tile_base;
    const bool last = remaining <= tile_items;
    const int valid = last ? static_cast<int>(remaining) : tile_items;

    T items[items_per_thread];
    if (!last) io::load_full(input, tile_base, items, vectorized);
    else io::template load<false>(input, tile_base, valid, items);
    unsigned flags = selector.template flags<io>(input, tile_base, valid, items);
    // Opaque to the compiler: with a cheap predicate (x < c) it otherwise re-derives the flags from the
    // items where they are used and spills some 130 bytes a thread under the register budget.
    asm volatile("" : "+r"(flags));

    // Selected items of each vector, then their ranks among the tile's selected items.
    constexpr unsigned vector_mask = vector == 32 ? ~0u : (1u << vector) - 1u;
    count_t ranks[counts_per_thread];
#pragma unroll
    for (int j = 0; j < counts_per_thread; ++j) ranks[j] = __popc((flags >> (j * vector)) & vector_mask);
    const carry_prefix prefix{{state, tile, !last, ::cuda::std::plus<offset_t>{}, none<offset_t>()}, storage.carry,
                              total, last};
    const count_t tile_count =
        count_scan(storage.work.scan).template scan<scan_kind::inclusive>(ranks, ::cuda::std::plus<count_t>{}, prefix);
    const offset_t carry = storage.carry;  // written by the prefix callback, before the block scan's barriers
    __syncthreads();                       // the block scan's storage becomes the compacted items

#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const int j = k / vector;
      const unsigned vector_bits = (flags >> (j * vector)) & vector_mask;
      const int lane_in_vector = k % vector;
      // Selected items of this vector before item k, and the vector's exclusive rank.
      const count_t before = __popc(vector_bits & ((1u << lane_in_vector) - 1u));
      const count_t rank = ranks[j] - __popc(vector_bits) + before;
      if ((flags >> k) & 1u) {
        storage.work.items[static_cast<int>(rank)] = items[k];
      } else if constexpr (!std::is_same_v<RejectedIt, no_output>) {
        const int e = io::element(k);
        if (e < valid) storage.work.items[static_cast<int>(tile_count) + e - static_cast<int>(rank)] = items[k];
      }
    }
    __syncthreads();

    if constexpr (std::is_same_v<RejectedIt, no_output>) {
      for (int i = static_cast<int>(threadIdx.x); i < static_cast<int>(tile_count); i += threads)
        selected_out[carry + i] = storage.work.items[i];
    } else {
      const offset_t rejected_carry = tile_base - carry;
      for (int i = static_cast<int>(threadIdx.x); i < valid; i += threads) {
        if (i < static_cast<int>(tile_count)) selected_out[carry + i] = storage.work.items[i];
        else rejected_out[rejected_carry + (i - static_cast<int>(tile_count))] = storage.work.items[i];
      }
    }
  }
};

}  // namespace fastscan::detail
