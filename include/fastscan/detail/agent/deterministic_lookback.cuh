#pragma once
// The deterministic single pass's prefix callback: every tile's prefix a fixed formula of tile
// aggregates, on the single-pass tile state (single_pass_lookback.cuh); and the choice between it and
// the plain look-back by the tuning's strategy.

#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/tuning/tuning_common.cuh>

#include <type_traits>
#include <utility>

namespace fastscan::detail {

// Tiles in a group of the deterministic single pass (the host sizes the group statuses by it).
inline constexpr int deterministic_group_tiles = 32;

// Count copies of a value in an array (element types need no default constructor).
template <class U, int Count>
struct copies_of {
  U at[Count];
};
template <int Count, class U, std::size_t... I>
__device__ copies_of<U, Count> copies(U const& value, std::index_sequence<I...>) {
  return {{(static_cast<void>(I), value)...}};
}
template <int Count, class U>
__device__ copies_of<U, Count> copies(U const& value) {
  return copies<Count>(value, std::make_index_sequence<Count>{});
}

// The prefix callback of the deterministic single pass (all 32 lanes of warp 0, with the tile's
// aggregate). Every prefix is a fixed formula of tile aggregates, so its bits depend on the tile's index
// alone, never on which predecessor published first. Tiles form groups of 32: a group's aggregate G(g)
// is its tiles' aggregates folded, and its inclusive prefix I(g) is G(g - 30 .. g) folded onto I(g - 31)
// (or the init): 31 aggregates and a prefix, one a lane. The group's last tile publishes G(g) as soon as
// its group's aggregates are known, and later I(g). Tile t of group g computes I(g - 1) itself: it folds
// the FoldedGroups newest of those aggregates from their groups' tile aggregates exactly as those groups'
// last tiles do (the same bits), reads the others, and folds onto I(g - 1) the aggregates of the tiles
// before it in its group, reading all in one round. It waits for no tile later than t - 1 and for no
// group status newer than G(g - 1 - FoldedGroups), and what it waits for never waits for a later tile.
// More folded groups: the same bits, a status read and a fold more a lane, a wait further back.
template <class T, class Op, int FoldedGroups = 1>
struct deterministic_single_pass_prefix {
  static constexpr int group_tiles = deterministic_group_tiles;
  static constexpr int window_groups = 31;
  static constexpr int folded_groups = FoldedGroups;
  static_assert(group_tiles == 32, "one lane a tile of the group");
  static_assert(folded_groups >= 1 && folded_groups < window_groups, "the window holds the folded groups");
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

  // Where this lane reads group h's tile aggregates in the order its last tile folds them into G(h):
  // lanes 0..30 the tiles before that last one, nearest first; lane 31 the last.
  __device__ offset_t group_tile_index(offset_t h) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const offset_t end = (h + 1) * group_tiles;
    return lane < group_tiles - 1 ? end - 2 - lane : end - 1;
  }

  __device__ maybe<T> operator()(T const& aggregate) const {
    publish(aggregate);
    return carry(aggregate);
  }

  // The two halves, for a caller with work that does not need the carry (as single_pass_prefix's): lane
  // 0 of the calling warp publishes the tile's aggregate ...
  __device__ void publish(T const& aggregate) const {
    if (publishes && threadIdx.x % 32 == 0) state.publish(tile, tile_status::aggregate, aggregate);
  }

  // ... and all 32 lanes of a warp, after it, read what the tile's prefix folds and return it.
  __device__ maybe<T> carry(T const& aggregate) const {
    constexpr int reads = folded_groups + 2;
    const int lane = static_cast<int>(threadIdx.x % 32);
    const bool leader = lane == 0;
    const offset_t group = tile / group_tiles;
    const int in_group = static_cast<int>(tile % group_tiles);
    const bool closes_group = publishes && in_group == group_tiles - 1;
    const offset_t within_index = lane < in_group ? tile - 1 - lane : offset_t{-1};
    // Read 0: the tiles before this one in its group (a closing tile reads them in a round of their own,
    // then window(group) instead); reads 1..folded_groups: the tile aggregates of G(group - 1),
    // G(group - 2), ..; the last: I(group - 1)'s window but its lanes below folded_groups, which are those.
    copies_of<tile_state<T>, reads> views = copies<reads>(state);
    copies_of<offset_t, reads> index = copies<reads>(offset_t{-1});
    copies_of<T, reads> value = copies<reads>(aggregate);
    if (closes_group) {
      views.at[0] = window_view();
      if (lane > folded_groups) index.at[0] = window_index(group);
    } else {
      index.at[0] = within_index;
    }
#pragma unroll
    for (int f = 0; f < folded_groups; ++f)
      if (group > f) index.at[1 + f] = group_tile_index(group - 1 - f);
    views.at[reads - 1] = window_view();
    if (group > 0 && lane >= folded_groups) index.at[reads - 1] = window_index(group - 1);
    T within_value = aggregate;
    T own_group = aggregate;
    if (closes_group) {
      // The group's last tile publishes G(group) before it waits for anything outside its group (later
      // groups' tiles read it); then it reads for I(group) as well as I(group - 1).
      const tile_state<T> within_views[1] = {state};
      const offset_t within_indices[1] = {within_index};
      T within_values[1] = {aggregate};
      read_round(within_views, within_indices, within_values);
      within_value = within_values[0];
      own_group = group_aggregate(within_value, aggregate);
      if (leader) group_aggregates().publish(group, tile_status::aggregate, own_group);
    }
    read_round(views.at, index.at, value.at);
    if (!closes_group) within_value = value.at[0];
    T window_before = value.at[reads - 1];
    T window_own = lane == 0 ? own_group : value.at[0];
#pragma unroll
    for (int f = 0; f < folded_groups; ++f) {
      if (group > f) {
        const T folded =
            group_aggregate(value.at[1 + f], shuffle_any<shuffle_from::lane>(value.at[1 + f], group_tiles - 1));
        if (lane == f) window_before = folded;
        if (lane == f + 1) window_own = folded;
      }
    }
    maybe<T> before = init;
    if (group > 0) before = some<T>(group_inclusive(group - 1, window_before));
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
