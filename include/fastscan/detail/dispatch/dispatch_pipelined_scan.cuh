#pragma once
// Host side of the pipelined single pass (agent_pipelined_scan.cuh): taken for plain single-pass scans of
// 4- and 8-byte arithmetic types between 16-byte aligned memories, on sm_90 and later, when the input
// does not fit in the device's L2 (below that the one-tile-a-block single pass is faster: the data sit in
// L2 and short-lived blocks use it better; bench/PERFORMANCE.md). One persistent block an SM.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_plan.cuh>
#include <fastscan/detail/kernels/kernel_pipelined_scan.cuh>

#include <thrust/detail/raw_pointer_cast.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace fastscan::detail {

// The current device's SM count and whether it runs the pipelined kernel (sm_90 or later), queried once
// per device.
inline cudaError_t pipelined_scan_device(int& sms, bool& capable) {
  constexpr int cached_devices = 64;
  static std::atomic<int> cached[cached_devices] = {};  // 0: not queried; else sms * 2 + capable
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  if (device < cached_devices) {
    if (const int known = cached[device].load(std::memory_order_relaxed); known > 0) {
      sms = known / 2;
      capable = (known & 1) != 0;
      return cudaSuccess;
    }
  }
  int major = 0;
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  capable = major >= 9;
  if (device < cached_devices && sms > 0) cached[device].store(sms * 2 + (capable ? 1 : 0), std::memory_order_relaxed);
  return cudaSuccess;
}

// Whether the pipelined single pass takes a scan of n elements of T from input to output (contiguous
// memory of T: the caller checked the types).
template <class T>
cudaError_t pipelined_scan_takes(const T* input, const T* output, offset_t n, bool& takes) {
  takes = false;
  if (reinterpret_cast<std::uintptr_t>(input) % 16 != 0 || reinterpret_cast<std::uintptr_t>(output) % 16 != 0)
    return cudaSuccess;
  const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(T);
  if (bytes <= latency_bound_footprint_bytes) return cudaSuccess;  // decided without asking the device
  int sms = 0;
  bool capable = false;
  FASTSCAN_CUDA_TRY(pipelined_scan_device(sms, capable));
  std::size_t l2_bytes = 0;
  FASTSCAN_CUDA_TRY(l2_cache_bytes(l2_bytes));
  takes = capable && bytes > l2_bytes;
  return cudaSuccess;
}

template <class Tuning, scan_kind Kind, class T, class Op>
cudaError_t dispatch_pipelined_scan(temp_arena& arena, const T* input, T* output, offset_t n, Op op, maybe<T> init,
                                    cudaStream_t stream) {
  const offset_t tiles = (n + Tuning::tile_items - 1) / Tuning::tile_items;
  using storage_t = typename agent_pipelined_scan<Tuning, T>::shared_storage;
  const auto kernel = pipelined_scan_kernel<Tuning, Kind, T, Op>;
  int sms = 0;
  bool capable = false;
  FASTSCAN_CUDA_TRY(pipelined_scan_device(sms, capable));
  const offset_t grid = tiles < sms ? tiles : sms;
  if (!arena.measuring()) {
    // Once per device and kernel: the storage exceeds the default 48 KiB of dynamic shared memory.
    constexpr int cached_devices = 64;
    static std::atomic<bool> allowed[cached_devices] = {};
    int device = 0;
    FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
    if (device >= cached_devices || !allowed[device].load(std::memory_order_relaxed)) {
      FASTSCAN_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(sizeof(storage_t))));
      if (device < cached_devices) allowed[device].store(true, std::memory_order_relaxed);
    }
  }
  return with_tile_state<T>(
      arena, tiles, stream, false,
      [&](tile_state<T> const& state) {
        return launch_kernel(kernel, static_cast<unsigned>(grid), Tuning::threads, sizeof(storage_t), stream, input,
                             output, n, tiles, op, init, state);
      },
      grid);
}

}  // namespace fastscan::detail
