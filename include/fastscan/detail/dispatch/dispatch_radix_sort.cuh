#pragma once
// Host side of radix sort: plans the temporary storage (a second buffer for keys and values, digit
// counts, digit starts, two sets of look-back words), counts every pass's digits in one read, places
// the digits' starts, then runs one onesweep launch per pass (and per portion of a very large input,
// each portion's launch handing the next its digit starts),
// the keys going back and forth between the caller's buffer and the second one. An odd number of
// passes (8-bit keys) ends with a copy back.
//
// Values wider than 8 bytes do not ride along (they would crowd out the tile in shared memory): the
// keys are sorted with their original positions, and the values gathered by those afterwards.

#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/kernels/kernel_radix_sort.cuh>
#include <fastscan/detail/kernels/kernel_select.cuh>
#include <fastscan/detail/tuning.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace fastscan::detail {

// The most items one launch of a pass sorts, when set (non-zero) below the tuning's: lets tests run the
// portion loop at small sizes. Rounded down to a whole number of tiles.
inline offset_t& radix_sort_portion_items_for_tests() {
  static offset_t items = 0;
  return items;
}

template <class Value>
constexpr bool rides_along = std::is_same_v<Value, keys_only> || sizeof(Value) <= 8;

inline unsigned grid_for(offset_t items, offset_t per_block, offset_t limit) {
  const offset_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks < limit ? blocks : limit);
}

// Sorts keys[0, n) (and values[0, n) with them, unless Value is keys_only), stably, by the order of
// radix_key<Key, Descending>. Values here ride along (rides_along<Value>).
template <class Algorithm, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort_riding(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  using tuning = radix_sort_tuning<Algorithm, Key, Value>;
  using bits_t = typename radix_key<Key, Descending>::bits_t;
  constexpr int passes = radix_key<Key, Descending>::passes;
  constexpr bool has_values = !std::is_same_v<Value, keys_only>;
  if (n <= 1) return cudaSuccess;

  offset_t portion_items = tuning::portion_items;
  const offset_t test_limit = radix_sort_portion_items_for_tests() / tuning::tile_items * tuning::tile_items;
  if (test_limit > 0 && test_limit < portion_items) portion_items = test_limit;
  const offset_t portions = (n + portion_items - 1) / portion_items;
  const offset_t launch_items = n < portion_items ? n : portion_items;
  const offset_t launch_tiles = (launch_items + tuning::tile_items - 1) / tuning::tile_items;  // the most a launch has
  const offset_t lookback_words = 1 + launch_tiles * radix_digits;

  bits_t* other_keys = arena.allocate<bits_t>(static_cast<std::size_t>(n));
  Value* other_values = has_values ? arena.allocate<Value>(static_cast<std::size_t>(n)) : nullptr;
  unsigned long long* counts = arena.allocate<unsigned long long>(std::size_t{passes} * radix_digits);
  offset_t* starts = arena.allocate<offset_t>(static_cast<std::size_t>(passes * portions * radix_digits));
  unsigned* lookback[2] = {arena.allocate<unsigned>(static_cast<std::size_t>(lookback_words)),
                           arena.allocate<unsigned>(static_cast<std::size_t>(lookback_words))};
  const auto onesweep_kernel = radix_onesweep_kernel<tuning, Key, Descending, Value>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_radix_sort_onesweep<tuning, Key, Descending, Value>::temp_storage>(
      arena, onesweep_kernel, launch_tiles, storage)));
  if (arena.measuring()) return cudaSuccess;

  bits_t* key_bits = reinterpret_cast<bits_t*>(keys);
  FASTSCAN_CUDA_TRY(cudaMemsetAsync(counts, 0, std::size_t{passes} * radix_digits * sizeof(unsigned long long), stream));
  const unsigned histogram_blocks =
      grid_for(n, offset_t{tuning::histogram_threads} * tuning::histogram_items_per_thread, 1024);
  radix_histogram_kernel<tuning, Key, Descending><<<histogram_blocks, tuning::histogram_threads, 0, stream>>>(
      key_bits, n, counts, lookback[0], lookback_words);
  FASTSCAN_CUDA_TRY(cudaGetLastError());
  radix_digit_starts_kernel<tuning><<<passes, tuning::threads, 0, stream>>>(counts, starts, portions);
  FASTSCAN_CUDA_TRY(cudaGetLastError());

  bits_t* keys_in = key_bits;
  bits_t* keys_out = other_keys;
  Value* values_in = values;
  Value* values_out = other_values;
  // Each launch reads a portion's keys and values and writes as many.
  footprint_class where = footprint_class::latency_bound;
  FASTSCAN_CUDA_TRY(classify_footprint(
      2 * static_cast<std::size_t>(launch_items) * (sizeof(bits_t) + (has_values ? sizeof(Value) : 0)), where));
  int current = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (offset_t portion = 0; portion < portions; ++portion) {
      const offset_t begin = portion * portion_items;
      const offset_t items = n - begin < portion_items ? n - begin : portion_items;
      radix_pass<bits_t, Value> launch{keys_in + begin,
                                       keys_out,
                                       has_values ? values_in + begin : nullptr,
                                       values_out,
                                       items,
                                       starts + (pass * portions + portion) * radix_digits,
                                       portion + 1 < portions ? starts + (pass * portions + portion + 1) * radix_digits : nullptr,
                                       lookback[current],
                                       lookback[1 - current],
                                       lookback_words,
                                       pass,
                                       prefetches_drawn_tiles(where)};
      const unsigned tiles = static_cast<unsigned>((items + tuning::tile_items - 1) / tuning::tile_items);
      onesweep_kernel<<<tiles, tuning::threads, storage.dynamic_shared_bytes, stream>>>(launch, storage.place);
      FASTSCAN_CUDA_TRY(cudaGetLastError());
      current = 1 - current;
    }
    std::swap(keys_in, keys_out);
    std::swap(values_in, values_out);
  }
  if constexpr (passes % 2 == 1) {
    FASTSCAN_CUDA_TRY(cudaMemcpyAsync(keys, other_keys, static_cast<std::size_t>(n) * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
    if constexpr (has_values) {
      FASTSCAN_CUDA_TRY(cudaMemcpyAsync(values, other_values, static_cast<std::size_t>(n) * sizeof(Value),
                                        cudaMemcpyDeviceToDevice, stream));
    }
  }
  return cudaSuccess;
}

// Sorts keys[0, n), and values[0, n) with them (Value = keys_only: keys alone), stably.
template <class Algorithm, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  if constexpr (rides_along<Value>) {
    return dispatch_radix_sort_riding<Algorithm, Key, Descending, Value>(arena, keys, values, n, stream);
  } else {
    // Keys with their positions, then values[i] = old values[position i].
    using index_t = std::uint64_t;
    if (n <= 1) return cudaSuccess;
    index_t* positions = arena.allocate<index_t>(static_cast<std::size_t>(n));
    Value* gathered = arena.allocate<Value>(static_cast<std::size_t>(n));
    if (!arena.measuring()) {
      copy_kernel<<<grid_for(n, 256, 65536), 256, 0, stream>>>(thrust::counting_iterator<index_t>(0), positions, n);
      FASTSCAN_CUDA_TRY(cudaGetLastError());
    }
    FASTSCAN_CUDA_TRY((dispatch_radix_sort_riding<Algorithm, Key, Descending, index_t>(arena, keys, positions, n, stream)));
    if (arena.measuring()) return cudaSuccess;
    copy_kernel<<<grid_for(n, 256, 65536), 256, 0, stream>>>(thrust::make_permutation_iterator(values, positions),
                                                              gathered, n);
    FASTSCAN_CUDA_TRY(cudaGetLastError());
    copy_kernel<<<grid_for(n, 256, 65536), 256, 0, stream>>>(gathered, values, n);
    return cudaGetLastError();
  }
}

}  // namespace fastscan::detail
