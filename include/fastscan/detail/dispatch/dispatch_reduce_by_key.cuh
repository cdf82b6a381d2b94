#pragma once
// Host side of reduce_by_key (agent_reduce_by_key.cuh): one kernel launch over the tiles with the
// single-pass driver's tile state, then a wait for the number of runs, which the caller's result
// iterators depend on (as with Thrust's own reduce_by_key).

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/dispatch/dispatch_single_pass.cuh>
#include <fastscan/detail/dispatch/selected_count_wait.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/kernels/kernel_reduce_by_key.cuh>
#include <fastscan/detail/tuning.cuh>

namespace fastscan::detail {

// Reduces each run of [keys_in, keys_in + n) whose consecutive keys satisfy pred(previous, current)
// into one key (the run's last) and one value (op over the run's values, in order, accumulated in the
// values' value type); `runs` receives their number once the last tile knows it.
template <class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred, class Op>
cudaError_t dispatch_reduce_by_key(temp_arena& arena, KeysIt keys_in, ValuesIt values_in, KeysOut keys_out,
                                   ValuesOut values_out, offset_t n, Pred const& pred, Op const& op,
                                   cudaStream_t stream, offset_t& runs) {
  using key_t = element_value_t<KeysIt>;
  using acc_t = element_value_t<ValuesIt>;
  using tuning = reduce_by_key_tuning<Algorithm, key_t, acc_t>;
  runs = 0;
  const offset_t tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (tiles == 0) return cudaSuccess;
  if (tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;  // beyond the grid's x dimension
  host_selected_count* total = nullptr;
  unsigned ticket = 0;
  tile_access access = tile_access::elements;
  if (!arena.measuring()) {
    FASTSCAN_CUDA_TRY(host_count_slot::get(total, ticket));
    const bool vectorized = vector_access_possible<key_t, tuning::vector>(keys_in) &&
                            vector_access_possible<acc_t, tuning::vector>(values_in);
    // Footprint: keys and values read, at most as much again written. Never streaming: measured no faster.
    FASTSCAN_CUDA_TRY(plan_tile_access(vectorized, 2 * static_cast<std::size_t>(n) * (sizeof(key_t) + sizeof(acc_t)),
                                       false, access));
  }
  const auto kernel = reduce_by_key_kernel<tuning, key_t, acc_t, KeysIt, ValuesIt, KeysOut, ValuesOut, Pred, Op>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY(
      (plan_block_storage<typename agent_reduce_by_key<tuning, key_t, acc_t>::temp_storage>(arena, kernel, tiles, storage)));
  using run_pair = counted_segment<acc_t, offset_t>;
  const auto launch = [&](tile_state<run_pair> const& state) {
    kernel<<<static_cast<unsigned>(tiles), tuning::threads, storage.dynamic_shared_bytes, stream>>>(
        keys_in, values_in, keys_out, values_out, n, pred, op, state, total, ticket, access, storage.place);
    return cudaGetLastError();
  };
  FASTSCAN_CUDA_TRY(with_tile_state<run_pair>(arena, tiles, stream, launch));
  if (arena.measuring()) return cudaSuccess;
  return wait_for_count_after_launch(arena, total, ticket, stream, runs);
}

}  // namespace fastscan::detail
