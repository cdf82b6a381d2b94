#pragma once
// __global__ glue for the single-pass driver: one tile per block, tiles drawn in launch order.

#include <fastscan/detail/agent/agent_single_pass_scan.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>
#include <fastscan/detail/tuning/tuning_scan.cuh>

namespace fastscan::detail {

template <class Tuning, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    single_pass_scan_kernel(InputIt input, OutputIt output, offset_t n, Op op, maybe<AccT> init,
                            tile_state<AccT> state, tile_access access, block_storage_place place) {
  follow_previous_grid();
  using agent = single_pass_scan_agent<Tuning, AccT>;
  static_assert(!Tuning::staged || fits_static_shared<typename agent::temp_storage>,
                "staged tiles are copied asynchronously into the block's storage: it must be shared memory");
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  agent::template consume_tile<Kind>(storage, input, output, n, op, init, state, access);
}

template <class Tuning, scan_kind Kind, class AccT, class Element, class Output, class Op>
__global__ void __launch_bounds__(Tuning::threads,
                                  (by_key_min_blocks_per_sm<Tuning, key_type_of<decltype(Element::keys)>, AccT>()))
    single_pass_segmented_scan_kernel(Element element, Output output, offset_t n, Op op,
                                      tile_state<segmented_value<AccT>> state, tile_access access,
                                      block_storage_place place) {
  follow_previous_grid();
  using agent = agent_single_pass_segmented_scan<Tuning, AccT>;
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  agent::template consume_tile<Kind>(storage, element, output, n, op, state, access);
}

}  // namespace fastscan::detail
