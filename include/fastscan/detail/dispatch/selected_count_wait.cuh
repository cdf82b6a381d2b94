#pragma once
// Host side of agent/selected_count.cuh: the pinned slot a compaction kernel writes its count into,
// and the wait for it (shared by every one-pass compaction: select, reduce_by_key).

#include <fastscan/detail/agent/selected_count.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>

#include <cuda_runtime_api.h>

#include <chrono>

namespace fastscan::detail {

// Where a compaction kernel leaves its count for the host: pinned, mapped host memory, one slot
// per host thread, and a ticket per call (agent_select.cuh). The kernel's store lands on the host
// directly (no copy to launch, no temporary allocation), and the host polls the slot for its call's
// ticket instead of synchronising the stream: it goes on as soon as the last tile knows the count,
// while other tiles may still be storing (work queued on the stream later is ordered after them). The
// slot is free for the thread's next call once this call's count has been read; the slot holds the
// previous call's ticket until then, never this one's.
class host_count_slot {
 public:
  static cudaError_t get(host_selected_count*& slot, unsigned& ticket) {
    thread_local host_count_slot owner;
    if (owner.slot_ == nullptr) {
      FASTSCAN_CUDA_TRY(cudaHostAlloc(reinterpret_cast<void**>(&owner.slot_), sizeof(host_selected_count),
                                      cudaHostAllocMapped | cudaHostAllocPortable));
      owner.slot_->word = host_selected_count::pack(owner.last_ticket_, 0);
    }
    slot = owner.slot_;
    ticket = owner.last_ticket_ = (owner.last_ticket_ + 1) & 0xffffu;
    return cudaSuccess;
  }
  ~host_count_slot() {
    if (slot_ != nullptr) cudaFreeHost(slot_);  // may fail harmlessly once the runtime is shutting down
  }

 private:
  host_selected_count* slot_ = nullptr;
  unsigned last_ticket_ = 0;
};

// Waits for call `ticket`'s count in `slot`: polls it for up to 100 us (a short call's count arrives
// sooner than a stream synchronisation returns: 3-5 us of a 20 us call at 2^20), then synchronises
// the stream, as the device's scheduling flags say, which also reports a kernel that failed (it never
// writes its count).
inline cudaError_t wait_for_selected_count(host_selected_count const* slot, unsigned ticket, cudaStream_t stream,
                                           offset_t& count) {
  constexpr auto poll_for = std::chrono::microseconds(100);
  volatile unsigned long long const* polled = &slot->word;
  const auto is_ours = [&](unsigned long long word) { return (word >> host_selected_count::count_bits) == ticket; };
  unsigned long long word = *polled;
  const auto start = std::chrono::steady_clock::now();
  for (unsigned polls = 1; !is_ours(word); ++polls, word = *polled) {
    if (polls % 64 != 0 || std::chrono::steady_clock::now() - start < poll_for) continue;
    FASTSCAN_CUDA_TRY(cudaStreamSynchronize(stream));
    word = *polled;
    if (!is_ours(word)) return cudaErrorUnknown;  // the kernel ran to the end without writing it
    break;
  }
  count = static_cast<offset_t>(word & host_selected_count::count_mask);
  return cudaSuccess;
}

// After a compaction kernel's launch on `stream`: its count, once its last tile knows it. A stream being
// captured into a graph never delivers it: the call then fails as Thrust's own compaction does.
inline cudaError_t wait_for_count_after_launch(temp_arena& arena, host_selected_count const* slot, unsigned ticket,
                                               cudaStream_t stream, offset_t& count) {
  bool captured = false;
  FASTSCAN_CUDA_TRY(arena.stream_captured(stream, captured));
  if (captured) return cudaStreamSynchronize(stream);
  return wait_for_selected_count(slot, ticket, stream, count);
}

}  // namespace fastscan::detail
