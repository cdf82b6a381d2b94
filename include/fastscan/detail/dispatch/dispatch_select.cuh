#pragma once
// Host side of stream compaction (agent_select.cuh): one kernel launch over the tiles, with the
// single-pass driver's tile state (dispatch_single_pass.cuh), then the selected count read back,
// since the caller's result iterator depends on it (as with Thrust's own copy_if).

#include <fastscan/detail/dispatch/dispatch_single_pass.cuh>
#include <fastscan/detail/kernels/kernel_select.cuh>

namespace fastscan::detail {

// Selects the items of [input, input + n) for which pred holds (of the stencil's items, given one)
// into output; `selected` receives their number once the kernel is done (the host waits for it).
template <class Algorithm, class T, class InputIt, class StencilIt, class OutputIt, class Pred>
cudaError_t dispatch_select(temp_arena& arena, InputIt input, StencilIt stencil, OutputIt output, offset_t n, Pred pred,
                            cudaStream_t stream, offset_t& selected) {
  using tuning = typename Algorithm::template tuning<unsigned>;  // the tile is shaped for 32-bit counts
  selected = 0;
  const offset_t tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (tiles == 0) return cudaSuccess;
  if (tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;
  offset_t* total = arena.allocate<offset_t>(1);
  const bool vectorized = vector_access_possible<T, tuning::vector>(input);
  const auto kernel = select_kernel<tuning, T, InputIt, StencilIt, OutputIt, Pred>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_select<tuning>::template temp_storage<T>>(arena, kernel, tiles, storage)));
  FASTSCAN_CUDA_TRY(with_tile_state<offset_t>(arena, tiles, stream, [&](tile_state<offset_t> const& state) {
    kernel<<<static_cast<unsigned>(tiles), tuning::threads, storage.dynamic_shared_bytes, stream>>>(
        input, stencil, output, n, pred, state, total, vectorized, storage.place);
    return cudaGetLastError();
  }));
  if (arena.measuring()) return cudaSuccess;
  FASTSCAN_CUDA_TRY(cudaMemcpyAsync(&selected, total, sizeof(offset_t), cudaMemcpyDeviceToHost, stream));
  return cudaStreamSynchronize(stream);
}

}  // namespace fastscan::detail
