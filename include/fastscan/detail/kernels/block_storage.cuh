#pragma once
// Where a thread block's working storage (its agent's temp_storage) lives. Block code takes a
// temp_storage& and does not know which of these it got:
//   static shared memory   when it fits the 48 KiB any kernel may declare: every element type up to a
//                          few hundred bytes (the tunings shrink the block for large elements);
//   dynamic shared memory  beyond that, up to what the device lets a block opt in to (227 KiB on Hopper);
//   global memory          beyond even that: one slice of the call's temporary storage per block, as CUB's
//                          "virtual shared memory" does. __syncthreads orders global accesses within a block
//                          as it does shared ones, so the block code is unchanged.
// The host (dispatch/block_storage_plan.cuh) decides and passes the decision as a block_storage_place.
// The last two are reached through one pointer chosen at run time, so the block code's shared-memory
// accesses and atomics compile to generic ones, slower than static shared memory's (bench/PERFORMANCE.md):
// a kernel whose block work is bound by shared memory keeps its storage within the static 48 KiB.

#include <fastscan/detail/uninitialized.cuh>

#include <cstddef>
#include <cstdint>

namespace fastscan::detail {

inline constexpr std::size_t max_static_shared_bytes = 48 * 1024;

template <class Storage>
inline constexpr bool fits_static_shared = sizeof(Storage) <= max_static_shared_bytes;

// Bytes one block's storage takes outside static shared memory, with room to align it.
template <class Storage>
inline constexpr std::size_t spilled_storage_bytes =
    (sizeof(Storage) + alignof(Storage) - 1) / alignof(Storage) * alignof(Storage) + (alignof(Storage) > 16 ? alignof(Storage) : 0);

struct block_storage_place {
  unsigned char* global_slices;  // per-block slices in global memory; null: dynamic shared memory
};

template <class Storage>
__device__ Storage& block_temp_storage(block_storage_place place) {
  if constexpr (fits_static_shared<Storage>) {
    __shared__ uninitialized<Storage> storage;
    return storage.get();
  } else {
    extern __shared__ __align__(16) unsigned char dynamic_shared[];
    unsigned char* base = place.global_slices != nullptr
                              ? place.global_slices + blockIdx.x * spilled_storage_bytes<Storage>
                              : dynamic_shared;
    constexpr std::uintptr_t alignment = alignof(Storage);
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(base);
    return *reinterpret_cast<Storage*>((address + alignment - 1) / alignment * alignment);
  }
}

}  // namespace fastscan::detail
