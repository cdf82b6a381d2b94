#pragma once
// The one pass of 8-bit keys with values, with no look-back: every tile's digit counts are counted
// first (agent_radix_tile_counts), an exclusive scan of them in digit-major order (digit d of tile t at
// d * tiles + t; the algorithm family's own device scan, dispatch_radix_sort.cuh) gives where each
// tile's keys of each digit start in the output, and then each tile is ranked (block_radix_rank.cuh)
// and its values exchanged through shared memory into runs of one digit, which go straight to those
// starts (agent_radix_sort_counted). The tiles are independent: no block waits for another, where the
// onesweep pass (agent_radix_sort_onesweep.cuh) has each tile wait for its predecessors' 256 counts.
//
// Keys do not travel: every key of a digit is the same, so the keys are written afterwards from the
// digits' starts (agent_radix_sort_fill.cuh), which tile 0's block hands out: its starts are theirs.
//
// The values go to a second buffer, to be copied back (the interface sorts in place). On inputs large
// enough for that copy to run at DRAM's rate the pass is compiled with straight writes: a tile's run goes
// to the caller's buffer itself where every value it overwrites has already been read. Tiles are then
// drawn in the order blocks start, and each marks itself consumed once its values are in shared memory.
// Tile t's run of digit d goes straight when it ends below the first place of tile t - lag (t > lag),
// after tile t has waited for tiles [0, t - lag) to be consumed. A digit's runs advance by at most a tile
// a tile and that bound by exactly one, so from the first tile whose run of d goes straight (its start:
// straight_from[d]) every later one does too, and only digit d's places [start of d, straight_from[d])
// are copied back. With uniform keys about half the values go straight.

#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/block/block_radix_rank.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>
#include <fastscan/detail/uninitialized.cuh>

#include <cstdint>
#include <type_traits>

namespace fastscan::detail {

// The ordered bits of 8-bit integer keys are their own bits xor a constant (the sign bit, all bits
// for descending), so 16 keys of one 16-byte load turn ordered with four xors.
template <class Key, bool Descending>
struct byte_key_order {
  using key_t = radix_key<Key, Descending>;
  static_assert(key_t::passes == 1 && std::is_integral_v<Key>, "one digit a key: 8-bit integer keys");
  __device__ static uint4 ordered(uint4 word) {
    const unsigned flip = 0x01010101u * key_t::ordered(typename key_t::bits_t{0});
    word.x ^= flip, word.y ^= flip, word.z ^= flip, word.w ^= flip;
    return word;
  }
};

// How the straight-writing pass draws and consumes its tiles and what it leaves to the copy back;
// cleared by the counting blocks (`consumed` null: a pass without straight writes, nothing to clear).
struct radix_counted_progress {
  unsigned* drawn = nullptr;           // the tile counter
  unsigned* consumed_below = nullptr;  // tiles [0, consumed_below) are all consumed (a lower bound)
  unsigned* consumed = nullptr;        // per tile: 1 once its keys and values have been read
  offset_t* straight_from = nullptr;   // per digit: the first place written straight, else no_place
  static constexpr offset_t no_place = ~(offset_t{1} << 63);

  // By every counting block: the flags of its tiles, and block 0 the rest.
  template <int Threads>
  __device__ void clear(offset_t first_tile, int tiles_per_block, offset_t tiles) const {
    if (consumed == nullptr) return;
    for (int g = static_cast<int>(threadIdx.x); g < tiles_per_block; g += Threads)
      if (first_tile + g < tiles) consumed[first_tile + g] = 0;
    if (blockIdx.x == 0) {
      for (int d = static_cast<int>(threadIdx.x); d < radix_digits; d += Threads) straight_from[d] = no_place;
      if (threadIdx.x == 0) *drawn = 0, *consumed_below = 0;
    }
  }

  // Warp 0: waits until tiles [0, below) are all consumed, reading their flags 32 at a time from the
  // shared lower bound, and raises the bound.
  __device__ void wait_consumed(unsigned below) const {
    const unsigned lane = threadIdx.x % 32;
    unsigned reached = load_relaxed(consumed_below);
    int waits = 0;
    while (reached < below) {
      const unsigned index = reached + lane;
      const bool done = index >= below || load_relaxed(consumed + index) != 0;
      const unsigned pending = __ballot_sync(~0u, !done);
      if (pending == 0) {
        reached = reached + 32 < below ? reached + 32 : below;
      } else {
        reached += static_cast<unsigned>(__ffs(pending) - 1);
        if ((pending & 1u) && ++waits > 2) __nanosleep(64);
      }
    }
    __threadfence();  // the flags seen before this block's writes over those tiles' values
    if (lane == 0) atomicMax(consumed_below, reached);
  }

  // Thread 0, after the block's barrier that follows its last read of the tile's values.
  __device__ void mark_consumed(offset_t tile) const {
    __threadfence();
    store_relaxed(consumed + tile, 1u);
  }
};

// Digit counts of every tile, each block counting tiles_per_count_block consecutive tiles (their 16-byte
// loads all in flight at once) and writing each digit's counts of them side by side.
template <class Tuning, class Key, bool Descending>
struct agent_radix_tile_counts {
  using key_t = radix_key<Key, Descending>;
  using bits_t = typename key_t::bits_t;
  static constexpr int threads = Tuning::count_threads;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int tiles_per_block = Tuning::tiles_per_count_block;
  static_assert(tile_items == 16 * threads, "a thread loads 16 keys of each tile");

  // Rows padded by 4 counters: the write-out's lanes (8 tiles of 4 digits) meet 32 different banks.
  static constexpr int row = radix_digits + 4;
  struct temp_storage {
    unsigned counts[tiles_per_block][row];
  };

  // tile_counts[d * tiles + t]: tile t's count of digit d; `aligned`: keys is 16-byte aligned.
  __device__ static void count(temp_storage& storage, bits_t const* keys, offset_t n, offset_t tiles, bool aligned,
                               unsigned* tile_counts, radix_counted_progress const& progress) {
    for (int i = static_cast<int>(threadIdx.x); i < tiles_per_block * row; i += threads) (&storage.counts[0][0])[i] = 0;
    const offset_t first = static_cast<offset_t>(blockIdx.x) * tiles_per_block;
    progress.template clear<threads>(first, tiles_per_block, tiles);
    __syncthreads();
    if (aligned && (first + tiles_per_block) * tile_items <= n) {
      uint4 words[tiles_per_block];
      uint4 const* vectors = reinterpret_cast<uint4 const*>(keys + first * tile_items);
#pragma unroll
      for (int g = 0; g < tiles_per_block; ++g) words[g] = vectors[g * threads + threadIdx.x];
#pragma unroll
      for (int g = 0; g < tiles_per_block; ++g) {
        const uint4 ordered = byte_key_order<Key, Descending>::ordered(words[g]);
        const unsigned four[4] = {ordered.x, ordered.y, ordered.z, ordered.w};
#pragma unroll
        for (int w = 0; w < 4; ++w)
#pragma unroll
          for (int b = 0; b < 4; ++b) atomicAdd(&storage.counts[g][(four[w] >> (8 * b)) & 0xffu], 1u);
      }
    } else {
      for (int g = 0; g < tiles_per_block && first + g < tiles; ++g) {
        const offset_t base = (first + g) * tile_items;
        const offset_t valid = n - base < tile_items ? n - base : tile_items;
        for (offset_t i = threadIdx.x; i < valid; i += threads) atomicAdd(&storage.counts[g][key_t::ordered(keys[base + i])], 1u);
      }
    }
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.x); i < tiles_per_block * radix_digits; i += threads) {
      const int digit = i / tiles_per_block, g = i % tiles_per_block;
      if (first + g < tiles) tile_counts[digit * tiles + first + g] = storage.counts[g][digit];
    }
  }
};

// What the pass works on.
template <class Bits, class Value>
struct radix_counted_pass {
  Bits const* keys;
  Value* values;                 // read; with straight writes also written where already read
  Value* sorted_values;          // the second buffer: the sorted values (the rest of them, with straight writes)
  offset_t n;
  offset_t tiles;
  bool aligned;                  // keys is 16-byte aligned
  offset_t const* tile_starts;   // [d * tiles + t]: where tile t's keys of digit d start in the output
  offset_t* digit_starts;        // 256: where each digit's keys start, written by tile 0's block
  radix_counted_progress progress;  // straight writes only
  offset_t lag;                  // straight writes: tiles between a tile and the consumed ones it writes over
  offset_t straight_shift;       // straight writes: values - sorted_values, in elements
};

template <class Tuning, class Key, bool Descending, class Value>
struct agent_radix_sort_counted {
  using key_t = radix_key<Key, Descending>;
  using bits_t = typename key_t::bits_t;
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  using rank_t = block_radix_rank<threads, items_per_thread, typename Tuning::template digit_scan<unsigned>, false>;

  // Within static shared memory (radix_counted_shape): reached by shared, not generic, addresses.
  struct alignas(16) temp_storage {  // 16: the keys arrive as 16-byte vectors
    uninitialized_array<bits_t, tile_items> keys;  // the tile's ordered keys in element order, then sorted
    union {
      typename rank_t::temp_storage rank;
      uninitialized_array<Value, tile_items> values;  // sorted
    } work;
    // Per digit: where the tile's sorted place 0 would go, counted from sorted_values, and for a run that
    // goes straight shifted onto the caller's buffer (device addresses are flat, and the dispatch writes
    // straight only where the two lie a whole number of values apart): one address computation a value
    // for either buffer, where a per-digit choice would cost a shared-memory load a value.
    offset_t digit_base[radix_digits];
    offset_t tile;  // straight writes: the drawn tile
  };

  template <bool StraightWrites>
  __device__ static void consume_tile(temp_storage& storage, radix_counted_pass<bits_t, Value> const& pass) {
    constexpr int key_vectors = tile_items / 16;
    static_assert(key_vectors <= threads, "at most one 16-byte vector of a tile's keys a thread");
    const int thread = static_cast<int>(threadIdx.x);
    const offset_t launch_tile = blockIdx.x;
    const auto key_vector = [&](offset_t tile) { return reinterpret_cast<uint4 const*>(pass.keys + tile * tile_items)[thread]; };
    // Straight writes draw the tile (in the order blocks start: the tiles it waits for are running); the
    // draw nearly always gives the launch order's tile, whose keys are loaded while the draw is in flight.
    uint4 early_keys{};
    offset_t tile = launch_tile;
    if constexpr (StraightWrites) {
      if (pass.aligned && (launch_tile + 1) * tile_items <= pass.n && thread < key_vectors) early_keys = key_vector(launch_tile);
      tile = draw_tile(storage.tile, false, [&] { return static_cast<offset_t>(atomicAdd(pass.progress.drawn, 1u)); },
                       [](offset_t) {});
    }
    const offset_t base = tile * tile_items;
    const int valid = static_cast<int>(pass.n - base < tile_items ? pass.n - base : tile_items);
    // The keys go to shared memory first (16-byte loads where aligned), from where each thread takes its
    // items' keys in the ranking's warp-striped order.
    if (valid == tile_items && pass.aligned) {
      if (thread < key_vectors) {
        const uint4 word = StraightWrites && tile == launch_tile ? early_keys : key_vector(tile);
        reinterpret_cast<uint4*>(&storage.keys[0])[thread] = byte_key_order<Key, Descending>::ordered(word);
      }
    } else {
      for (int e = thread; e < tile_items; e += threads)
        storage.keys[e] = e < valid ? key_t::ordered(pass.keys[base + e]) : bits_t{0};
    }
    __syncthreads();
    // Each item's key, four to a register: the ranking reads every key several times, and the keys in
    // shared memory are overwritten in sorted order before the last read.
    unsigned digits[items_per_thread / 4];
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i) {
      if (i % 4 == 0) digits[i / 4] = 0;
      digits[i / 4] |= static_cast<unsigned>(storage.keys[rank_t::element(i)]) << (8 * (i % 4));
    }
    const auto digit_of = [&](int i) { return (digits[i / 4] >> (8 * (i % 4))) & 0xffu; };
    typename rank_t::places_t places;
    // Only the ranking is compiled twice: the moves below check each place against `valid` in every
    // tile, which costs less than the registers their unchecked copy would take.
    const unsigned tile_offset =
        valid == tile_items ? rank_t(storage.work.rank).template rank<true>(digit_of, valid, places, [](unsigned) {})
                            : rank_t(storage.work.rank).template rank<false>(digit_of, valid, places, [](unsigned) {});
    bool straight = false;  // straight writes: the tile's run of the thread's digit goes to the caller's buffer
    if (thread_holds_digit<threads>()) {  // thread d: digit d
      const offset_t entry = thread * pass.tiles + tile;
      const offset_t start = pass.tile_starts[entry];
      if constexpr (StraightWrites) {
        // Places below (t - lag) * tile_items belong to tiles [0, t - lag), consumed before tile t writes.
        const auto consumed_end = [&](offset_t t) { return t > pass.lag ? (t - pass.lag) * tile_items : offset_t{-1}; };
        const offset_t end = entry + 1 < radix_digits * pass.tiles ? pass.tile_starts[entry + 1] : pass.n;
        straight = end <= consumed_end(tile);
        // The previous tile's run ended at `start`: if it did not go straight, this one is the digit's first.
        if (straight && start > consumed_end(tile - 1)) pass.progress.straight_from[thread] = start;
      }
      storage.digit_base[thread] = start - tile_offset + (straight ? pass.straight_shift : 0);
      if (tile == 0) pass.digit_starts[thread] = start;
    }
    // The ranking's storage and the keys in element order are free.
    bool any_straight = false;
    if constexpr (StraightWrites) any_straight = __syncthreads_or(straight);
    else __syncthreads();
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i) {
      const int e = rank_t::element(i);
      if (e < valid) {
        const int place = places.get(i);
        storage.keys[place] = static_cast<bits_t>(digits[i / 4] >> (8 * (i % 4)));
        storage.work.values[place] = pass.values[base + e];
      }
    }
    // Warp 0, its own values loaded, waits for the tiles this one writes over (rarely long: they were drawn
    // long before); the barrier then releases the block's writes, and the tile is marked consumed.
    if (any_straight && thread < 32) pass.progress.wait_consumed(static_cast<unsigned>(tile - pass.lag));
    __syncthreads();
    if (StraightWrites && thread == 0) pass.progress.mark_consumed(tile);
    // Consecutive threads take consecutive places: a digit's values land contiguously.
#pragma unroll
    for (int i = 0; i < items_per_thread; ++i) {
      const int place = i * threads + thread;
      if (place < valid) pass.sorted_values[storage.digit_base[storage.keys[place]] + place] = storage.work.values[place];
    }
  }
};

}  // namespace fastscan::detail
