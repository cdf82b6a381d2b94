#pragma once
// Host side of tile_io.cuh's tile_access: how a launch moves its full tiles. 16-byte vectors where the
// iterators allow them; prefetched and streaming (evict-first) vectors by the call's size (plan_tile_access).

#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/device_facts.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace fastscan::detail {

// May a tile loop over [it, it + n) move chunks of `Vector` elements (tile_io.cuh: 16-byte vectors of
// the accumulator, chunks of other sizes for keys, a chunk of each component of a zip of two)? T is void for keys from a fancy iterator: never (and
// no sizeof(void) is formed, which compilers warn about).
template <class T, int Vector, class It>
bool vector_access_possible(It it) {
  if constexpr (std::is_void_v<T>) {
    return false;
  } else if constexpr (Vector > 1 && is_vector_memory_of<It, T> && chunk_movable<T, Vector>) {
    return reinterpret_cast<std::uintptr_t>(lowest_address<T>(it, 0, Vector)) % chunk_alignment<T, Vector> == 0;
  } else if constexpr (Vector > 1 && is_zip_vector_memory_of<It, T, Vector>) {
    using first = typename zip_of_two<It>::first;
    using second = typename zip_of_two<It>::second;
    return vector_access_possible<first, Vector>(::cuda::std::get<0>(it.get_iterator_tuple())) &&
           vector_access_possible<second, Vector>(::cuda::std::get<1>(it.get_iterator_tuple()));
  } else {
    return false;
  }
}

// May a staged tile (tile_io.cuh: stage_tile_in_order) copy [it, it + n) as 16-byte vectors? Contiguous
// memory of T aligned to 16 bytes (a tile's bytes are a multiple of 16, so every tile is aligned too).
template <class T, class It>
bool staged_copy_possible(It it) {
  if constexpr (std::is_void_v<T>) {
    return false;
  } else if constexpr (is_contiguous_of<It, T>) {
    return reinterpret_cast<std::uintptr_t>(thrust::raw_pointer_cast(&*it)) % 16 == 0;
  } else {
    return false;
  }
}

// Vectors where they are possible, neither prefetched nor streaming (drivers that number tiles by
// blockIdx, where the draw the prefetch overlaps does not exist).
inline tile_access plain_tile_access(bool vectors_possible) {
  return vectors_possible ? tile_access::vectors : tile_access::elements;
}

// Calls whose data (read and written) is at most this are bound by latency, not by any bandwidth.
inline constexpr std::size_t latency_bound_footprint_bytes = std::size_t{2} << 20;

// Where a call's data (footprint_bytes, read and written) leaves it:
//   latency_bound  at most latency_bound_footprint_bytes: decided without asking the device (such calls'
//                  host time matters);
//   may_fit_l2     up to the L2 size: the data may sit in L2, and the call is then bound by L2 bandwidth;
//   beyond_l2      the data comes from DRAM.
enum class footprint_class { latency_bound, may_fit_l2, beyond_l2 };

inline cudaError_t classify_footprint(std::size_t footprint_bytes, footprint_class& where) {
  where = footprint_class::latency_bound;
  if (footprint_bytes <= latency_bound_footprint_bytes) return cudaSuccess;
  device_facts device{};
  FASTSCAN_CUDA_TRY(current_device_facts(device));
  where = footprint_bytes > device.l2_bytes ? footprint_class::beyond_l2 : footprint_class::may_fit_l2;
  return cudaSuccess;
}

// Whether blocks that draw their tiles prefetch the tile of their launch-order guess (tile_io.cuh): not
// where the data may sit in L2 and bound the call by L2 bandwidth, which the prefetch's second request
// per line costs; elsewhere it shortens each tile's wait (beyond L2: 3-5% from 2^24 elements on).
inline bool prefetches_drawn_tiles(footprint_class where) { return where != footprint_class::may_fit_l2; }

// How a single-pass launch that draws its tiles moves them: vectors where possible, prefetched as
// prefetches_drawn_tiles says, streaming beyond L2 where the driver takes them (`streaming`; scans by
// key and compaction measured slower with them). Measured: bench/PERFORMANCE.md.
inline cudaError_t plan_tile_access(bool vectors_possible, std::size_t footprint_bytes, bool streaming,
                                    tile_access& access) {
  access = plain_tile_access(vectors_possible);
  if (!vectors_possible) return cudaSuccess;
  footprint_class where = footprint_class::latency_bound;
  FASTSCAN_CUDA_TRY(classify_footprint(footprint_bytes, where));
  if (where == footprint_class::beyond_l2 && streaming) access = tile_access::prefetched_streaming_vectors;
  else if (prefetches_drawn_tiles(where)) access = tile_access::prefetched_vectors;
  return cudaSuccess;
}

}  // namespace fastscan::detail
