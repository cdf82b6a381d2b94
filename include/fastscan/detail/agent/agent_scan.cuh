#pragma once
// One thread block's work on one tile for the multi-pass drivers (reduce-then-scan,
// scan-then-propagate): loads (tile_io.cuh), the block algorithm, stores. Full tiles take a path
// without bounds checks; the partial last tile clamps its loads (see tile_io.cuh).

#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

// Where a tile's carry comes from: for tile 0 the init value (if any); for tile b > 0 the
// inclusive scan of the tile totals before it (init folded in), when the driver has it.
template <class T>
struct tile_prefixes {
  const T* scanned_totals;  // scanned_totals[b - 1] is the carry into tile b; null: tiles b > 0 have none
  maybe<T> init;

  __device__ maybe<T> for_tile(offset_t tile) const {
    if (tile == 0) return init;
    if (scanned_totals == nullptr) return none<T>();
    return some<T>(scanned_totals[tile - 1]);
  }
};

// Prefix callback handing the block a carry known before the tile is scanned.
template <class T>
struct known_prefix {
  maybe<T> prefix;
  __device__ maybe<T> operator()(T const&) const { return prefix; }
};

template <class Tuning, class AccT>
struct agent_scan {
  static constexpr int threads = Tuning::threads;
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  using block_scan = typename Tuning::block_scan;
  using temp_storage = typename block_scan::temp_storage;
  using io = tile_io<threads, items_per_thread, Tuning::vector>;

  // Scans tile `tile` of input into output (or into `intermediate` when that is given and tile > 0).
  // Returns the tile's aggregate, meaningful for full tiles only. access: how full tiles move (the host
  // checked input and output; intermediate storage is aligned).
  template <scan_kind Kind, class InputIt, class OutputIt, class Op>
  __device__ static AccT scan_tile(temp_storage& storage, InputIt input, OutputIt output, AccT* intermediate,
                                   offset_t n, offset_t tile, Op op, maybe<AccT> prefix, tile_access access) {
    const offset_t tile_base = tile * tile_items;
    const offset_t remaining = n - tile_base;
    const int valid = remaining < tile_items ? static_cast<int>(remaining) : tile_items;
    AccT items[items_per_thread];
    AccT aggregate;
    if (valid == tile_items) {
      io::load_full(input, tile_base, items, access);
      aggregate = block_scan(storage).template scan<Kind>(items, op, known_prefix<AccT>{prefix});
      if (intermediate != nullptr && tile > 0) io::store_full(raw_output(intermediate), tile_base, items, access);
      else io::store_full(output, tile_base, items, access);
    } else {
      io::template load<false>(input, tile_base, valid, items);
      aggregate = block_scan(storage).template scan<Kind>(items, op, known_prefix<AccT>{prefix});
      if (intermediate != nullptr && tile > 0) io::template store<false>(raw_output(intermediate), tile_base, valid, items);
      else io::template store<false>(output, tile_base, valid, items);
    }
    return aggregate;
  }

  // Reduces a full tile; the result is returned to every thread.
  template <class InputIt, class Op>
  __device__ static AccT reduce_tile(temp_storage& storage, InputIt input, offset_t tile, Op op, tile_access access) {
    AccT items[items_per_thread];
    io::load_full(input, tile * tile_items, items, access);
    return block_scan(storage).reduce(items, op);
  }

  // Combines tile `tile` of locally scanned values with its carry and writes the final results.
  template <scan_kind Kind, class OutputIt, class Op>
  __device__ static void propagate_tile(const AccT* local, OutputIt output, offset_t n, offset_t tile, Op op,
                                        AccT prefix) {
    const offset_t tile_base = tile * tile_items;
    const offset_t remaining = n - tile_base;
    const int valid = remaining < tile_items ? static_cast<int>(remaining) : tile_items;
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const int element = io::element(k);
      if (element < valid) {
        const offset_t i = tile_base + element;
        // An exclusive tile's first local value stands for "nothing before it in this tile".
        if (Kind == scan_kind::exclusive && element == 0) output[i] = prefix;
        else output[i] = static_cast<AccT>(op(prefix, local[i]));
      }
    }
  }
};

}  // namespace fastscan::detail
