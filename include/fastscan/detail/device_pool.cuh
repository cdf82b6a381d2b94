#pragma once
// fastscan's stream-ordered memory pool, one per device: temporary storage of the default policies and
// the single-pass driver's tile-state buffers come from it. It keeps up to a release threshold of
// bytes reserved between calls (256 MiB unless set; the device's default pool keeps none, which cost a
// third of a scan's time in re-mapping at 2^24 elements: bench/PERFORMANCE.md). Users' own pools are
// untouched. The public controls are in <fastscan/memory.cuh>.

#include <fastscan/detail/config.cuh>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

namespace fastscan::detail {

inline constexpr std::uint64_t default_pool_release_threshold = std::uint64_t{256} << 20;

struct pool_registry {
  std::mutex mutex;
  std::map<int, cudaMemPool_t> pools;                  // fastscan's pool of each device, created on first use
  std::map<int, std::uint64_t> thresholds;             // set before the device's pool existed
  std::atomic<bool> use_device_pool{false};            // take the device's current pool instead
};

inline pool_registry& pools() {
  static auto* registry = new pool_registry();  // never destroyed: pools live until the process ends
  return *registry;
}

// fastscan's own pool of `device`, created on first use.
inline cudaError_t fastscan_pool(int device, cudaMemPool_t* pool) {
  pool_registry& registry = pools();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (auto found = registry.pools.find(device); found != registry.pools.end()) {
    *pool = found->second;
    return cudaSuccess;
  }
  cudaMemPoolProps properties{};
  properties.allocType = cudaMemAllocationTypePinned;
  properties.location.type = cudaMemLocationTypeDevice;
  properties.location.id = device;
  FASTSCAN_CUDA_TRY(cudaMemPoolCreate(pool, &properties));
  const auto preset = registry.thresholds.find(device);
  std::uint64_t threshold = preset != registry.thresholds.end() ? preset->second : default_pool_release_threshold;
  FASTSCAN_CUDA_TRY(cudaMemPoolSetAttribute(*pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  registry.pools.emplace(device, *pool);
  return cudaSuccess;
}

// The pool fastscan allocates from on the current device: its own, or the device's current pool when
// the user asked for that.
inline cudaError_t current_device_pool(cudaMemPool_t* pool) {
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  if (pools().use_device_pool.load(std::memory_order_relaxed)) return cudaDeviceGetMemPool(pool, device);
  return fastscan_pool(device, pool);
}

}  // namespace fastscan::detail
