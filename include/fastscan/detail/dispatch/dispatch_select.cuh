#pragma once
// Host side of stream compaction (agent_select.cuh): one kernel launch over the tiles, with the
// single-pass driver's tile state (dispatch_single_pass.cuh), then a wait for the selected count,
// since the caller's result iterators depend on it (as with Thrust's own copy_if).

#include <fastscan/detail/dispatch/dispatch_single_pass.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/kernels/kernel_select.cuh>
#include <fastscan/detail/tuning.cuh>

#include <thrust/iterator/reverse_iterator.h>

#include <chrono>

namespace fastscan::detail {

// Where the select kernel leaves the selected count for the host: pinned, mapped host memory, one slot
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

// Selects the items of [input, input + n) that `selector` picks into selected_out, in order, and the
// others into rejected_out (no_output: dropped); `selected` receives their number once the last tile
// knows it (the host waits for that, not for the kernel's last stores).
template <class Algorithm, class T, class InputIt, class Selector, class SelectedIt, class RejectedIt>
cudaError_t dispatch_select(temp_arena& arena, InputIt input, Selector selector, SelectedIt selected_out,
                            RejectedIt rejected_out, offset_t n, cudaStream_t stream, offset_t& selected) {
  using tuning = select_tuning<Algorithm, T>;
  selected = 0;
  const offset_t tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (tiles == 0) return cudaSuccess;
  if (tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;
  host_selected_count* total = nullptr;
  unsigned ticket = 0;
  tile_access access = tile_access::elements;
  if (!arena.measuring()) {
    FASTSCAN_CUDA_TRY(host_count_slot::get(total, ticket));
    // Footprint: the input, and at most as much again written. Never streaming: untried for compaction.
    FASTSCAN_CUDA_TRY(plan_tile_access(vector_access_possible<T, tuning::vector>(input),
                                       2 * static_cast<std::size_t>(n) * sizeof(T), false, access));
  }
  const auto kernel = select_kernel<tuning, T, InputIt, Selector, SelectedIt, RejectedIt>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY(
      (plan_block_storage<typename agent_select<tuning>::template temp_storage<T>>(arena, kernel, tiles, storage)));
  FASTSCAN_CUDA_TRY(with_tile_state<offset_t>(arena, tiles, stream, [&](tile_state<offset_t> const& state) {
    kernel<<<static_cast<unsigned>(tiles), tuning::threads, storage.dynamic_shared_bytes, stream>>>(
        input, selector, selected_out, rejected_out, n, state, total, ticket, access, storage.place);
    return cudaGetLastError();
  }));
  if (arena.measuring()) return cudaSuccess;
  bool captured = false;
  FASTSCAN_CUDA_TRY(arena.stream_captured(stream, captured));
  if (captured) return cudaStreamSynchronize(stream);  // fails as Thrust's copy_if does: the count never comes
  return wait_for_selected_count(total, ticket, stream, selected);
}

// In-place partition of [first, first + n): selected items stay in front, in place, in order; the
// rejected ones go to temporary storage and are copied back behind them, in order (stable) or reversed
// (the order Thrust's CUDA backend leaves them in for thrust::partition).
template <class Algorithm, class T, class It, class Selector>
cudaError_t dispatch_partition_in_place(temp_arena& arena, It first, Selector selector, offset_t n, bool stable,
                                        cudaStream_t stream, offset_t& selected) {
  T* rejected = arena.allocate<T>(static_cast<std::size_t>(n));
  FASTSCAN_CUDA_TRY((dispatch_select<Algorithm, T>(arena, first, selector, first, rejected, n, stream, selected)));
  if (arena.measuring() || selected == n) return cudaSuccess;
  const offset_t count = n - selected;
  constexpr unsigned threads = 256;
  const offset_t blocks_needed = (count + threads - 1) / threads;
  const unsigned blocks = static_cast<unsigned>(blocks_needed < 65536 ? blocks_needed : 65536);
  if (stable) {
    copy_kernel<<<blocks, threads, 0, stream>>>(rejected, first + selected, count);
  } else {
    copy_kernel<<<blocks, threads, 0, stream>>>(thrust::make_reverse_iterator(rejected + count), first + selected, count);
  }
  return cudaGetLastError();
}

}  // namespace fastscan::detail
