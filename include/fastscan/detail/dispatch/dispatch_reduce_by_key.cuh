#pragma once
// Host side of reduce_by_key (agent_reduce_by_key.cuh): one kernel launch over the tiles with the
// single-pass look-back's tile state, then a wait for the number of runs, which the caller's result
// iterators depend on (as with Thrust's own reduce_by_key). The deterministic algorithms keep their
// promise of the same bits on every run another way: a deterministic scan by key into temporary
// storage, then each run's last element compacted (two launches, about twice the traffic); this
// builds on the dispatch of those two algorithms.

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/dispatch_scan_by_key.cuh>
#include <fastscan/detail/dispatch/dispatch_select.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/selected_count_wait.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_plan.cuh>
#include <fastscan/detail/kernels/kernel_reduce_by_key.cuh>
#include <fastscan/detail/uninitialized.cuh>
#include <fastscan/detail/tuning/tuning_reduce_by_key.cuh>

#include <thrust/iterator/zip_iterator.h>

namespace fastscan::detail {

// Whether the look-back's (head count, value) pairs fit its packed status only with 32-bit counts (8-byte
// values): such calls of fewer than 2^32 items count in 32 bits, as Thrust's own backend does.
template <class AccT>
inline constexpr bool narrow_run_counts_pack =
    value_bytes<counted_segment<AccT, offset_t>> > 12 && value_bytes<counted_segment<AccT, unsigned>> <= 12;

// Reduces each run of [keys_in, keys_in + n) whose consecutive keys satisfy pred(previous, current)
// into one key (the run's last) and one value (op over the run's values, in order, accumulated in the
// values' value type), the look-back counting runs in RunCount; `runs` receives their number once the
// last tile knows it.
template <class Algorithm, class RunCount, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred,
          class Op>
cudaError_t dispatch_reduce_by_key_with_counts(temp_arena& arena, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                               ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                               cudaStream_t stream, offset_t& runs) {
  using key_t = element_value_t<KeysIt>;
  using acc_t = element_value_t<ValuesIt>;
  using tuning = reduce_by_key_tuning<Algorithm, key_t, acc_t>;
  runs = 0;
  offset_t tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, tiles));
  if (tiles == 0) return cudaSuccess;
  const auto kernel =
      reduce_by_key_kernel<tuning, key_t, acc_t, RunCount, KeysIt, ValuesIt, KeysOut, ValuesOut, Pred, Op>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_reduce_by_key<tuning, key_t, acc_t, RunCount>::temp_storage>(
      arena, kernel, tiles, storage)));
  host_selected_count* total = nullptr;
  unsigned ticket = 0;
  tile_access access = tile_access::elements;
  if (!arena.measuring()) {
    FASTSCAN_CUDA_TRY(host_count_slot::get(total, ticket));
    // Asynchronous copies land in shared memory only: a block storage in global memory (very wide keys
    // or values) takes its tiles element by element.
    const bool vectorized = staged_copy_possible<key_t>(keys_in) && staged_copy_possible<acc_t>(values_in) &&
                            storage.place.global_slices == nullptr;
    // Footprint: keys and values read, at most as much again written. Never streaming: measured no faster.
    FASTSCAN_CUDA_TRY(plan_tile_access(vectorized, 2 * static_cast<std::size_t>(n) * (sizeof(key_t) + sizeof(acc_t)),
                                       false, access));
  }
  using run_pair = counted_segment<acc_t, RunCount>;
  const auto launch = [&](tile_state<run_pair> const& state) {
    return launch_kernel(kernel, static_cast<unsigned>(tiles), tuning::threads, storage.dynamic_shared_bytes, stream,
                         keys_in, values_in, keys_out, values_out, n, pred, op, state, total, ticket, access,
                         storage.place);
  };
  FASTSCAN_CUDA_TRY(with_tile_state<run_pair>(arena, tiles, stream, launch));
  if (arena.measuring()) return cudaSuccess;
  return wait_for_count_after_launch(arena, total, ticket, stream, runs);
}

template <class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred, class Op>
cudaError_t dispatch_reduce_by_key_in_one_pass(temp_arena& arena, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                               ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                               cudaStream_t stream, offset_t& runs) {
  if constexpr (narrow_run_counts_pack<element_value_t<ValuesIt>>) {
    if (n <= static_cast<offset_t>(0xffffffffu))
      return dispatch_reduce_by_key_with_counts<Algorithm, unsigned>(arena, keys_in, values_in, keys_out, values_out, n,
                                                                     pred, op, stream, runs);
  }
  return dispatch_reduce_by_key_with_counts<Algorithm, offset_t>(arena, keys_in, values_in, keys_out, values_out, n,
                                                                 pred, op, stream, runs);
}

// The same in two deterministic steps: the inclusive scan by key into temporary storage (written by
// construction: it is raw), then the last item of each run, key and scanned value, compacted.
template <class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred, class Op>
cudaError_t dispatch_reduce_by_key_by_scan(temp_arena& arena, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                           ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                           cudaStream_t stream, offset_t& runs) {
  using acc_t = element_value_t<ValuesIt>;
  runs = 0;
  acc_t* scanned = arena.allocate<acc_t>(static_cast<std::size_t>(n));
  FASTSCAN_CUDA_TRY((dispatch_scan_by_key<Algorithm, scan_kind::inclusive, acc_t>(
      arena, native_iterator(keys_in), native_iterator(values_in), raw_output(scanned), n, pred, op, acc_t{}, stream)));
  const auto items = thrust::make_zip_iterator(keys_in, scanned);
  using item_t = thrust::detail::it_value_t<decltype(items)>;
  return dispatch_select<Algorithm, item_t>(arena, items, select_run_tails<KeysIt, Pred>{keys_in, n, pred},
                                            thrust::make_zip_iterator(keys_out, values_out), no_output{}, n, stream,
                                            runs);
}

// reduce_by_key as the algorithm's strategy says: one pass, or the deterministic two steps.
template <class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred, class Op>
cudaError_t dispatch_reduce_by_key(temp_arena& arena, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                   ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                   cudaStream_t stream, offset_t& runs) {
  if constexpr (Algorithm::template tuning<element_value_t<ValuesIt>>::strategy == multi_block::single_pass) {
    return dispatch_reduce_by_key_in_one_pass<Algorithm>(arena, keys_in, values_in, keys_out, values_out, n, pred, op,
                                                        stream, runs);
  } else {
    return dispatch_reduce_by_key_by_scan<Algorithm>(arena, keys_in, values_in, keys_out, values_out, n, pred, op,
                                                    stream, runs);
  }
}

}  // namespace fastscan::detail
