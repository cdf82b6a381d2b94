#pragma once
// The matrix scan (Dotsenko et al. 2008) of one warp's segment with rows of one vector: the segment is
// Rounds x 32 rows of Vector consecutive elements in shared memory, row l of round r holding elements
// (32 r + l) Vector ... (32 r + l + 1) Vector - 1. Step I folds each row in a lane, step II scans the
// column of a round's 32 row totals by shuffles (Hillis-Steele), step III scans each row from its
// column prefix. Reads are whole rows of 16 bytes, a round's rows contiguous: no bank conflicts.
//
// Warp code only: the segment is in shared memory, read through a row source (below: vector_rows_source;
// warp_by_key_rows.cuh makes rows of (head, value) pairs from keys and values), the carry comes from the
// caller. The scan comes in two halves so that the caller can free the shared memory before the carry is
// known: scan_local reads the rows into registers and does everything that needs no carry, finish
// applies the carry. op need not be commutative: everything folds in element order. Partial segments
// hold only their first `valid` elements (a tile's last segment); the others have every element.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

namespace fastscan::detail {

// a op b where both exist, else whichever exists.
template <class T, class Op>
__device__ __forceinline__ maybe<T> combine_maybe(maybe<T> const& a, maybe<T> const& b, Op const& op) {
  if (!a.valid) return b;
  if (!b.valid) return a;
  return some<T>(static_cast<T>(op(a.value, b.value)));
}

// A segment of T in shared memory as rows of one 16-byte vector: row l of round r is vector 32 r + l.
// A Reversed segment lies in memory backwards (a backward scan's): `segment` points one past its first
// element, element i is segment[-1 - i], and a row is a vector read whole and taken from its end.
template <class T, int Vector, bool Reversed = false>
struct vector_rows_source {
  static_assert(Vector * sizeof(T) == 16, "rows are 16-byte vectors");
  T const* segment;

  __device__ __forceinline__ void load_row(int r, int lane, T (&row)[Vector]) {
    static_assert(sizeof(row) == sizeof(uint4));
    if constexpr (!Reversed) {
      const uint4 bits = reinterpret_cast<const uint4*>(segment)[r * 32 + lane];
      memcpy(row, &bits, sizeof(bits));
    } else {
      const uint4 bits = reinterpret_cast<const uint4*>(segment)[-(r * 32 + lane) - 1];
      T reversed[Vector];
      memcpy(reversed, &bits, sizeof(bits));
#pragma unroll
      for (int j = 0; j < Vector; ++j) row[j] = reversed[Vector - 1 - j];
    }
  }
};

// Source: load_row(r, lane, T (&row)[Vector]) gives lane's row of round r; scan_local calls it once a
// round in round order (a source may note what it read, as the by-key one notes the heads).
template <class T, int Vector, int Rounds>
struct warp_vector_rows {
  static constexpr int items = Rounds * 32 * Vector;

  struct local_scan {
    T rows[Rounds][Vector];       // each row scanned inclusively within itself
    maybe<T> before[Rounds];      // the fold of the round's rows before this lane's (none in lane 0)
    maybe<T> round_total[Rounds]; // the fold of the round's rows, in every lane
  };

  // The fold of the segment's (valid) elements, in lane 0; none where no element is valid. A full
  // segment's rounds fold plain values (no validity to carry through the shuffles), each round's tree
  // independent of the others' so that they overlap.
  template <bool Partial, class Source, class Op>
  __device__ __forceinline__ static maybe<T> reduce(Source& source, int valid, Op const& op) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    if constexpr (!Partial) {
      T round_totals[Rounds];
#pragma unroll
      for (int r = 0; r < Rounds; ++r) {
        T row[Vector];
        source.load_row(r, lane, row);
        T x = row[0];
#pragma unroll
        for (int j = 1; j < Vector; ++j) x = static_cast<T>(op(x, row[j]));
        round_totals[r] = x;
      }
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
#pragma unroll
        for (int r = 0; r < Rounds; ++r) {
          const T right = shuffle_any<shuffle_from::higher_lane>(round_totals[r], d);
          if ((lane & (2 * d - 1)) == 0) round_totals[r] = static_cast<T>(op(round_totals[r], right));
        }
      }
      T total = round_totals[0];
#pragma unroll
      for (int r = 1; r < Rounds; ++r) total = static_cast<T>(op(total, round_totals[r]));
      return some<T>(total);
    } else {
      maybe<T> total = none<T>();
#pragma unroll
      for (int r = 0; r < Rounds; ++r) {
        T row[Vector];
        source.load_row(r, lane, row);
        const int first = (r * 32 + lane) * Vector;
        maybe<T> x = none<T>();
        if (first < valid) {
          x = some<T>(row[0]);
#pragma unroll
          for (int j = 1; j < Vector; ++j)
            if (first + j < valid) x.value = static_cast<T>(op(x.value, row[j]));
        }
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const maybe<T> right = shuffle_any<shuffle_from::higher_lane>(x, d);
          if ((lane & (2 * d - 1)) == 0) x = combine_maybe(x, right, op);
        }
        total = combine_maybe(total, x, op);
      }
      return total;
    }
  }

  // Step I and II for every round: rows into registers, scanned within; the column's prefixes.
  template <bool Partial, class Source, class Op>
  __device__ __forceinline__ static void scan_local(Source& source, int valid, Op const& op, local_scan& s) {
    const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
    for (int r = 0; r < Rounds; ++r) {
      source.load_row(r, lane, s.rows[r]);
#pragma unroll
      for (int j = 1; j < Vector; ++j) s.rows[r][j] = static_cast<T>(op(s.rows[r][j - 1], s.rows[r][j]));
    }
    if constexpr (!Partial) {
      // Every row is whole: the column scans plain values, the rounds' scans independent.
      T column[Rounds];
#pragma unroll
      for (int r = 0; r < Rounds; ++r) column[r] = s.rows[r][Vector - 1];
#pragma unroll
      for (int d = 1; d < 32; d *= 2) {
#pragma unroll
        for (int r = 0; r < Rounds; ++r) {
          const T left = shuffle_any<shuffle_from::lower_lane>(column[r], d);
          if (lane >= d) column[r] = static_cast<T>(op(left, column[r]));
        }
      }
#pragma unroll
      for (int r = 0; r < Rounds; ++r) {
        s.before[r] = maybe<T>{shuffle_any<shuffle_from::lower_lane>(column[r], 1), lane != 0};
        s.round_total[r] = some<T>(shuffle_any<shuffle_from::lane>(column[r], 31));
      }
    } else {
#pragma unroll
      for (int r = 0; r < Rounds; ++r) {
        const int first = (r * 32 + lane) * Vector;
        maybe<T> x = none<T>();
        if (first < valid) {
          x = some<T>(s.rows[r][Vector - 1]);
#pragma unroll
          for (int j = 0; j < Vector - 1; ++j)  // the row's last valid element (a constant index: registers)
            if (first + j + 1 == valid) x.value = s.rows[r][j];
        }
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
          const maybe<T> left = shuffle_any<shuffle_from::lower_lane>(x, d);
          if (lane >= d) x = combine_maybe(left, x, op);
        }
        const maybe<T> before = shuffle_any<shuffle_from::lower_lane>(x, 1);
        s.before[r] = lane == 0 ? none<T>() : before;
        s.round_total[r] = shuffle_any<shuffle_from::lane>(x, 31);
      }
    }
  }

  // Step III: each row from its prefix (the carry, the earlier rounds, the earlier rows of its round).
  // Rows become the scan's results of the given kind; an exclusive result with nothing before it keeps
  // whatever it held (the caller gives exclusive scans a carry).
  template <scan_kind Kind, class Op>
  __device__ __forceinline__ static void finish(local_scan& s, maybe<T> carry, Op const& op) {
#pragma unroll
    for (int r = 0; r < Rounds; ++r) {
      const maybe<T> base = combine_maybe(carry, s.before[r], op);
      if constexpr (Kind == scan_kind::exclusive) {
#pragma unroll
        for (int j = Vector - 1; j > 0; --j)
          s.rows[r][j] = base.valid ? static_cast<T>(op(base.value, s.rows[r][j - 1])) : s.rows[r][j - 1];
        if (base.valid) s.rows[r][0] = base.value;
      } else {
        if (base.valid) {
#pragma unroll
          for (int j = 0; j < Vector; ++j) s.rows[r][j] = static_cast<T>(op(base.value, s.rows[r][j]));
        }
      }
      carry = combine_maybe(carry, s.round_total[r], op);
    }
  }
};

}  // namespace fastscan::detail
