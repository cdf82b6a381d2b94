#pragma once
// Host side of tile_io.cuh's tile_access: how a launch moves its full tiles. 16-byte vectors where the
// iterators allow them; streaming (evict-first) vectors where the call's data exceeds the L2 cache.

#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/config.cuh>

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>

namespace fastscan::detail {

// The current device's L2 cache size, queried once per device.
inline cudaError_t l2_cache_bytes(std::size_t& bytes) {
  constexpr int cached_devices = 64;
  static std::atomic<long long> cached[cached_devices] = {};  // 0: not queried yet
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  if (device < cached_devices) {
    if (const long long known = cached[device].load(std::memory_order_relaxed); known > 0) {
      bytes = static_cast<std::size_t>(known);
      return cudaSuccess;
    }
  }
  int size = 0;
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&size, cudaDevAttrL2CacheSize, device));
  bytes = static_cast<std::size_t>(size);
  if (device < cached_devices && size > 0) cached[device].store(size, std::memory_order_relaxed);
  return cudaSuccess;
}

// Vectors where they are possible, never streaming ones.
inline tile_access plain_tile_access(bool vectors_possible) {
  return vectors_possible ? tile_access::vectors : tile_access::elements;
}

// Vectors where they are possible, streaming ones when the launch's data (footprint_bytes, read and
// written) exceeds L2. Calls under 1 MiB, smaller than any L2 worth streaming past, skip the device
// query (their host time matters).
inline cudaError_t plan_tile_access(bool vectors_possible, std::size_t footprint_bytes, tile_access& access) {
  access = plain_tile_access(vectors_possible);
  if (!vectors_possible || footprint_bytes <= (std::size_t{1} << 20)) return cudaSuccess;
  std::size_t l2_bytes = 0;
  FASTSCAN_CUDA_TRY(l2_cache_bytes(l2_bytes));
  if (footprint_bytes > l2_bytes) access = tile_access::streaming_vectors;
  return cudaSuccess;
}

}  // namespace fastscan::detail
