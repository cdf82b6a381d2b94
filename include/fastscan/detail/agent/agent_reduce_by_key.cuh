#pragma once
// reduce_by_key in one pass, the tile staged in shared memory: each run of consecutive equivalent keys
// becomes one key (the run's last, as Thrust's CUDA backend keeps it) and the reduction of its values,
// in order.
//
// A tile's keys and values are copied into the block's storage (16-byte asynchronous copies for full
// tiles of contiguous memory aligned to 16 bytes, whatever the widths of keys and values; element by
// element otherwise); a thread holds no more of them in registers than the chunk it works on. Per
// chunk (Vector consecutive items, the scans' striped arrangement: 16 bytes of values and their keys):
// its keys compared with their predecessors (binary_pred(previous, current)) for the segment heads,
// its (head, value) pairs reduced to one, which goes through the algorithm's block scan under
// counted_segment_op; the tiles are joined by the single-pass look-back over (head count, value) pairs
// (RunCount: 32-bit counts where the input has fewer than 2^32 items and that lets a pair fit the
// look-back's packed status, 64-bit otherwise), the tile's pair published from the block scan's prefix
// callback. The tuning says where warp 0 then waits for the carry: in the callback, the carry going
// into the scan; or after a scan of the tile alone, while the other warps rescan (pairs that take
// longer to scan than to wait for). The chunks are then rescanned from their exclusive pairs: each head
// closes the run that ends at the item before it (its tail), whose value is written over that item's
// value in shared memory and whose tail position goes to slot (heads before it in the tile) of a list;
// then consecutive threads write the listed runs, key and value from the tail. Where the tile was
// scanned alone, only the run open at the tile's start (slot 0) needs the carry's value, folded in as
// it is written; every run's place needs the count of earlier heads.
// The last tile writes the input's last run and hands the host the number of runs.

#include <fastscan/detail/agent/selected_count.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class Tuning, class Key, class AccT, class RunCount>
struct agent_reduce_by_key {
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int vector = Tuning::vector;
  static constexpr int vectors_per_thread = items_per_thread / vector;
  using io = tile_io<threads, items_per_thread, vector>;
  using tile_pair = counted_segment<AccT, unsigned>;  // heads counted within a tile
  using run_pair = counted_segment<AccT, RunCount>;   // heads counted from the start: the look-back's
  using block_scan = typename Tuning::block_scan;
  using position = unsigned short;
  static constexpr position no_tail = 0xffff;  // the run closes in the tile before
  static_assert(items_per_thread <= 32, "head flags are bits of one word");
  static_assert(tile_items < 0xffff, "tail positions are 16 bits");

  // Where warp 0 waits for the carry (the tiles before this one): in the block scan's prefix callback,
  // the carry then folded into the scan's exclusive pairs; or after a scan of the tile alone, while the
  // other warps rescan, the carry then folded into the run open at the tile's start as it is written.
  static constexpr bool carry_beside_rescan = Tuning::carry_beside_rescan;

  struct temp_storage {
    alignas(16) uninitialized_array<Key, tile_items> keys;
    alignas(16) uninitialized_array<AccT, tile_items> values;  // in the end: each tail's run value
    union {
      struct {
        typename block_scan::temp_storage scan;
        offset_t tile;
      } scanning;
      uninitialized_array<position, tile_items + 1> tails;  // slot s: where the run closed by head s ends
    } work;
    // The carry: segment heads in the tiles before this one, and the value of the run open at the
    // tile's start (none in tile 0).
    offset_t heads_before;
    uninitialized<AccT> carry;
  };

  template <class Op>
  using runs_prefix = single_pass_prefix<run_pair, counted_segment_op<Op>, Tuning::lookback_tiles_per_lane>;

  // Warp 0, once the tile's pair is published: the look-back, the carry into the block's storage (and,
  // in the last tile, the number of runs to the host); returns the carry.
  template <class Op>
  __device__ static maybe<run_pair> wait_for_carry(runs_prefix<Op> const& runs, tile_pair const& aggregate,
                                                   temp_storage& storage, bool last, host_selected_count* total,
                                                   unsigned ticket) {
    const maybe<run_pair> before = runs.carry(run_pair{aggregate.heads, aggregate.value});
    const offset_t heads = before.valid ? before.value.heads : 0;
    if (threadIdx.x == 0) {
      storage.heads_before = heads;
      if (before.valid) construct_in(storage.carry.get(), before.value.value);
      if (last) publish_selected_count(total, ticket, heads + aggregate.heads);
    }
    return before;
  }

  // The block scan's prefix callback (warp 0): publishes the tile's pair; in the scan, waits for the
  // carry and returns its value (heads counted within the tile: none before it); beside the rescan,
  // returns nothing and the tile is scanned alone.
  template <class Op>
  struct carry_prefix {
    runs_prefix<Op> const& runs;
    temp_storage& storage;
    bool last;
    host_selected_count* total;
    unsigned ticket;

    __device__ maybe<tile_pair> operator()(tile_pair const& aggregate) const {
      runs.publish(run_pair{aggregate.heads, aggregate.value});
      if constexpr (carry_beside_rescan) {
        return none<tile_pair>();
      } else {
        const maybe<run_pair> before = wait_for_carry(runs, aggregate, storage, last, total, ticket);
        if (!before.valid) return none<tile_pair>();
        return some<tile_pair>(tile_pair{0u, before.value.value});
      }
    }
  };

  template <class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred, class Op>
  __device__ static void consume_tile(temp_storage& storage, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                      ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                      tile_state<run_pair> const& state, host_selected_count* total, unsigned ticket,
                                      tile_access access) {
    const tile_span span = locate_tile(draw_tile(storage.work.scanning.tile, state, access, [&](offset_t guess) {
      io::template prefetch_full<Key>(keys_in, guess * tile_items, n);
      io::template prefetch_full<AccT>(values_in, guess * tile_items, n);
    }), n, tile_items);
    const offset_t tile = span.index;
    const offset_t tile_base = span.base;
    const bool last = span.last;
    const int valid = span.valid;
    Key* const keys = &storage.keys[0];
    AccT* const values = &storage.values[0];
    io::template stage_tile_in_order<Key>(keys_in, tile_base, valid, access, keys);
    io::template stage_tile_in_order<AccT>(values_in, tile_base, valid, access, values);
    wait_for_async_copies();
    __syncthreads();

    // Heads and each chunk's (heads, value) pair, a chunk at a time.
    const counted_segment_op<Op> pair_op{op};
    unsigned heads = 0;  // bit k: item k starts a run
    tile_pair chunk_pairs[vectors_per_thread];
    Key key_before_tile;  // thread 0: the tile before's last
#pragma unroll
    for (int j = 0; j < vectors_per_thread; ++j) {
      const int first = io::element(j * vector);
      Key chunk_keys[vector];
      AccT chunk_values[vector];
      io::load_chunk_from_shared(static_cast<Key const*>(keys), j, chunk_keys);
      io::load_chunk_from_shared(static_cast<AccT const*>(values), j, chunk_values);
      // The chunk before is the lower lane's; lane 0 reads its predecessor (thread 0's first chunk of a
      // tile after the first, from the tile before).
      const Key from_lower_lane = shuffle_any<shuffle_from::lower_lane>(chunk_keys[vector - 1], 1);
      const Key previous = threadIdx.x % 32 != 0 ? from_lower_lane
                           : first > 0           ? keys[first - 1]
                           : tile_base > 0       ? Key(keys_in[tile_base - 1])
                                                 : chunk_keys[0];
      if (j == 0) key_before_tile = previous;
#pragma unroll
      for (int i = 0; i < vector; ++i) {
        const int e = first + i;
        const bool head = e < valid && (tile_base + e == 0 ||
                                        !static_cast<bool>(pred(i > 0 ? chunk_keys[i - 1] : previous, chunk_keys[i])));
        heads |= static_cast<unsigned>(head) << (j * vector + i);
      }
      tile_pair sum{(heads >> (j * vector)) & 1u, chunk_values[0]};
#pragma unroll
      for (int i = 1; i < vector; ++i) sum = pair_op(sum, tile_pair{(heads >> (j * vector + i)) & 1u, chunk_values[i]});
      chunk_pairs[j] = sum;
    }

    const runs_prefix<Op> prefix{state, tile, !last, pair_op, none<run_pair>()};
    const tile_pair aggregate = block_scan(storage.work.scanning.scan)
                                    .template scan<scan_kind::exclusive>(chunk_pairs, pair_op,
                                                                         carry_prefix<Op>{prefix, storage, last, total, ticket});
    const int tile_heads = static_cast<int>(aggregate.heads);
    __syncthreads();  // the block scan's storage becomes the tails'

    // Beside the rescan: warp 0 waits for the carry before its share of the rescan; the other warps
    // rescan meanwhile (the carry is read after the barriers below).
    if constexpr (carry_beside_rescan) {
      if (threadIdx.x < 32) wait_for_carry(prefix, aggregate, storage, last, total, ticket);
    }

    // Each chunk rescanned from its exclusive pair. A head at item e closes the run ending at e - 1:
    // its value goes over that item's value (now, if that item is in this chunk, whose values this
    // thread holds; after a barrier if it ends the chunk before, which another thread may be reading),
    // its tail to slot (heads before e in the tile). A head at the tile's first item closes the run open
    // at the tile's start, the tile before's last key and the carry: thread 0, which stored the carry,
    // writes it at once (no tail).
    AccT chunk_carries[vectors_per_thread];
    unsigned carried = 0;
    position* const tails = &storage.work.tails[0];
#pragma unroll
    for (int j = 0; j < vectors_per_thread; ++j) {
      const int first = io::element(j * vector);
      // The tile's first chunk has no exclusive pair where the tile was scanned alone (and in tile 0):
      // no heads before it.
      const bool has_prefix = (!carry_beside_rescan && tile > 0) || threadIdx.x > 0 || j > 0;
      AccT chunk_values[vector];
      io::load_chunk_from_shared(static_cast<AccT const*>(values), j, chunk_values);
      tile_pair running = has_prefix ? chunk_pairs[j] : tile_pair{0u, chunk_values[0]};
#pragma unroll
      for (int i = 0; i < vector; ++i) {
        const int k = j * vector + i;
        const int e = first + i;
        const unsigned head = (heads >> k) & 1u;
        if (head && tile_base + e > 0) {
          const int slot = static_cast<int>(running.heads);
          if (e == 0) {
            tails[slot] = no_tail;
            keys_out[storage.heads_before - 1] = key_before_tile;
            values_out[storage.heads_before - 1] = storage.carry.get();
          } else {
            tails[slot] = static_cast<position>(e - 1);
            if (i > 0) {
              values[e - 1] = running.value;
            } else {
              chunk_carries[j] = running.value;
              carried |= 1u << j;
            }
          }
        }
        const tile_pair item{head, chunk_values[i]};
        running = i == 0 && !has_prefix ? item : pair_op(running, item);
        if (last && e == valid - 1) {  // the input's last run ends here
          tails[tile_heads] = static_cast<position>(e);
          values[e] = running.value;
        }
      }
    }
    __syncthreads();  // every chunk's values read
#pragma unroll
    for (int j = 0; j < vectors_per_thread; ++j)
      if ((carried >> j) & 1u) values[io::element(j * vector) - 1] = chunk_carries[j];
    __syncthreads();

    // Slot s is run heads_before - 1 + s; the input's first head closes no run (slot 0 of tile 0). The
    // run of slot 0 began before the tile: where the tile was scanned alone, its value still needs the
    // carry first.
    const offset_t heads_before = storage.heads_before;
    const int first_slot = tile == 0 ? 1 : 0;
    const int end_slot = last ? tile_heads + 1 : tile_heads;
    for (int s = first_slot + static_cast<int>(threadIdx.x); s < end_slot; s += threads) {
      const position tail = tails[s];
      if (tail == no_tail) continue;
      keys_out[heads_before - 1 + s] = keys[tail];
      if (carry_beside_rescan && s == 0)
        values_out[heads_before - 1] = static_cast<AccT>(op(storage.carry.get(), values[tail]));
      else
        values_out[heads_before - 1 + s] = values[tail];
    }
  }
};

}  // namespace fastscan::detail
