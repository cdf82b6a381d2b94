#pragma once
// What every overload at the Thrust boundary shares: the range length check, the launch through the
// policy's allocator and synchronisation, the translation of a failure into the exception Thrust's
// CUDA backend throws, naming the policy as the user spelled it, the algorithm called and the step,
// and the split between calls from host code and calls from device code.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/execution_policy.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/detail/temporary_array.h>
#include <thrust/system/cuda/detail/util.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

#include <cuda/std/iterator>

#include <nv/target>

#include <cstdint>
#include <string>

// The body of every overload at the Thrust boundary that does the work: `host_impl` from host code,
// `sequential_impl` from device code (a kernel calling a Thrust algorithm through a fastscan policy), as
// Thrust's CUDA backend splits its own (THRUST_CDP_DISPATCH, which runs the sequential algorithm in device
// code since CCCL 3.0 has no dynamic parallelism): such a kernel answers as one calling through
// thrust::cuda::par. The device pass still sees the host branch, never taken, so that the kernels it
// launches are compiled for the device. Each branch is a parenthesised list of statements. Every
// function using it is preceded by `#pragma nv_exec_check_disable`, as Thrust's own are
// (_CCCL_EXEC_CHECK_DISABLE): its host branch calls host functions from a __host__ __device__ one.
#if defined(__CUDACC__) && defined(__CUDA_ARCH__)
#  define FASTSCAN_HOST_OR_SEQUENTIAL(host_impl, sequential_impl) \
    if (false) {                                                   \
      NV_IF_TARGET(NV_ANY_TARGET, host_impl)                       \
    }                                                              \
    NV_IF_TARGET(NV_IS_HOST, host_impl, sequential_impl)
#else
#  define FASTSCAN_HOST_OR_SEQUENTIAL(host_impl, sequential_impl) NV_IF_TARGET(NV_IS_HOST, host_impl, sequential_impl)
#endif

namespace fastscan::detail {

// Counts calls dispatched to fastscan's kernels on this thread (scans, compaction, sort, by-key
// reductions): lets tests see, without a GPU, that a Thrust call reached fastscan rather than Thrust's
// CUDA backend.
inline unsigned long long& calls_dispatched() {
  thread_local unsigned long long count = 0;
  return count;
}

// Throws as Thrust's CUDA backend does when `status` is an error, naming the policy, the call and the
// step that failed. The message is built only on failure: a call's host time matters at small n.
template <class Algorithm, class Derived>
void throw_if_failed(cudaError_t status, Derived& policy, const char* algorithm_call, const char* step) {
  if (status != cudaSuccess) {
    thrust::cuda_cub::throw_on_error(
        status, (policy_spelling<Algorithm>(policy) + " " + algorithm_call + ": " + step).c_str());
  }
}

// The range length, or a clear error for a range whose last precedes its first.
template <class Algorithm, class Derived, class It>
offset_t checked_length(Derived& policy, It first, It last, const char* algorithm_call) {
  const auto distance = ::cuda::std::distance(first, last);
  if (distance < 0) {
    throw thrust::system_error(cudaErrorInvalidValue, thrust::cuda_category(),
                               policy_spelling<Algorithm>(policy) + " " + algorithm_call +
                                   ": last precedes first (negative range length)");
  }
  return static_cast<offset_t>(distance);
}

// Plans temporary storage with a measuring pass of `dispatch(arena, stream)`, allocates it through the
// policy (the stream-ordered pool, or the user's allocator), launches, then synchronises as the policy says.
template <class Derived, class Algorithm, class Dispatch>
void launch(execution_policy<Derived, Algorithm>& policy, offset_t n, Dispatch&& dispatch, const char* algorithm_call) {
  ++calls_dispatched();
  Derived& derived = static_cast<Derived&>(policy);
  const cudaStream_t stream = thrust::cuda_cub::stream(derived);
  if (n > 0) {
    temp_arena plan = temp_arena::measure();
    throw_if_failed<Algorithm>(dispatch(plan, stream), derived, algorithm_call, "planning temporary storage");
    if (plan.bytes_used() == 0) {  // a single-pass call whose tile statuses need no per-call storage
      temp_arena arena = temp_arena::over(nullptr, plan);
      throw_if_failed<Algorithm>(dispatch(arena, stream), derived, algorithm_call, "launching its kernel");
    } else {
      thrust::detail::temporary_array<std::uint8_t, Derived> storage(derived, plan.bytes_used());
      temp_arena arena = temp_arena::over(thrust::raw_pointer_cast(storage.data()), plan);
      throw_if_failed<Algorithm>(dispatch(arena, stream), derived, algorithm_call, "launching its kernels");
    }
  }
  throw_if_failed<Algorithm>(thrust::cuda_cub::synchronize_optional(derived), derived, algorithm_call, "failed to synchronize");
}

}  // namespace fastscan::detail
