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
// is its tiles' aggregates folded, and its inclusive prefix I(g) is G(g - 30 .. g) folded onto I(g - 31)
// (or the init): 31 aggregates and a prefix, one a lane. The group's last tile publishes G(g) as soon as
// its group's aggregates are known, and later I(g). Tile t of group g computes I(g - 1) itself and folds
// onto it the aggregates of the tiles before it in its group, reading both in one round: it waits for
// nothing later than G(g - 1), and what it waits for never waits for a later group.
template <class T, class Op>
struct deterministic_single_pass_prefix {
  static constexpr int group_tiles = deterministic_group_tiles;
  static constexpr int window_groups = 31;
  static_assert(group_tiles == 32, "one lane a tile of the group");
  tile_state<T> state;
  offset_t tile;
  bool publishes;
  Op op;
  maybe<T> init;

  __device__ tile_state<T> group_aggregates() const { return state.view_at(state.group_slots); }
  __device__ tile_state<T> group_prefixes() const { return state.view_at(state.group_slots + state.groups); }

  // One round of reads, a status in each of two places a lane (an index < 0: none): waits until none of
  // the warp's is unpublished, then returns their values.
  __device__ void read_both(tile_state<T> const& first_view, offset_t first, tile_state<T> const& second_view,
                            offset_t second, T& first_value, T& second_value) const {
    typename tile_state<T>::raw_t first_raw, second_raw;
    tile_status first_status, second_status;
    for (int attempt = 0;; ++attempt) {
      first_status = first_view.read_status(first, first_raw);
      second_status = second_view.read_status(second, second_raw);
      if (!__any_sync(0xffffffffu, first_status == tile_status::invalid || second_status == tile_status::invalid)) break;
      tile_state<T>::back_off(attempt);
    }
    if constexpr (tile_state<T>::format == status_format::fenced) __threadfence();  // values before statuses
    if (first >= 0) first_value = first_view.value_of(first, first_status, first_raw);
    if (second >= 0) second_value = second_view.value_of(second, second_status, second_raw);
  }

  // What this lane reads of I(h): G(h - lane) in lanes below window_groups, I(h - 31) in lane 31.
  __device__ offset_t window_index(offset_t h) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    if (lane == 31) return h - window_groups;  // < 0: none
    return lane <= h ? h - lane : offset_t{-1};
  }
  __device__ tile_state<T> window_view() const {
    return threadIdx.x % 32 == 31 ? group_prefixes() : group_aggregates();
  }

  // I(h) from what the lanes read for it (window_index).
  __device__ T group_inclusive(offset_t h, T const& value) const {
    const int count = h + 1 < window_groups ? static_cast<int>(h + 1) : window_groups;
    const T folded = fold_lanes(value, count - 1, op);
    const T before = shuffle_any<shuffle_from::lane>(value, 31);
    if (h >= window_groups) return static_cast<T>(op(before, folded));
    return init.valid ? static_cast<T>(op(init.value, folded)) : folded;
  }

  __device__ maybe<T> operator()(T const& aggregate) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const bool leader = lane == 0;
    if (publishes && leader) state.publish(tile, tile_status::aggregate, aggregate);
    const offset_t group = tile / group_tiles;
    const int in_group = static_cast<int>(tile % group_tiles);
    const offset_t within_index = lane < in_group ? tile - 1 - lane : offset_t{-1};
    T within_value = aggregate, window_value = aggregate;
    maybe<T> before = init;
    if (publishes && in_group == group_tiles - 1) {
      // The group's last tile publishes G(g) before it waits for anything outside its group; then it
      // reads I(g - 1)'s window and I(g)'s in one round.
      read_both(state, within_index, state, offset_t{-1}, within_value, window_value);
      const T group_aggregate = static_cast<T>(op(fold_lanes(within_value, in_group - 1, op), aggregate));
      if (leader) group_aggregates().publish(group, tile_status::aggregate, group_aggregate);
      T own_window = aggregate;
      read_both(window_view(), group > 0 ? window_index(group - 1) : offset_t{-1}, window_view(), window_index(group),
                window_value, own_window);
      const T inclusive = group_inclusive(group, own_window);
      if (leader) group_prefixes().publish(group, tile_status::prefix, inclusive);
    } else {
      read_both(state, within_index, window_view(), group > 0 ? window_index(group - 1) : offset_t{-1}, within_value,
                window_value);
    }
    if (group > 0) before = some<T>(group_inclusive(group - 1, window_value));
    if (in_group == 0) return before;
    const T within = fold_lanes(within_value, in_group - 1, op);
    return before.valid ? some<T>(static_cast<T>(op(before.value, within))) : some<T>(within);
  }
};

// The prefix callback of a single-pass scan with this tuning (plain or deterministic).
template <class Tuning, class T, class Op>
using single_pass_prefix_for =
    std::conditional_t<Tuning::strategy == multi_block::single_pass_deterministic, deterministic_single_pass_prefix<T, Op>,
                       single_pass_prefix<T, Op, Tuning::lookback_tiles_per_lane>>;

}  // namespace fastscan::detail
