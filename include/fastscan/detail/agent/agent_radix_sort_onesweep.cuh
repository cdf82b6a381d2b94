#pragma once
// One pass of a least-significant-digit radix sort, one tile per block, in one launch: the onesweep
// structure of Adinets and Merrill ("Onesweep: A Faster Least Significant Digit Radix Sort for GPUs",
// 2022), which CUB's DeviceRadixSort runs on Hopper.
//
// A block draws its tile in launch order (first prefetching the tile it would get if tiles went by
// blockIdx, as the scans do: tile_io.cuh), loads the tile's keys warp-striped (each warp one contiguous
// run, which the stable ranking needs; block_radix_rank.cuh) as their ordered bits (radix_key.cuh:
// turned back as they are stored, so a digit costs a shift and a mask, and for floats one compare),
// and ranks their digits of this pass: each
// key's place in the tile stably sorted by digit, and the tile's count of every digit. The counts go to
// a per-digit look-back: thread d (of the first 256; a block may have more threads than digits, which
// only rank and move items) publishes digit d's count for the tiles after it (for keys that count
// first, before the votes: block_radix_rank.cuh), then, once the tile is ranked and its keys are in
// their places in shared memory, walks back over the tiles before it (radix_sort_tuning::lookback_batch
// of them a read) until one has published an inclusive count, and publishes its own. Digit d's keys
// of this tile then start at: where digit d starts in the output (the digit counts of the whole input,
// scanned once before the passes, agent_radix_sort_histogram.cuh), plus digit d's keys in earlier tiles,
// less the place of digit d's first key in the sorted tile. The last tile of a portion knows every
// digit's count in the portion, so it gives the next portion its starts (a launch sorts one portion).
// Keys go to their places in shared memory before the look-back, and the values' loads start then
// (both overlap its round trips); the values join them once loaded, beside the keys, and after one
// barrier consecutive threads take consecutive places to global memory (runs of one digit are
// contiguous in the output), each place's output position computed once for its key and its value. A
// full tile of pairs whose keys all have one digit keeps its order and skips the exchange: each thread
// stores its own keys and values at the digit's start plus their element (CUB's short circuit).
//
// A pass in which every key has the same digit (the digit counts say so before the first pass: keys of
// a small range, in any of their bytes) leaves the order as it is, and may be left out
// (radix_left_out_passes, agent_radix_sort_histogram.cuh): each launch of it then only clears the next
// launch's look-back words. A launch learns that from its first draw, at no cost to the others: every
// launch has its own tile counter, which the digit-starts kernel starts at radix_left_out_draw rather
// than 0. (A copy instead of the pass that must still move the keys would be cheaper, but its code in
// this kernel cost the ranking path registers.)
//
// The look-back here is not the scans' (single_pass_lookback.cuh): a tile does 256 independent
// look-backs, one per digit and thread, each over 32-bit words that hold a status and a count, as CUB
// does. The words are cleared for each launch: every launch clears, spread over its blocks, the words
// the next launch will use (the launch before the first pass had them cleared by the histogram kernel),
// so no memset runs between passes. Counts stay below 2^30 because a launch sorts at most one portion
// of the input (radix_sort_tuning::portion_items).

#include <fastscan/detail/agent/agent_radix_sort_histogram.cuh>
#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/block/block_radix_rank.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>
#include <fastscan/detail/uninitialized.cuh>

#include <type_traits>

namespace fastscan::detail {

// The value type of a sort of keys alone.
struct keys_only {};

// A digit's status word in the look-back: status in the top two bits, a count below.
struct digit_status {
  static constexpr unsigned aggregate = 1u << 30;  // the tile's own count of the digit
  static constexpr unsigned inclusive = 2u << 30;  // the count of the digit in this tile and all before it
  static constexpr unsigned count_mask = (1u << 30) - 1u;
};

// What one launch of a pass works on: a portion of the input, one digit position.
template <class Bits, class Value>
struct radix_pass {
  Bits const* keys_in;           // the portion's keys
  Bits* keys_out;                // the whole output
  Value const* values_in;        // the portion's values (keys_only: unused)
  Value* values_out;
  offset_t items;                // in the portion
  offset_t const* digit_starts;  // 256: where the portion's keys of each digit start in the output
  offset_t* next_digit_starts;   // 256: the next portion's, written by the last tile (null: no next)
  unsigned* tile_counter;        // this launch's draws (from radix_left_out_draw: the pass is left out)
  unsigned* lookback;            // 256 status words per tile
  unsigned* next_lookback;       // the next launch's words, cleared by this one
  offset_t lookback_words;
  int pass;                      // the digit: bits [8 * pass, 8 * pass + 8) of the ordered key
  bool prefetch;                 // prefetch the launch-order guess's keys and values (tile_io.cuh)
};

template <class Tuning, class Key, bool Descending, class Value>
struct agent_radix_sort_onesweep {
  using key_t = radix_key<Key, Descending>;
  using bits_t = typename key_t::bits_t;
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr bool has_values = !std::is_same_v<Value, keys_only>;
  using rank_t = block_radix_rank<threads, items_per_thread, typename Tuning::template digit_scan<unsigned>,
                                  Tuning::counts_first>;

  // The tile's keys and values side by side in their sorted places: one exchange moves both, so each
  // item's output place is computed once for its key and its value.
  struct sorted_tile {
    uninitialized_array<bits_t, tile_items> keys;
    uninitialized_array<Value, has_values ? tile_items : 1> values;
  };

  struct temp_storage {
    union {
      typename rank_t::temp_storage rank;
      sorted_tile sorted;
    } work;
    offset_t digit_base[radix_digits];  // per digit: where the tile's sorted place 0 would go in the output
    offset_t tile;
  };

  // Digit `digit`'s count in the tiles before `tile` (called by thread `digit`). Reads the statuses of
  // lookback_batch predecessors at a time: each read is an L2 round trip, and a walk usually passes
  // several tiles that have published only their own count.
  __device__ static unsigned look_back(unsigned const* statuses, offset_t tile, int digit) {
    constexpr int batch = Tuning::lookback_batch;
    unsigned before = 0;
    offset_t next = tile - 1;  // the latest predecessor not yet counted
    int waits = 0;
    for (;;) {
      unsigned words[batch];
#pragma unroll
      for (int j = 0; j < batch; ++j)  // tile 0 is inclusive, so a walk never passes it
        words[j] = next - j >= 0 ? load_relaxed(statuses + (next - j) * radix_digits + digit) : digit_status::inclusive;
      // Until the nearest predecessor publishes, its word alone is polled. The others may be stale by
      // then, which is safe: a status only goes from nothing to its count to the inclusive count.
      while (words[0] == 0) {
        if (++waits > 8) __nanosleep(64);
        words[0] = load_relaxed(statuses + next * radix_digits + digit);
      }
      int counted = 0;
#pragma unroll
      for (int j = 0; j < batch; ++j) {
        if (words[j] == 0) break;  // not yet published: read again from here
        before += words[j] & digit_status::count_mask;
        if (words[j] & digit_status::inclusive) return before;
        ++counted;
      }
      next -= counted;
    }
  }

  // Called by thread d < 256 with the tile's count of digit d, as soon as it is known.
  __device__ static void publish_count(radix_pass<bits_t, Value> const& pass, offset_t tile, unsigned count) {
    unsigned* own_status = pass.lookback + tile * radix_digits + threadIdx.x;
    store_relaxed(own_status, (tile == 0 ? digit_status::inclusive : digit_status::aggregate) | count);
  }

  // Then: looks back and returns the digit's count in the portion's earlier tiles; the last tile also
  // hands the next portion its starts. `start` receives where the portion's keys of the digit start.
  __device__ static unsigned join_tiles(radix_pass<bits_t, Value> const& pass, offset_t tile, bool last, unsigned count,
                                        offset_t& start) {
    const int digit = static_cast<int>(threadIdx.x);
    unsigned before = 0;
    if (tile > 0) {
      unsigned* statuses = pass.lookback;
      before = look_back(statuses, tile, digit);
      store_relaxed(statuses + tile * radix_digits + digit, digit_status::inclusive | (before + count));
    }
    start = pass.digit_starts[digit];
    if (pass.next_digit_starts != nullptr && last) pass.next_digit_starts[digit] = start + before + count;
    return before;
  }

  // Clears this block's share of the next launch's look-back words.
  __device__ static void clear_next_lookback(radix_pass<bits_t, Value> const& pass) {
    const offset_t stride = static_cast<offset_t>(gridDim.x) * threads;
    for (offset_t i = static_cast<offset_t>(blockIdx.x) * threads + threadIdx.x; i < pass.lookback_words; i += stride)
      pass.next_lookback[i] = 0;
  }

  // Thread d (of the first 256) looks back for digit d and sets where the tile's sorted place 0 of its
  // keys goes in the output.
  __device__ static void place_digits(temp_storage& storage, radix_pass<bits_t, Value> const& pass, offset_t tile,
                                      bool last, unsigned count, unsigned tile_offset) {
    if (thread_holds_digit<threads>()) {  // thread d: digit d
      offset_t start = 0;
      const unsigned before = join_tiles(pass, tile, last, count, start);
      storage.digit_base[threadIdx.x] = start + before - tile_offset;
    }
  }

  // A full tile of one digit: its sorted order is its own, so each item goes from the thread that
  // loaded it to the digit's base plus its element. The values are loaded after the look-back (the
  // prefetch of the tile has brought them near), so that only the keys stay in registers across it.
  __device__ static void copy_one_digit_tile(temp_storage& storage, radix_pass<bits_t, Value> const& pass, offset_t tile,
                                             offset_t tile_base, bool last, unsigned count, unsigned tile_offset,
                                             bits_t const (&keys)[items_per_thread]) {
    place_digits(storage, pass, tile, last, count, tile_offset);
    __syncthreads();
    const offset_t base = storage.digit_base[key_t::digit_of_ordered(keys[0], pass.pass)];
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i) pass.keys_out[base + rank_t::element(i)] = key_t::from_ordered(keys[i]);
    if constexpr (has_values) {
      Value values[items_per_thread];
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) values[i] = pass.values_in[tile_base + rank_t::element(i)];
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) pass.values_out[base + rank_t::element(i)] = values[i];
    }
  }

  __device__ static void consume_tile(temp_storage& storage, radix_pass<bits_t, Value> const& pass) {
    // The tile drawn, or -1 where the pass is left out (its counter started at radix_left_out_draw; such
    // a launch still prefetches its guess: that read is its cost).
    const offset_t drawn = draw_tile(
        storage.tile, pass.prefetch,
        [&] {
          const unsigned tile = atomicAdd(pass.tile_counter, 1u);
          return tile >= radix_left_out_draw ? offset_t{-1} : static_cast<offset_t>(tile);
        },
        [&](offset_t guess) {
          const offset_t guess_base = guess * tile_items;
          if (guess_base + tile_items <= pass.items) {
            prefetch_to_l2(pass.keys_in + guess_base, tile_items * sizeof(bits_t));
            if constexpr (has_values) prefetch_to_l2(pass.values_in + guess_base, tile_items * sizeof(Value));
          }
        });
    clear_next_lookback(pass);
    if (drawn < 0) return;
    const tile_span span = locate_tile(drawn, pass.items, tile_items);
    const offset_t tile = span.index;
    const offset_t tile_base = span.base;
    const int valid = span.valid;

    if (valid == tile_items) process<true>(storage, pass, tile, tile_base, valid);
    else process<false>(storage, pass, tile, tile_base, valid);
  }

  template <bool FullTile>
  __device__ static void process(temp_storage& storage, radix_pass<bits_t, Value> const& pass, offset_t tile,
                                 offset_t tile_base, int valid) {
    const int shift_pass = pass.pass;
    bits_t keys[items_per_thread];
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i) {
      const int e = rank_t::element(i);
      keys[i] = (FullTile || e < valid) ? key_t::ordered(pass.keys_in[tile_base + e]) : bits_t{0};
    }
    const auto digit_of = [&](int i) { return key_t::digit_of_ordered(keys[i], shift_pass); };
    const int thread = static_cast<int>(threadIdx.x);
    const bool last = tile_base + valid == pass.items;

    typename rank_t::places_t places;
    unsigned count = 0;
    const unsigned tile_offset = rank_t(storage.work.rank).template rank<FullTile>(
        digit_of, valid, places, [&](unsigned digit_count) {
          count = digit_count;
          publish_count(pass, tile, digit_count);
        });
    // A tile of pairs whose keys all have one digit keeps its order (after a first pass over few
    // distinct keys, or over keys already grouped, nearly every tile): as CUB does, it goes straight
    // from registers to its place, without the exchange through shared memory. Keys alone do not take
    // this path: their tile of 32 keys a thread would stay in registers across the look-back, which
    // costs their ranking spills. The barrier is also the one after which every thread is done with
    // the ranking's storage.
    if constexpr (FullTile && has_values) {
      if (__syncthreads_or(count == static_cast<unsigned>(tile_items)) != 0) {
        copy_one_digit_tile(storage, pass, tile, tile_base, last, count, tile_offset, keys);
        return;
      }
    } else {
      __syncthreads();
    }
    // CUB's order: the keys go to their places in shared memory, and the values' loads start, before
    // the digit threads look back, so that both overlap the look-back's round trips; the values go to
    // their places once loaded (after the look-back on the digit threads).
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i)
      if (FullTile || rank_t::element(i) < valid) storage.work.sorted.keys[places.get(i)] = keys[i];
    [[maybe_unused]] Value values[has_values ? items_per_thread : 1];
    if constexpr (has_values) {
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) {
        const int e = rank_t::element(i);
        if (FullTile || e < valid) values[i] = pass.values_in[tile_base + e];
      }
    }
    place_digits(storage, pass, tile, last, count, tile_offset);
    if constexpr (has_values) {
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i)
        if (FullTile || rank_t::element(i) < valid) storage.work.sorted.values[places.get(i)] = values[i];
    }
    __syncthreads();
    // Consecutive threads take consecutive places: a digit's keys (and values) land contiguously.
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i) {
      const int place = i * threads + thread;
      if (FullTile || place < valid) {
        const bits_t key = storage.work.sorted.keys[place];
        const offset_t target = storage.digit_base[key_t::digit_of_ordered(key, shift_pass)] + place;
        pass.keys_out[target] = key_t::from_ordered(key);
        if constexpr (has_values) pass.values_out[target] = storage.work.sorted.values[place];
      }
    }
  }
};

}  // namespace fastscan::detail
