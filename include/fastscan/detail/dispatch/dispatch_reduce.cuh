#pragma once
// An ordered reduction (any associative operator, commutative or not) of n elements into one value in
// device memory: the full tiles reduced in parallel by the reduce-then-scan driver's reduce pass
// (reduce_tiles_kernel), then their totals reduced the same way, and the partial last tile scanned into
// a sink that keeps its last value. It reads the input once and writes nothing back: a shard's total
// for the distributed scan at read bandwidth, where a scan into a sink runs at a scan's. Block scans
// without a reduction (the tree scans) scan the whole range into the sink. The order of combination
// is fixed by n and the tile, so a deterministic policy's result repeats bit for bit.

#include <fastscan/detail/dispatch/dispatch_scan.cuh>
#include <fastscan/detail/last_value_sink.cuh>

#include <type_traits>
#include <utility>

namespace fastscan::detail {

// Whether a block scan reduces a thread's items without scanning them (the matrix scan does).
template <class BlockScan, class T, int Items, class Op, class = void>
struct has_block_reduce : std::false_type {};
template <class BlockScan, class T, int Items, class Op>
struct has_block_reduce<BlockScan, T, Items, Op,
                        std::void_t<decltype(std::declval<BlockScan&>().reduce(std::declval<T (&)[Items]>(), std::declval<Op>()))>>
    : std::true_type {};

template <class AccT, class Op>
__global__ void combine_into_kernel(AccT* into, AccT const* last, Op op) {
  follow_previous_grid();
  *into = static_cast<AccT>(op(*into, *last));
}

// *result = the reduction of input[0, n) in order, by a scan into a sink keeping its last value.
template <class Algorithm, class AccT, class InputIt, class Op>
cudaError_t dispatch_reduce_by_scan(temp_arena& arena, InputIt input, offset_t n, Op op, AccT* result,
                                    cudaStream_t stream) {
  return dispatch_scan<Algorithm, scan_kind::inclusive, AccT>(arena, input, last_value_sink<AccT>(result, n - 1), n, op,
                                                              none<AccT>(), stream);
}

// *result = the reduction of input[0, n) in order (n > 0). In measuring mode it launches nothing.
template <class Algorithm, class AccT, class InputIt, class Op>
cudaError_t dispatch_ordered_reduce(temp_arena& arena, InputIt input, offset_t n, Op op, AccT* result,
                                    cudaStream_t stream) {
  using tuning = typename Algorithm::template tuning<AccT>;
  const offset_t full_tiles = n / tuning::tile_items;
  if constexpr (!has_block_reduce<typename tuning::block_scan, AccT, tuning::items_per_thread, Op>::value) {
    return dispatch_reduce_by_scan<Algorithm>(arena, input, n, op, result, stream);
  } else {
    if (full_tiles < 2) return dispatch_reduce_by_scan<Algorithm>(arena, input, n, op, result, stream);
    offset_t num_tiles = 0;  // the grid's limit
    FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, num_tiles));
    AccT* totals = arena.allocate<AccT>(static_cast<std::size_t>(full_tiles));
    const offset_t tail = n - full_tiles * tuning::tile_items;
    AccT* tail_total = tail > 0 ? arena.allocate<AccT>(1) : nullptr;
    const auto reduce_kernel = reduce_tiles_kernel<tuning, AccT, InputIt, Op>;
    block_storage_launch reduce_storage;
    FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_scan<tuning, AccT>::temp_storage>(arena, reduce_kernel, full_tiles,
                                                                                           reduce_storage)));
    if (!arena.measuring()) {
      FASTSCAN_CUDA_TRY(launch_kernel(reduce_kernel, static_cast<unsigned>(full_tiles), tuning::threads,
                                      reduce_storage.dynamic_shared_bytes, stream, input, totals, op,
                                      plain_tile_access(vector_access_possible<AccT, tuning::vector>(input)),
                                      reduce_storage.place));
    }
    FASTSCAN_CUDA_TRY((dispatch_ordered_reduce<Algorithm, AccT>(arena, static_cast<AccT const*>(totals), full_tiles, op,
                                                                result, stream)));
    if (tail == 0) return cudaSuccess;
    FASTSCAN_CUDA_TRY((dispatch_reduce_by_scan<Algorithm>(arena, input + full_tiles * tuning::tile_items, tail, op,
                                                          tail_total, stream)));
    if (arena.measuring()) return cudaSuccess;
    return launch_kernel(combine_into_kernel<AccT, Op>, 1, 1, 0, stream, result, static_cast<AccT const*>(tail_total), op);
  }
}

}  // namespace fastscan::detail
