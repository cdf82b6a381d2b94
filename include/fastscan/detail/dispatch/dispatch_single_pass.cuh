#pragma once
// Host side of the single-pass scan (decoupled look-back): one kernel launch per call, whatever n, its
// tile statuses planned by tile_state_plan.cuh. Full tiles move 16-byte vectors when input and output
// are contiguous memory of the accumulator type, aligned to 16 bytes, prefetched and streaming ones by
// the call's size (tile_access_plan.cuh).

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/dispatch_pipelined_scan.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_plan.cuh>
#include <fastscan/detail/kernels/kernel_single_pass.cuh>

#include <type_traits>

namespace fastscan::detail {

template <class Tuning, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_single_pass_tuned(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op,
                                       maybe<AccT> init, cudaStream_t stream) {
  using tuning = Tuning;
  offset_t tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, tiles));
  if (tiles == 0) return cudaSuccess;
  const unsigned grid = static_cast<unsigned>(tiles);
  const bool vectorized = vector_access_possible<AccT, tuning::vector>(input) &&
                          vector_access_possible<AccT, tuning::vector>(output);
  tile_access access = tile_access::elements;
  if (!arena.measuring())
    FASTSCAN_CUDA_TRY(plan_tile_access(vectorized, 2 * static_cast<std::size_t>(n) * sizeof(AccT), true, access));
  const auto kernel = single_pass_scan_kernel<tuning, Kind, AccT, InputIt, OutputIt, Op>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename single_pass_scan_agent<tuning, AccT>::temp_storage>(arena, kernel,
                                                                                                   tiles, storage)));
  if constexpr (tuning::staged) {
    // Staged tiles fit Tuning::min_blocks_per_sm blocks an SM only with most of its memory as shared memory.
    if (!arena.measuring())
      FASTSCAN_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                             cudaSharedmemCarveoutMaxShared));
  }
  return with_tile_state<AccT>(arena, tiles, stream, keeps_group_statuses(tuning::strategy), [&](tile_state<AccT> const& state) {
    return launch_kernel(kernel, grid, tuning::threads, storage.dynamic_shared_bytes, stream, input, output, n, op, init,
                         state, access, storage.place);
  });
}

// Whether a tuning may scan [input, input + n) into output: any tuning may, except that tiles staged in
// shared memory are taken only where whole tiles move as 16-byte vectors of contiguous memory (where
// they were measured faster), so other iterators do not instantiate them.
template <class Tuning, class AccT, class InputIt, class OutputIt>
constexpr bool tuning_may_take() {
  return !Tuning::staged || (is_contiguous_of<InputIt, AccT> && is_contiguous_of<OutputIt, AccT>);
}
template <class Tuning, class AccT, class InputIt, class OutputIt>
bool tuning_takes(InputIt input, OutputIt output) {
  if constexpr (Tuning::staged) {
    return vector_access_possible<AccT, Tuning::vector>(input) && vector_access_possible<AccT, Tuning::vector>(output);
  } else {
    return true;
  }
}

// The algorithm's tuning, or its tuning for large scans where it has one and takes the call, or the
// pipelined single pass where it has one and takes the call (dispatch_pipelined_scan.cuh).
template <class Algorithm, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_single_pass(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op,
                                 maybe<AccT> init, cudaStream_t stream) {
  if constexpr (Algorithm::template has_pipelined_tuning<AccT> && is_contiguous_of<InputIt, AccT> &&
                is_contiguous_of<OutputIt, AccT>) {
    using tuning = typename Algorithm::template pipelined_tuning<AccT>;
    const pipelined_plain_tiles<tuning, AccT, false> io{thrust::raw_pointer_cast(&*input),
                                                        thrust::raw_pointer_cast(&*output)};
    bool taken = false;
    FASTSCAN_CUDA_TRY((dispatch_pipelined_scan<tuning, Kind>(arena, io, n, op, init, stream, taken)));
    if (taken) return cudaSuccess;
  } else if constexpr (Algorithm::template has_pipelined_tuning<AccT> && is_backward_of<InputIt, AccT> &&
                       std::is_same_v<OutputIt, backward_pointer<AccT>>) {
    using tuning = typename Algorithm::template pipelined_tuning<AccT>;
    const pipelined_plain_tiles<tuning, AccT, true> io{input.last + 1, output.last + 1};  // one past each range
    bool taken = false;
    FASTSCAN_CUDA_TRY((dispatch_pipelined_scan<tuning, Kind>(arena, io, n, op, init, stream, taken)));
    if (taken) return cudaSuccess;
  }
  if constexpr (Algorithm::template has_large_tuning<AccT>) {
    using large = typename Algorithm::template large_tuning<AccT>;
    if constexpr (tuning_may_take<large, AccT, InputIt, OutputIt>()) {
      if (n >= Algorithm::large_scan_items && tuning_takes<large, AccT>(input, output))
        return dispatch_single_pass_tuned<large, Kind, AccT>(arena, input, output, n, op, init, stream);
    }
  }
  return dispatch_single_pass_tuned<typename Algorithm::template tuning<AccT>, Kind, AccT>(arena, input, output, n,
                                                                                           op, init, stream);
}

}  // namespace fastscan::detail
