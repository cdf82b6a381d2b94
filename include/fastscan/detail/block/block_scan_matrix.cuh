#pragma once
// Matrix-based block scan: Dotsenko, Govindaraju, Sloan, Boyd, Manferdelli,
// "Fast Scan Algorithms on Graphics Processors", ICS 2008, section 4.1 and Figure 4.
//
// The tile lives in shared memory as a Rows x W matrix (W = tile / Rows), each row padded so its
// length is odd and therefore coprime with the 32 banks: thread r walking row r never collides
// with its warp neighbours. Step I reduces each row sequentially, step II scans the column of
// row totals, step III scans each row sequentially starting from its column prefix.
//
// Block code only: items arrive and leave in registers, striped in vectors of Vector elements
// (striped_element in config.cuh: how coalesced, possibly 16-byte, loads deliver them), or are staged
// in the matrix by the caller (scan_staged); the carry from earlier tiles comes from a prefix callback.

#include <fastscan/detail/block/matrix_layout.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>
#include <fastscan/detail/warp/warp_runs.cuh>
#include <fastscan/detail/warp/warp_scan.cuh>

namespace fastscan::detail {

// How step II scans the column of row totals.
enum class column_scan {
  sequential,   // one thread walks the whole column (the paper's "seq. column" ablation)
  warp_matrix,  // the column is itself a 32 x (Rows/32) matrix scanned by one warp (the paper's choice)
};

// Step II of the matrix scan: the column of row totals, itself scanned as a 32 x (Rows/32) matrix by
// one warp (or walked by one thread). Used by the unsegmented and the segmented matrix scans.
template <class T, int Rows, column_scan Column>
class matrix_column {
 public:
  static constexpr int lanes = Column == column_scan::warp_matrix ? 32 : 1;
  static constexpr int run = Rows / lanes;  // column entries per lane
  static_assert(Rows % lanes == 0, "rows must split evenly over the column's lanes");

  // Where entry e lives. A run of a power of two entries a lane puts the lanes that read their j-th
  // entries together the same distance apart in the banks; each lane's run is rotated by the lane's
  // place among the lanes sharing 128 bytes, so those lanes meet every bank once, while consecutive
  // entries (the row threads' totals and prefixes) stay within their 128 bytes. Only 16-byte entries
  // are rotated: narrower ones gain nothing measurable, and the index arithmetic costs registers in
  // kernels already at their register limit (the radix sort's).
  static constexpr int entries_in_128_bytes = 128 / 16;
  static constexpr bool rotated_runs =
      whole_word_element<T> && lanes > 1 && run > 1 && (run & (run - 1)) == 0 && entries_in_128_bytes >= run;
  __host__ __device__ static constexpr int slot(int entry) {
    if constexpr (rotated_runs) {
      const int lane = entry / run;
      return lane * run + ((entry + run_rotation(lane, run)) & (run - 1));
    } else {
      return entry;
    }
  }

  struct temp_storage {
    alignas(whole_word_element<T> ? 16 : alignof(uninitialized_array<T, Rows>))
        uninitialized_array<T, Rows> entries;  // row totals, then row prefixes
    typename warp_scan<T>::temp_storage lane_values;
    uninitialized<T> aggregate;
    bool has_block_prefix;
  };

  __device__ explicit matrix_column(temp_storage& storage) : s_(storage) {}

  __device__ void set_total(int row, T const& total) { store_shared_element(s_.entries[slot(row)], total); }
  // Valid for row > 0, and for row 0 when has_block_prefix().
  __device__ T row_prefix(int row) const { return load_shared_element(s_.entries[slot(row)]); }
  __device__ bool has_block_prefix() const { return s_.has_block_prefix; }
  __device__ T aggregate() { return s_.aggregate.get(); }

  // Run by the 32 threads of warp 0: row totals -> row prefixes, with the carry from prefix_op.
  template <class Op, class PrefixOp>
  __device__ void scan(Op op, PrefixOp& prefix_op) {
    const int lane = threadIdx.x;
    T lane_inclusive = reduce_run(op);
    warp_scan<T> lane_scan(s_.lane_values);
    if constexpr (lanes > 1) lane_inclusive = lane_scan.inclusive_scan(lane_inclusive, op);
    if (lane == lanes - 1) construct_in(s_.aggregate.get(), lane_inclusive);
    __syncwarp();

    const maybe<T> block_prefix = prefix_op(s_.aggregate.get());
    if (lane == 0) s_.has_block_prefix = block_prefix.valid;

    if (lane < lanes) {
      maybe<T> running = block_prefix;
      if constexpr (lanes > 1) {
        if (lane > 0) {
          const T before = lane_scan.lane_value(lane - 1);
          running = some<T>(running.valid ? op(running.value, before) : before);
        }
      }
      const int base = lane * run;
      for (int j = 0; j < run; ++j) {
        T& entry = s_.entries[slot(base + j)];
        const T total = load_shared_element(entry);
        if (running.valid) store_shared_element(entry, running.value);
        running = some<T>(running.valid ? op(running.value, total) : total);
      }
    }
  }

  // Run by the 32 threads of warp 0: the column's total into aggregate().
  template <class Op>
  __device__ void reduce(Op op) {
    T lane_total = reduce_run(op);
    if constexpr (lanes > 1) lane_total = warp_scan<T>(s_.lane_values).inclusive_scan(lane_total, op);
    if (threadIdx.x == lanes - 1) construct_in(s_.aggregate.get(), lane_total);
  }

 private:
  // Lanes below `lanes` reduce their run; other lanes return their first entry (never combined).
  template <class Op>
  __device__ T reduce_run(Op op) {
    const int lane = threadIdx.x < lanes ? threadIdx.x : 0;
    const int base = lane * run;
    T total = load_shared_element(s_.entries[slot(base)]);
    for (int j = 1; j < run; ++j) total = op(total, load_shared_element(s_.entries[slot(base + j)]));
    return total;
  }

  temp_storage& s_;
};

template <class T, int Threads, int ItemsPerThread, int Rows, bool PadRows, column_scan Column, int Vector = 1>
class block_scan_matrix {
 public:
  static constexpr int tile_items = Threads * ItemsPerThread;
  static constexpr int row_items = tile_items / Rows;  // W in the paper
  using layout = matrix_layout<T, Rows, row_items, PadRows>;
  using column_t = matrix_column<T, Rows, Column>;

  static_assert(Threads % 32 == 0, "threads per block must be a multiple of the warp size");
  static_assert(Rows <= Threads && Rows % 32 == 0, "rows must be a multiple of 32, at most the thread count");
  static_assert(tile_items % Rows == 0, "the tile must split into whole rows");
  static_assert(row_items <= 64, "rows are held in registers: keep W = tile / rows at most 64");
  static_assert(ItemsPerThread % Vector == 0, "a thread's items must be whole vectors");

  struct temp_storage {
    typename layout::storage matrix;
    typename column_t::temp_storage column;
  };

  __device__ explicit block_scan_matrix(temp_storage& storage) : s_(storage) {}

  // Scans the tile in place. prefix_op(aggregate) is called by every lane of warp 0 and returns the
  // maybe<T> carry from earlier tiles (lane 0's answer is used). Returns the tile's aggregate
  // (without the carry). With Kind == exclusive and no carry, the first element is unspecified.
  template <scan_kind Kind, class Op, class PrefixOp>
  __device__ T scan(T (&items)[ItemsPerThread], Op op, PrefixOp&& prefix_op) {
    layout::template store_striped<Threads, Vector>(s_.matrix, items);
    __syncthreads();
    const T aggregate = scan_staged<Kind>(op, prefix_op);
    layout::template load_striped<Threads, Vector>(s_.matrix, items);
    return aggregate;
  }

  // A tile staged in the matrix by the caller instead of passed in registers: tile element e lives at
  // staged_element(e), and with vector rows the tile's 16-byte vector c (elements c * vector ..) at
  // staged_vector(c), 16-byte aligned. The caller fills them, then __syncthreads, then scan_staged scans
  // the tile in place and returns its aggregate; the results are read from the same places (after
  // scan_staged returns: it ends with __syncthreads). The tile never occupies registers, so a block
  // holds only the row being worked on.
  static constexpr bool stages_vectors = layout::vector_rows;
  __device__ T* staged_element(int e) { return &s_.matrix.slots[layout::index(e)]; }
  __device__ T* staged_vector(int chunk) { return layout::vector_at(s_.matrix, chunk); }

  template <scan_kind Kind, class Op, class PrefixOp>
  __device__ T scan_staged(Op op, PrefixOp&& prefix_op) {
    column_t column(s_.column);
    reduce_rows(op, column);

    // Step II: column of row totals -> row prefixes (plus the carry from earlier tiles, which may wait
    // on a look-back: the rows stay in shared memory meanwhile, so their registers are free for it).
    if (threadIdx.x < 32) column.scan(op, prefix_op);
    __syncthreads();

    // Step III: each row scanned sequentially from its prefix.
    if (threadIdx.x < Rows) {
      T row[row_items];
      layout::load_row(s_.matrix, threadIdx.x, row);
      const bool has_prefix = threadIdx.x > 0 || column.has_block_prefix();
      scan_row<Kind>(row, op, has_prefix, column.row_prefix(threadIdx.x));
      layout::store_row(s_.matrix, threadIdx.x, row);
    }
    __syncthreads();
    return column.aggregate();
  }

  // Reduces the tile: steps I and II without the scan-back. The result is returned to every thread.
  template <class Op>
  __device__ T reduce(T (&items)[ItemsPerThread], Op op) {
    column_t column(s_.column);
    layout::template store_striped<Threads, Vector>(s_.matrix, items);
    __syncthreads();
    reduce_rows(op, column);
    if (threadIdx.x < 32) column.reduce(op);
    __syncthreads();
    return column.aggregate();
  }

 private:
  // Step I: each row of the matrix reduced sequentially by its thread into the column.
  template <class Op>
  __device__ void reduce_rows(Op op, column_t& column) {
    if (threadIdx.x < Rows) {
      T row[row_items];
      layout::load_row(s_.matrix, threadIdx.x, row);
      column.set_total(threadIdx.x, reduce_row(row, op));
    }
    __syncthreads();
  }

  template <class Op>
  __device__ static T reduce_row(T (&row)[row_items], Op op) {
    T total = row[0];
#pragma unroll
    for (int i = 1; i < row_items; ++i) total = op(total, row[i]);
    return total;
  }

  // The row's scan, in place in registers.
  template <scan_kind Kind, class Op>
  __device__ static void scan_row(T (&row)[row_items], Op op, bool has_prefix, T const& prefix) {
    const T first = row[0];
    T running = has_prefix ? static_cast<T>(op(prefix, first)) : first;
    if constexpr (Kind == scan_kind::exclusive) {
      // Results shift by one: each element takes the running value before it.
#pragma unroll
      for (int i = 1; i < row_items; ++i) {
        const T next = op(running, row[i]);
        row[i] = running;
        running = next;
      }
      row[0] = has_prefix ? prefix : first;  // without a carry: unspecified (see scan)
    } else {
      row[0] = running;
#pragma unroll
      for (int i = 1; i < row_items; ++i) {
        running = op(running, row[i]);
        row[i] = running;
      }
    }
  }

  temp_storage& s_;
};

}  // namespace fastscan::detail
