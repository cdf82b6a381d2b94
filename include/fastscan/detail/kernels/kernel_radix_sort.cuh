#pragma once
// __global__ glue for radix sort: the digit counts of every pass, where the digits start, and one
// launch per pass and portion; keys of one digit alone are filled in from the counts; keys of one digit
// with values count every tile's digits, move the values in one launch, and are filled in as the values
// are copied back.

#include <fastscan/detail/agent/agent_radix_sort_counted.cuh>
#include <fastscan/detail/agent/agent_radix_sort_fill.cuh>
#include <fastscan/detail/agent/agent_radix_sort_histogram.cuh>
#include <fastscan/detail/agent/agent_radix_sort_onesweep.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>

namespace fastscan::detail {

// Counts every pass's digits; also clears the first launch's look-back words.
template <class Tuning, class Key, bool Descending>
__global__ void __launch_bounds__(Tuning::histogram_threads)
    radix_histogram_kernel(typename radix_key<Key, Descending>::bits_t const* keys, offset_t n,
                           unsigned long long* counts, unsigned* first_lookback, offset_t lookback_words) {
  follow_previous_grid();
  using agent = agent_radix_sort_histogram<Tuning, Key, Descending>;
  __shared__ typename agent::temp_storage storage;
  const offset_t stride = static_cast<offset_t>(gridDim.x) * Tuning::histogram_threads;
  for (offset_t i = static_cast<offset_t>(blockIdx.x) * Tuning::histogram_threads + threadIdx.x; i < lookback_words; i += stride)
    first_lookback[i] = 0;
  agent::count_digits(storage, keys, n, counts);
}

template <class Tuning>
__global__ void __launch_bounds__(Tuning::threads)
    radix_digit_starts_kernel(unsigned long long const* counts, offset_t n, offset_t* starts, offset_t portions,
                              unsigned* tile_counters) {
  follow_previous_grid();
  using agent = agent_radix_sort_digit_starts<Tuning>;
  __shared__ typename agent::temp_storage storage;
  agent::digit_starts(storage, counts, n, starts, portions, tile_counters);
}

template <class Tuning, class Key, bool Descending, class Value>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    radix_onesweep_kernel(radix_pass<typename radix_key<Key, Descending>::bits_t, Value> pass, block_storage_place place) {
  follow_previous_grid();
  using agent = agent_radix_sort_onesweep<Tuning, Key, Descending, Value>;
  agent::consume_tile(block_temp_storage<typename agent::temp_storage>(place), pass);
}

template <class Tuning, class Key, bool Descending>
__global__ void __launch_bounds__(Tuning::count_threads)
    radix_tile_counts_kernel(typename radix_key<Key, Descending>::bits_t const* keys, offset_t n, offset_t tiles,
                             bool aligned, unsigned* tile_counts, radix_counted_progress progress) {
  follow_previous_grid();
  using agent = agent_radix_tile_counts<Tuning, Key, Descending>;
  __shared__ typename agent::temp_storage storage;
  agent::count(storage, keys, n, tiles, aligned, tile_counts, progress);
}

template <class Tuning, class Key, bool Descending, class Value, bool StraightWrites>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    radix_counted_scatter_kernel(radix_counted_pass<typename radix_key<Key, Descending>::bits_t, Value> pass) {
  follow_previous_grid();
  using agent = agent_radix_sort_counted<Tuning, Key, Descending, Value>;
  static_assert(fits_static_shared<typename agent::temp_storage>, "the counted pass's storage is static shared memory");
  __shared__ typename agent::temp_storage storage;
  agent::template consume_tile<StraightWrites>(storage, pass);
}

inline constexpr int radix_fill_threads = 256;

template <class Key, bool Descending, class ValuesCopy>
__global__ void __launch_bounds__(radix_fill_threads)
    radix_fill_kernel(offset_t const* starts, typename radix_key<Key, Descending>::bits_t* keys, offset_t n, bool aligned,
                      ValuesCopy values) {
  follow_previous_grid();
  using agent = agent_radix_sort_fill<Key, Descending>;
  __shared__ typename agent::temp_storage storage;
  agent::template fill<radix_fill_threads>(storage, starts, keys, n, aligned, values);
}

}  // namespace fastscan::detail
