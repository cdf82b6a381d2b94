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

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace fastscan::detail {

template <class Selector>
struct is_select_by_predicate : std::false_type {};
template <class Pred>
struct is_select_by_predicate<select_by_predicate<Pred>> : std::true_type {};

// unique_by_key's selector: run heads by an equality of the items' first components alone.
template <class Selector>
struct is_run_heads_of_keys : std::false_type {};
template <class EqualOp>
struct is_run_heads_of_keys<select_run_heads<EqualOp>> : std::bool_constant<select_run_heads<EqualOp>::first_components_only> {};

// A compaction on the pipelined single pass of `Pipelined` tuning, counted in Count, where its rules take
// the call on this device (dispatch_pipelined_scan.cuh); `taken` says whether it did. make_tiles(total,
// ticket) gives the pass's Tiles (pipelined_tiles.cuh) with the host's count slot.
template <class Pipelined, class Count, class MakeTiles>
cudaError_t dispatch_pipelined_compaction(temp_arena& arena, MakeTiles const& make_tiles, offset_t n, cudaStream_t stream,
                                          bool& taken, offset_t& selected) {
  taken = false;
  host_selected_count* total = nullptr;
  unsigned ticket = 0;
  if (!arena.measuring()) FASTSCAN_CUDA_TRY(host_count_slot::get(total, ticket));
  FASTSCAN_CUDA_TRY((dispatch_pipelined_scan<Pipelined, scan_kind::exclusive>(
      arena, make_tiles(total, ticket), n, ::cuda::std::plus<Count>{}, some<Count>(0), stream, taken)));
  if (!taken || arena.measuring()) return cudaSuccess;
  return wait_for_count_after_launch(arena, total, ticket, stream, selected);
}

// The pipelined single pass for a selection by predicate between contiguous arrays (tuning_select.cuh).
template <class Tuning, class InputIt, class Pred, class SelectedIt>
cudaError_t dispatch_pipelined_select(temp_arena& arena, InputIt input, select_by_predicate<Pred> const& selector,
                                      SelectedIt selected_out, offset_t n, cudaStream_t stream, bool& taken,
                                      offset_t& selected) {
  using T = thrust::detail::it_value_t<InputIt>;
  using count_t = typename Tuning::pipelined_count;
  using pipelined = typename Tuning::pipelined_tuning;
  taken = false;
  if (n >= Tuning::pipelined_max_items) return cudaSuccess;
  const auto make_tiles = [&](host_selected_count* total, unsigned ticket) {
    return pipelined_select_tiles<pipelined, T, count_t, Pred>{thrust::raw_pointer_cast(&*input),
                                                               thrust::raw_pointer_cast(&*selected_out), selector.pred,
                                                               n, total, ticket};
  };
  return dispatch_pipelined_compaction<pipelined, count_t>(arena, make_tiles, n, stream, taken, selected);
}

// The pipelined single pass for unique_by_key between zips of two contiguous arrays (tuning_select.cuh).
template <class Tuning, class InputIt, class EqualOp, class SelectedIt>
cudaError_t dispatch_pipelined_unique_by_key(temp_arena& arena, InputIt input, select_run_heads<EqualOp> const& selector,
                                             SelectedIt selected_out, offset_t n, cudaStream_t stream, bool& taken,
                                             offset_t& selected) {
  using key_t = typename zip_of_two<InputIt>::first;
  using value_t = typename zip_of_two<InputIt>::second;
  using count_t = typename Tuning::pipelined_count;
  using pipelined = typename Tuning::template pipelined_pairs_tuning<key_t, value_t>;
  taken = false;
  if (n >= Tuning::pipelined_max_items) return cudaSuccess;
  // In place (or any output overlapping an input) takes the select kernel, which reads every value of
  // a tile before publishing its count.
  const auto overlaps = [n](const void* a, std::size_t a_size, const void* b, std::size_t b_size) {
    const auto a_first = reinterpret_cast<std::uintptr_t>(a), b_first = reinterpret_cast<std::uintptr_t>(b);
    return a_first < b_first + n * b_size && b_first < a_first + n * a_size;
  };
  const void* inputs[] = {zip_array<0>(input), zip_array<1>(input)};
  const void* outputs[] = {zip_array<0>(selected_out), zip_array<1>(selected_out)};
  const std::size_t sizes[] = {sizeof(key_t), sizeof(value_t)};
  for (int i = 0; i < 2; ++i)
    for (int o = 0; o < 2; ++o)
      if (overlaps(inputs[i], sizes[i], outputs[o], sizes[o])) return cudaSuccess;
  using tiles_t = pipelined_unique_by_key_tiles<pipelined, key_t, value_t, count_t, EqualOp>;
  const auto make_tiles = [&](host_selected_count* total, unsigned ticket) {
    return tiles_t{zip_array<0>(input),
                   zip_array<1>(input),
                   zip_array<0>(selected_out),
                   zip_array<1>(selected_out),
                   selector.equal,
                   n,
                   total,
                   ticket,
                   tiles_t::rows_fit(zip_array<0>(selected_out), zip_array<1>(selected_out))};
  };
  return dispatch_pipelined_compaction<pipelined, count_t>(arena, make_tiles, n, stream, taken, selected);
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
  if constexpr (tuning::has_pipelined_pairs() && is_run_heads_of_keys<Selector>::value &&
                std::is_same_v<RejectedIt, no_output> && is_zip_of_two_arrays_of<InputIt, T> &&
                is_zip_of_two_arrays_of<SelectedIt, T>) {
    bool taken = false;
    FASTSCAN_CUDA_TRY(
        (dispatch_pipelined_unique_by_key<tuning>(arena, input, selector, selected_out, n, stream, taken, selected)));
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
