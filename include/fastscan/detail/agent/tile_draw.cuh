#pragma once
// What the agents that draw their tiles share: the draw itself (tiles numbered in the order blocks
// start running, so a tile's predecessors are already running when it looks back), where a drawn tile
// lies in the input, and the relaxed (L1-bypassing) loads and stores of the look-back words that tiles
// publish to each other.

#include <fastscan/detail/config.cuh>

#include <vector_types.h>

namespace fastscan::detail {

// The tile this block works on: thread 0 draws it (`draw()` returns it), having first started the tile
// of its launch-order guess (blockIdx.x) on its way into L2 with prefetch(guess) when `prefetch_guess`,
// so that the tile's DRAM read overlaps the draw's round trip; the whole block then takes it.
template <class Draw, class Prefetch>
__device__ offset_t draw_tile(offset_t& shared_tile, bool prefetch_guess, Draw&& draw, Prefetch&& prefetch) {
  if (threadIdx.x == 0) {
    if (prefetch_guess) prefetch(static_cast<offset_t>(blockIdx.x));
    shared_tile = draw();
  }
  __syncthreads();
  return shared_tile;
}

// Where tile `index` of an input of n items lies: its first item, how many of its items exist, and
// whether it is the input's last tile (which may still be full).
struct tile_span {
  offset_t index;
  offset_t base;
  int valid;
  bool last;

  __device__ bool full() const { return !last; }
};

__device__ inline tile_span locate_tile(offset_t index, offset_t n, int tile_items) {
  const offset_t base = index * tile_items;
  const offset_t remaining = n - base;
  const bool last = remaining <= tile_items;
  return tile_span{index, base, last ? static_cast<int>(remaining) : tile_items, last};
}

// ---- relaxed, L1-bypassing accesses to look-back words ------------------------------------------

__device__ __forceinline__ void store_relaxed(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned load_relaxed(unsigned const* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long load_relaxed(unsigned long long const* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(ulonglong2* p, ulonglong2 v) {
  asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(v.x), "l"(v.y) : "memory");
}
__device__ __forceinline__ ulonglong2 load_relaxed(ulonglong2 const* p) {
  ulonglong2 v;
  asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
  return v;
}

}  // namespace fastscan::detail
