#pragma once
// fastscan's stream-ordered memory pool, one per device: temporary storage of the default policies and
// the single-pass driver's tile-state buffers come from it. It keeps up to pool_release_threshold
// bytes reserved between calls (the device's default pool keeps none, which cost a third of a scan's
// time in re-mapping at 2^24 elements: bench/PERFORMANCE.md). Users' own pools are untouched.

#include <fastscan/detail/config.cuh>

#include <cstdint>
#include <map>
#include <mutex>

namespace fastscan::detail {

inline constexpr std::uint64_t pool_release_threshold = std::uint64_t{256} << 20;

// The pool for the current device, created on first use. Pools live until the process ends.
inline cudaError_t current_device_pool(cudaMemPool_t* pool) {
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  static std::mutex mutex;
  static std::map<int, cudaMemPool_t> pools;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto found = pools.find(device); found != pools.end()) {
    *pool = found->second;
    return cudaSuccess;
  }
  cudaMemPoolProps properties{};
  properties.allocType = cudaMemAllocationTypePinned;
  properties.location.type = cudaMemLocationTypeDevice;
  properties.location.id = device;
  FASTSCAN_CUDA_TRY(cudaMemPoolCreate(pool, &properties));
  std::uint64_t threshold = pool_release_threshold;
  FASTSCAN_CUDA_TRY(cudaMemPoolSetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  pools.emplace(device, *pool);
  return cudaSuccess;
}

}  // namespace fastscan::detail
