#pragma once
// Shared-memory stages filled by bulk copies (sm_90: cp.async.bulk, the one-dimensional form of the
// tensor memory accelerator) and handed between the warps of a block by mbarriers. A stage's `full`
// barrier completes when its copy has landed; its `empty` barrier when every thread that reads it has
// arrived. Waits name the phase by its parity: use k of a ring of S stages waits with parity (k / S) & 1.
//
// Device code for sm_90 and later only; on older architectures the functions compile to nothing and the
// host never launches a kernel that uses them (dispatch/dispatch_pipelined_scan.cuh).

#include <cstdint>

namespace fastscan::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define FASTSCAN_STAGE_RING_ASM 1
#endif

__device__ __forceinline__ std::uint32_t shared_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

// One thread: a barrier that completes a phase when `arrivals` threads have arrived (and, for a
// barrier that expects bytes, when they have landed).
__device__ __forceinline__ void barrier_init(std::uint64_t* barrier, unsigned arrivals) {
#ifdef FASTSCAN_STAGE_RING_ASM
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
#endif
}

// After barrier_init, before the block's barrier that publishes the barriers to the other threads.
__device__ __forceinline__ void barrier_init_fence() {
#ifdef FASTSCAN_STAGE_RING_ASM
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#endif
}

// Arrival with release semantics: the calling thread's earlier accesses, and only its own, happen before
// whatever follows the wait of the phase it completes.
__device__ __forceinline__ void barrier_arrive(std::uint64_t* barrier) {
#ifdef FASTSCAN_STAGE_RING_ASM
  asm volatile("{ .reg .b64 state; mbarrier.arrive.shared::cta.b64 state, [%0]; }" ::"r"(shared_address(barrier))
               : "memory");
#endif
}

// Arrival that also tells the barrier to wait for `bytes` of bulk copies.
__device__ __forceinline__ void barrier_arrive_expecting(std::uint64_t* barrier, unsigned bytes) {
#ifdef FASTSCAN_STAGE_RING_ASM
  asm volatile("{ .reg .b64 state; mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1; }" ::"r"(
                   shared_address(barrier)),
               "r"(bytes)
               : "memory");
#endif
}

// Whether the phase of the given parity has completed, after the hardware's bounded wait.
__device__ __forceinline__ bool barrier_try_wait(std::uint64_t* barrier, unsigned parity) {
#ifdef FASTSCAN_STAGE_RING_ASM
  unsigned done = 0;
  asm volatile(
      "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(shared_address(barrier)), "r"(parity)
      : "memory");
  return done != 0;
#else
  return true;
#endif
}

__device__ __forceinline__ void barrier_wait(std::uint64_t* barrier, unsigned parity) {
  while (!barrier_try_wait(barrier, parity)) {
  }
}

// One thread: `bytes` (a multiple of 16) from global memory at `source` (16-byte aligned) into shared
// memory at `target` (16-byte aligned), completing on `barrier`.
__device__ __forceinline__ void bulk_copy_to_shared(void* target, const void* source, unsigned bytes,
                                                    std::uint64_t* barrier) {
#ifdef FASTSCAN_STAGE_RING_ASM
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(target)),
               "l"(source), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
#endif
}

#undef FASTSCAN_STAGE_RING_ASM

}  // namespace fastscan::detail
