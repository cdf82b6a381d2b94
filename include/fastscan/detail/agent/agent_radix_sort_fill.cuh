#pragma once
// Keys of one radix digit alone (8-bit integers and bool, no values) are sorted by counting: once the
// digit counts and starts are known (agent_radix_sort_histogram.cuh), output position i holds the key
// whose digit's range [start, next start) contains i. Equal keys are indistinguishable, so no key needs
// to move: the output is written in 16-byte runs, each thread finding its run's first digit by a binary
// search of the starts and stepping across digit boundaries within the run (rarely: a run of one digit
// is written at once). The grid is bounded (by the dispatch), each block writing every grid's-width
// chunk of runs, so that a block's reading of the starts is spread over many runs.
//
// A sort of such keys with values (agent_radix_sort_counted.cuh) leaves its sorted values in a second
// buffer, on large inputs only part of them (digit d's places below straight_from[d]): they are copied
// back in the same sweep (sorted_values_copy), each chunk's values beside its keys, so the keys' writes
// and the values' copy share one launch's traffic.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/radix_key.cuh>

#include <cstdint>

namespace fastscan::detail {

// The digit whose range [bounds[d], bounds[d + 1]) holds `place` (bounds: each digit's start, then n):
// the last digit whose start is at most `place`.
__device__ inline int digit_holding(offset_t const* bounds, offset_t place) {
  int low = 0, high = radix_digits - 1;
  while (low < high) {
    const int mid = (low + high + 1) / 2;
    if (bounds[mid] <= place) low = mid;
    else high = mid - 1;
  }
  return low;
}

// Nothing rides along the fill: keys alone.
struct no_values_copy {
  template <int Threads, class Between>
  __device__ void copy(offset_t, offset_t, offset_t const*, Between&& between) const {
    between();
  }
};

// values[first, first + count) = sorted[first, first + count): the sorted values copied back to the
// caller's buffer, a chunk at a time, consecutive threads taking consecutive 16-byte vectors where both
// buffers allow them. `between` runs while the chunk's loads are in flight. Partial: only the places
// the pass left in `sorted`, digit d's below straight_from[d] (bounds: each digit's start, then n).
template <class Value, bool Partial = false>
struct sorted_values_copy {
  Value const* sorted;
  Value* values;
  bool vectors;                             // both buffers 16-byte aligned
  offset_t const* straight_from = nullptr;  // Partial: per digit, the first place the pass wrote itself

  static constexpr bool vectorizable = 16 % sizeof(Value) == 0;

  template <int Threads, class Between>
  __device__ void copy(offset_t first, offset_t count, offset_t const* bounds, Between&& between) const {
    constexpr int per_vector = vectorizable ? static_cast<int>(16 / sizeof(Value)) : 1;
    constexpr int chunk_vectors = Threads * 16 / per_vector;  // a full chunk: Threads runs of 16
    static_assert(!vectorizable || chunk_vectors % Threads == 0, "a full chunk is whole vectors a thread");
    bool whole = true;  // the chunk's places all to copy
    int first_digit = 0, last_digit = 0;
    if constexpr (Partial) {
      first_digit = digit_holding(bounds, first);
      last_digit = bounds[first_digit + 1] >= first + count ? first_digit : digit_holding(bounds, first + count - 1);
      whole = first_digit == last_digit && first + count <= straight_from[first_digit];
    }
    if (vectorizable && vectors && count == static_cast<offset_t>(Threads) * 16 && whole) {
      uint4 const* from = reinterpret_cast<uint4 const*>(sorted + first);
      uint4* to = reinterpret_cast<uint4*>(values + first);
      uint4 moved[chunk_vectors / Threads];
#pragma unroll
      for (int v = 0; v < chunk_vectors / Threads; ++v) moved[v] = from[v * Threads + threadIdx.x];
      between();
#pragma unroll
      for (int v = 0; v < chunk_vectors / Threads; ++v) to[v * Threads + threadIdx.x] = moved[v];
    } else if (!Partial || whole) {
      between();
      for (offset_t i = threadIdx.x; i < count; i += Threads) values[first + i] = sorted[first + i];
    } else {
      between();
      for (int digit = first_digit; digit <= last_digit; ++digit) {
        const offset_t from = first > bounds[digit] ? first : bounds[digit];
        const offset_t end_of_digit = straight_from[digit] < bounds[digit + 1] ? straight_from[digit] : bounds[digit + 1];
        const offset_t to = first + count < end_of_digit ? first + count : end_of_digit;
        for (offset_t i = from + threadIdx.x; i < to; i += Threads) values[i] = sorted[i];
      }
    }
  }
};

template <class Key, bool Descending>
struct agent_radix_sort_fill {
  using key_t = radix_key<Key, Descending>;
  using bits_t = typename key_t::bits_t;
  static_assert(key_t::passes == 1, "filled from the counts: keys of one digit");
  static constexpr int run = 16;  // keys a thread writes together: one 16-byte store

  struct temp_storage {
    offset_t bounds[radix_digits + 1];  // each digit's start, then n
  };

  // Writes keys[0, n) from the digit starts, and has `values` copy each chunk's values (no_values_copy
  // or sorted_values_copy); `aligned`: keys is 16-byte aligned.
  template <int Threads, class ValuesCopy>
  __device__ static void fill(temp_storage& storage, offset_t const* starts, bits_t* keys, offset_t n, bool aligned,
                              ValuesCopy const& values) {
    for (int d = static_cast<int>(threadIdx.x); d < radix_digits; d += Threads) storage.bounds[d] = starts[d];
    if (threadIdx.x == 0) storage.bounds[radix_digits] = n;
    __syncthreads();
    constexpr offset_t chunk = static_cast<offset_t>(Threads) * run;
    for (offset_t chunk_first = static_cast<offset_t>(blockIdx.x) * chunk; chunk_first < n;
         chunk_first += static_cast<offset_t>(gridDim.x) * chunk) {
      values.template copy<Threads>(chunk_first, n - chunk_first < chunk ? n - chunk_first : chunk, storage.bounds, [&] {
        const offset_t first = chunk_first + static_cast<offset_t>(threadIdx.x) * run;
        if (first < n) write_run(storage, keys, n, aligned, first);
      });
    }
  }

 private:
  // Keys [first, first + run) (those below n).
  __device__ static void write_run(temp_storage const& storage, bits_t* keys, offset_t n, bool aligned, offset_t first) {
    int digit = digit_holding(storage.bounds, first);
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
};

}  // namespace fastscan::detail
