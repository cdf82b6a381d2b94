#pragma once
// Host side of stream compaction (agent_select.cuh): one kernel launch over the tiles, with the
// single-pass look-back's tile state (tile_state_plan.cuh), then a wait for the selected count,
// since the caller's result iterators depend on it (as with Thrust's own copy_if).

#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/dispatch_pipelined_scan.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/selected_count_wait.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_plan.cuh>
#include <fastscan/detail/kernels/kernel_select.cuh>
#include <fastscan/detail/uninitialized.cuh>
#include <fastscan/detail/tuning/tuning_select.cuh>

#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/reverse_iterator.h>

#include <cuda/std/functional>

#include <type_traits>

namespace fastscan::detail {

template <class Selector>
struct is_select_by_predicate : std::false_type {};
template <class Pred>
struct is_select_by_predicate<select_by_predicate<Pred>> : std::true_type {};

// The pipelined single pass for a selection by predicate between contiguous arrays, where the tuning's
// rules take the call on this device (tuning_select.cuh, dispatch_pipelined_scan.cuh); `taken` says
// whether it did.
template <class Tuning, class InputIt, class Pred, class SelectedIt>
cudaError_t dispatch_pipelined_select(temp_arena& arena, InputIt input, select_by_predicate<Pred> const& selector,
                                      SelectedIt selected_out, offset_t n, cudaStream_t stream, bool& taken,
                                      offset_t& selected) {
  using T = thrust::detail::it_value_t<InputIt>;
  using count_t = typename Tuning::pipelined_count;
  taken = false;
  if (n >= Tuning::pipelined_max_items) return cudaSuccess;
  host_selected_count* total = nullptr;
  unsigned ticket = 0;
  if (!arena.measuring()) FASTSCAN_CUDA_TRY(host_count_slot::get(total, ticket));
  const pipelined_select_tiles<typename Tuning::pipelined_tuning, T, count_t, Pred> io{
      thrust::raw_pointer_cast(&*input), thrust::raw_pointer_cast(&*selected_out), selector.pred, n, total, ticket};
  FASTSCAN_CUDA_TRY((dispatch_pipelined_scan<typename Tuning::pipelined_tuning, scan_kind::exclusive>(
      arena, io, n, ::cuda::std::plus<count_t>{}, some<count_t>(0), stream, taken)));
  if (!taken || arena.measuring()) return cudaSuccess;
  return wait_for_count_after_launch(arena, total, ticket, stream, selected);
}

// Selects the items of [input, input + n) that `selector` picks into selected_out, in order, and the
// others into rejected_out (no_output: dropped); `selected` receives their number once the last tile
// knows it (the host waits for that, not for the kernel's last stores).
template <class Algorithm, class T, class InputIt, class Selector, class SelectedIt, class RejectedIt>
cudaError_t dispatch_select(temp_arena& arena, InputIt input, Selector selector, SelectedIt selected_out,
                            RejectedIt rejected_out, offset_t n, cudaStream_t stream, offset_t& selected) {
  using tuning = select_tuning<Algorithm, T>;
  selected = 0;
  if constexpr (tuning::has_pipelined && is_select_by_predicate<Selector>::value &&
                std::is_same_v<RejectedIt, no_output> && is_contiguous_of<InputIt, T> && is_contiguous_of<SelectedIt, T>) {
    bool taken = false;
    FASTSCAN_CUDA_TRY(
        (dispatch_pipelined_select<tuning>(arena, input, selector, selected_out, n, stream, taken, selected)));
    if (taken) return cudaSuccess;
  }
  offset_t tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, tiles));
  if (tiles == 0) return cudaSuccess;
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
    return launch_kernel(kernel, static_cast<unsigned>(tiles), tuning::threads, storage.dynamic_shared_bytes, stream, input,
                         selector, selected_out, rejected_out, n, state, total, ticket, access, storage.place);
  }));
  if (arena.measuring()) return cudaSuccess;
  return wait_for_count_after_launch(arena, total, ticket, stream, selected);
}

// In-place partition of [first, first + n): selected items stay in front, in place, in order; the
// rejected ones go to temporary storage and are copied back behind them, in order (stable) or reversed
// (the order Thrust's CUDA backend leaves them in for thrust::partition).
template <class Algorithm, class T, class It, class Selector>
cudaError_t dispatch_partition_in_place(temp_arena& arena, It first, Selector selector, offset_t n, bool stable,
                                        cudaStream_t stream, offset_t& selected) {
  T* rejected = arena.allocate<T>(static_cast<std::size_t>(n));
  FASTSCAN_CUDA_TRY(
      (dispatch_select<Algorithm, T>(arena, first, selector, first, raw_output(rejected), n, stream, selected)));
  if (arena.measuring() || selected == n) return cudaSuccess;
  const offset_t count = n - selected;
  if (stable) return launch_copy(rejected, first + selected, count, stream);
  return launch_copy(thrust::make_reverse_iterator(rejected + count), first + selected, count, stream);
}

}  // namespace fastscan::detail
