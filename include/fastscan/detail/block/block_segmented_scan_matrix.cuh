#pragma once
// Segmented matrix scan: Dotsenko et al., ICS 2008, section 4.2 and Figure 5.
//
// The tile's values sit in the padded H x W matrix as in the unsegmented scan; its head flags are
// packed into one word per row (W <= 32): each thread drops its flags into a byte per element, and
// each row's thread gathers its row's bytes into a bit mask. Step I scans each row
// sequentially, restarting at every head, and records the row's carry-out (its last segment's value)
// and row flag (any head in the row). Step II segmented-scans that column of (flag, value) pairs.
// Step III carries each row's prefix across the row's first segment only: the elements after the
// row's first head are already final. The tile's first head position is kept (s_b of section 4.2.2).

#include <fastscan/detail/block/block_scan_matrix.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class T, int Threads, int ItemsPerThread, int Rows, bool PadRows, column_scan Column, int Vector = 1>
class block_segmented_scan_matrix {
 public:
  static constexpr int tile_items = Threads * ItemsPerThread;
  static constexpr int row_items = tile_items / Rows;
  using layout = matrix_layout<T, Rows, row_items, PadRows>;
  using pair_t = segmented_value<T>;
  using column_t = matrix_column<pair_t, Rows, Column>;

  static_assert(Rows == Threads, "each thread owns one row");
  static_assert(row_items <= 32 && ItemsPerThread <= 32, "head flags are packed into 32-bit words");

  struct temp_storage {
    typename layout::storage matrix;
    bool heads[tile_items];
    typename column_t::temp_storage column;
    int first_head;  // tile position of the first head; tile_items when there is none
  };

  __device__ explicit block_segmented_scan_matrix(temp_storage& storage) : s_(storage) {}

  // Scans the striped tile in place, restarting at heads (bit k of `heads`: item k starts a segment). prefix_op(aggregate pair) gives the carry
  // as maybe<pair_t>. Returns (any head in the tile, value of the tile's last segment). With
  // Kind == exclusive, values at heads (and at the tile's first element without a carry) are
  // unspecified: the caller writes the init there.
  template <scan_kind Kind, class Op, class PrefixOp>
  __device__ pair_t scan(T (&values)[ItemsPerThread], unsigned heads, Op op, PrefixOp&& prefix_op) {
    if (threadIdx.x == 0) s_.first_head = tile_items;
    layout::template store_striped<Threads, Vector>(s_.matrix, values);
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) s_.heads[striped_element<Threads, Vector>(k, threadIdx.x)] = (heads >> k) & 1u;
    __syncthreads();

    // Step I: each row scanned sequentially, restarting at its heads.
    column_t column(s_.column);
    unsigned flags = 0;
#pragma unroll
    for (int i = 0; i < row_items; ++i) flags |= static_cast<unsigned>(s_.heads[threadIdx.x * row_items + i]) << i;
    {
      T row[row_items];
      layout::load_row(s_.matrix, threadIdx.x, row);
#pragma unroll
      for (int i = 1; i < row_items; ++i)
        if (!((flags >> i) & 1u)) row[i] = op(row[i - 1], row[i]);
      // Back to shared memory until step III, so the registers are free for a look-back in step II.
      layout::store_row(s_.matrix, threadIdx.x, row);
      column.set_total(threadIdx.x, pair_t{row[row_items - 1], flags != 0});
    }
    if (flags != 0) atomicMin(&s_.first_head, threadIdx.x * row_items + __ffs(flags) - 1);
    __syncthreads();

    // Step II: segmented scan of the column of (row flag, carry-out) pairs.
    const segmented_op<Op> pair_op{op};
    if (threadIdx.x < 32) column.scan(pair_op, prefix_op);
    __syncthreads();

    // Step III: the row's prefix propagates only until the row's first head.
    T row[row_items];
    layout::load_row(s_.matrix, threadIdx.x, row);
    const bool has_prefix = threadIdx.x > 0 || column.has_block_prefix();
    const T carry = column.row_prefix(threadIdx.x).value;
    bool in_first_segment = has_prefix;
    T previous = carry;  // the inclusive result just before element i (exclusive output)
    bool has_previous = has_prefix;
#pragma unroll
    for (int i = 0; i < row_items; ++i) {
      if ((flags >> i) & 1u) in_first_segment = false;
      const T inclusive = in_first_segment ? static_cast<T>(op(carry, row[i])) : row[i];
      if constexpr (Kind == scan_kind::inclusive) row[i] = inclusive;
      else row[i] = has_previous ? previous : inclusive;
      previous = inclusive;
      has_previous = true;
    }
    layout::store_row(s_.matrix, threadIdx.x, row);
    __syncthreads();

    layout::template load_striped<Threads, Vector>(s_.matrix, values);
    return column.aggregate();
  }

  // Position of the tile's first head (tile_items if none); valid after scan().
  __device__ int first_head() const { return s_.first_head; }

 private:
  temp_storage& s_;
};

}  // namespace fastscan::detail
