#pragma once
// __global__ glue for reduce_by_key: one tile per block, tiles drawn in launch order.

#include <fastscan/detail/agent/agent_reduce_by_key.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>

namespace fastscan::detail {

template <class Tuning, class Key, class AccT, class RunCount, class KeysIt, class ValuesIt, class KeysOut,
          class ValuesOut, class Pred, class Op>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    reduce_by_key_kernel(KeysIt keys_in, ValuesIt values_in, KeysOut keys_out, ValuesOut values_out, offset_t n,
                         Pred pred, Op op, tile_state<counted_segment<AccT, RunCount>> state,
                         host_selected_count* total, unsigned ticket, tile_access access, block_storage_place place) {
  follow_previous_grid();
  using agent = agent_reduce_by_key<Tuning, Key, AccT, RunCount>;
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  agent::consume_tile(storage, keys_in, values_in, keys_out, values_out, n, pred, op, state, total, ticket, access);
}

}  // namespace fastscan::detail
