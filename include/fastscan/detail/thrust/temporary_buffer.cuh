#pragma once
// Temporary storage for fastscan policies without a user allocator: a stream-ordered pool
// (cudaMallocFromPoolAsync / cudaFreeAsync on the policy's stream), never a cudaMalloc per call.
// fastscan keeps its own pool per device because the device's default pool returns its memory to the
// driver at every synchronisation (release threshold 0), and re-mapping it on the next call cost a
// third of the matrix scan's time at 2^24 elements (bench/PERFORMANCE.md). Up to
// the pool's release threshold stays reserved between calls (256 MiB or the largest allocation made,
// unless set through <fastscan/memory.cuh>); the user's own pools are untouched.
// Thrust finds these by ADL through thrust::detail::temporary_array, so Thrust's own algorithms run
// through a fastscan policy use the pool as well. A policy made with `(alloc)` is an
// execute_with_allocator, whose exact-type overloads in Thrust win and use the allocator instead.
// <fastscan/memory.cuh> can switch to the device's current pool (allocate_from_current_pool decides).

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/device_pool.cuh>
#include <fastscan/execution_policy.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/pair.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace fastscan::detail {

// While the stream is being captured into a graph, the allocation becomes a graph memory node from the
// device's default pool, which is what graphs support; fastscan's pool serves every other call.
template <class T, class Derived, class Algorithm>
thrust::pair<T*, std::ptrdiff_t> get_temporary_buffer(execution_policy<Derived, Algorithm>& policy, std::ptrdiff_t n) {
  void* pointer = nullptr;
  const cudaStream_t stream = thrust::cuda_cub::stream(policy);
  const std::size_t bytes = sizeof(T) * static_cast<std::size_t>(n);
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  cudaError_t status = cudaStreamIsCapturing(stream, &capture);
  if (status == cudaSuccess && capture != cudaStreamCaptureStatusNone) {
    status = cudaMallocAsync(&pointer, bytes, stream);
  } else if (status == cudaSuccess) {
    status = allocate_from_current_pool(&pointer, bytes, stream);
  }
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear it, as Thrust does, so it does not leak into later launches
    throw thrust::system::detail::bad_alloc(
        (policy_spelling<Algorithm>(static_cast<Derived&>(policy)) + ": stream-ordered allocation of temporary storage failed: " +
         thrust::cuda_category().message(status))
            .c_str());
  }
  return thrust::make_pair(static_cast<T*>(pointer), n);
}

template <class Derived, class Algorithm, class Pointer>
void return_temporary_buffer(execution_policy<Derived, Algorithm>& policy, Pointer pointer, std::ptrdiff_t) {
  const cudaError_t status = cudaFreeAsync(thrust::raw_pointer_cast(pointer), thrust::cuda_cub::stream(policy));
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw thrust::system::detail::bad_alloc(
        (policy_spelling<Algorithm>(static_cast<Derived&>(policy)) + ": cudaFreeAsync of temporary storage failed: " +
         thrust::cuda_category().message(status))
            .c_str());
  }
}

}  // namespace fastscan::detail
