#pragma once
// Inclusive scan across the 32 lanes of one warp (Hillis-Steele steps through shared memory).
// Shared memory rather than shuffles so that any element type works, whatever its size.

#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class T>
class warp_scan {
 public:
  static constexpr int lanes = 32;
  using temp_storage = uninitialized_array<T, lanes>;

  __device__ explicit warp_scan(temp_storage& storage) : lane_values_(storage) {}

  // All 32 lanes call this. On return, lane_values(l) holds the inclusive result of lane l too.
  template <class Op>
  __device__ T inclusive_scan(T value, Op op) {
    const int lane = threadIdx.x % lanes;
    construct_in(lane_values_[lane], value);
    __syncwarp();
#pragma unroll
    for (int offset = 1; offset < lanes; offset *= 2) {
      const bool has_left = lane >= offset;
      T left;
      if (has_left) left = lane_values_[lane - offset];
      __syncwarp();
      if (has_left) {
        value = op(left, value);
        construct_in(lane_values_[lane], value);
      }
      __syncwarp();
    }
    return value;
  }

  __device__ T lane_value(int lane) const { return lane_values_[lane]; }

 private:
  temp_storage& lane_values_;
};

}  // namespace fastscan::detail
