#pragma once
// Stable ranking of a tile's radix digits (the block-level half of a radix sort pass).
//
// Items come warp-striped: item i of lane l in warp w is tile element (w * ItemsPerThread + i) * 32 + l,
// so each warp holds one contiguous run of the tile. A warp ranks its items in element order: for each
// i, lanes with the same digit find each other (eight ballots), the highest of them adds their
// number to the warp's counter of that digit, and each takes the counter's old value plus the peers in
// lower lanes; a warp whose run has a single digit (common after the first passes over few distinct
// keys, where a whole tile of pairs then skips the exchange too) skips the ballots, its places being its
// own order. Thread d then turns digit d's warp counters into offsets over the warps, and the
// algorithm's own block scan (DigitScan: matrix, Blelloch tree or Hillis-Steele, one digit per thread)
// gives each digit's first place in the tile. An item's place is its digit's offset, plus the items of
// its digit in lower warps, plus its rank in its warp: the tile stably sorted by digit. A block may have
// more threads than digits (pairs run 512: more warps in flight); threads from 256 on rank items and
// scan zeros.
//
// Two orders, chosen by the tuning (CountsFirst). Votes first: the counters count from zero, so the
// tile's digit counts are known only after every vote, and each place gets its warp's offset added
// after the digit scan. Counts first (CUB's "early counts"): each warp counts its digits with one
// shared atomic a key, the digit scan turns the counts into each warp's first places, and the votes
// then take final places from those counters: the counts reach counts_ready (and a look-back's
// publication) before the votes, so a caller that looks back after rank() has its predecessors'
// counts waiting for it.
//
// Block code only: each item's digit in (a callable, so the caller decides whether digits are kept or
// recomputed), places out; the caller owns the temp_storage (and may union it with whatever it needs
// once the places are known).

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>
#include <fastscan/detail/warp/warp_match.cuh>

#include <cuda/std/functional>

namespace fastscan::detail {

// A thread's items' places in a tile of at most 2^16 elements, two to a 32-bit register: they stay in
// registers from the ranking to the exchange, and halving them (with digits recomputed from the keys
// rather than kept) lets a third block reside per SM.
template <int Items>
struct tile_places {
  static_assert(Items % 2 == 0, "places pair up: an even number of items a thread");
  unsigned halves[Items / 2];

  __device__ int get(int i) const { return static_cast<int>((halves[i / 2] >> (16 * (i % 2))) & 0xffffu); }
  // Sets item i's place; items are set in order, the even one of a pair first.
  __device__ void set(int i, int place) {
    if (i % 2 == 0) halves[i / 2] = static_cast<unsigned>(place);
    else halves[i / 2] |= static_cast<unsigned>(place) << 16;
  }
  // Adds to item i's place (the sum stays below 2^16, so nothing carries into the other half).
  __device__ void add(int i, int delta) { halves[i / 2] += static_cast<unsigned>(delta) << (16 * (i % 2)); }
};

template <int Threads, int ItemsPerThread, class DigitScan, bool CountsFirst>
class block_radix_rank {
 public:
  static constexpr int warps = Threads / 32;
  static_assert(Threads >= radix_digits && Threads % 32 == 0,
                "threads 0..255 hold one digit each (the digit scan and the look-back); any more only rank");
  static_assert(Threads * ItemsPerThread <= 65536, "places are 16-bit (tile_places)");
  using places_t = tile_places<ItemsPerThread>;

  struct temp_storage {
    unsigned warp_counts[warps][radix_digits];  // per warp and digit: counts, then first places in the tile
    typename DigitScan::temp_storage scan;
  };

  // The tile element item i of this thread holds.
  __device__ static int element(int i) {
    return (static_cast<int>(threadIdx.x / 32) * ItemsPerThread + i) * 32 + static_cast<int>(threadIdx.x % 32);
  }

  __device__ explicit block_radix_rank(temp_storage& storage) : s_(storage) {}

  // places receives item i's place in the tile stably sorted by digit, for the items of elements below
  // `valid`; digit_of(i) is item i's digit (computed when needed: keeping 32 digits costs a block per
  // SM). Thread d < 256 gets the tile's count of digit d, which it passes to counts_ready(count)
  // (before the digit scan, and with CountsFirst before the votes: a look-back can publish it early),
  // and returns the number of items with smaller digits (other threads: the tile's size).
  template <bool FullTile, class DigitOf, class CountsReady>
  __device__ unsigned rank(DigitOf const& digit_of, int valid, places_t& places, CountsReady&& counts_ready) {
    const int warp = static_cast<int>(threadIdx.x / 32);
    const unsigned lane = threadIdx.x % 32;
    unsigned* counters = s_.warp_counts[warp];
    for (int d = static_cast<int>(lane); d < radix_digits; d += 32) counters[d] = 0;
    __syncwarp();
    // Every key of the warp's run has its first key's digit (the common case after the first passes
    // over few distinct keys): places are the run's own order, no votes needed.
    const bool one_digit = FullTile && one_digit_warp(digit_of);
    if (one_digit) {
      if (lane == 0) counters[digit_of(0)] = ItemsPerThread * 32;
      if constexpr (!CountsFirst) {
#pragma unroll
        for (int i = 0; i < ItemsPerThread; ++i) places.set(i, i * 32 + static_cast<int>(lane));
      }
    } else if constexpr (CountsFirst) {
#pragma unroll
      for (int i = 0; i < ItemsPerThread; ++i)
        if (FullTile || element(i) < valid) atomicAdd(counters + digit_of(i), 1u);
    } else {
      rank_in_warp<FullTile>(digit_of, valid, places, counters);
    }
    __syncthreads();

    const int digit = static_cast<int>(threadIdx.x);
    const bool holds_digit = thread_holds_digit<Threads>();
    unsigned count = 0;
    if (holds_digit) {
#pragma unroll
      for (int w = 0; w < warps; ++w) {
        const unsigned in_warp = s_.warp_counts[w][digit];
        s_.warp_counts[w][digit] = count;
        count += in_warp;
      }
      counts_ready(count);
    }
    unsigned scanned[1] = {count};
    DigitScan(s_.scan).template scan<scan_kind::inclusive>(scanned, ::cuda::std::plus<unsigned>{}, no_carry{});
    const unsigned offset = scanned[0] - count;
    // Each warp's first place for this digit in the sorted tile.
    if (holds_digit) {
#pragma unroll
      for (int w = 0; w < warps; ++w) s_.warp_counts[w][digit] += offset;
    }
    __syncthreads();
    if constexpr (CountsFirst) {
      if (one_digit) {
        const int first = static_cast<int>(counters[digit_of(0)]);
#pragma unroll
        for (int i = 0; i < ItemsPerThread; ++i) places.set(i, first + i * 32 + static_cast<int>(lane));
      } else {
        rank_in_warp<FullTile>(digit_of, valid, places, counters);  // the counters start at the warp's places
      }
    } else {
#pragma unroll
      for (int i = 0; i < ItemsPerThread; ++i)
        if (FullTile || element(i) < valid) places.add(i, static_cast<int>(counters[digit_of(i)]));
    }
    return offset;
  }

 private:
  // Whether all ItemsPerThread * 32 keys of the calling warp have one digit (lane 0's first); warp-uniform.
  template <class DigitOf>
  __device__ static bool one_digit_warp(DigitOf const& digit_of) {
    const unsigned first = __shfl_sync(0xffffffffu, digit_of(0), 0);
    unsigned differing_bits = 0;
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) differing_bits |= digit_of(i) ^ first;
    return __all_sync(0xffffffffu, differing_bits == 0);
  }

  // Each item's place among the warp's items of its digit (in element order), and the warp's digit counts.
  template <bool FullTile, class DigitOf>
  __device__ static void rank_in_warp(DigitOf const& digit_of, int valid, places_t& places, unsigned* counters) {
    const unsigned lane = threadIdx.x % 32;
    const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < ItemsPerThread; ++i) {
      const bool is_valid = FullTile || element(i) < valid;
      const unsigned digit_i = digit_of(i);
      // Lanes with the same digit: eight ballots (faster than __match_any_sync for 8-bit labels).
      const unsigned peers =
          lanes_with_same_label<radix_bits>(digit_i, FullTile ? 0xffffffffu : __ballot_sync(0xffffffffu, is_valid));
      const int leader = 31 - __clz(peers);
      unsigned before = 0;
      if (is_valid && static_cast<int>(lane) == leader) before = atomicAdd(counters + digit_i, static_cast<unsigned>(__popc(peers)));
      before = __shfl_sync(0xffffffffu, before, leader & 31);
      places.set(i, static_cast<int>(before) + __popc(peers & lanes_below));
    }
  }

  // The digit scan covers one tile alone.
  struct no_carry {
    __device__ maybe<unsigned> operator()(unsigned const&) const { return none<unsigned>(); }
  };

  temp_storage& s_;
};

}  // namespace fastscan::detail
