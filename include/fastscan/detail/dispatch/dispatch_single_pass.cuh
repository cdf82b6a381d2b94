#pragma once
// Host side of the single-pass driver (decoupled look-back): one kernel launch per call, whatever n.
// Tile statuses come from the stream's tile-state buffer (tile_state_registry.cuh), or, while the
// stream is being captured into a graph, from the call's temporary storage zeroed by a memset node.
// The fenced status format keeps its values in temporary storage. Full tiles move 16-byte vectors
// when input and output are contiguous memory of the accumulator type, aligned to 16 bytes, prefetched
// and streaming ones by the call's size (tile_access_plan.cuh).

#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_registry.cuh>
#include <fastscan/detail/kernels/kernel_single_pass.cuh>

#include <type_traits>

namespace fastscan::detail {

// Plans (measuring arena) or sets up (real arena) the tile state of a call of `tiles` tiles, then calls
// launch(state), which returns the launch's status.
template <class T, class Launch>
cudaError_t with_tile_state(temp_arena& arena, offset_t tiles, cudaStream_t stream, Launch&& launch) {
  tile_state<T> state{};
  if (tiles == 1) return arena.measuring() ? cudaSuccess : launch(state);  // one block: no statuses

  bool captured = false;
  FASTSCAN_CUDA_TRY(arena.stream_captured(stream, captured));
  tile_slot* captured_slots = captured ? arena.allocate<tile_slot>(static_cast<std::size_t>(tiles + 1)) : nullptr;
  if constexpr (tile_state<T>::format == status_format::fenced) {
    state.aggregates = arena.allocate<T>(static_cast<std::size_t>(tiles));
    state.inclusives = arena.allocate<T>(static_cast<std::size_t>(tiles));
  }
  if (arena.measuring()) return cudaSuccess;

  if (captured) {
    FASTSCAN_CUDA_TRY(cudaMemsetAsync(captured_slots, 0, static_cast<std::size_t>(tiles + 1) * sizeof(tile_slot), stream));
    state.slots = captured_slots;
    state.first_ticket = 0;
    state.tag = 1;
    return launch(state);
  }
  tile_state_lease lease;
  FASTSCAN_CUDA_TRY(lease_tile_state(stream, tiles, lease));
  state.slots = lease.slots;
  state.first_ticket = lease.first_ticket;
  state.tag = lease.tag;
  FASTSCAN_CUDA_TRY(launch(state));
  lease.commit(tiles);
  return cudaSuccess;
}

template <class Tuning, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_single_pass_tuned(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op,
                                       maybe<AccT> init, cudaStream_t stream) {
  using tuning = Tuning;
  const offset_t tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (tiles == 0) return cudaSuccess;
  if (tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;  // beyond the grid's x dimension
  const unsigned grid = static_cast<unsigned>(tiles);
  const bool vectorized = vector_access_possible<AccT, tuning::vector>(input) &&
                          vector_access_possible<AccT, tuning::vector>(output);
  tile_access access = tile_access::elements;
  if (!arena.measuring())
    FASTSCAN_CUDA_TRY(plan_tile_access(vectorized, 2 * static_cast<std::size_t>(n) * sizeof(AccT), true, access));
  const auto kernel = single_pass_scan_kernel<tuning, Kind, AccT, InputIt, OutputIt, Op>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_single_pass_scan<tuning, AccT>::temp_storage>(arena, kernel,
                                                                                                   tiles, storage)));
  return with_tile_state<AccT>(arena, tiles, stream, [&](tile_state<AccT> const& state) {
    kernel<<<grid, tuning::threads, storage.dynamic_shared_bytes, stream>>>(input, output, n, op, init, state,
                                                                            access, storage.place);
    return cudaGetLastError();
  });
}

// The algorithm's tuning, or its tuning for large scans where it has one.
template <class Algorithm, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_single_pass(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op,
                                 maybe<AccT> init, cudaStream_t stream) {
  if constexpr (Algorithm::template has_large_tuning<AccT>) {
    if (n >= Algorithm::large_scan_items) {
      return dispatch_single_pass_tuned<typename Algorithm::template large_tuning<AccT>, Kind, AccT>(
          arena, input, output, n, op, init, stream);
    }
  }
  return dispatch_single_pass_tuned<typename Algorithm::template tuning<AccT>, Kind, AccT>(arena, input, output, n,
                                                                                           op, init, stream);
}

// Matrix scan by key in one pass: `element` gives element i as a (head, value) pair (by_key_element),
// `output` writes the scanned pairs (by_key_output). Keys, values and results move as 16-byte vectors
// when all three are aligned contiguous memory and keys are as wide as the accumulator.
template <class Algorithm, scan_kind Kind, class AccT, class Element, class Output, class Op>
cudaError_t dispatch_single_pass_segmented(temp_arena& arena, Element const& element, Output const& output,
                                           offset_t n, Op op, cudaStream_t stream) {
  using tuning = typename Algorithm::template tuning<AccT>;
  using key_t = key_type_of<decltype(element.keys)>;
  const offset_t tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (tiles == 0) return cudaSuccess;
  if (tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;
  const unsigned grid = static_cast<unsigned>(tiles);
  // The kernel also needs keys as wide as values (a compile-time check there). Never streaming: it
  // measured 1-4% slower for scans by key at 2^24-2^28 (bench/PERFORMANCE.md).
  const bool vectorized = vector_access_possible<key_t, tuning::vector>(element.keys) &&
                          vector_access_possible<AccT, tuning::vector>(element.values) &&
                          vector_access_possible<AccT, tuning::vector>(output.output);
  tile_access access = tile_access::elements;
  if (!arena.measuring()) {
    std::size_t footprint = static_cast<std::size_t>(n) * 2 * sizeof(AccT);  // values and results
    if constexpr (!std::is_void_v<key_t>) footprint += static_cast<std::size_t>(n) * sizeof(key_t);
    FASTSCAN_CUDA_TRY(plan_tile_access(vectorized, footprint, false, access));
  }
  const auto kernel = single_pass_segmented_scan_kernel<tuning, Kind, AccT, Element, Output, Op>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_single_pass_segmented_scan<tuning, AccT>::temp_storage>(
      arena, kernel, tiles, storage)));
  return with_tile_state<segmented_value<AccT>>(arena, tiles, stream, [&](auto const& state) {
    kernel<<<grid, tuning::threads, storage.dynamic_shared_bytes, stream>>>(element, output, n, op, state, access,
                                                                            storage.place);
    return cudaGetLastError();
  });
}

}  // namespace fastscan::detail
