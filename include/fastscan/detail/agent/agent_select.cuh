#pragma once
// Stream compaction in one pass (copy_if, remove_if, partition_copy, unique_copy and their relatives).
//
// A tile is loaded in the scans' striped arrangement (16-byte vectors where memory allows). Each
// thread turns its items into selection flags, bits of one word (a selector below says how: a
// predicate of the item or of a stencil item, or "differs from its predecessor"), and counts the
// selected items of each of its vectors. Vector j of every thread forms row j of the tile (threads in
// order), so a vector's rank among the tile's selected items is the totals of the rows before j plus
// the counts of row j's vectors in lower threads. One block scan gives all of those at once: each
// thread's counts are packed, 16 bits each, into one value (packed_counts), and the algorithm's own
// block scan (Tuning::count_scan) scans one such value per thread with a field-wise sum; its aggregate
// holds the row totals. A flag per item, or a count per vector, through the block scan was slower:
// more registers (spills) and, for the tree scans, a deeper tree.
// The tiles' counts are joined by the single-pass look-back over 64-bit counts (any size): the block
// scan's prefix callback publishes the tile's count, and after the scan warp 0 waits for the carry
// while the other warps compact the selected items in shared memory (rejected ones after them when
// they have an output of their own), which needs no carry; then consecutive threads write them to
// consecutive places.
//
// unique_by_key's (key, value) items are flagged by their keys alone, and rejected items have no output,
// so its full tiles read the keys first (keys of 4 bytes or more) and then only the values of chunks
// that hold a kept item.
// In place (output == input) is safe: a tile writes only below the start of the next tile's input
// (its carry plus its count is at most the next tile's first index), and only once the look-back has
// seen every earlier tile's aggregate, which each tile publishes after its loads. unique's extra load
// of the element before the tile reads a place an earlier tile can only have rewritten with the same
// value (it is written only when every element before it was kept).

#include <fastscan/detail/agent/selected_count.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/uninitialized.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

#include <thrust/tuple.h>

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

// Selects item i when pred(stencil[i]) holds; the predicate gets the stencil's value, loaded.
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
      if (e < valid) {
        const element_value_t<StencilIt> stencil_value = stencil[tile_base + e];
        if (static_cast<bool>(pred(stencil_value))) bits |= 1u << k;
      }
    }
    return bits;
  }
};

// Whether an equality of (first, second) items, or a selector's flags for them, depend on their first
// components alone (the type says so: first_components_only).
template <class T, class = void>
struct first_components_only : std::false_type {};
template <class T>
struct first_components_only<T, std::void_t<decltype(T::first_components_only)>>
    : std::bool_constant<T::first_components_only> {};

// Selects item i when i == 0 or !equal(item i-1, item i): the first of each run of equal items
// (unique_copy). The predecessor is in registers inside a vector, else in the lane below, else read
// (tile_io::predecessors).
template <class EqualOp>
struct select_run_heads {
  static constexpr bool first_components_only = fastscan::detail::first_components_only<EqualOp>::value;
  EqualOp equal;
  template <class Io, class InputIt, class T, int Items>
  __device__ unsigned flags(InputIt input, offset_t tile_base, int valid, T (&items)[Items]) {
    T before_vector[Items / Io::vector];
    Io::template predecessors<first_components_only>(input, tile_base, valid, items, before_vector);
    return Io::run_heads(tile_base, valid, items, before_vector, equal);
  }
};

// Selects item i when i == n - 1 or !equal(key i, key i+1): the last of each run of keys, the items of
// (key, value) tuples and the keys read again from `keys` (the deterministic reduce_by_key).
template <class KeysIt, class EqualOp>
struct select_run_tails {
  KeysIt keys;
  offset_t n;
  EqualOp equal;
  template <class Io, class InputIt, class T, int Items>
  __device__ unsigned flags(InputIt, offset_t tile_base, int valid, T (&items)[Items]) {
    unsigned bits = 0;
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      const offset_t i = tile_base + Io::element(k);
      if (Io::element(k) >= valid) continue;
      bool tail = i == n - 1;
      if (!tail) {
        const element_value_t<KeysIt> next = keys[i + 1];
        tail = !static_cast<bool>(equal(thrust::get<0>(items[k]), next));
      }
      if (tail) bits |= 1u << k;
    }
    return bits;
  }
};

// The output of rejected items when they have none (copy_if and its relatives).
struct no_output {};

// A thread's selected counts, one per vector, 16 bits each, two to a 32-bit word. Summed word by
// word, fields never carry into each other: a row of the tile totals at most threads * vector < 2^16.
template <int Fields>
struct packed_counts {
  static constexpr int words = (Fields + 1) / 2;
  unsigned word[words];

  __device__ unsigned field(int j) const { return (word[j / 2] >> (16 * (j % 2))) & 0xffffu; }
  __device__ unsigned total() const {
    unsigned sum = 0;
#pragma unroll
    for (int i = 0; i < words; ++i) sum += (word[i] & 0xffffu) + (word[i] >> 16);
    return sum;
  }
};

struct add_packed_counts {
  template <int Fields>
  __device__ packed_counts<Fields> operator()(packed_counts<Fields> const& a, packed_counts<Fields> const& b) const {
    packed_counts<Fields> sum;
#pragma unroll
    for (int i = 0; i < packed_counts<Fields>::words; ++i) sum.word[i] = a.word[i] + b.word[i];
    return sum;
  }
};

// A zip that load_selected_seconds_only reads in two steps: chunks of each array, first components of
// at least 4 bytes (narrower ones come with more items a thread, where the two steps spill registers
// and were slower: bench/PERFORMANCE.md).
template <class InputIt, class T, int Vector, bool = is_zip_vector_memory_of<InputIt, T, Vector>>
struct zip_with_wide_firsts : std::false_type {};
template <class InputIt, class T, int Vector>
struct zip_with_wide_firsts<InputIt, T, Vector, true>
    : std::bool_constant<(sizeof(typename zip_of_two<InputIt>::first) >= 4)> {};

template <class Tuning>
struct agent_select {
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int vector = Tuning::vector;
  static constexpr int counts_per_thread = items_per_thread / vector;
  using counts_t = packed_counts<counts_per_thread>;
  using count_scan = typename Tuning::template count_scan<counts_t>;
  using io = tile_io<threads, items_per_thread, vector>;
  static_assert(items_per_thread <= 32, "selection flags are bits of one word");
  static_assert(threads * vector < (1 << 16), "a row's count must fit its 16-bit field");

  template <class T>
  struct temp_storage {
    union {
      typename count_scan::temp_storage scan;
      uninitialized_array<T, tile_items> items;  // selected items first, then rejected ones
    } work;
    offset_t tile;
    offset_t carry;  // selected items in the tiles before this one
  };

  using count_prefix = single_pass_prefix<offset_t, ::cuda::std::plus<offset_t>, Tuning::lookback_tiles_per_lane>;

  // The block scan's prefix callback (warp 0): publishes the tile's count as soon as the block scan has
  // it and carries nothing into the scan, which scans the tile alone in 16-bit fields. The look-back
  // for the carry comes after the scan, beside the compaction, which does not need it.
  struct publish_count {
    count_prefix const& counts;
    __device__ maybe<counts_t> operator()(counts_t const& row_totals) const {
      counts.publish(row_totals.total());
      return none<counts_t>();
    }
  };

  // Whether full tiles of this input, selector and rejected output take load_selected_seconds_only's
  // two steps.
  template <class RejectedIt, class InputIt, class Selector, class T>
  static constexpr bool reads_selected_seconds_only = first_components_only<Selector>::value && vector > 1 &&
                                                      zip_with_wide_firsts<InputIt, T, vector>::value &&
                                                      std::is_same_v<RejectedIt, no_output>;

  // A full tile of a zip of two arrays (zip_with_wide_firsts) whose selector flags items by their
  // first components (unique_by_key), with no output for rejected items: the first components, the
  // flags from them, then the second components of only the chunks that hold a selected item (the
  // others are never stored). In place stays safe: every read is still issued before the tile
  // publishes its count. Returns false, having read nothing, for other tiles.
  template <class RejectedIt, class InputIt, class Selector, class T>
  __device__ static bool load_selected_seconds_only(InputIt input, tile_span const& span, Selector& selector,
                                                    tile_access access, T (&items)[items_per_thread],
                                                    unsigned& flags) {
    if constexpr (reads_selected_seconds_only<RejectedIt, InputIt, Selector, T>) {
      if (!span.full() || !moves_vectors(access)) return false;
      if (streams(access)) io::template load_zip_firsts<true>(input, span.base, items);
      else io::template load_zip_firsts<false>(input, span.base, items);
      flags = selector.template flags<io>(input, span.base, span.valid, items);
      if (streams(access)) io::template load_zip_seconds_where<true>(input, span.base, flags, items);
      else io::template load_zip_seconds_where<false>(input, span.base, flags, items);
      return true;
    } else {
      return false;
    }
  }

  // Selected items to selected_out[0, selected), in order; rejected ones to rejected_out[0, n -
  // selected), in order, unless RejectedIt is no_output. *total receives the selected count and ticket.
  template <class T, class InputIt, class Selector, class SelectedIt, class RejectedIt>
  __device__ static void consume_tile(temp_storage<T>& storage, InputIt input, Selector& selector,
                                      SelectedIt selected_out, RejectedIt rejected_out, offset_t n,
                                      tile_state<offset_t> const& state, host_selected_count* total,
                                      unsigned ticket, tile_access access) {
    // The guessed tile's second components only where every tile reads them all; the two-step read
    // prefetches the drawn tile's where earlier tiles kept most of their items (prefetching them always
    // cost long runs the reads that reading them second saves).
    const auto draw = [&] {
      if constexpr (reads_selected_seconds_only<RejectedIt, InputIt, Selector, T>) {
        if (!prefetches(access)) return state.draw_tile();
        const offset_t recent = static_cast<offset_t>(blockIdx.x) - Tuning::density_lag;
        offset_t after = 0;
        offset_t before = 0;
        // Both reads issued before the draw, neither waited for until it returns.
        const bool after_known = state.published_prefix(recent, after);
        const bool before_known = state.published_prefix(recent - Tuning::density_window, before);
        const offset_t drawn = state.draw_tile();
        if (after_known && before_known &&
            2 * (after - before) > static_cast<offset_t>(Tuning::density_window) * tile_items)
          io::template prefetch_zip_array<1, T>(input, drawn * tile_items, n);
        return drawn;
      } else {
        return state.draw_tile();
      }
    };
    const tile_span span = locate_tile(draw_tile_with(storage.tile, access, draw, [&](offset_t guess) {
      if constexpr (reads_selected_seconds_only<RejectedIt, InputIt, Selector, T>)
        io::template prefetch_zip_array<0, T>(input, guess * tile_items, n);
      else
        io::template prefetch_full<T>(input, guess * tile_items, n);
    }), n, tile_items);
    const offset_t tile = span.index;
    const offset_t tile_base = span.base;
    const bool last = span.last;
    const int valid = span.valid;

    T items[items_per_thread];
    unsigned flags;
    if (!load_selected_seconds_only<RejectedIt>(input, span, selector, access, items, flags)) {
      io::load_tile(input, span, items, access);
      flags = selector.template flags<io>(input, tile_base, valid, items);
    }
    // Opaque to the compiler: with a cheap predicate (x < c) it otherwise re-derives the flags from the
    // items where they are used and spills some 130 bytes a thread under the register budget.
    asm volatile("" : "+r"(flags));

    // Selected items of each vector, packed; scanned over the threads, row by row.
    constexpr unsigned vector_mask = vector == 32 ? ~0u : (1u << vector) - 1u;
    counts_t counts[1];
#pragma unroll
    for (int i = 0; i < counts_t::words; ++i) counts[0].word[i] = 0;
#pragma unroll
    for (int j = 0; j < counts_per_thread; ++j)
      counts[0].word[j / 2] |= static_cast<unsigned>(__popc((flags >> (j * vector)) & vector_mask)) << (16 * (j % 2));
    const count_prefix prefix{state, tile, !last, ::cuda::std::plus<offset_t>{}, none<offset_t>()};
    const counts_t row_totals =
        count_scan(storage.work.scan).template scan<scan_kind::inclusive>(counts, add_packed_counts{}, publish_count{prefix});
    const int tile_count = static_cast<int>(row_totals.total());
    __syncthreads();  // the block scan's storage becomes the compacted items

    // Warp 0 waits for the tiles before this one (the carry) before its share of the compaction; the
    // other warps compact meanwhile.
    if (threadIdx.x < 32) {
      const maybe<offset_t> before = prefix.carry(tile_count);
      if (threadIdx.x == 0) {
        storage.carry = before.valid ? before.value : 0;
        if (last) publish_selected_count(total, ticket, storage.carry + tile_count);
      }
    }

    int rows_before = 0;  // selected items in the rows before vector j's
#pragma unroll
    for (int j = 0; j < counts_per_thread; ++j) {
      const unsigned vector_bits = (flags >> (j * vector)) & vector_mask;
      // Selected items of row j in lower threads: the inclusive scan less this vector's own.
      const int vector_rank = rows_before + static_cast<int>(counts[0].field(j)) - __popc(vector_bits);
#pragma unroll
      for (int i = 0; i < vector; ++i) {
        const int k = j * vector + i;
        const int rank = vector_rank + __popc(vector_bits & ((1u << i) - 1u));
        if ((flags >> k) & 1u) {
          construct_in(storage.work.items[rank], items[k]);
        } else if constexpr (!std::is_same_v<RejectedIt, no_output>) {
          const int e = io::element(k);
          if (e < valid) construct_in(storage.work.items[tile_count + e - rank], items[k]);
        }
      }
      rows_before += static_cast<int>(row_totals.field(j));
    }
    __syncthreads();
    const offset_t carry = storage.carry;

    if constexpr (std::is_same_v<RejectedIt, no_output>) {
      for (int i = static_cast<int>(threadIdx.x); i < tile_count; i += threads)
        selected_out[carry + i] = storage.work.items[i];
    } else {
      const offset_t rejected_carry = tile_base - carry;
      for (int i = static_cast<int>(threadIdx.x); i < valid; i += threads) {
        if (i < tile_count) selected_out[carry + i] = storage.work.items[i];
        else rejected_out[rejected_carry + (i - tile_count)] = storage.work.items[i];
      }
    }
  }
};

}  // namespace fastscan::detail
