#pragma once
// Host side of kernels/block_storage.cuh: where each launch's blocks keep their working storage. Static
// shared memory costs nothing here; the other two places are planned with the call's temporary storage
// (a measuring pass and a real pass take the same decision).

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/device_facts.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace fastscan::detail {

struct block_storage_launch {
  std::size_t dynamic_shared_bytes = 0;  // the launch's third <<<>>> argument
  block_storage_place place{nullptr};    // the kernel's last argument
};

// The most dynamic shared memory a block may take, when set (non-zero) below the device's opt-in limit:
// lets tests send storage that would take dynamic shared memory to global memory instead.
inline std::size_t& dynamic_shared_limit_for_tests() {
  static std::size_t limit = 0;
  return limit;
}

// Plans the storage of `blocks` blocks of `kernel`, whose agent's temp_storage is Storage.
template <class Storage, class Kernel>
cudaError_t plan_block_storage([[maybe_unused]] temp_arena& arena, [[maybe_unused]] Kernel kernel,
                               [[maybe_unused]] offset_t blocks, block_storage_launch& launch) {
  launch = block_storage_launch{};
  if constexpr (!fits_static_shared<Storage>) {
    constexpr std::size_t bytes = spilled_storage_bytes<Storage>;
    device_facts device{};
    FASTSCAN_CUDA_TRY(current_device_facts(device));
    std::size_t limit = device.shared_per_block_opt_in;
    if (dynamic_shared_limit_for_tests() != 0 && dynamic_shared_limit_for_tests() < limit) limit = dynamic_shared_limit_for_tests();
    if (bytes <= limit) {
      if (!arena.measuring()) {
        FASTSCAN_CUDA_TRY(
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
      }
      launch.dynamic_shared_bytes = bytes;
    } else {
      launch.place.global_slices = arena.allocate<unsigned char>(static_cast<std::size_t>(blocks) * bytes);
    }
  }
  return cudaSuccess;
}

}  // namespace fastscan::detail
