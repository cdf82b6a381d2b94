#pragma once
// Host side of radix sort, in named steps: plan the portions and the temporary storage (a second
// buffer for keys and values, digit counts, digit starts, a tile counter a launch, two sets of
// look-back words), count every pass's digits in one read and place their starts, run one onesweep
// launch per pass (and per portion of a very large input, each portion's launch handing the next its
// digit starts). Keys of 8 bits, a single pass, take their own paths: alone they are not moved at all
// (counted, then written from their digits' starts: agent_radix_sort_fill.cuh); with values, every
// tile's digits are counted and scanned, the values move in one launch to a temporary buffer (on large
// inputs partly straight to the caller's), and the keys are written from their digits' starts as the
// values left in the temporary buffer are copied back (agent_radix_sort_counted.cuh).
//
// Values wider than 8 bytes do not ride along (they would crowd out the tile in shared memory): the
// keys are sorted with their original positions, and the values gathered by those afterwards.

#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/device_facts.cuh>
#include <fastscan/detail/dispatch/dispatch_scan.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/kernels/kernel_radix_sort.cuh>
#include <fastscan/detail/tuning/tuning_radix_sort.cuh>

#include <cuda/std/functional>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>

#include <cstddef>
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

// When set (at least 0), the sort of 8-bit keys with values writes values straight to the caller's
// buffer at every size with this lag (agent_radix_sort_counted.cuh), as it does past its tuning's size:
// lets tests run that path, and its waits, on small inputs.
inline offset_t& radix_counted_lag_for_tests() {
  static offset_t lag = -1;
  return lag;
}

template <class Value>
constexpr bool rides_along = std::is_same_v<Value, keys_only> || sizeof(Value) <= 8;

// How a sort of n items is split into launches, and the storage it takes: every launch of a pass sorts
// one portion of at most portion_items; its look-back words serve the largest portion.
template <class Tuning, class Bits, class Value>
struct radix_sort_plan {
  static constexpr bool has_values = !std::is_same_v<Value, keys_only>;
  offset_t n = 0;
  offset_t portion_items = 0;
  offset_t portions = 0;
  offset_t launch_items = 0;  // the most items a launch sorts
  offset_t launch_tiles = 0;
  offset_t lookback_words = 0;
  Bits* other_keys = nullptr;  // the second buffer keys and values go back and forth with
  Value* other_values = nullptr;
  unsigned long long* counts = nullptr;  // every pass's digit counts
  offset_t* starts = nullptr;            // every pass's and portion's digit starts
  unsigned* tile_counters = nullptr;     // every pass's and portion's launch's
  unsigned* lookback[2] = {nullptr, nullptr};

  void plan(temp_arena& arena, int passes, offset_t items) {
    n = items;
    portion_items = Tuning::portion_items;
    const offset_t test_limit = radix_sort_portion_items_for_tests() / Tuning::tile_items * Tuning::tile_items;
    if (test_limit > 0 && test_limit < portion_items) portion_items = test_limit;
    portions = (n + portion_items - 1) / portion_items;
    launch_items = n < portion_items ? n : portion_items;
    launch_tiles = (launch_items + Tuning::tile_items - 1) / Tuning::tile_items;
    lookback_words = launch_tiles * radix_digits;
    other_keys = arena.allocate<Bits>(static_cast<std::size_t>(n));
    other_values = has_values ? arena.allocate<Value>(static_cast<std::size_t>(n)) : nullptr;
    counts = arena.allocate<unsigned long long>(static_cast<std::size_t>(passes) * radix_digits);
    starts = arena.allocate<offset_t>(static_cast<std::size_t>(passes * portions * radix_digits));
    tile_counters = arena.allocate<unsigned>(static_cast<std::size_t>(passes * portions));
    lookback[0] = arena.allocate<unsigned>(static_cast<std::size_t>(lookback_words));
    lookback[1] = arena.allocate<unsigned>(static_cast<std::size_t>(lookback_words));
  }

  // The launch of `pass` over `portion` reads keys_in (and values_in) there and writes the whole output.
  radix_pass<Bits, Value> launch_of(int pass, offset_t portion, Bits const* keys_in, Bits* keys_out,
                                    Value const* values_in, Value* values_out, int lookback_index, bool prefetch) const {
    const offset_t begin = portion * portion_items;
    const offset_t items = n - begin < portion_items ? n - begin : portion_items;
    offset_t* pass_starts = starts + static_cast<offset_t>(pass) * portions * radix_digits;
    return radix_pass<Bits, Value>{keys_in + begin,
                                   keys_out,
                                   has_values ? values_in + begin : nullptr,
                                   values_out,
                                   items,
                                   pass_starts + portion * radix_digits,
                                   portion + 1 < portions ? pass_starts + (portion + 1) * radix_digits : nullptr,
                                   tile_counters + static_cast<offset_t>(pass) * portions + portion,
                                   lookback[lookback_index],
                                   lookback[1 - lookback_index],
                                   lookback_words,
                                   pass,
                                   prefetch};
  }
};

// Counts every pass's digits in one read of the keys (also clearing the first launch's look-back
// words), then places each pass's and portion's digit starts and starts each launch's tile counter
// (radix_left_out_draw for the passes left out).
template <class Tuning, class Key, bool Descending, class Plan>
cudaError_t count_digits(Plan const& plan, typename radix_key<Key, Descending>::bits_t const* keys, cudaStream_t stream) {
  constexpr int passes = radix_key<Key, Descending>::passes;
  FASTSCAN_CUDA_TRY(
      cudaMemsetAsync(plan.counts, 0, std::size_t{passes} * radix_digits * sizeof(unsigned long long), stream));
  const unsigned histogram_blocks =
      grid_for(plan.n, offset_t{Tuning::histogram_threads} * Tuning::histogram_items_per_thread, 1024);
  FASTSCAN_CUDA_TRY(launch_kernel(radix_histogram_kernel<Tuning, Key, Descending>, histogram_blocks,
                                  Tuning::histogram_threads, 0, stream, keys, plan.n, plan.counts, plan.lookback[0],
                                  plan.lookback_words));
  return launch_kernel(radix_digit_starts_kernel<Tuning>, passes, Tuning::threads, 0, stream, plan.counts, plan.n,
                       plan.starts, plan.portions, plan.tile_counters);
}

// One pass: a launch per portion, keys (and values) from keys_in to keys_out; the launches alternate
// between the plan's two sets of look-back words (each clears the next one's).
template <class Tuning, class Plan, class Kernel, class Bits, class Value>
cudaError_t run_pass(Plan const& plan, Kernel kernel, block_storage_launch const& storage, int pass, Bits const* keys_in,
                     Bits* keys_out, Value const* values_in, Value* values_out, bool prefetch, int& lookback_index,
                     cudaStream_t stream) {
  for (offset_t portion = 0; portion < plan.portions; ++portion) {
    const auto launch = plan.launch_of(pass, portion, keys_in, keys_out, values_in, values_out, lookback_index, prefetch);
    const unsigned tiles = static_cast<unsigned>((launch.items + Tuning::tile_items - 1) / Tuning::tile_items);
    FASTSCAN_CUDA_TRY(launch_kernel(kernel, tiles, Tuning::threads, storage.dynamic_shared_bytes, stream, launch,
                                    storage.place));
    lookback_index = 1 - lookback_index;
  }
  return cudaSuccess;
}

// What count_digits needs when no pass follows: the counts and starts of one portion.
struct radix_fill_plan {
  offset_t n = 0;
  offset_t portions = 1;
  unsigned long long* counts = nullptr;
  offset_t* starts = nullptr;
  unsigned* tile_counters = nullptr;  // no launch follows
  unsigned* lookback[1] = {nullptr};
  offset_t lookback_words = 0;
};

// Writes keys[0, n) of single-digit keys in order from their digits' starts (starts[d]: where digit d's
// keys begin), in a grid of at most max_blocks, while `values` copies the sorted values back
// (no_values_copy: keys alone).
template <class Key, bool Descending, class ValuesCopy = no_values_copy>
cudaError_t fill_keys(offset_t const* starts, Key* keys, offset_t n, cudaStream_t stream,
                      unsigned max_blocks = radix_fill_max_blocks, ValuesCopy values = {}) {
  using bits_t = typename radix_key<Key, Descending>::bits_t;
  const offset_t runs = (n + agent_radix_sort_fill<Key, Descending>::run - 1) / agent_radix_sort_fill<Key, Descending>::run;
  const bool aligned = reinterpret_cast<std::uintptr_t>(keys) % 16 == 0;
  return launch_kernel(radix_fill_kernel<Key, Descending, ValuesCopy>, grid_for(runs, radix_fill_threads, max_blocks),
                       radix_fill_threads, 0, stream, starts, reinterpret_cast<bits_t*>(keys), n, aligned, values);
}

// Keys of one digit alone: counted, their digits' starts placed, and keys[0, n) written from those.
template <class Tuning, class Key, bool Descending>
cudaError_t dispatch_radix_fill(temp_arena& arena, Key* keys, offset_t n, cudaStream_t stream) {
  using bits_t = typename radix_key<Key, Descending>::bits_t;
  radix_fill_plan plan;
  plan.n = n;
  plan.counts = arena.allocate<unsigned long long>(radix_digits);
  plan.starts = arena.allocate<offset_t>(radix_digits);
  if (arena.measuring()) return cudaSuccess;
  FASTSCAN_CUDA_TRY((count_digits<Tuning, Key, Descending>(plan, reinterpret_cast<bits_t*>(keys), stream)));
  return fill_keys<Key, Descending>(plan.starts, keys, n, stream);
}

// Sorts keys[0, n) (and values[0, n) with them, unless Value is keys_only), stably, by the order of
// radix_key<Key, Descending>: one onesweep launch per pass and portion, the keys going back and forth
// between the caller's buffer and the plan's, an even number of passes ending in the caller's. Values
// here ride along (rides_along<Value>).
template <class Tuning, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort_riding_with(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  using tuning = Tuning;
  using bits_t = typename radix_key<Key, Descending>::bits_t;
  constexpr int passes = radix_key<Key, Descending>::passes;
  constexpr bool has_values = !std::is_same_v<Value, keys_only>;
  static_assert(passes % 2 == 0, "an odd number of passes would end in the plan's buffers");
  if (n <= 1) return cudaSuccess;

  radix_sort_plan<tuning, bits_t, Value> plan;
  plan.plan(arena, passes, n);
  const auto onesweep_kernel = radix_onesweep_kernel<tuning, Key, Descending, Value>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY(
      (plan_block_storage<typename agent_radix_sort_onesweep<tuning, Key, Descending, Value>::temp_storage>(
          arena, onesweep_kernel, plan.launch_tiles, storage)));
  if (arena.measuring()) return cudaSuccess;

  bits_t* key_bits = reinterpret_cast<bits_t*>(keys);
  FASTSCAN_CUDA_TRY((count_digits<tuning, Key, Descending>(plan, key_bits, stream)));

  // Each launch reads a portion's keys and values and writes as many.
  footprint_class where = footprint_class::latency_bound;
  FASTSCAN_CUDA_TRY(classify_footprint(
      2 * static_cast<std::size_t>(plan.launch_items) * (sizeof(bits_t) + (has_values ? sizeof(Value) : 0)), where));
  bits_t* keys_in = key_bits;
  bits_t* keys_out = plan.other_keys;
  Value* values_in = values;
  Value* values_out = plan.other_values;
  int lookback_index = 0;
  for (int pass = 0; pass < passes; ++pass) {
    FASTSCAN_CUDA_TRY((run_pass<tuning>(plan, onesweep_kernel, storage, pass, keys_in, keys_out, values_in, values_out,
                                        prefetches_drawn_tiles(where), lookback_index, stream)));
    std::swap(keys_in, keys_out);
    std::swap(values_in, values_out);
  }
  return cudaSuccess;
}

// The same under the tuning that suits the device (radix_sort_tuning: the memory class's shape first). A
// measuring arena takes the same decision as the real one: the device's facts are kept.
template <class Algorithm, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort_riding(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  using fast_memory_tuning = radix_sort_tuning<Algorithm, Key, Value, memory_class::fast>;
  if constexpr (fast_memory_tuning::has_fast_memory_shape) {
    if (n > 1) {
      device_facts device{};
      FASTSCAN_CUDA_TRY(current_device_facts(device));
      if (fast_memory_tuning::suits(device))
        return dispatch_radix_sort_riding_with<fast_memory_tuning, Key, Descending>(arena, keys, values, n, stream);
    }
  }
  return dispatch_radix_sort_riding_with<radix_sort_tuning<Algorithm, Key, Value>, Key, Descending>(arena, keys, values,
                                                                                                   n, stream);
}

// Keys of one digit with values (values[0, n) of at most 8 bytes), stably: every tile's digit counts,
// their exclusive scan in digit-major order (the algorithm family's own scan: exact for any policy), the
// values in sorted order in one launch (past the tuning's size partly straight to the caller's buffer),
// which also hands out the digits' starts, then in one launch the keys written from those and the values
// left in the temporary buffer copied back.
template <class Algorithm, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort_counted(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  using tuning = radix_counted_tuning<Algorithm, Value>;
  using bits_t = typename radix_key<Key, Descending>::bits_t;
  if (n <= 1) return cudaSuccess;
  offset_t tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, tiles));
  const offset_t entries = tiles * radix_digits;
  unsigned* tile_counts = arena.allocate<unsigned>(static_cast<std::size_t>(entries));
  offset_t* tile_starts = arena.allocate<offset_t>(static_cast<std::size_t>(entries));
  offset_t* digit_starts = arena.allocate<offset_t>(radix_digits);
  Value* sorted_values = arena.allocate<Value>(static_cast<std::size_t>(n));
  device_facts device{};
  FASTSCAN_CUDA_TRY(current_device_facts(device));
  const std::size_t value_bytes = static_cast<std::size_t>(n) * sizeof(Value);
  const bool for_tests = radix_counted_lag_for_tests() >= 0;
  const bool large = for_tests || value_bytes > tuning::straight_writes_min_l2s * device.l2_bytes;
  radix_counted_progress progress{};
  if (large) {
    unsigned* words = arena.allocate<unsigned>(static_cast<std::size_t>(tiles) + 2);
    progress = {words, words + 1, words + 2, arena.allocate<offset_t>(radix_digits)};
  }
  // Straight writes address the caller's buffer from the second one: only where it lies a whole number
  // of values away (a value type aligned more loosely than its size may not).
  const std::ptrdiff_t buffers_apart =
      static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(values) - reinterpret_cast<std::uintptr_t>(sorted_values));
  const bool straight_writes = large && buffers_apart % static_cast<std::ptrdiff_t>(sizeof(Value)) == 0;
  const offset_t lag = !straight_writes ? offset_t{-1} : for_tests ? radix_counted_lag_for_tests() : tuning::straight_lag;
  if (!straight_writes) progress = {};

  bits_t const* key_bits = reinterpret_cast<bits_t const*>(keys);
  const bool aligned = reinterpret_cast<std::uintptr_t>(keys) % 16 == 0;
  if (!arena.measuring()) {
    const offset_t count_blocks = (tiles + tuning::tiles_per_count_block - 1) / tuning::tiles_per_count_block;
    FASTSCAN_CUDA_TRY(launch_kernel(radix_tile_counts_kernel<tuning, Key, Descending>, static_cast<unsigned>(count_blocks),
                                    tuning::count_threads, 0, stream, key_bits, n, tiles, aligned, tile_counts, progress));
  }
  FASTSCAN_CUDA_TRY((dispatch_scan<typename Algorithm::block_scans, scan_kind::exclusive, offset_t>(
      arena, tile_counts, tile_starts, entries, ::cuda::std::plus<offset_t>{}, some(offset_t{0}), stream)));
  if (arena.measuring()) return cudaSuccess;
  const radix_counted_pass<bits_t, Value> pass{key_bits, values,      sorted_values, n,        tiles,
                                               aligned,  tile_starts, digit_starts,  progress, lag,
                                               buffers_apart / static_cast<std::ptrdiff_t>(sizeof(Value))};
  const bool vectors = reinterpret_cast<std::uintptr_t>(values) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(sorted_values) % 16 == 0;
  if (lag >= 0) {
    FASTSCAN_CUDA_TRY(launch_kernel(radix_counted_scatter_kernel<tuning, Key, Descending, Value, true>,
                                    static_cast<unsigned>(tiles), tuning::threads, 0, stream, pass));
    return fill_keys<Key, Descending>(digit_starts, keys, n, stream, tuning::fill_with_copy_max_blocks,
                                      sorted_values_copy<Value, true>{sorted_values, values, vectors, progress.straight_from});
  }
  FASTSCAN_CUDA_TRY(launch_kernel(radix_counted_scatter_kernel<tuning, Key, Descending, Value, false>,
                                  static_cast<unsigned>(tiles), tuning::threads, 0, stream, pass));
  return fill_keys<Key, Descending>(digit_starts, keys, n, stream, tuning::fill_with_copy_max_blocks,
                                    sorted_values_copy<Value>{sorted_values, values, vectors});
}

// Keys with values of at most 8 bytes: by counting for keys of one digit, else riding along.
template <class Algorithm, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort_pairs(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  if constexpr (radix_key<Key, Descending>::passes == 1) {
    return dispatch_radix_sort_counted<Algorithm, Key, Descending, Value>(arena, keys, values, n, stream);
  } else {
    return dispatch_radix_sort_riding<Algorithm, Key, Descending, Value>(arena, keys, values, n, stream);
  }
}

// Sorts keys[0, n), and values[0, n) with them (Value = keys_only: keys alone), stably.
template <class Algorithm, class Key, bool Descending, class Value>
cudaError_t dispatch_radix_sort(temp_arena& arena, Key* keys, Value* values, offset_t n, cudaStream_t stream) {
  if constexpr (radix_key<Key, Descending>::passes == 1 && std::is_same_v<Value, keys_only>) {
    if (n <= 1) return cudaSuccess;
    return dispatch_radix_fill<radix_sort_tuning<Algorithm, Key, Value>, Key, Descending>(arena, keys, n, stream);
  } else if constexpr (std::is_same_v<Value, keys_only>) {
    return dispatch_radix_sort_riding<Algorithm, Key, Descending, Value>(arena, keys, values, n, stream);
  } else if constexpr (rides_along<Value>) {
    return dispatch_radix_sort_pairs<Algorithm, Key, Descending, Value>(arena, keys, values, n, stream);
  } else {
    // Keys with their positions, then values[i] = old values[position i].
    using index_t = std::uint64_t;
    if (n <= 1) return cudaSuccess;
    index_t* positions = arena.allocate<index_t>(static_cast<std::size_t>(n));
    Value* gathered = arena.allocate<Value>(static_cast<std::size_t>(n));
    if (!arena.measuring()) FASTSCAN_CUDA_TRY(launch_copy(thrust::counting_iterator<index_t>(0), positions, n, stream));
    FASTSCAN_CUDA_TRY((dispatch_radix_sort_pairs<Algorithm, Key, Descending, index_t>(arena, keys, positions, n, stream)));
    if (arena.measuring()) return cudaSuccess;
    FASTSCAN_CUDA_TRY(launch_copy(thrust::make_permutation_iterator(values, positions), gathered, n, stream));
    return launch_copy(gathered, values, n, stream);
  }
}

}  // namespace fastscan::detail
