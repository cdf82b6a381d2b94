#pragma once
// The deterministic single pass's prefix callback: every tile's prefix a fixed formula of tile
// aggregates, on the single-pass tile state (single_pass_lookback.cuh); and the choice between it and
// the plain look-back by the tuning's strategy.

#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

#include <type_traits>

namespace fastscan::detail {

// Tiles in a group of the deterministic single pass (the host sizes the group statuses by it).
inline constexpr int deterministic_group_tiles = 32;

// The prefix callback of the deterministic single pass (all 32 lanes of warp 0, with the tile's
// aggregate). Every prefix is a fixed formula of tile aggregates, so its bits depend on the tile's index
// alone, never on which predecessor published first. Tiles form groups of 32: a group's aggregate G(g)
// is its tiles' aggregates folded (by the group's last tile, which publishes it), and its inclusive
// prefix I(g) is G(g - 31 .. g) folded onto I(g - 32) (or the init), published by the same tile. Tile t
// of group g takes I(g - 1), computed from the group statuses by that same formula, and folds onto it
// the aggregates of the tiles before it in its group. What a tile waits for is published by tiles at
// most a group back as soon as their aggregates are known, and an I 33 groups back: about 64 statuses
// read a tile, and no chain of waits shorter than 1024 tiles. Tile statuses hold aggregates only.
template <class T, class Op>
struct deterministic_single_pass_prefix {
  static constexpr int group_tiles = deterministic_group_tiles;
  static constexpr int window_groups = 32;
  tile_state<T> state;
  offset_t tile;
  bool publishes;
  Op op;
  maybe<T> init;

  // The statuses of `nearest - lane` (one a lane, none where `count` <= lane), folded.
  __device__ T fold_window(tile_state<T> const& statuses, offset_t nearest, int count) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    tile_status status[1];
    T value[1];
    statuses.wait_for(lane < count ? nearest - lane : offset_t{-1}, status, value);  // -1: none, not waited for
    return fold_lanes(value[0], count - 1, op);
  }

  // I(h): G(h - 31 .. h) folded onto I(h - 32), or onto the init.
  __device__ T group_inclusive(offset_t h) const {
    const int count = h + 1 < window_groups ? static_cast<int>(h + 1) : window_groups;
    const T folded = fold_window(state.view_at(state.group_slots), h, count);
    const offset_t before = h - window_groups;
    if (before >= 0) {
      tile_status status[1];
      T value[1];
      state.view_at(state.group_slots + state.groups).wait_for(before, status, value);
      return static_cast<T>(op(value[0], folded));
    }
    return init.valid ? static_cast<T>(op(init.value, folded)) : folded;
  }

  __device__ maybe<T> operator()(T const& aggregate) const {
    const bool leader = threadIdx.x % 32 == 0;
    if (publishes && leader) state.publish(tile, tile_status::aggregate, aggregate);
    const offset_t group = tile / group_tiles;
    const int in_group = static_cast<int>(tile % group_tiles);
    // The tiles before this one in its group. The last tile of a full group publishes the group's
    // aggregate at once: it depends on that group alone, so groups never wait on each other for it.
    const maybe<T> within = in_group > 0 ? some<T>(fold_window(state, tile - 1, in_group)) : none<T>();
    const bool closes_group = publishes && in_group == group_tiles - 1;
    if (closes_group && leader)
      state.view_at(state.group_slots).publish(group, tile_status::aggregate, static_cast<T>(op(within.value, aggregate)));
    // Then what came before the group.
    const maybe<T> before = group > 0 ? some<T>(group_inclusive(group - 1)) : init;
    maybe<T> exclusive = before;
    if (within.valid) exclusive = before.valid ? some<T>(static_cast<T>(op(before.value, within.value))) : within;
    if (closes_group) {
      const T inclusive = group_inclusive(group);
      if (leader) state.view_at(state.group_slots + state.groups).publish(group, tile_status::prefix, inclusive);
    }
    return exclusive;
  }
};

// The prefix callback of a single-pass scan with this tuning (plain or deterministic).
template <class Tuning, class T, class Op>
using single_pass_prefix_for =
    std::conditional_t<Tuning::strategy == multi_block::single_pass_deterministic, deterministic_single_pass_prefix<T, Op>,
                       single_pass_prefix<T, Op, Tuning::lookback_tiles_per_lane>>;

}  // namespace fastscan::detail
