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
// its group's aggregates are known, and later I(g). Tile t of group g computes I(g - 1) itself, folding
// G(g - 1) from the previous group's aggregates exactly as that group's last tile does (the same bits),
// and folds onto it the aggregates of the tiles before it in its group, reading all in one round: it
// waits for no tile later than t - 1 and for no group status newer than G(g - 2), and what it waits for
// never waits for a later tile.
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

  // One round of reads, a status in each of Count places a lane (an index < 0: none): waits until none
  // of the warp's is unpublished, then returns their values.
  template <int Count>
  __device__ void read_round(tile_state<T> const (&views)[Count], offset_t const (&index)[Count],
                             T (&value)[Count]) const {
    typename tile_state<T>::raw_t raw[Count];
    tile_status status[Count];
    for (int attempt = 0;; ++attempt) {
      bool unpublished = false;
#pragma unroll
      for (int i = 0; i < Count; ++i) {
        status[i] = views[i].read_status(index[i], raw[i]);
        unpublished = unpublished || status[i] == tile_status::invalid;
      }
      if (!__any_sync(0xffffffffu, unpublished)) break;
      tile_state<T>::back_off(attempt);
    }
    if constexpr (tile_state<T>::format == status_format::fenced) __threadfence();  // values before statuses
#pragma unroll
    for (int i = 0; i < Count; ++i)
      if (index[i] >= 0) value[i] = views[i].value_of(index[i], status[i], raw[i]);
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

  // G(g) from its tiles' aggregates as a group's last tile holds them: lanes 0..30 the tiles before the
  // last, nearest first, and the last tile's own aggregate.
  __device__ T group_aggregate(T const& before_last, T const& last) const {
    return static_cast<T>(op(fold_lanes(before_last, group_tiles - 2, op), last));
  }

  __device__ maybe<T> operator()(T const& aggregate) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const bool leader = lane == 0;
    if (publishes && leader) state.publish(tile, tile_status::aggregate, aggregate);
    const offset_t group = tile / group_tiles;
    const int in_group = static_cast<int>(tile % group_tiles);
    const bool closes_group = publishes && in_group == group_tiles - 1;
    const offset_t within_index = lane < in_group ? tile - 1 - lane : offset_t{-1};
    // The previous group's tiles in the order its last tile folds them into G(group - 1) (lanes 0..30 the
    // tiles before that last one, nearest first; lane 31 the last): this tile folds G(group - 1) itself
    // rather than wait for the previous group's last tile to publish it.
    const offset_t previous_index =
        group > 0 ? (lane < group_tiles - 1 ? group * group_tiles - 2 - lane : group * group_tiles - 1) : offset_t{-1};
    // I(group - 1)'s window but its lane 0, G(group - 1).
    const offset_t window_before_index = group > 0 && lane > 0 ? window_index(group - 1) : offset_t{-1};
    T within_value = aggregate, previous_value = aggregate, window_before = aggregate, window_own = aggregate;
    if (closes_group) {
      // The group's last tile publishes G(group) before it waits for anything outside its group (later
      // groups' tiles read it); then I(group)'s window, but G(group) and G(group - 1), which it folds.
      {
        const tile_state<T> views[1] = {state};
        const offset_t index[1] = {within_index};
        T value[1] = {aggregate};
        read_round(views, index, value);
        within_value = value[0];
      }
      window_own = group_aggregate(within_value, aggregate);
      if (leader) group_aggregates().publish(group, tile_status::aggregate, window_own);
      const tile_state<T> views[3] = {state, window_view(), window_view()};
      const offset_t index[3] = {previous_index, window_before_index, lane > 1 ? window_index(group) : offset_t{-1}};
      T value[3] = {aggregate, aggregate, window_own};
      read_round(views, index, value);
      previous_value = value[0];
      window_before = value[1];
      if (lane > 0) window_own = value[2];
    } else {
      const tile_state<T> views[3] = {state, state, window_view()};
      const offset_t index[3] = {within_index, previous_index, window_before_index};
      T value[3] = {aggregate, aggregate, aggregate};
      read_round(views, index, value);
      within_value = value[0];
      previous_value = value[1];
      window_before = value[2];
    }
    maybe<T> before = init;
    if (group > 0) {
      const T previous_group =
          group_aggregate(previous_value, shuffle_any<shuffle_from::lane>(previous_value, group_tiles - 1));
      if (lane == 0) window_before = previous_group;
      if (lane == 1) window_own = previous_group;
      before = some<T>(group_inclusive(group - 1, window_before));
    }
    if (closes_group) {
      const T inclusive = group_inclusive(group, window_own);
      if (leader) group_prefixes().publish(group, tile_status::prefix, inclusive);
    }
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
