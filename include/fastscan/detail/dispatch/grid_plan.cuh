#pragma once
// How many blocks a launch takes: one tile per block for the tile drivers (whose grid must stay within
// CUDA's x dimension), a capped grid-stride grid for element-wise kernels, and the copy every
// algorithm that needs one launches the same way.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/kernels/kernel_copy.cuh>

#include <cuda_runtime_api.h>

namespace fastscan::detail {

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
  copy_kernel<<<grid_for(count, copy_threads, 65536), copy_threads, 0, stream>>>(in, out, count);
  return cudaGetLastError();
}

}  // namespace fastscan::detail
