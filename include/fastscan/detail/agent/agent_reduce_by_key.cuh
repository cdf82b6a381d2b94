#pragma once
// reduce_by_key in one pass: each run of consecutive equivalent keys becomes one key (the run's last,
// as Thrust's CUDA backend keeps it) and the reduction of its values, in order.
//
// A tile's keys and values are loaded in the scans' striped arrangement, each item's key compared with
// its predecessor's (binary_pred(previous, current), as Thrust calls it) to flag the segment heads,
// and the (head, value) pairs scanned exclusively under counted_segment_op (segmented.cuh): each
// vector's consecutive pairs reduced in its thread, one pair per vector through the algorithm's own
// block scan, and the vector's items rescanned from that. At a head i, the scan holds the number of
// heads before i in the tile and the reduction of the segment that ends at i - 1: that segment's
// output, with key[i - 1]. The tiles' pairs are joined by the single-pass look-back over (64-bit head
// count, value) pairs, 12 bytes for 4-byte values (one packed status word, no fence), from the block
// scan's prefix callback; the callback keeps the count of heads before the tile in shared memory and
// hands the block scan only the running value, so its pairs count 32 bits.
// A tile's outputs are consecutive (from the run that was open when the tile began), so they are
// compacted in shared memory and written by consecutive threads. The last tile writes the last run
// and hands the host the number of runs (agent/selected_count.cuh).

#include <fastscan/detail/agent/selected_count.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class Tuning, class Key, class AccT>
struct agent_reduce_by_key {
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int vector = Tuning::vector;
  static constexpr int vectors_per_thread = items_per_thread / vector;
  using io = tile_io<threads, items_per_thread, vector>;
  using tile_pair = counted_segment<AccT, unsigned>;  // heads counted within a tile
  using run_pair = counted_segment<AccT, offset_t>;   // heads counted from the start: the look-back's
  using block_scan = typename Tuning::block_scan;
  static_assert(items_per_thread <= 32, "head flags are bits of one word");

  struct temp_storage {
    union {
      typename block_scan::temp_storage scan;
      struct {
        uninitialized_array<Key, tile_items> keys;
        uninitialized_array<AccT, tile_items> values;
      } runs;  // the tile's outputs, compacted
    } work;
    offset_t tile;
    offset_t heads_before;  // segment heads in the tiles before this one
  };

  // The block scan's prefix callback (warp 0): the look-back over (head count, value) pairs.
  template <class Op>
  struct carry_prefix {
    single_pass_prefix<run_pair, counted_segment_op<Op>, Tuning::lookback_tiles_per_lane> runs;
    offset_t& heads_before;
    host_selected_count* total;  // written by the last tile
    unsigned ticket;
    bool last;

    __device__ maybe<tile_pair> operator()(tile_pair const& aggregate) const {
      const maybe<run_pair> before = runs(run_pair{aggregate.heads, aggregate.value});
      const offset_t heads = before.valid ? before.value.heads : 0;
      if (threadIdx.x == 0) {
        heads_before = heads;
        if (last) publish_selected_count(total, ticket, heads + aggregate.heads);
      }
      if (!before.valid) return none<tile_pair>();
      return some<tile_pair>(tile_pair{0u, before.value.value});
    }
  };

  // Runs of [0, n) to keys_out[0, runs) and values_out[0, runs); *total receives the count and ticket.
  template <class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred, class Op>
  __device__ static void consume_tile(temp_storage& storage, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                      ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                      tile_state<run_pair> const& state, host_selected_count* total, unsigned ticket,
                                      tile_access access) {
    const tile_span span = locate_tile(draw_tile(storage.tile, state, access, [&](offset_t guess) {
      io::template prefetch_full<Key>(keys_in, guess * tile_items, n);
      io::template prefetch_full<AccT>(values_in, guess * tile_items, n);
    }), n, tile_items);
    const offset_t tile = span.index;
    const offset_t tile_base = span.base;
    const bool last = span.last;
    const int valid = span.valid;

    Key keys[items_per_thread];
    AccT values[items_per_thread];
    io::load_tile(keys_in, span, keys, access);
    io::load_tile(values_in, span, values, access);
    Key key_before_vector[vectors_per_thread];
    io::predecessors(keys_in, tile_base, valid, keys, key_before_vector);
    const unsigned heads = io::run_heads(tile_base, valid, keys, key_before_vector, pred);  // bit k: a segment head

    // Each vector's items are consecutive: reduced in the thread, one pair per vector goes through the
    // block scan (a vector's place in the tile's order is the scan's striped arrangement of one item).
    const counted_segment_op<Op> pair_op{op};
    const auto item_pair = [&](int k) { return tile_pair{(heads >> k) & 1u, values[k]}; };
    tile_pair vector_pairs[vectors_per_thread];
#pragma unroll
    for (int j = 0; j < vectors_per_thread; ++j) {
      tile_pair sum = item_pair(j * vector);
#pragma unroll
      for (int i = 1; i < vector; ++i) sum = pair_op(sum, item_pair(j * vector + i));
      vector_pairs[j] = sum;
    }
    const carry_prefix<Op> prefix{{state, tile, !last, pair_op, none<run_pair>()}, storage.heads_before, total, ticket,
                                  last};
    const tile_pair aggregate =
        block_scan(storage.work.scan).template scan<scan_kind::exclusive>(vector_pairs, pair_op, prefix);
    const offset_t heads_before = storage.heads_before;  // written by the callback, before the scan's barriers
    const int tile_heads = static_cast<int>(aggregate.heads);
    // Item k's exclusive pair: the heads before it in the tile, and the running value of its
    // predecessor's segment (with the carry from earlier tiles; nothing for the input's first item).
    tile_pair pairs[items_per_thread];
#pragma unroll
    for (int j = 0; j < vectors_per_thread; ++j) {
      const bool has_prefix = tile > 0 || threadIdx.x > 0 || j > 0;  // input item 0 alone has none
      tile_pair running = vector_pairs[j];
#pragma unroll
      for (int i = 0; i < vector; ++i) {
        const int k = j * vector + i;
        pairs[k] = running;
        running = i == 0 && !has_prefix ? item_pair(k) : pair_op(running, item_pair(k));
      }
    }
    __syncthreads();  // the block scan's storage becomes the runs'

    // Each head but the input's first closes the run before it: that run's place among the tile's
    // outputs is the number of heads before it in the tile.
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      if (((heads >> k) & 1u) && tile_base + io::element(k) > 0) {
        const int slot = static_cast<int>(pairs[k].heads);
        construct_in(storage.work.runs.keys[slot], k % vector != 0 ? keys[k - 1] : key_before_vector[k / vector]);
        construct_in(storage.work.runs.values[slot], pairs[k].value);
      }
    }
    // The last run, from the thread that holds the last item.
    if (last) {
#pragma unroll
      for (int k = 0; k < items_per_thread; ++k) {
        if (io::element(k) == valid - 1) {
          // Read again rather than taken from `values`: keeping those live through the block scan for
          // this one item costs registers at four blocks per SM (measured: bench/PERFORMANCE.md).
          const AccT value = values_in[n - 1];
          const offset_t run = heads_before + tile_heads - 1;
          keys_out[run] = keys[k];
          values_out[run] = (heads >> k) & 1u ? value : static_cast<AccT>(op(pairs[k].value, value));
        }
      }
    }
    __syncthreads();

    // Slot s is run heads_before - 1 + s; the input's first head closes no run (slot 0 of tile 0).
    const int first_slot = tile == 0 ? 1 : 0;
    for (int s = first_slot + static_cast<int>(threadIdx.x); s < tile_heads; s += threads) {
      keys_out[heads_before - 1 + s] = storage.work.runs.keys[s];
      values_out[heads_before - 1 + s] = storage.work.runs.values[s];
    }
  }
};

}  // namespace fastscan::detail
