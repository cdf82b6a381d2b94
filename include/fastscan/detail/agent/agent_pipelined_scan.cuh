#pragma once
// The pipelined single pass: persistent blocks (one or two an SM) whose warps split a tile's work, so that no
// tile's aggregate waits behind a look-back and a tile's shared memory is free before its prefix is
// known. By warp:
//   0            thread 0 draws tiles (launch order, from the call's counter) and copies each into the
//                next free stage of a ring with one bulk copy (stage_ring.cuh);
//   1            looks back (single_pass_lookback.cuh; the deterministic pass: deterministic_lookback.cuh)
//                for each tile in the order its block drew them and hands the carry to the scan warps;
//   2 ..         reduce warps: as a tile's copy lands, fold its segments and publish its aggregate (a
//                compaction's also leave each item's flag in the stage for the scan warps);
//   then         scan warps, one segment of the tile each: as its copy lands, the matrix scan with
//                rows of one vector (the Tiles' rows: warp_vector_rows.cuh or its segmented flavour) up
//                to the carry, free the stage, wait for the segment totals and the carry, store. With a
//                carry lag (inclusive scans whose Tiles park), a segment whose results need the carry is
//                parked in its stage, scanned up to it, and stored, the stage freed, once the warp has
//                scanned the next carry_lag tiles: the carries' look-back latency overlaps the scans of
//                later tiles rather than holding each scan warp.
// A tile's number, aggregate, segment totals and carry live in a ring of metadata slots (twice the
// stages) with barriers of their own: freeing a stage frees none of them. Every lane that reads a stage
// or a slot arrives on the barrier that frees it (an mbarrier arrival releases its own thread's accesses
// only). Every element is read once and written once; in-place calls are safe (a tile's input is in
// shared memory before its output is written); the last tile may be partial. What a tile holds, how it
// is copied, read as rows and stored: `Tiles` (pipelined_tiles.cuh: plain scans forward and backward,
// scans by key, compaction by a predicate, unique_by_key).

#include <fastscan/detail/agent/deterministic_lookback.cuh>
#include <fastscan/detail/agent/pipelined_tiles.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/stage_ring.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/warp/warp_vector_rows.cuh>

#include <cstdint>
#include <type_traits>

namespace fastscan::detail {

template <class Tuning, class Tiles>
struct agent_pipelined_scan {
  using T = typename Tiles::value_type;
  static constexpr int stages = Tuning::stages;
  static constexpr int slots = Tuning::metadata_slots;
  static constexpr int scan_warps = Tuning::scan_warps;
  static constexpr int reduce_warps = Tuning::reduce_warps;
  static constexpr int segment_items = Tuning::segment_items;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int segments_per_reduce_warp = scan_warps / reduce_warps;
  using rows = typename Tiles::rows;
  // The look-back's two halves (publish, carry): polling, as every tile of the block waits on one warp's
  // answer; or the deterministic pass's fixed formula.
  template <class Op>
  using prefix_t = std::conditional_t<Tuning::strategy == multi_block::single_pass_deterministic,
                                      deterministic_single_pass_prefix<T, Op, Tuning::deterministic_folded_groups>,
                                      single_pass_prefix<T, Op, 1, status_wait::polling>>;

  struct shared_storage {
    typename Tiles::stage stage[stages];
    std::uint64_t full[stages];   // the stage's copy has landed
    std::uint64_t empty[stages];  // every lane of the reduce and scan warps is done reading it
    std::uint64_t reduced[slots]; // the slot's tile, size, aggregate and segment totals are written
    std::uint64_t carried[slots]; // the slot's carry is written
    std::uint64_t marked[slots];  // every reduce lane has left its findings in the stage (reduces_into_stage)
                                  // or is done reading it (a lagging scan that parks there)
    offset_t stage_tile[stages];  // the tile the producer copied there; -1: no more tiles
    offset_t tile[slots];
    T aggregate[slots];
    T segment_total[slots][scan_warps];
    bool segment_has_total[slots][scan_warps];
    T carry[slots];
    bool has_carry[slots];
    int last_use;  // the use of the rings in which the block drew no tile; -1 until then
  };

  static constexpr int producer_warp = 0, lookback_warp = 1, first_reduce_warp = 2,
                       first_scan_warp = 2 + reduce_warps;
  // Whether the scan warps of a scan of this kind park segments and lag their tiles' carries.
  template <scan_kind Kind>
  static constexpr bool lags = Tuning::carry_lag > 0 && Kind == scan_kind::inclusive && Tiles::parks;

  template <scan_kind Kind, class Op>
  __device__ static void run(shared_storage& s, Tiles const& io, offset_t n, offset_t tiles, Op const& op,
                             maybe<T> init, tile_state<T> const& state) {
    const int warp = static_cast<int>(threadIdx.x / 32);
    if (threadIdx.x == 0) {
      for (int i = 0; i < stages; ++i) {
        Tiles::prepare(s.stage[i]);
        barrier_init(&s.full[i], 1);
        barrier_init(&s.empty[i], 32 * (reduce_warps + scan_warps));
      }
      for (int i = 0; i < slots; ++i) {
        barrier_init(&s.reduced[i], 1);
        barrier_init(&s.carried[i], 32);
        barrier_init(&s.marked[i], 32 * reduce_warps);
      }
      s.last_use = -1;
      barrier_init_fence();
    }
    __syncthreads();
    if (warp == producer_warp) {
      if (threadIdx.x == 0) produce(s, io, n, tiles, state);
    } else if (warp == lookback_warp) {
      look_back_tiles(s, tiles, op, init, state);
    } else if (warp < first_scan_warp) {
      reduce_tiles<Kind>(s, io, warp - first_reduce_warp, n, tiles, op, init, state);
    } else {
      scan_tiles<Kind>(s, io, warp - first_scan_warp, n, op);
    }
  }

 private:
  __device__ static offset_t tile_valid(offset_t tile, offset_t n) {
    const offset_t rest = n - tile * tile_items;
    return rest < tile_items ? rest : tile_items;
  }

  // Waits for a barrier's phase unless the block has drawn its last tile before use k. The last use is a
  // flag polled outside any barrier: atomic accesses.
  __device__ static bool wait_unless_done(std::uint64_t* barrier, unsigned parity, shared_storage& s, int k) {
    while (!barrier_try_wait(barrier, parity)) {
      const int last = atomicAdd(&s.last_use, 0);
      if (last >= 0 && k > last) return false;
    }
    return true;
  }

  __device__ static void produce(shared_storage& s, Tiles const& io, offset_t n, offset_t tiles,
                                 tile_state<T> const& state) {
    for (int k = 0;; ++k) {
      const int stage = k % stages;
      if (k >= stages) barrier_wait(&s.empty[stage], (k / stages - 1) & 1);
      const offset_t tile = state.draw_tile();
      if (tile >= tiles) {
        s.stage_tile[stage] = -1;
        barrier_arrive(&s.full[stage]);
        return;
      }
      s.stage_tile[stage] = tile;
      io.copy(s.stage[stage], tile, static_cast<int>(tile_valid(tile, n)), &s.full[stage]);
    }
  }

  template <scan_kind Kind, class Op>
  __device__ static void reduce_tiles(shared_storage& s, Tiles const& io, int reduce_warp, offset_t n, offset_t tiles,
                                      Op const& op, maybe<T> init, tile_state<T> const& state) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    for (int k = 0;; ++k) {
      const int stage = k % stages, slot = k % slots;
      barrier_wait(&s.full[stage], (k / stages) & 1);
      const offset_t tile = s.stage_tile[stage];
      if (tile < 0) {
        if (reduce_warp == 0 && lane == 0) {
          s.tile[slot] = -1;
          atomicExch(&s.last_use, k);
          barrier_arrive(&s.reduced[slot]);
        }
        return;
      }
      const int valid = static_cast<int>(tile_valid(tile, n));
#pragma unroll
      for (int j = 0; j < segments_per_reduce_warp; ++j) {
        const int segment = reduce_warp * segments_per_reduce_warp + j;
        const int items = segment_items_of(valid, segment);
        maybe<T> total = none<T>();
        if constexpr (Tiles::reduces_into_stage) {
          total = io.template reduce_segment<Kind>(s.stage[stage], tile, segment, items, op);
        } else {
          auto source = io.template segment<Kind>(s.stage[stage], tile, segment);
          if (items == segment_items) total = rows::template reduce<false>(source, items, op);
          else if (items > 0) total = rows::template reduce<true>(source, items, op);
        }
        if (lane == 0) {
          s.segment_total[slot][segment] = total.value;
          s.segment_has_total[slot][segment] = total.valid;
        }
      }
      if constexpr (Tiles::reduces_into_stage || lags<Kind>) barrier_arrive(&s.marked[slot]);  // each lane, its own accesses
      barrier_arrive(&s.empty[stage]);  // each lane for its own reads: the release covers no other lane's
      asm volatile("bar.sync 1, %0;" ::"r"(32 * reduce_warps) : "memory");
      if (reduce_warp == 0 && lane == 0) {
        maybe<T> aggregate = none<T>();
        for (int segment = 0; segment < scan_warps; ++segment)
          aggregate = combine_maybe(aggregate, maybe<T>{s.segment_total[slot][segment], s.segment_has_total[slot][segment]}, op);
        s.tile[slot] = tile;
        s.aggregate[slot] = aggregate.value;
        const prefix_t<Op> prefix{state, tile, tile + 1 < tiles, op, init};
        prefix.publish(aggregate.value);
        barrier_arrive(&s.reduced[slot]);
      }
    }
  }

  template <class Op>
  __device__ static void look_back_tiles(shared_storage& s, offset_t tiles, Op const& op, maybe<T> init,
                                         tile_state<T> const& state) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    for (int k = 0;; ++k) {
      const int slot = k % slots;
      if (!wait_unless_done(&s.reduced[slot], (k / slots) & 1, s, k)) return;
      const offset_t tile = s.tile[slot];
      if (tile < 0) {
        barrier_arrive(&s.carried[slot]);
        return;
      }
      const prefix_t<Op> prefix{state, tile, tile + 1 < tiles, op, init};
      const maybe<T> carry = prefix.carry(s.aggregate[slot]);
      if (lane == 0) {
        s.carry[slot] = carry.value;
        s.has_carry[slot] = carry.valid;
      }
      __syncwarp();
      barrier_arrive(&s.carried[slot]);  // every lane: its reads of the slot are done
    }
  }

  template <scan_kind Kind, class Op>
  __device__ static void scan_tiles(shared_storage& s, Tiles const& io, int segment, offset_t n, Op const& op) {
    if constexpr (lags<Kind>) scan_tiles_lagged<Kind>(s, io, segment, n, op);
    else scan_tiles_in_turn<Kind>(s, io, segment, n, op);
  }

  template <scan_kind Kind, class Op>
  __device__ static void scan_tiles_in_turn(shared_storage& s, Tiles const& io, int segment, offset_t n, Op const& op) {
    for (int k = 0;; ++k) {
      const int stage = k % stages, slot = k % slots;
      barrier_wait(&s.full[stage], (k / stages) & 1);  // the segment totals are awaited after the local scan
      const offset_t tile = s.stage_tile[stage];
      if (tile < 0) return;
      // What the reduce warps left in the stage (the scan warps trail them: this rarely waits).
      if constexpr (Tiles::reduces_into_stage) barrier_wait(&s.marked[slot], (k / slots) & 1);
      const int items = segment_items_of(static_cast<int>(tile_valid(tile, n)), segment);
      auto source = io.template segment<Kind>(s.stage[stage], tile, segment);
      if (items == segment_items) {
        scan_segment<false, Kind>(s, io, stage, slot, k, tile, segment, source, items, op);
      } else if (items > 0) {
        scan_segment<true, Kind>(s, io, stage, slot, k, tile, segment, source, items, op);
      } else {
        barrier_arrive(&s.empty[stage]);
        barrier_wait(&s.carried[slot], (k / slots) & 1);
      }
    }
  }

  // One scan warp's segment of use k: scanned up to the carry, the stage freed, the carry awaited (unless
  // the tile's segments before this one absorb it: Tiles::absorbs_carry), the results stored.
  template <bool Partial, scan_kind Kind, class Source, class Op>
  __device__ __forceinline__ static void scan_segment(shared_storage& s, Tiles const& io, int stage, int slot, int k,
                                                      offset_t tile, int segment, Source& source, int items,
                                                      Op const& op) {
    typename rows::local_scan local;
    rows::template scan_local<Partial>(source, items, op, local);
    barrier_arrive(&s.empty[stage]);
    barrier_wait(&s.reduced[slot], (k / slots) & 1);  // the segment totals
    const maybe<T> before = segments_before(s, slot, segment, op);
    maybe<T> carry = before;
    if (!Tiles::absorbs_carry(before)) {
      barrier_wait(&s.carried[slot], (k / slots) & 1);
      carry = combine_maybe(maybe<T>{s.carry[slot], s.has_carry[slot]}, before, op);
    }
    rows::template finish<Kind>(local, carry, op);
    io.template store<Kind, Partial>(tile, segment, items, source, local);
  }

  // The totals of the tile's segments before `segment` (none for the first), once `reduced` completed.
  template <class Op>
  __device__ __forceinline__ static maybe<T> segments_before(shared_storage const& s, int slot, int segment,
                                                             Op const& op) {
    maybe<T> before = none<T>();
    for (int j = 0; j < segment; ++j)
      before = combine_maybe(before, maybe<T>{s.segment_total[slot][j], s.segment_has_total[slot][j]}, op);
    return before;
  }

  // The scan warps with a carry lag: parked[i] holds, for use k - carry_lag + i, how many elements at the
  // segment's start take the carry (0: none, the stage already freed; -1: no such use). A stage is freed
  // at the latest carry_lag uses after its own, before the warp waits for a later stage (carry_lag < stages).
  template <scan_kind Kind, class Op>
  __device__ static void scan_tiles_lagged(shared_storage& s, Tiles const& io, int segment, offset_t n, Op const& op) {
    constexpr int lag = Tuning::carry_lag;
    int parked[lag];
#pragma unroll
    for (int i = 0; i < lag; ++i) parked[i] = -1;
    for (int k = 0;; ++k) {
      const int stage = k % stages, slot = k % slots;
      barrier_wait(&s.full[stage], (k / stages) & 1);
      const offset_t tile = s.stage_tile[stage];
      settle(s, io, k - lag, segment, n, parked[0]);
#pragma unroll
      for (int i = 0; i + 1 < lag; ++i) parked[i] = parked[i + 1];
      parked[lag - 1] = 0;
      if (tile < 0) {
#pragma unroll
        for (int i = 0; i + 1 < lag; ++i) settle(s, io, k - lag + 1 + i, segment, n, parked[i]);
        return;
      }
      if constexpr (Tiles::reduces_into_stage) barrier_wait(&s.marked[slot], (k / slots) & 1);
      const int items = segment_items_of(static_cast<int>(tile_valid(tile, n)), segment);
      auto source = io.template segment<Kind>(s.stage[stage], tile, segment);
      if (items == segment_items) {
        parked[lag - 1] = scan_segment_or_park<false, Kind>(s, io, stage, slot, k, tile, segment, source, items, op);
      } else if (items > 0) {
        parked[lag - 1] = scan_segment_or_park<true, Kind>(s, io, stage, slot, k, tile, segment, source, items, op);
      } else {
        barrier_arrive(&s.empty[stage]);
      }
    }
  }

  // Use k's segment after its lag: a parked one stored; every phase of the slot's carry barrier awaited,
  // as in the scan without a lag, so that none completes twice unobserved.
  __device__ static void settle(shared_storage& s, Tiles const& io, int k, int segment, offset_t n, int parked) {
    if (parked > 0) store_parked(s, io, k, segment, n, parked);
    else if (parked == 0) barrier_wait(&s.carried[k % slots], (k / slots) & 1);
  }

  // One scan warp's segment of use k with a carry lag: scanned up to the tile's segments before it; stored
  // at once (the stage freed) where no result needs the carry, else parked in the stage. Returns how
  // many elements at its start take the carry (0: stored).
  template <bool Partial, scan_kind Kind, class Source, class Op>
  __device__ __forceinline__ static int scan_segment_or_park(shared_storage& s, Tiles const& io, int stage, int slot, int k,
                                                             offset_t tile, int segment, Source& source, int items,
                                                             Op const& op) {
    typename rows::local_scan local;
    rows::template scan_local<Partial>(source, items, op, local);
    barrier_wait(&s.reduced[slot], (k / slots) & 1);  // the segment totals
    // The reduce warps' reads of the stage, which a park overwrites (complete before the totals: no wait).
    if constexpr (!Tiles::reduces_into_stage) barrier_wait(&s.marked[slot], (k / slots) & 1);
    const maybe<T> before = segments_before(s, slot, segment, op);
    const int open = Tiles::absorbs_carry(before) ? 0 : rows::leading_without_head(local);
    rows::template finish<Kind>(local, before, op);
    if (open == 0) {
      barrier_arrive(&s.empty[stage]);
      io.template store<Kind, Partial>(tile, segment, items, source, local);
    } else {
      io.park(s.stage[stage], segment, local);
    }
    return open;
  }

  // Use k's parked segment: its tile's carry awaited and folded into its first `open` elements, stored,
  // the stage freed.
  __device__ static void store_parked(shared_storage& s, Tiles const& io, int k, int segment, offset_t n, int open) {
    const int stage = k % stages, slot = k % slots;
    barrier_wait(&s.carried[slot], (k / slots) & 1);
    const maybe<T> carry{s.carry[slot], s.has_carry[slot]};
    const offset_t tile = s.stage_tile[stage];
    const int items = segment_items_of(static_cast<int>(tile_valid(tile, n)), segment);
    if (items == segment_items) io.template store_parked<false>(s.stage[stage], tile, segment, items, carry, open);
    else io.template store_parked<true>(s.stage[stage], tile, segment, items, carry, open);
    barrier_arrive(&s.empty[stage]);
  }

  __device__ static int segment_items_of(int valid, int segment) {
    const int rest = valid - segment * segment_items;
    return rest <= 0 ? 0 : rest < segment_items ? rest : segment_items;
  }
};

}  // namespace fastscan::detail
