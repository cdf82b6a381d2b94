#pragma once
// Keys of one radix digit alone (8-bit integers and bool, no values) are sorted by counting: once the
// digit counts and starts are known (agent_radix_sort_histogram.cuh), output position i holds the key
// whose digit's range [start, next start) contains i. Equal keys are indistinguishable, so no key needs
// to move: the output is written in 16-byte runs, each thread finding its run's first digit by a binary
// search of the starts and stepping across digit boundaries within the run (rarely: a run of one digit
// is written at once). The grid is at most what the device holds at once, each thread writing every
// grid's-width run, so that a block's reading of the starts is spread over many runs.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>

#include <cstdint>

namespace fastscan::detail {

template <class Key, bool Descending>
struct agent_radix_sort_fill {
  using key_t = radix_key<Key, Descending>;
  using bits_t = typename key_t::bits_t;
  static_assert(key_t::passes == 1, "filled from the counts: keys of one digit");
  static constexpr int run = 16;  // keys a thread writes together: one 16-byte store

  struct temp_storage {
    offset_t bounds[radix_digits + 1];  // each digit's start, then n
  };

  // Writes keys[0, n) from the digit starts; `aligned`: keys is 16-byte aligned.
  template <int Threads>
  __device__ static void fill(temp_storage& storage, offset_t const* starts, bits_t* keys, offset_t n, bool aligned) {
    for (int d = static_cast<int>(threadIdx.x); d < radix_digits; d += Threads) storage.bounds[d] = starts[d];
    if (threadIdx.x == 0) storage.bounds[radix_digits] = n;
    __syncthreads();
    const offset_t runs = (n + run - 1) / run;
    for (offset_t r = static_cast<offset_t>(blockIdx.x) * Threads + threadIdx.x; r < runs;
         r += static_cast<offset_t>(gridDim.x) * Threads) {
      const offset_t first = r * run;
      // The last digit whose start is at most `first`: the one whose range holds it.
      int low = 0, high = radix_digits - 1;
      while (low < high) {
        const int mid = (low + high + 1) / 2;
        if (storage.bounds[mid] <= first) low = mid;
        else high = mid - 1;
      }
      int digit = low;
      bits_t out[run];
      if (storage.bounds[digit + 1] >= first + run) {  // the whole run is one digit: nearly every run
#pragma unroll
        for (int i = 0; i < run; ++i) out[i] = key_t::from_ordered(static_cast<bits_t>(digit));
      } else {
#pragma unroll
        for (int i = 0; i < run; ++i) {
          while (storage.bounds[digit + 1] <= first + i && digit < radix_digits - 1) ++digit;
          out[i] = key_t::from_ordered(static_cast<bits_t>(digit));
        }
      }
      if (aligned && first + run <= n) {
        *reinterpret_cast<uint4*>(keys + first) = *reinterpret_cast<uint4 const*>(out);
      } else {
#pragma unroll
        for (int i = 0; i < run; ++i)
          if (first + i < n) keys[first + i] = out[i];
      }
    }
  }
};

}  // namespace fastscan::detail
