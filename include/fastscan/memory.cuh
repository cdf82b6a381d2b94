#pragma once
// Where fastscan's temporary storage comes from, for policies made without an allocator (a policy
// made with `(allocator)` uses that allocator instead). By default: fastscan's own stream-ordered pool,
// one per device, which keeps up to 256 MiB reserved between calls so that back-to-back scans do not
// re-map memory. These functions act on the current device and return cudaError_t; they are safe to
// call from several host threads.
//
//   fastscan::set_pool_release_threshold(64 << 20);  // keep at most 64 MiB cached
//   fastscan::release_pool_memory();                 // hand cached memory back to the driver now
//   fastscan::use_device_pool(true);                 // share the device's current pool instead

#include <fastscan/detail/device_pool.cuh>

#include <cstdint>

namespace fastscan {

// Bytes fastscan's pool on the current device keeps reserved when no allocation uses them (applies to
// the pool at once, or to the pool when it is created).
inline cudaError_t set_pool_release_threshold(std::uint64_t bytes) {
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  {
    detail::pool_registry& registry = detail::pools();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (registry.pools.find(device) == registry.pools.end()) {
      registry.thresholds[device] = bytes;
      return cudaSuccess;
    }
  }
  cudaMemPool_t pool{};
  FASTSCAN_CUDA_TRY(detail::fastscan_pool(device, &pool));
  return cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &bytes);
}

// Returns the memory fastscan's pool on the current device holds but no allocation uses to the driver.
// Memory of work still queued stays reserved until that work is done: synchronise first to release all
// of it. (fastscan keeps one small tile-status buffer per stream it has scanned on; it stays allocated.)
inline cudaError_t release_pool_memory() {
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  cudaMemPool_t pool{};
  FASTSCAN_CUDA_TRY(detail::fastscan_pool(device, &pool));
  return cudaMemPoolTrimTo(pool, 0);
}

// true: allocate from the device's current memory pool (cudaDeviceGetMemPool: the default pool unless
// the application set another) instead of fastscan's own, on every device, from the next call on.
// The device's default pool releases its memory at every synchronisation unless its release threshold
// is raised, which makes repeated scans slower (bench/PERFORMANCE.md).
inline cudaError_t use_device_pool(bool enable) {
  detail::pools().use_device_pool.store(enable, std::memory_order_relaxed);
  return cudaSuccess;
}

// The pool fastscan allocates from on the current device now.
inline cudaError_t current_pool(cudaMemPool_t* pool) { return detail::current_device_pool(pool); }

}  // namespace fastscan
