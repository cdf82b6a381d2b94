#pragma once
// Host side of the pipelined single pass (agent_pipelined_scan.cuh): taken for the single-pass scans
// whose memory suits it (plain scans of 4- and 8-byte arithmetic types, scans by key of 8-byte arithmetic
// values with 4- or 8-byte arithmetic keys, all 16-byte aligned: pipelined_tiles.cuh) and for the
// compactions built on them (dispatch_select.cuh), on sm_90 and
// later, with a tuning that suits the device, for the calls it takes there (pipelined_scan_tuning::suits,
// takes). The tuning's number of persistent blocks an SM.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/device_facts.cuh>
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

// Whether the pipelined kernel runs on the current device, checked once per device and kernel: the
// device is sm_90 or later, the code chosen for it was built for sm_90 or later (a build for older
// targets only has no body to run there), and the storage fits the block's opt-in shared memory, which
// is then opted in.
template <class Tuning, scan_kind Kind, class Tiles, class Op>
cudaError_t pipelined_kernel_runs(device_facts const& device, bool& runs) {
  using storage_t = typename agent_pipelined_scan<Tuning, Tiles>::shared_storage;
  const auto kernel = pipelined_scan_kernel<Tuning, Kind, Tiles, Op>;
  constexpr int cached_devices = 64;
  static std::atomic<int> cached[cached_devices] = {};  // 0: not checked; 1: does not run; 2: runs
  int current = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&current));
  if (current < cached_devices) {
    if (const int known = cached[current].load(std::memory_order_acquire); known != 0) {
      runs = known == 2;
      return cudaSuccess;
    }
  }
  runs = false;
  if (device.compute_major >= 9 && sizeof(storage_t) <= device.shared_per_block_opt_in) {
    cudaFuncAttributes attributes{};
    FASTSCAN_CUDA_TRY(cudaFuncGetAttributes(&attributes, kernel));
    if (attributes.ptxVersion >= 90) {
      FASTSCAN_CUDA_TRY(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sizeof(storage_t))));
      // All the SM's shared memory, so that a tuning's blocks an SM are resident together.
      FASTSCAN_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                             static_cast<int>(cudaSharedmemCarveoutMaxShared)));
      runs = true;
    }
  }
  if (current < cached_devices) cached[current].store(runs ? 2 : 1, std::memory_order_release);
  return cudaSuccess;
}

// Lets tests and sanitizers run the pipelined pass on small inputs: when min_bytes is set (non-zero), it
// takes every call of at least that many bytes and two tiles in place of its tuning's size rule; when
// max_blocks is set, its grid has at most that many blocks (each then goes round its rings many times).
struct pipelined_scan_test_overrides {
  std::size_t min_bytes = 0;
  int max_blocks = 0;
};
inline pipelined_scan_test_overrides& pipelined_scan_overrides_for_tests() {
  static pipelined_scan_test_overrides overrides;
  return overrides;
}

// Runs the scan of n elements in `io`'s memory (pipelined_tiles.cuh; the caller checked its types) with
// the pipelined single pass where its tuning takes the call on this device and its kernel runs here;
// `taken` says whether it did. A measuring arena takes the same decision as the real one.
template <class Tuning, scan_kind Kind, class Tiles, class Op>
cudaError_t dispatch_pipelined_scan(temp_arena& arena, Tiles const& io, offset_t n, Op op,
                                    maybe<typename Tiles::value_type> init, cudaStream_t stream, bool& taken) {
  using T = typename Tiles::value_type;
  taken = false;
  if (!io.aligned()) return cudaSuccess;
  const std::size_t bytes = static_cast<std::size_t>(n) * Tiles::input_bytes_per_item;
  const pipelined_scan_test_overrides overrides = pipelined_scan_overrides_for_tests();
  const std::size_t forced_min_bytes = overrides.min_bytes;
  const offset_t tiles = (n + Tuning::tile_items - 1) / Tuning::tile_items;
  if (tiles < 2) return cudaSuccess;  // one tile: the plain pass, whose single block keeps no statuses
  if (forced_min_bytes == 0 && bytes <= latency_bound_footprint_bytes) return cudaSuccess;  // without asking the device
  device_facts device{};
  FASTSCAN_CUDA_TRY(current_device_facts(device));
  if (!Tuning::suits(device) || (forced_min_bytes != 0 ? bytes < forced_min_bytes : !Tuning::takes(bytes, device)))
    return cudaSuccess;
  bool runs = false;
  FASTSCAN_CUDA_TRY((pipelined_kernel_runs<Tuning, Kind, Tiles, Op>(device, runs)));
  if (!runs) return cudaSuccess;
  taken = true;

  using storage_t = typename agent_pipelined_scan<Tuning, Tiles>::shared_storage;
  const offset_t resident = static_cast<offset_t>(device.sms) * Tuning::blocks_per_sm;
  const offset_t blocks = overrides.max_blocks > 0 && overrides.max_blocks < resident ? overrides.max_blocks : resident;
  const offset_t grid = tiles < blocks ? tiles : blocks;
  return with_tile_state<T>(
      arena, tiles, stream, keeps_group_statuses(Tuning::strategy),
      [&](tile_state<T> const& state) {
        return launch_kernel(pipelined_scan_kernel<Tuning, Kind, Tiles, Op>, static_cast<unsigned>(grid), Tuning::threads,
                             sizeof(storage_t), stream, io, n, tiles, op, init, state);
      },
      grid);
}

}  // namespace fastscan::detail
