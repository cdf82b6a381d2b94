#pragma once
// __global__ glue for an element-wise copy, the one step several algorithms share: the in-place
// partition moves its rejected items back behind the selected ones, the radix sort numbers positions
// and gathers wide values by them.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>

namespace fastscan::detail {

inline constexpr unsigned copy_threads = 256;

// out[i] = in[i] for i < count, grid-stride.
template <class InputIt, class OutputIt>
__global__ void __launch_bounds__(copy_threads) copy_kernel(InputIt in, OutputIt out, offset_t count) {
  follow_previous_grid();
  const offset_t stride = static_cast<offset_t>(gridDim.x) * blockDim.x;
  for (offset_t i = static_cast<offset_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) out[i] = in[i];
}

}  // namespace fastscan::detail
