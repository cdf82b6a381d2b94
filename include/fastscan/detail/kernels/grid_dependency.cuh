#pragma once
// Kernels that follow one another on a stream without a launch's latency between them (programmatic
// dependent launch, sm_90 and later). The host launches every fastscan kernel with
// dispatch/grid_plan.cuh's launch_kernel, which lets the driver schedule its blocks as soon as every
// block of the kernel before it has started; each kernel begins with follow_previous_grid, which waits
// until that kernel has finished and its writes are visible, so a kernel still never reads or writes
// memory while the one before it runs. Blocks that are resident early only hide the launch.
//
// The host may ask for that only when every image of the kernels has the wait: when every
// architecture the translation unit is compiled for is sm_90 or later (a device then never runs an
// older image without it). FASTSCAN_NO_CHAINED_LAUNCHES turns it off.

#include <cstddef>

namespace fastscan::detail {

#if defined(__CUDA_ARCH_LIST__) && !defined(FASTSCAN_NO_CHAINED_LAUNCHES)
constexpr int oldest_compiled_arch() {
  constexpr int archs[] = {__CUDA_ARCH_LIST__};
  int oldest = archs[0];
  for (int arch : archs) oldest = arch < oldest ? arch : oldest;
  return oldest;
}
inline constexpr bool chained_launches = oldest_compiled_arch() >= 900;
#else
inline constexpr bool chained_launches = false;
#endif

// The first statement of every fastscan kernel: waits for the kernel before it on the stream (at once
// when it was not launched as its dependent), then lets the next kernel's blocks be scheduled.
__device__ __forceinline__ void follow_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (chained_launches) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
  }
#endif
}

}  // namespace fastscan::detail
