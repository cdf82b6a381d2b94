#pragma once
// Decoupled look-back (Merrill and Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", NVIDIA TR 2016-002): the cross-tile half of a single-pass scan.
//
// Each tile publishes a status for the tiles after it: first its aggregate (A), as soon as its block
// scan has one, then its inclusive prefix (P) once its own look-back is done. A tile's warp 0 reads
// the statuses of the 32 tiles before it at once, waits until none of them is still unpublished,
// combines the aggregates back to the nearest P (in tile order: op is not assumed commutative), and
// repeats further back if the window held no P. Tile 0 publishes P at once. A window is 32 tiles, or
// a multiple of 32 when each lane reads several (fewer round trips where many tiles are in flight).
//
// Status words carry a tag, so the storage needs no initialisation per call: a word counts only if
// its tag is this call's (dispatch/tile_state_registry.cuh hands out the tags and the storage).
// Every tile has a 16-byte slot holding its control word, tag << 2 | status, and, where it fits, its
// value (value_bytes<T> of it: padding does not travel), as follows:
//   packed64  (up to 4 bytes):  bytes 8..15 are one 64-bit word, value in the low half, control
//                               (32 bits) in the high half: one atomic store publishes both;
//   packed128 (up to 12 bytes): value in bytes 0..11, control (32 bits) in bytes 12..15, written and
//                               read as one 16-byte access;
//   fenced    (larger values):  control (64 bits) in bytes 8..15; the value goes to a per-call array,
//                               written before a fence and the control word, read after it.
// Tags stay below 2^30 and are never 0, so a fenced control word is below 2^32 while a packed slot's
// bytes 8..15 are above it (their control half is at least 4): a slot last written in one format
// never passes for another's.
// Slot 0 holds the tile counter from which blocks draw their tile numbers in launch order.

#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fastscan::detail {

enum class tile_status : unsigned { invalid = 0, aggregate = 1, prefix = 2 };

// How a look-back waits for a predecessor's status: backing off longer the longer it waits (tiles that
// have a block each: the waiting block's SM has other work), or polling every 64 ns (the pipelined single
// pass's one look-back warp an SM, on whose answer every tile of its block waits).
enum class status_wait { backing_off, polling };
enum class status_format { packed64, packed128, fenced };

template <class T>
constexpr status_format status_format_for() {
  return value_bytes<T> <= 4 ? status_format::packed64
         : value_bytes<T> <= 12 ? status_format::packed128
                                : status_format::fenced;
}

inline constexpr std::uint32_t max_tile_state_tag = (1u << 30) - 1;
using tile_slot = ulonglong2;  // 16 bytes

// Copies of arbitrary values that bypass L1 (the fenced format's value arrays).
template <class T>
__device__ void store_cg(T* target, T const& value) {
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) % 4 == 0) {
    unsigned words[sizeof(T) / 4];
    std::memcpy(words, &value, sizeof(T));
#pragma unroll 32
    for (unsigned i = 0; i < sizeof(T) / 4; ++i) __stcg(reinterpret_cast<unsigned*>(target) + i, words[i]);
  } else {
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&value);
    volatile unsigned char* out = reinterpret_cast<volatile unsigned char*>(target);
    for (unsigned i = 0; i < sizeof(T); ++i) out[i] = bytes[i];
  }
}
template <class T>
__device__ T load_cg(T const* source) {
  uninitialized<T> result;
  if constexpr (sizeof(T) % 4 == 0 && alignof(T) % 4 == 0) {
    unsigned words[sizeof(T) / 4];
#pragma unroll 32
    for (unsigned i = 0; i < sizeof(T) / 4; ++i) words[i] = __ldcg(reinterpret_cast<const unsigned*>(source) + i);
    std::memcpy(result.bytes, words, sizeof(T));
  } else {
    const volatile unsigned char* in = reinterpret_cast<const volatile unsigned char*>(source);
    for (unsigned i = 0; i < sizeof(T); ++i) result.bytes[i] = in[i];
  }
  return result.get();
}

// ---- the tile states of one call -------------------------------------------------------------------

template <class T>
struct tile_state {
  static constexpr status_format format = status_format_for<T>();

  tile_slot* slots;                 // slot 0: tile counter; slot t + 1: tile t
  T* aggregates;                    // fenced format: per-call value arrays, one entry per tile
  T* inclusives;
  unsigned long long first_ticket;  // the counter's value when this call's first block draws
  std::uint32_t tag;
  offset_t group_slots;             // deterministic single pass: where the groups' statuses start, after
                                    // the tiles' (0: none); the groups' inclusive prefixes follow them
  offset_t groups;

  // The same state seen `offset` entries on (the deterministic single pass's group statuses).
  __device__ tile_state view_at(offset_t offset) const {
    tile_state view = *this;
    view.slots += offset;
    if constexpr (format == status_format::fenced) {
      view.aggregates += offset;
      view.inclusives += offset;
    }
    return view;
  }

  // Called by one thread: this block's tile, in the order blocks start running.
  __device__ offset_t draw_tile() const {
    return static_cast<offset_t>(atomicAdd(reinterpret_cast<unsigned long long*>(slots), 1ull) - first_ticket);
  }

  __device__ unsigned long long control(tile_status status) const {
    return (static_cast<unsigned long long>(tag) << 2) | static_cast<unsigned>(status);
  }

  // Called by one thread.
  __device__ void publish(offset_t tile, tile_status status, T const& value) const {
    tile_slot* slot = slots + tile + 1;
    if constexpr (format == status_format::packed64) {
      unsigned low = 0;
      std::memcpy(&low, &value, value_bytes<T>);
      store_relaxed(&slot->y, static_cast<unsigned long long>(low) | (control(status) << 32));
    } else if constexpr (format == status_format::packed128) {
      tile_slot word{0, 0};
      std::memcpy(&word, &value, value_bytes<T>);
      word.y |= control(status) << 32;
      store_relaxed(slot, word);
    } else {
      store_cg((status == tile_status::prefix ? inclusives : aggregates) + tile, value);
      __threadfence();
      store_relaxed(&slot->y, control(status));
    }
  }

  // What one status read brings: the 64-bit word, both halves of a 16-byte slot, or the control word.
  using raw_t = std::conditional_t<format == status_format::packed128, tile_slot, unsigned long long>;

  // Reads one tile's status (and, for the packed formats, its value bits); tile < 0 is no tile, reported
  // as a prefix so that the look-back never goes past it.
  __device__ tile_status read_status(offset_t tile, raw_t& raw) const {
    if (tile < 0) return tile_status::prefix;
    tile_slot* slot = slots + tile + 1;
    unsigned long long word;
    if constexpr (format == status_format::packed64) {
      raw = load_relaxed(&slot->y);
      word = raw >> 32;
    } else if constexpr (format == status_format::packed128) {
      raw = load_relaxed(slot);
      word = raw.y >> 32;
    } else {
      word = load_relaxed(&slot->y);
    }
    return (word >> 2) == tag ? static_cast<tile_status>(word & 3u) : tile_status::invalid;
  }

  // The value of a status that read_status found published, from what it read (for the fenced format,
  // after a fence that follows the read).
  __device__ T value_of(offset_t tile, tile_status status, raw_t const& raw) const {
    if constexpr (format == status_format::packed64) {
      const unsigned low = static_cast<unsigned>(raw);
      uninitialized<T> v;
      std::memcpy(v.bytes, &low, value_bytes<T>);
      return v.get();
    } else if constexpr (format == status_format::packed128) {
      uninitialized<T> v;
      std::memcpy(v.bytes, &raw, value_bytes<T>);
      return v.get();
    } else {
      return load_cg((status == tile_status::prefix ? inclusives : aggregates) + tile);
    }
  }

  // Called by all 32 lanes of a warp, each for Count consecutive tiles going back from `nearest`.
  // Waits until none of the warp's tiles is unpublished, then returns their statuses and values.
  template <int Count, status_wait Wait = status_wait::backing_off>
  __device__ void wait_for(offset_t nearest, tile_status (&status)[Count], T (&value)[Count]) const {
    raw_t raw[Count];
    for (int attempt = 0;; ++attempt) {
      bool any_invalid = false;
#pragma unroll
      for (int j = 0; j < Count; ++j) {
        status[j] = read_status(nearest - j, raw[j]);
        any_invalid = any_invalid || status[j] == tile_status::invalid;
      }
      if (!__any_sync(0xffffffffu, any_invalid)) break;
      if constexpr (Wait == status_wait::polling) __nanosleep(64);
      else back_off(attempt);
    }
    if constexpr (format == status_format::fenced) __threadfence();  // the values were written before the statuses
#pragma unroll
    for (int j = 0; j < Count; ++j) {
      const offset_t tile = nearest - j;
      if (tile >= 0) value[j] = value_of(tile, status[j], raw[j]);
    }
  }

  // Called by one thread, without waiting: whether `tile` has published its inclusive prefix, and the
  // prefix where it has (a hint's source for a tile that reads no further).
  __device__ bool published_prefix(offset_t tile, T& value) const {
    raw_t raw;
    const tile_status status = read_status(tile, raw);
    if (tile < 0 || status != tile_status::prefix) return false;
    if constexpr (format == status_format::fenced) __threadfence();
    value = value_of(tile, status, raw);
    return true;
  }

  // Called by a warp between status reads that found a predecessor unpublished: back off while
  // predecessors work, longer the longer the wait.
  __device__ static void back_off(int attempt) {
    if (attempt > 2) __nanosleep(attempt < 16 ? 32 * attempt : 512);
  }
};

// Whether op(anything, aggregate) == aggregate, so a tile can publish its aggregate as its inclusive
// prefix at once (a segmented scan's tile that holds a head). Overloaded beside such operators.
template <class Op, class T>
__device__ bool absorbs_prefix(Op const&, T const&) {
  return false;
}

// Called by all 32 lanes of a warp: lanes [0, last] of `value` folded in a fixed tree, higher lanes
// (farther tiles) on the left of op; the result in every lane.
template <class T, class Op>
__device__ T fold_lanes(T value, int last, Op const& op) {
  const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
  for (int delta = 1; delta < 32; delta *= 2) {
    const T farther = shuffle_any<shuffle_from::higher_lane>(value, delta);
    if (lane + delta <= last) value = static_cast<T>(op(farther, value));
  }
  return shuffle_any<shuffle_from::lane>(value, 0);
}

// Called by all 32 lanes of warp 0 of tile `tile` > 0: the combination of every tile before it. Each
// round reads a window of 32 * TilesPerLane tiles at once (lane l: tiles TilesPerLane * l .. nearest
// first), so a look-back over w tiles costs w / (32 * TilesPerLane) round trips to L2.
template <int TilesPerLane, status_wait Wait = status_wait::backing_off, class T, class Op>
__device__ T look_back(tile_state<T> const& state, offset_t tile, Op const& op) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  offset_t window_end = tile;  // the window is the tiles just before window_end
  uninitialized<T> exclusive;
  bool have_exclusive = false;
  while (true) {
    tile_status status[TilesPerLane];
    T values[TilesPerLane];
    state.template wait_for<TilesPerLane, Wait>(window_end - 1 - lane * TilesPerLane, status, values);
    int nearest_prefix = TilesPerLane;  // this lane's nearest tile with an inclusive prefix
#pragma unroll
    for (int j = TilesPerLane - 1; j >= 0; --j)
      if (status[j] == tile_status::prefix) nearest_prefix = j;
    const unsigned prefix_lanes = __ballot_sync(0xffffffffu, nearest_prefix < TilesPerLane);
    const int stop = prefix_lanes != 0 ? __ffs(prefix_lanes) - 1 : 31;
    // This lane's tiles from the farthest it needs to the nearest (farther tiles on the left of op).
    const int farthest = lane == stop && prefix_lanes != 0 ? nearest_prefix : TilesPerLane - 1;
    T value = values[0];
#pragma unroll
    for (int j = TilesPerLane - 1; j >= 0; --j) {
      if (j == farthest) value = values[j];
      else if (j < farthest) value = static_cast<T>(op(value, values[j]));
    }
    const T window = fold_lanes(value, stop, op);  // lanes [0, stop], in tile order
    construct_in(exclusive.get(), have_exclusive ? static_cast<T>(op(window, exclusive.get())) : window);
    have_exclusive = true;
    if (prefix_lanes != 0) return exclusive.get();
    window_end -= 32 * TilesPerLane;
  }
}

// The prefix callback a block scan calls (all 32 lanes of warp 0, with the tile's aggregate) in a
// single-pass scan: publishes the tile's status, looks back, and returns the tile's carry. Tile 0's
// carry is the init (if any). The last tile publishes nothing: no tile follows it. A caller that has
// work which does not need the carry calls the two halves apart: publish(aggregate) as soon as the
// aggregate is known, carry(aggregate) (the wait) once that work is done.
template <class T, class Op, int TilesPerLane, status_wait Wait = status_wait::backing_off>
struct single_pass_prefix {
  tile_state<T> state;
  offset_t tile;
  bool publishes;
  Op op;
  maybe<T> init;

  __device__ maybe<T> operator()(T const& aggregate) const {
    publish(aggregate);
    return carry(aggregate);
  }

  // Lane 0 of the calling warp publishes the tile's first status: its inclusive prefix where nothing
  // before it can change it (tile 0, an absorbing aggregate), else its aggregate.
  __device__ void publish(T const& aggregate) const {
    if (!publishes || threadIdx.x % 32 != 0) return;
    if (tile == 0)
      state.publish(0, tile_status::prefix, init.valid ? static_cast<T>(op(init.value, aggregate)) : aggregate);
    else
      state.publish(tile, absorbs_prefix(op, aggregate) ? tile_status::prefix : tile_status::aggregate, aggregate);
  }

  // All 32 lanes of a warp, after publish: the look-back, then the tile's inclusive prefix published.
  __device__ maybe<T> carry(T const& aggregate) const {
    if (tile == 0) return init;
    const T exclusive = look_back<TilesPerLane, Wait>(state, tile, op);
    if (publishes && !absorbs_prefix(op, aggregate) && threadIdx.x % 32 == 0)
      state.publish(tile, tile_status::prefix, static_cast<T>(op(exclusive, aggregate)));
    return some<T>(exclusive);
  }
};

// The tile this block works on in a single-pass launch: drawn by `draw()` (thread 0; draw_tile below
// takes it from the call's counter, a caller may read statuses while that round trip is in flight), or
// 0 when the grid has one block (and no state); prefetching its launch-order guess first where `access`
// says (tile_draw.cuh).
template <class Draw, class Prefetch>
__device__ offset_t draw_tile_with(offset_t& shared_tile, tile_access access, Draw&& draw, Prefetch&& prefetch) {
  if (gridDim.x == 1) return 0;
  return draw_tile(shared_tile, prefetches(access), draw, prefetch);
}

template <class T, class Prefetch>
__device__ offset_t draw_tile(offset_t& shared_tile, tile_state<T> const& state, tile_access access,
                              Prefetch&& prefetch) {
  return draw_tile_with(shared_tile, access, [&] { return state.draw_tile(); }, prefetch);
}

}  // namespace fastscan::detail
