#pragma once
// __global__ glue for the pipelined single pass: persistent blocks, the tuning's number an SM, the
// agent's storage in dynamic shared memory (more than the 48 KiB of static storage). sm_90 and later only.

#include <fastscan/detail/agent/agent_pipelined_scan.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>

namespace fastscan::detail {

// Tiles: what the pass moves and scans, with the call's memory (pipelined_tiles.cuh).
template <class Tuning, scan_kind Kind, class Tiles, class Op>
__global__ void __launch_bounds__(Tuning::threads, Tuning::blocks_per_sm)
    pipelined_scan_kernel(Tiles io, offset_t n, offset_t tiles, Op op, maybe<typename Tiles::value_type> init,
                          tile_state<typename Tiles::value_type> state) {
  follow_previous_grid();
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using agent = agent_pipelined_scan<Tuning, Tiles>;
  extern __shared__ __align__(128) unsigned char pipelined_storage[];
  agent::template run<Kind>(*reinterpret_cast<typename agent::shared_storage*>(pipelined_storage), io, n, tiles, op,
                            init, state);
#endif
}

}  // namespace fastscan::detail
