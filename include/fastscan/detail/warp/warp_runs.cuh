#pragma once
// Runs: lane l of a warp holds the N consecutive elements from element l N of an array in shared
// memory, read as 16-byte vectors. Read in order, the eight lanes of a quarter warp would meet the same
// bank groups (runs of 64 bytes start in only two of a 128-byte line's eight); so lane l reads its
// vectors from the one rotated by rotation(l) on, which puts the quarter warp's eight reads of a step in
// eight different groups, and puts them back in order in registers afterwards (log2 steps of selects).
// A reduction over runs folds each lane's elements in a row and shuffles once per run, not once per
// row of a vector. Warp code only.

#include <fastscan/detail/config.cuh>

#include <cstring>

namespace fastscan::detail {

// The rotation of lane l's run of `vectors` 16-byte vectors (a power of two): its place among the lanes
// whose runs start in the same 128-byte line (runs of v < 8 vectors start in 8 / v different groups;
// from 8 vectors on, every lane's own), so that those lanes' j-th vectors meet every bank group once.
__host__ __device__ constexpr int run_rotation(int lane, int vectors) {
  return (vectors >= 8 ? lane : lane / (8 / vectors)) & (vectors - 1);
}

// Lane's run of N elements of T from `run_first` (16-byte aligned) into `run`, in element order.
template <class T, int N>
__device__ __forceinline__ void load_rotated_run(T const* run_first, int lane, T (&run)[N]) {
  constexpr int vectors = static_cast<int>(N * sizeof(T) / 16);
  static_assert(N * sizeof(T) % 16 == 0 && vectors > 0 && (vectors & (vectors - 1)) == 0,
                "a run is a power-of-two count of 16-byte vectors");
  const int rotation = run_rotation(lane, vectors);
  uint4 bits[vectors];  // bits[q]: vector (q + rotation) % vectors
#pragma unroll
  for (int q = 0; q < vectors; ++q) bits[q] = reinterpret_cast<const uint4*>(run_first)[(q + rotation) % vectors];
  // Vector q to place q + rotation: rotate right by each set bit of the rotation.
#pragma unroll
  for (int bit = 1; bit < vectors; bit *= 2) {
    if (rotation & bit) {
      uint4 rotated[vectors];
#pragma unroll
      for (int q = 0; q < vectors; ++q) rotated[(q + bit) % vectors] = bits[q];
#pragma unroll
      for (int q = 0; q < vectors; ++q) bits[q] = rotated[q];
    }
  }
  std::memcpy(run, bits, sizeof(bits));
}

}  // namespace fastscan::detail
