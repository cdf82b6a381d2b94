#pragma once
// Before the passes of a radix sort: every pass's digit counts in one read of the keys, then where each
// digit's keys start in every pass's output, which is an exclusive scan of the counts over the digits
// run with the algorithm's own block scan (one digit per thread).
//
// These are the starts of the first portion of each pass (radix_sort_tuning::portion_items: the most
// one launch sorts); the last tile of each portion's launch hands the next portion its starts.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>

#include <cuda/std/functional>

namespace fastscan::detail {

template <class Tuning, class Key, bool Descending>
struct agent_radix_sort_histogram {
  using key_t = radix_key<Key, Descending>;
  using bits_t = typename key_t::bits_t;
  static constexpr int passes = key_t::passes;
  static constexpr int threads = Tuning::histogram_threads;
  static constexpr int items_per_thread = Tuning::histogram_items_per_thread;

  struct temp_storage {
    unsigned counts[passes][radix_digits];
  };

  // Adds this block's share of the digit counts of keys[0, items) to counts (passes x 256).
  __device__ static void count_digits(temp_storage& storage, bits_t const* keys, offset_t items,
                                      unsigned long long* counts) {
    for (int i = static_cast<int>(threadIdx.x); i < passes * radix_digits; i += threads) (&storage.counts[0][0])[i] = 0;
    __syncthreads();
    constexpr offset_t block_items = offset_t{threads} * items_per_thread;
    for (offset_t base = static_cast<offset_t>(blockIdx.x) * block_items; base < items; base += gridDim.x * block_items) {
      bits_t block_keys[items_per_thread];
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) {
        const offset_t at = base + i * threads + threadIdx.x;
        if (at < items) block_keys[i] = keys[at];
      }
#pragma unroll
      for (int i = 0; i < items_per_thread; ++i) {
        if (base + i * threads + threadIdx.x < items) {
#pragma unroll
          for (int pass = 0; pass < passes; ++pass) atomicAdd(&storage.counts[pass][key_t::digit(block_keys[i], pass)], 1u);
        }
      }
    }
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.x); i < passes * radix_digits; i += threads) {
      const unsigned count = (&storage.counts[0][0])[i];
      if (count != 0) atomicAdd(counts + i, static_cast<unsigned long long>(count));
    }
  }
};

// The passes a sort leaves out (bit p: pass p), from those in which every key has the same digit (bit
// p of one_digit): such a pass leaves the order as it is, and only the buffer its output goes to
// matters. Of a run of such consecutive passes an even number is left out (the keys stay where the run
// found them); of an odd number the first still runs (its warps all take block_radix_rank.cuh's
// one-digit short cut) and moves them to the buffer the run must end in, and the rest are left out.
__host__ __device__ inline unsigned long long radix_left_out_passes(unsigned long long one_digit, int passes) {
  unsigned long long left_out = 0;
  for (int first = 0; first < passes;) {
    if (((one_digit >> first) & 1ull) == 0) {
      ++first;
      continue;
    }
    int end = first;
    while (end < passes && ((one_digit >> end) & 1ull) != 0) ++end;
    for (int p = (end - first) % 2 == 0 ? first : first + 1; p < end; ++p) left_out |= 1ull << p;
    first = end;
  }
  return left_out;
}

// Where a left-out launch's tile counter starts (agent_radix_sort_onesweep.cuh): above any tile count
// (a launch sorts at most 2^30 items).
inline constexpr unsigned radix_left_out_draw = 1u << 31;

// Where each digit's keys start in each pass's output (called by the block of pass blockIdx.x, one
// digit per thread): after every key of a smaller digit. Block 0 also finds the passes to leave out,
// and starts every launch's tile counter: at 0, or at radix_left_out_draw where its pass is left out.
template <class Tuning>
struct agent_radix_sort_digit_starts {
  using digit_scan = typename Tuning::template digit_scan<offset_t>;
  using temp_storage = typename digit_scan::temp_storage;

  struct no_carry {
    __device__ maybe<offset_t> operator()(offset_t const&) const { return none<offset_t>(); }
  };

  // counts: [pass][digit] of n keys (one block a pass); starts: [pass][portion][digit], of which portion 0
  // is written here; tile_counters (unless null): [pass][portion], one a launch.
  __device__ static void digit_starts(temp_storage& storage, unsigned long long const* counts, offset_t n,
                                      offset_t* starts, offset_t portions, unsigned* tile_counters) {
    const int pass = static_cast<int>(blockIdx.x);
    const int passes = static_cast<int>(gridDim.x);
    const int digit = static_cast<int>(threadIdx.x);
    const bool holds_digit = thread_holds_digit<Tuning::threads>();  // the others scan zeros
    const offset_t count = holds_digit ? static_cast<offset_t>(counts[pass * radix_digits + digit]) : 0;
    // Block 0 reads every pass's count of its digit together with its own; only the bits meet at
    // barriers (the first sort launch waits for this kernel).
    unsigned long long holds_all = 0;  // bit p: this thread's digit holds all n keys in pass p
    if (blockIdx.x == 0 && tile_counters != nullptr && holds_digit) {
#pragma unroll 8
      for (int p = 0; p < passes; ++p)
        if (static_cast<offset_t>(counts[p * radix_digits + digit]) == n) holds_all |= 1ull << p;
    }
    offset_t scanned[1] = {count};
    digit_scan(storage).template scan<scan_kind::inclusive>(scanned, ::cuda::std::plus<offset_t>{}, no_carry{});
    if (holds_digit) starts[pass * portions * radix_digits + digit] = scanned[0] - count;
    if (blockIdx.x == 0 && tile_counters != nullptr) {
      unsigned long long one_digit = 0;
      for (int p = 0; p < passes; ++p)
        if (__syncthreads_or(static_cast<int>((holds_all >> p) & 1ull)) != 0) one_digit |= 1ull << p;
      const unsigned long long left_out = radix_left_out_passes(one_digit, passes);
      const offset_t launches = static_cast<offset_t>(passes) * portions;
      for (offset_t launch = threadIdx.x; launch < launches; launch += Tuning::threads)
        tile_counters[launch] = ((left_out >> (launch / portions)) & 1ull) != 0 ? radix_left_out_draw : 0u;
    }
  }
};

}  // namespace fastscan::detail
