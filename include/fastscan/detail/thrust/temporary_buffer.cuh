#pragma once
// Temporary storage for fastscan policies without a user allocator: the stream-ordered pool
// (cudaMallocAsync / cudaFreeAsync on the policy's stream), never a cudaMalloc per call.
// Thrust finds these by ADL through thrust::detail::temporary_array, so Thrust's own algorithms run
// through a fastscan policy use the pool as well. A policy made with `(alloc)` is an
// execute_with_allocator, whose exact-type overloads in Thrust win and use the allocator instead.

#include <fastscan/execution_policy.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/pair.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system/detail/bad_alloc.h>

#include <cstddef>
#include <string>

namespace fastscan::detail {

template <class T, class Derived, class Algorithm>
thrust::pair<T*, std::ptrdiff_t> get_temporary_buffer(execution_policy<Derived, Algorithm>& policy, std::ptrdiff_t n) {
  void* pointer = nullptr;
  const cudaError_t status =
      cudaMallocAsync(&pointer, sizeof(T) * static_cast<std::size_t>(n), thrust::cuda_cub::stream(policy));
  if (status != cudaSuccess) {
    cudaGetLastError();  // clear it, as Thrust does, so it does not leak into later launches
    throw thrust::system::detail::bad_alloc(
        (std::string(Algorithm::name) + ": cudaMallocAsync of temporary storage failed: " +
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
        (std::string(Algorithm::name) + ": cudaFreeAsync of temporary storage failed: " +
         thrust::cuda_category().message(status))
            .c_str());
  }
}

}  // namespace fastscan::detail
