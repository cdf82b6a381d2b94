#pragma once
// Warp shuffles of values of any type, word by word (the look-back's window reduction, unique's
// predecessors). All 32 lanes must call them.

#include <fastscan/detail/uninitialized.cuh>

#include <cstring>

namespace fastscan::detail {

enum class shuffle_from { higher_lane, lower_lane, lane };

// The source lane: lane + arg (higher_lane), lane - arg (lower_lane) or lane arg.
template <shuffle_from From, class T>
__device__ T shuffle_any(T const& value, int arg) {
  constexpr int words = (sizeof(T) + 3) / 4;
  unsigned in[words], out[words];
  std::memcpy(in, &value, sizeof(T));
  // Unrolled for ordinary types; a loop for huge ones (kilobyte structs), which would swamp compile time.
#pragma unroll 32
  for (int i = 0; i < words; ++i) {
    if constexpr (From == shuffle_from::higher_lane) out[i] = __shfl_down_sync(0xffffffffu, in[i], arg);
    else if constexpr (From == shuffle_from::lower_lane) out[i] = __shfl_up_sync(0xffffffffu, in[i], arg);
    else out[i] = __shfl_sync(0xffffffffu, in[i], arg);
  }
  uninitialized<T> result;
  std::memcpy(result.bytes, out, sizeof(T));
  return result.get();
}

}  // namespace fastscan::detail
