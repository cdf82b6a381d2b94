#pragma once
// __global__ glue for stream compaction: one tile per block, tiles drawn in launch order.

#include <fastscan/detail/agent/agent_select.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>

namespace fastscan::detail {

// Items, their scanned flags and the predicate's work need more registers than a scan: the scans by
// key's register budget.
template <class Tuning, class T, class InputIt, class StencilIt, class OutputIt, class Pred>
__global__ void __launch_bounds__(Tuning::threads, Tuning::segmented_min_blocks_per_sm)
    select_kernel(InputIt input, StencilIt stencil, OutputIt output, offset_t n, Pred pred,
                  tile_state<offset_t> state, offset_t* total, bool vectorized, block_storage_place place) {
  using agent = agent_select<Tuning>;
  auto& storage = block_temp_storage<typename agent::template temp_storage<T>>(place);
  agent::template consume_tile<T>(storage, input, stencil, output, n, pred, state, total, vectorized);
}

}  // namespace fastscan::detail
