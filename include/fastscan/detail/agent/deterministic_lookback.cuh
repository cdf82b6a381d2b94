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
// is its tiles' aggregates folded, and its inclusive prefix I(g) is G(g - 31 .. g) folded onto I(g - 32)
// (or the init); the group's last tile computes and publishes both. Tile t of group g folds onto I(g - 1)
// the aggregates of the tiles before it in its group, all read in one round (lane 31 reads I(g - 1)).
// A group's last tile publishes G(g) before it waits for anything outside its group, and I(g) waits only
// for statuses at most 32 groups back that need nothing of later groups: no chain of waits shorter than
// 1024 tiles. Tile statuses hold aggregates only.
template <class T, class Op>
struct deterministic_single_pass_prefix {
  static constexpr int group_tiles = deterministic_group_tiles;
  static constexpr int window_groups = 32;
  static_assert(group_tiles == 32 && window_groups == 32, "one lane a tile or group of the window");
  tile_state<T> state;
  offset_t tile;
  bool publishes;
  Op op;
  maybe<T> init;

  __device__ tile_state<T> group_aggregates() const { return state.view_at(state.group_slots); }
  __device__ tile_state<T> group_prefixes() const { return state.view_at(state.group_slots + state.groups); }

  // One round of reads: lane l < `count` the status `nearest - l` of `window`, lane `extra_lane` (if
  // >= 0, and >= count) status `extra` of `extras`; returns the window folded (higher lanes, farther,
  // on the left of op) and, if there is an extra lane, its value in `extra_value` (every lane).
  __device__ T read_round(tile_state<T> const& window, offset_t nearest, int count, int extra_lane,
                          tile_state<T> const& extras, offset_t extra, T& extra_value) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    tile_status status[1];
    T value[1];
    const bool reads_extra = lane == extra_lane;
    (reads_extra ? extras : window)
        .wait_for(reads_extra ? extra : lane < count ? nearest - lane : offset_t{-1}, status, value);  // -1: none
    if (extra_lane >= 0) extra_value = shuffle_any<shuffle_from::lane>(value[0], extra_lane);
    return fold_lanes(value[0], count - 1, op);
  }

  // I(g) by its group's last tile, which knows G(g): lanes 1..31 read G(g - lane), lane 0 I(g - 32).
  __device__ T group_inclusive(offset_t g, T const& group_aggregate) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const int count = g + 1 < window_groups ? static_cast<int>(g + 1) : window_groups;
    const bool has_before = g >= window_groups;
    tile_status status[1];
    T value[1];
    const tile_state<T> source = lane == 0 ? group_prefixes() : group_aggregates();
    source.wait_for(lane == 0 ? (has_before ? g - window_groups : offset_t{-1}) : lane < count ? g - lane : offset_t{-1},
                    status, value);
    const T before = shuffle_any<shuffle_from::lane>(value[0], 0);
    const T folded = fold_lanes(lane == 0 ? group_aggregate : value[0], count - 1, op);
    if (has_before) return static_cast<T>(op(before, folded));
    return init.valid ? static_cast<T>(op(init.value, folded)) : folded;
  }

  __device__ maybe<T> operator()(T const& aggregate) const {
    const bool leader = threadIdx.x % 32 == 0;
    if (publishes && leader) state.publish(tile, tile_status::aggregate, aggregate);
    const offset_t group = tile / group_tiles;
    const int in_group = static_cast<int>(tile % group_tiles);
    const bool closes_group = publishes && in_group == group_tiles - 1;
    // The tiles before this one in its group, and (except for the group's last tile, which must
    // publish G(g) before it waits outside its group) I(g - 1) in the same round.
    const bool reads_before = group > 0 && !closes_group;
    T group_before = aggregate;
    const T within = read_round(state, tile - 1, in_group, reads_before ? 31 : -1, group_prefixes(), group - 1,
                                group_before);
    if (closes_group) {
      const T group_aggregate = static_cast<T>(op(within, aggregate));
      if (leader) group_aggregates().publish(group, tile_status::aggregate, group_aggregate);
      const T inclusive = group_inclusive(group, group_aggregate);
      if (leader) group_prefixes().publish(group, tile_status::prefix, inclusive);
      if (group > 0) group_before = read_round(group_prefixes(), group - 1, 1, -1, state, 0, group_before);
    }
    const maybe<T> before = group > 0 ? some<T>(group_before) : init;
    if (in_group == 0) return before;
    return before.valid ? some<T>(static_cast<T>(op(before.value, within))) : some<T>(within);
  }
};

// The prefix callback of a single-pass scan with this tuning (plain or deterministic).
template <class Tuning, class T, class Op>
using single_pass_prefix_for =
    std::conditional_t<Tuning::strategy == multi_block::single_pass_deterministic, deterministic_single_pass_prefix<T, Op>,
                       single_pass_prefix<T, Op, Tuning::lookback_tiles_per_lane>>;

}  // namespace fastscan::detail
