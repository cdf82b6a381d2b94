#pragma once
// The matrix scan of warp_vector_rows.cuh for segmented scans (segmented.cuh): the same rows of one
// 16-byte vector of values, with the heads kept as bits beside them rather than as a flag in every
// element, so that the column's shuffles move values only. A lane finds the nearest row with a head at
// or before its own in the round from one ballot, and folds in a lower lane's prefix only from there
// (Hillis-Steele on values). The reduction (the segment's total alone) reads runs instead of rows, a
// lane's elements consecutive, so that its tree of shuffles runs once rather than once a round. Results
// are those of the segmented operator over (head, value) pairs; op is the values' operator, folded in
// element order (it need not be commutative).
//
// Warp code only, with warp_vector_rows' interface: a row source gives each lane's row of a round and
// its heads (load_row returns bit j for element j), and for the reduction each lane's run of Rounds x
// Vector consecutive elements and their heads (load_run, warp_runs.cuh); the carry and the totals are
// (head, value) pairs.
// Partial segments hold only their first `valid` elements: the totals fold those only; the scan's rows
// past them hold whatever the source gave (results never stored).

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

namespace fastscan::detail {

template <class V, int Vector, int Rounds>
struct warp_segmented_vector_rows {
  using pair_t = segmented_value<V>;
  static_assert(Vector * Rounds <= 32, "one bit a lane's element");

  struct local_scan {
    V rows[Rounds][Vector];  // each row scanned within itself, restarting at its heads
    V before[Rounds];        // the fold of the round's rows before this lane's, from the last head among them
    V round_total[Rounds];   // the fold of the round's rows from their last head, in every lane
    unsigned heads;          // bit r Vector + j: element j of this lane's row of round r is a head
    unsigned before_head;    // bit r: a head lies in the round's rows before this lane's
    unsigned round_head;     // bit r: a head lies in the round's rows
  };

  // The fold of the segment's (valid) elements as a pair, in lane 0; none where no element is valid.
  // Over runs (the source's load_run: Rounds x Vector consecutive elements a lane), so that the shuffle
  // tree runs once, not once a round.
  template <bool Partial, class Source, class Op>
  __device__ __forceinline__ static maybe<pair_t> reduce(Source& source, int valid, segmented_op<Op> const& segmented) {
    Op const& op = segmented.op;
    constexpr int run_items = Rounds * Vector;
    const int lane = static_cast<int>(threadIdx.x % 32);
    V run[run_items];
    unsigned heads = source.load_run(lane, run);
    const int first = lane * run_items;
    int lanes = 32;  // the lanes holding valid elements: a prefix
    if constexpr (Partial) {
      const int rest = valid - first;
      heads &= rest >= run_items ? ~0u : rest > 0 ? (1u << rest) - 1 : 0u;
      lanes = (valid + run_items - 1) / run_items;
    }
    V total = run[0];
#pragma unroll
    for (int j = 1; j < run_items; ++j)
      if (!Partial || first + j < valid) total = (heads >> j) & 1u ? run[j] : static_cast<V>(op(total, run[j]));
    const unsigned lanes_with_head = __ballot_sync(0xffffffffu, heads != 0 && lane < lanes);
    const int last_head = lanes_with_head ? 31 - __clz(static_cast<int>(lanes_with_head)) : -1;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
      const V right = shuffle_any<shuffle_from::higher_lane>(total, d);
      // The right half holds the last head: everything before it is cut off.
      if ((lane & (2 * d - 1)) == 0 && lane + d < lanes)
        total = last_head >= lane + d ? right : static_cast<V>(op(total, right));
    }
    if (lanes == 0) return none<pair_t>();
    return some<pair_t>(pair_t{total, lanes_with_head != 0});
  }

  // Rows into registers, scanned within; the column's prefixes, for every round.
  template <bool Partial, class Source, class Op>
  __device__ __forceinline__ static void scan_local(Source& source, int, segmented_op<Op> const& segmented,
                                                    local_scan& s) {
    Op const& op = segmented.op;
    const int lane = static_cast<int>(threadIdx.x % 32);
    s.heads = 0;
    V column[Rounds];
    unsigned lanes_with_head[Rounds];
#pragma unroll
    for (int r = 0; r < Rounds; ++r) {
      const unsigned heads = source.load_row(r, lane, s.rows[r]);
      s.heads |= heads << (r * Vector);
#pragma unroll
      for (int j = 1; j < Vector; ++j)
        if (!((heads >> j) & 1u)) s.rows[r][j] = static_cast<V>(op(s.rows[r][j - 1], s.rows[r][j]));
      column[r] = s.rows[r][Vector - 1];
      lanes_with_head[r] = __ballot_sync(0xffffffffu, heads != 0);
    }
    const unsigned up_to_lane = 0xffffffffu >> (31 - lane);
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
#pragma unroll
      for (int r = 0; r < Rounds; ++r) {
        const V left = shuffle_any<shuffle_from::lower_lane>(column[r], d);
        const unsigned heads_up_to = lanes_with_head[r] & up_to_lane;
        const int last_head = heads_up_to ? 31 - __clz(static_cast<int>(heads_up_to)) : -1;
        if (lane - d >= 0 && lane - d >= last_head) column[r] = static_cast<V>(op(left, column[r]));
      }
    }
    s.before_head = 0;
    s.round_head = 0;
#pragma unroll
    for (int r = 0; r < Rounds; ++r) {
      s.before[r] = shuffle_any<shuffle_from::lower_lane>(column[r], 1);
      s.round_total[r] = shuffle_any<shuffle_from::lane>(column[r], 31);
      s.before_head |= static_cast<unsigned>((lanes_with_head[r] & (up_to_lane >> 1)) != 0) << r;
      s.round_head |= static_cast<unsigned>(lanes_with_head[r] != 0) << r;
    }
  }

  // The segment's elements before its first head (all of its rows' elements where it has none), in every
  // lane: those whose results a carry into the segment changes.
  __device__ __forceinline__ static int leading_without_head(local_scan const& s) {
#pragma unroll
    for (int r = 0; r < Rounds; ++r) {
      const unsigned row_heads = (s.heads >> (r * Vector)) & ((1u << Vector) - 1);
      const unsigned lanes = __ballot_sync(0xffffffffu, row_heads != 0);
      if (lanes != 0) {
        const int first = __ffs(static_cast<int>(lanes)) - 1;
        const unsigned first_heads = __shfl_sync(0xffffffffu, row_heads, first);
        return (r * 32 + first) * Vector + __ffs(static_cast<int>(first_heads)) - 1;
      }
    }
    return Rounds * 32 * Vector;
  }

  // Each row from its prefix (the carry, the earlier rounds, the earlier rows of its round), up to its
  // first head. Rows become the scan's results of the given kind; an exclusive result with nothing
  // before it keeps whatever it held (a head: the caller writes the init there).
  template <scan_kind Kind, class Op>
  __device__ __forceinline__ static void finish(local_scan& s, maybe<pair_t> const& carried,
                                                segmented_op<Op> const& segmented) {
    Op const& op = segmented.op;
    const int lane = static_cast<int>(threadIdx.x % 32);
    maybe<V> carry{carried.value.value, carried.valid};
#pragma unroll
    for (int r = 0; r < Rounds; ++r) {
      maybe<V> base = carry;
      if (lane > 0) {
        const bool cut = ((s.before_head >> r) & 1u) || !base.valid;
        base = some<V>(cut ? s.before[r] : static_cast<V>(op(base.value, s.before[r])));
      }
      const unsigned heads = (s.heads >> (r * Vector)) & ((1u << Vector) - 1);
      if constexpr (Kind == scan_kind::exclusive) {
#pragma unroll
        for (int j = Vector - 1; j > 0; --j) {
          const bool cut = (heads & ((1u << j) - 1)) != 0 || !base.valid;
          s.rows[r][j] = cut ? s.rows[r][j - 1] : static_cast<V>(op(base.value, s.rows[r][j - 1]));
        }
        if (base.valid) s.rows[r][0] = base.value;
      } else {
#pragma unroll
        for (int j = 0; j < Vector; ++j)
          if ((heads & ((2u << j) - 1)) == 0 && base.valid) s.rows[r][j] = static_cast<V>(op(base.value, s.rows[r][j]));
      }
      const bool cut = ((s.round_head >> r) & 1u) || !carry.valid;
      carry = some<V>(cut ? s.round_total[r] : static_cast<V>(op(carry.value, s.round_total[r])));
    }
  }
};

}  // namespace fastscan::detail
