#pragma once
// What dispatch asks of the current device (tuning_common.cuh: device_facts), queried once per device at
// first use and kept for the process.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>

namespace fastscan::detail {

// Lets tests run either memory class's tunings on any GPU: when set (non-zero), every device's memory peak
// is taken to be this many bytes a second.
inline std::atomic<double>& memory_peak_for_tests() {
  static std::atomic<double> peak{0};
  return peak;
}

inline cudaError_t queried_device_facts(device_facts& facts) {
  // Devices past the first 64 are queried at every call. Two threads that query one device at once store
  // the same values; `known` is set after the fields.
  constexpr int cached_devices = 64;
  struct cached_facts {
    std::atomic<bool> known{false};
    std::atomic<int> sms{0}, compute_major{0};
    std::atomic<long long> l2_bytes{0}, shared_per_block_opt_in{0};
    std::atomic<double> memory_bytes_per_second{0};
  };
  static cached_facts cached[cached_devices];
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  if (device < cached_devices && cached[device].known.load(std::memory_order_acquire)) {
    const cached_facts& c = cached[device];
    facts.sms = c.sms.load(std::memory_order_relaxed);
    facts.compute_major = c.compute_major.load(std::memory_order_relaxed);
    facts.l2_bytes = static_cast<std::size_t>(c.l2_bytes.load(std::memory_order_relaxed));
    facts.shared_per_block_opt_in = static_cast<std::size_t>(c.shared_per_block_opt_in.load(std::memory_order_relaxed));
    facts.memory_bytes_per_second = c.memory_bytes_per_second.load(std::memory_order_relaxed);
    return cudaSuccess;
  }
  int sms = 0, major = 0, l2 = 0, opt_in = 0, memory_khz = 0, bus_bits = 0;
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  FASTSCAN_CUDA_TRY(cudaDeviceGetAttribute(&opt_in, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  // The memory's peak only guides tuning: where a device does not report it, it stays unknown.
  if (cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) != cudaSuccess) {
    memory_khz = bus_bits = 0;
    (void)cudaGetLastError();
  }
  facts.sms = sms;
  facts.compute_major = major;
  facts.l2_bytes = static_cast<std::size_t>(l2);
  facts.shared_per_block_opt_in = static_cast<std::size_t>(opt_in);
  facts.memory_bytes_per_second = 2.0 * memory_khz * 1e3 * bus_bits / 8;  // two transfers a clock
  if (device < cached_devices) {
    cached_facts& c = cached[device];
    c.sms.store(sms, std::memory_order_relaxed);
    c.compute_major.store(major, std::memory_order_relaxed);
    c.l2_bytes.store(l2, std::memory_order_relaxed);
    c.shared_per_block_opt_in.store(opt_in, std::memory_order_relaxed);
    c.memory_bytes_per_second.store(facts.memory_bytes_per_second, std::memory_order_relaxed);
    c.known.store(true, std::memory_order_release);
  }
  return cudaSuccess;
}

inline cudaError_t current_device_facts(device_facts& facts) {
  FASTSCAN_CUDA_TRY(queried_device_facts(facts));
  const double peak = memory_peak_for_tests().load(std::memory_order_relaxed);
  if (peak != 0) facts.memory_bytes_per_second = peak;
  return cudaSuccess;
}

}  // namespace fastscan::detail
