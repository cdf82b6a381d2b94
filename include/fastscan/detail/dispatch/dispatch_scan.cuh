#pragma once
// Host-side entry of every scan: the algorithm's tuning picks the multi-block driver. The single-pass
// driver is in dispatch_single_pass.cuh; the two multi-pass drivers (the deterministic flavours) are
// here. Both are recursive: the per-tile totals are themselves scanned (inclusively, with the init
// folded in) by the same algorithm until they fit in one tile. Temporary storage is planned in a first
// pass that only measures (temp_arena.cuh), so the caller allocates once from the policy's allocator.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/dispatch_single_pass.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/kernels/kernel_scan.cuh>
#include <fastscan/detail/tuning/tuning_scan.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <cstddef>
#include <type_traits>

namespace fastscan::detail {

// The output itself can hold the local scans of scan-then-propagate when it is contiguous memory of
// the accumulator type; otherwise (fancy or narrower outputs) they go to a temporary buffer.
template <class AccT, class OutputIt>
AccT* output_as_accumulator_storage(OutputIt output) {
  if constexpr (std::is_pointer_v<OutputIt> || thrust::is_contiguous_iterator_v<OutputIt>) {
    if constexpr (std::is_same_v<thrust::detail::it_value_t<OutputIt>, AccT>) return thrust::raw_pointer_cast(&*output);
    else return nullptr;
  } else {
    return nullptr;
  }
}

template <class Algorithm, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_multi_pass(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op,
                                maybe<AccT> init, cudaStream_t stream);

// Scans n elements of input into output. In measuring mode it launches nothing.
template <class Algorithm, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_scan(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op, maybe<AccT> init,
                          cudaStream_t stream) {
  if constexpr (is_single_pass(Algorithm::template tuning<AccT>::strategy)) {
    return dispatch_single_pass<Algorithm, Kind, AccT>(arena, input, output, n, op, init, stream);
  } else {
    return dispatch_multi_pass<Algorithm, Kind, AccT>(arena, input, output, n, op, init, stream);
  }
}

template <class Algorithm, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
cudaError_t dispatch_multi_pass(temp_arena& arena, InputIt input, OutputIt output, offset_t n, Op op,
                                maybe<AccT> init, cudaStream_t stream) {
  using tuning = typename Algorithm::template tuning<AccT>;
  using block_storage_t = typename agent_scan<tuning, AccT>::temp_storage;
  constexpr int threads = tuning::threads;
  offset_t num_tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, num_tiles));
  if (num_tiles == 0) return cudaSuccess;
  const unsigned grid = static_cast<unsigned>(num_tiles);
  // 16-byte vectors for full tiles where input and output allow them (tile_io.cuh); plain ones, since
  // each pass leaves in L2 what the next reads first (scan_tiles_kernel), and streaming ones measured
  // 1-2% slower in the scan pass of reduce-then-scan (bench/PERFORMANCE.md).
  const bool input_vectors = vector_access_possible<AccT, tuning::vector>(input);
  const bool vectorized = input_vectors && vector_access_possible<AccT, tuning::vector>(output);
  const tile_access reduce_access = plain_tile_access(input_vectors);
  const tile_access scan_access = plain_tile_access(vectorized);
  const auto scan_kernel = scan_tiles_kernel<tuning, Kind, AccT, InputIt, OutputIt, Op>;
  block_storage_launch scan_storage;
  FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, scan_kernel, num_tiles, scan_storage));

  if (num_tiles == 1) {
    if (arena.measuring()) return cudaSuccess;
    return launch_kernel(scan_kernel, 1, threads, scan_storage.dynamic_shared_bytes, stream, input, output,
                         static_cast<AccT*>(nullptr), n, op, tile_prefixes<AccT>{nullptr, init},
                         static_cast<AccT*>(nullptr), scan_access, scan_storage.place);
  }

  // Totals of every tile but the last, scanned in place by the recursion below.
  AccT* totals = arena.allocate<AccT>(static_cast<std::size_t>(num_tiles - 1));
  const tile_prefixes<AccT> prefixes{totals, init};

  if constexpr (tuning::strategy == multi_block::reduce_then_scan) {
    const auto reduce_kernel = reduce_tiles_kernel<tuning, AccT, InputIt, Op>;
    block_storage_launch reduce_storage;
    FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, reduce_kernel, num_tiles - 1, reduce_storage));
    if (!arena.measuring()) {
      FASTSCAN_CUDA_TRY(launch_kernel(reduce_kernel, grid - 1, threads, reduce_storage.dynamic_shared_bytes, stream, input,
                                      totals, op, reduce_access, reduce_storage.place));
    }
    FASTSCAN_CUDA_TRY((dispatch_scan<Algorithm, scan_kind::inclusive, AccT>(arena, totals, totals, num_tiles - 1, op,
                                                                            init, stream)));
    if (arena.measuring()) return cudaSuccess;
    return launch_kernel(scan_kernel, grid, threads, scan_storage.dynamic_shared_bytes, stream, input, output,
                         static_cast<AccT*>(nullptr), n, op, prefixes, static_cast<AccT*>(nullptr), scan_access,
                         scan_storage.place);
  } else {
    AccT* local = output_as_accumulator_storage<AccT>(output);
    if (local == nullptr) local = arena.allocate<AccT>(static_cast<std::size_t>(n));
    if (!arena.measuring()) {
      FASTSCAN_CUDA_TRY(launch_kernel(scan_kernel, grid, threads, scan_storage.dynamic_shared_bytes, stream, input, output,
                                      local, n, op, tile_prefixes<AccT>{nullptr, init}, totals, scan_access,
                                      scan_storage.place));
    }
    FASTSCAN_CUDA_TRY((dispatch_scan<Algorithm, scan_kind::inclusive, AccT>(arena, totals, totals, num_tiles - 1, op,
                                                                            init, stream)));
    if (arena.measuring()) return cudaSuccess;
    return launch_kernel(propagate_kernel<tuning, Kind, AccT, OutputIt, Op>, grid - 1, threads, 0, stream,
                         static_cast<const AccT*>(local), output, n, op, prefixes);
  }
}

}  // namespace fastscan::detail
