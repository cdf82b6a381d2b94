#pragma once
// __global__ glue for stream compaction: one tile per block, tiles drawn in launch order.

#include <fastscan/detail/agent/agent_select.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>

namespace fastscan::detail {

template <class Tuning, class T, class InputIt, class Selector, class SelectedIt, class RejectedIt>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    select_kernel(InputIt input, Selector selector, SelectedIt selected_out, RejectedIt rejected_out, offset_t n,
                  tile_state<offset_t> state, host_selected_count* total, unsigned ticket,
                  tile_access access, block_storage_place place) {
  follow_previous_grid();
  using agent = agent_select<Tuning>;
  auto& storage = block_temp_storage<typename agent::template temp_storage<T>>(place);
  agent::template consume_tile<T>(storage, input, selector, selected_out, rejected_out, n, state, total, ticket,
                                  access);
}

}  // namespace fastscan::detail
