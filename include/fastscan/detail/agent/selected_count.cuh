#pragma once
// The count a one-pass compaction (copy_if, reduce_by_key, ...) hands back to the host: written by
// its last tile straight into pinned, mapped host memory (dispatch/selected_count_wait.cuh polls it).

#include <fastscan/detail/config.cuh>

namespace fastscan::detail {

// Where the last tile leaves the selected count for the host (pinned, mapped host memory): one 64-bit
// word, the call's 16-bit ticket above the count (a count fits 48 bits: a call has fewer than 2^31
// tiles), so that a host polling the word knows the count in it is this call's. One store, no fence.
struct host_selected_count {
  static constexpr int count_bits = 48;
  static constexpr unsigned long long count_mask = (1ull << count_bits) - 1;
  unsigned long long word;

  __host__ __device__ static unsigned long long pack(unsigned ticket, offset_t count) {
    return (static_cast<unsigned long long>(ticket & 0xffffu) << count_bits) | (static_cast<unsigned long long>(count) & count_mask);
  }
};

// Written by one thread of the last tile, which knows the count as soon as its look-back ends.
__device__ inline void publish_selected_count(host_selected_count* slot, unsigned ticket, offset_t count) {
  asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(&slot->word), "l"(host_selected_count::pack(ticket, count))
               : "memory");
}

}  // namespace fastscan::detail
