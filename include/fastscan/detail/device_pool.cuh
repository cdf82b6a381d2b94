#pragma once
// fastscan's stream-ordered memory pool, one per device: temporary storage of the default policies and
// the single-pass driver's tile-state buffers come from it. Between calls it keeps reserved up to its
// release threshold: by default 256 MiB, raised to the largest single temporary allocation made from
// it, so that repeating a call never re-maps its storage (the device's default pool keeps none, which
// cost a third of a scan's time at 2^24 elements; re-mapping the 2 GiB of a sort of 2^28 pairs cost
// 3 ms a call: bench/PERFORMANCE.md). A threshold the user sets stays fixed. Users' own pools are
// untouched. The public controls are in <fastscan/memory.cuh>.

#include <fastscan/detail/config.cuh>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace fastscan::detail {

inline constexpr std::uint64_t default_pool_release_threshold = std::uint64_t{256} << 20;

struct pool_registry {
  std::mutex mutex;
  std::map<int, cudaMemPool_t> pools;                  // fastscan's pool of each device, created on first use
  std::map<int, std::uint64_t> fixed_thresholds;       // set by the user: not raised by allocations
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
  const auto fixed = registry.fixed_thresholds.find(device);
  std::uint64_t threshold = fixed != registry.fixed_thresholds.end() ? fixed->second : default_pool_release_threshold;
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

// Sets the release threshold of fastscan's pool on the current device (now, or when it is created):
// `fixed` keeps it there, otherwise larger allocations raise it again.
inline cudaError_t set_release_threshold(std::uint64_t bytes, bool fixed) {
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  pool_registry& registry = pools();
  std::lock_guard<std::mutex> lock(registry.mutex);
  if (fixed) registry.fixed_thresholds[device] = bytes;
  else registry.fixed_thresholds.erase(device);
  const auto pool = registry.pools.find(device);
  return pool == registry.pools.end() ? cudaSuccess
                                      : cudaMemPoolSetAttribute(pool->second, cudaMemPoolAttrReleaseThreshold, &bytes);
}

// Keeps `bytes` reserved in `pool` between calls when `pool` is fastscan's own and its threshold is
// not the user's: raises its release threshold to `bytes` where that is more.
inline cudaError_t keep_reserved_between_calls(cudaMemPool_t pool, std::uint64_t bytes) {
  pool_registry& registry = pools();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const auto& [device, own_pool] : registry.pools) {
    if (own_pool != pool) continue;
    if (registry.fixed_thresholds.count(device) != 0) return cudaSuccess;
    std::uint64_t threshold = 0;
    FASTSCAN_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    return threshold >= bytes ? cudaSuccess : cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);
  }
  return cudaSuccess;  // the device's pool: its settings are the application's
}

// `bytes` of storage from the pool fastscan allocates from on the current device, ordered on `stream`.
// An allocation above the default threshold raises fastscan's pool's threshold to its size (the common
// small call skips that lock).
inline cudaError_t allocate_from_current_pool(void** pointer, std::size_t bytes, cudaStream_t stream) {
  cudaMemPool_t pool{};
  FASTSCAN_CUDA_TRY(current_device_pool(&pool));
  FASTSCAN_CUDA_TRY(cudaMallocFromPoolAsync(pointer, bytes, pool, stream));
  if (bytes <= default_pool_release_threshold) return cudaSuccess;
  const cudaError_t kept = keep_reserved_between_calls(pool, bytes);
  if (kept != cudaSuccess) cudaFreeAsync(*pointer, stream);
  return kept;
}

}  // namespace fastscan::detail
