#pragma once
// How a kernel is launched and how many blocks it takes: every fastscan kernel goes through
// launch_kernel (chained to the kernel before it where kernels/grid_dependency.cuh allows); one tile per
// block for the tile drivers (whose grid must stay within CUDA's x dimension), a capped grid-stride grid
// for element-wise kernels, and the copy every algorithm that needs one launches the same way.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>
#include <fastscan/detail/kernels/kernel_copy.cuh>

#include <cuda_runtime.h>

#include <cstddef>

namespace fastscan::detail {

// kernel<<<blocks, threads, shared_bytes, stream>>>(args...), as a programmatic dependent of the kernel
// before it on the stream where chained_launches allows (its blocks wait in follow_previous_grid).
template <class... Params, class... Args>
cudaError_t launch_kernel(void (*kernel)(Params...), unsigned blocks, unsigned threads, std::size_t shared_bytes,
                          cudaStream_t stream, Args&&... args) {
  if constexpr (chained_launches) {
    cudaLaunchAttribute chained[1];
    chained[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    chained[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    config.attrs = chained;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, kernel, static_cast<Args&&>(args)...);
  } else {
    kernel<<<blocks, threads, shared_bytes, stream>>>(static_cast<Args&&>(args)...);
    return cudaGetLastError();
  }
}

// The tiles of n items, `tile_items` to a tile; cudaErrorInvalidValue beyond the grid's x dimension
// (one block per tile).
inline cudaError_t plan_tiles(offset_t n, int tile_items, offset_t& tiles) {
  tiles = (n + tile_items - 1) / tile_items;
  return tiles > offset_t{0x7fffffff} ? cudaErrorInvalidValue : cudaSuccess;
}

// Blocks of `per_block` items for `items` items, at most `limit` (grid-stride kernels cover the rest).
inline unsigned grid_for(offset_t items, offset_t per_block, offset_t limit) {
  const offset_t blocks = (items + per_block - 1) / per_block;
  return static_cast<unsigned>(blocks < limit ? blocks : limit);
}

// out[i] = in[i] for i < count, on `stream`.
template <class InputIt, class OutputIt>
cudaError_t launch_copy(InputIt in, OutputIt out, offset_t count, cudaStream_t stream) {
  if (count <= 0) return cudaSuccess;
  return launch_kernel(copy_kernel<InputIt, OutputIt>, grid_for(count, copy_threads, 65536), copy_threads, 0, stream, in,
                       out, count);
}

}  // namespace fastscan::detail
