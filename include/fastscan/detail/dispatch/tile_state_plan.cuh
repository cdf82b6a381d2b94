#pragma once
// Host side of the single-pass look-back's tile state (agent/single_pass_lookback.cuh), for every driver
// that uses it (scans, scans by key, compaction, reduce_by_key): the statuses come from the stream's
// tile-state buffer (tile_state_registry.cuh), or, while the stream is being captured into a graph, from
// the call's temporary storage zeroed by a memset node. The fenced status format keeps its values in
// temporary storage.

#include <fastscan/detail/agent/deterministic_lookback.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_state_registry.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

#include <cstddef>

namespace fastscan::detail {

// The deterministic single pass also keeps a status for each group of tiles and for each group's
// inclusive prefix (agent/deterministic_lookback.cuh: deterministic_single_pass_prefix).
constexpr bool keeps_group_statuses(multi_block strategy) { return strategy == multi_block::single_pass_deterministic; }

// Plans (measuring arena) or sets up (real arena) the tile state of a call of `tiles` tiles, with group
// statuses after the tiles' where `groups` says, then calls launch(state), which returns the launch's status.
// The kernel draws `tiles` tickets from the counter, and `extra_tickets` more where its blocks draw until
// they find no tile (the pipelined single pass: one more a block).
template <class T, class Launch>
cudaError_t with_tile_state(temp_arena& arena, offset_t tiles, cudaStream_t stream, bool groups, Launch&& launch,
                            offset_t extra_tickets = 0) {
  tile_state<T> state{};
  if (tiles == 1) return arena.measuring() ? cudaSuccess : launch(state);  // one block: no statuses

  const offset_t group_count = groups ? (tiles + deterministic_group_tiles - 1) / deterministic_group_tiles : 0;
  const offset_t slots = tiles + 2 * group_count;  // after the tile counter's slot
  bool captured = false;
  FASTSCAN_CUDA_TRY(arena.stream_captured(stream, captured));
  tile_slot* captured_slots = captured ? arena.allocate<tile_slot>(static_cast<std::size_t>(slots + 1)) : nullptr;
  if constexpr (tile_state<T>::format == status_format::fenced) {
    state.aggregates = arena.allocate<T>(static_cast<std::size_t>(slots));
    state.inclusives = arena.allocate<T>(static_cast<std::size_t>(slots));
  }
  if (arena.measuring()) return cudaSuccess;
  state.group_slots = groups ? tiles : 0;
  state.groups = group_count;

  if (captured) {
    FASTSCAN_CUDA_TRY(cudaMemsetAsync(captured_slots, 0, static_cast<std::size_t>(slots + 1) * sizeof(tile_slot), stream));
    state.slots = captured_slots;
    state.first_ticket = 0;
    state.tag = 1;
    return launch(state);
  }
  tile_state_lease lease;
  FASTSCAN_CUDA_TRY(lease_tile_state(stream, slots, lease));
  state.slots = lease.slots;
  state.first_ticket = lease.first_ticket;
  state.tag = lease.tag;
  FASTSCAN_CUDA_TRY(launch(state));
  lease.commit(tiles + extra_tickets);  // the tickets drawn from the counter
  return cudaSuccess;
}

// One status a tile (the plain single pass, compaction, reduce_by_key).
template <class T, class Launch>
cudaError_t with_tile_state(temp_arena& arena, offset_t tiles, cudaStream_t stream, Launch&& launch) {
  return with_tile_state<T>(arena, tiles, stream, false, static_cast<Launch&&>(launch));
}

}  // namespace fastscan::detail
