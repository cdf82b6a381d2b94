#pragma once
// Where fastscan's temporary storage comes from, for policies made without an allocator (a policy
// made with `(allocator)` uses that allocator instead). By default: fastscan's own stream-ordered pool,
// one per device. Between calls it keeps reserved 256 MiB, or as much as the largest single temporary
// allocation made from it (a sort of 2^28 key-value pairs: 2 GiB), so that repeated calls never
// re-map memory. These functions act on the current device and return cudaError_t; they are safe to
// call from several host threads.
//
//   fastscan::set_pool_release_threshold(64 << 20);  // keep at most 64 MiB cached, fixed
//   fastscan::reset_pool_release_threshold();        // back to the default (256 MiB or the largest)
//   fastscan::release_pool_memory();                 // hand cached memory back to the driver now
//   fastscan::use_device_pool(true);                 // share the device's current pool instead

#include <fastscan/detail/device_pool.cuh>

#include <cstdint>

namespace fastscan {

// Bytes fastscan's pool on the current device keeps reserved when no allocation uses them, fixed: larger
// allocations no longer raise it (applies to the pool at once, or to the pool when it is created).
inline cudaError_t set_pool_release_threshold(std::uint64_t bytes) { return detail::set_release_threshold(bytes, true); }

// Back to the default on the current device: 256 MiB, raised by each allocation larger than that.
inline cudaError_t reset_pool_release_threshold() {
  return detail::set_release_threshold(detail::default_pool_release_threshold, false);
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
