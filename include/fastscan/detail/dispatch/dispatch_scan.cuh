#pragma once
// Host-side entry of every scan: the algorithm's tuning picks the multi-block driver. The single-pass
// driver is in dispatch_single_pass.cuh; the two multi-pass drivers (the deterministic flavours) are
// here. Both are recursive: the per-tile totals are themselves scanned (inclusively, with the init
// folded in) by the same algorithm until they fit in one tile. Temporary storage is planned in a first
// pass that only measures (temp_arena.cuh), so the caller allocates once from the policy's allocator.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/dispatch_single_pass.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/kernels/kernel_scan.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/tuning.cuh>

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
  if constexpr (Algorithm::template tuning<AccT>::strategy == multi_block::single_pass) {
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
  const offset_t num_tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (num_tiles == 0) return cudaSuccess;
  if (num_tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;  // beyond the grid's x dimension
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
    scan_kernel<<<1, threads, scan_storage.dynamic_shared_bytes, stream>>>(
        input, output, static_cast<AccT*>(nullptr), n, op, tile_prefixes<AccT>{nullptr, init},
        static_cast<AccT*>(nullptr), scan_access, scan_storage.place);
    return cudaGetLastError();
  }

  // Totals of every tile but the last, scanned in place by the recursion below.
  AccT* totals = arena.allocate<AccT>(static_cast<std::size_t>(num_tiles - 1));
  const tile_prefixes<AccT> prefixes{totals, init};

  if constexpr (tuning::strategy == multi_block::reduce_then_scan) {
    const auto reduce_kernel = reduce_tiles_kernel<tuning, AccT, InputIt, Op>;
    block_storage_launch reduce_storage;
    FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, reduce_kernel, num_tiles - 1, reduce_storage));
    if (!arena.measuring()) {
      reduce_kernel<<<grid - 1, threads, reduce_storage.dynamic_shared_bytes, stream>>>(input, totals, op, reduce_access,
                                                                                       reduce_storage.place);
      FASTSCAN_CUDA_TRY(cudaGetLastError());
    }
    FASTSCAN_CUDA_TRY((dispatch_scan<Algorithm, scan_kind::inclusive, AccT>(arena, totals, totals, num_tiles - 1, op,
                                                                            init, stream)));
    if (arena.measuring()) return cudaSuccess;
    scan_kernel<<<grid, threads, scan_storage.dynamic_shared_bytes, stream>>>(
        input, output, static_cast<AccT*>(nullptr), n, op, prefixes, static_cast<AccT*>(nullptr), scan_access,
        scan_storage.place);
    return cudaGetLastError();
  } else {
    AccT* local = output_as_accumulator_storage<AccT>(output);
    if (local == nullptr) local = arena.allocate<AccT>(static_cast<std::size_t>(n));
    if (!arena.measuring()) {
      scan_kernel<<<grid, threads, scan_storage.dynamic_shared_bytes, stream>>>(
          input, output, local, n, op, tile_prefixes<AccT>{nullptr, init}, totals, scan_access, scan_storage.place);
      FASTSCAN_CUDA_TRY(cudaGetLastError());
    }
    FASTSCAN_CUDA_TRY((dispatch_scan<Algorithm, scan_kind::inclusive, AccT>(arena, totals, totals, num_tiles - 1, op,
                                                                            init, stream)));
    if (arena.measuring()) return cudaSuccess;
    propagate_kernel<tuning, Kind, AccT><<<grid - 1, threads, 0, stream>>>(static_cast<const AccT*>(local), output, n,
                                                                           op, prefixes);
    return cudaGetLastError();
  }
}

}  // namespace fastscan::detail

namespace fastscan::detail {

// Matrix scan by key (paper section 4.2.2): one segmented pass over the tiles recording (r_b, f_b, s_b),
// the tile records scanned recursively with the segmented operator, then each tile's first s_b
// elements re-scanned from their carry. `element` gives element i as a (head, value) pair
// (by_key_element), `output` writes the scanned ones (by_key_output).
template <class Algorithm, scan_kind Kind, class AccT, class Element, class OutputIt, class Op>
cudaError_t dispatch_segmented_scan(temp_arena& arena, Element const& element, OutputIt output, offset_t n, Op op,
                                    cudaStream_t stream) {
  using tuning = typename Algorithm::template tuning<AccT>;
  using pair_t = segmented_value<AccT>;
  constexpr int threads = tuning::threads;
  const offset_t num_tiles = (n + tuning::tile_items - 1) / tuning::tile_items;
  if (num_tiles == 0) return cudaSuccess;
  if (num_tiles > offset_t{0x7fffffff}) return cudaErrorInvalidValue;
  const unsigned grid = static_cast<unsigned>(num_tiles);

  using block_storage_t = typename agent_segmented_scan<tuning, AccT>::temp_storage;
  const auto tiles_kernel = segmented_scan_tiles_kernel<tuning, Kind, AccT, Element, OutputIt, Op>;
  block_storage_launch tiles_storage;
  FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, tiles_kernel, num_tiles, tiles_storage));
  pair_t* totals = num_tiles > 1 ? arena.allocate<pair_t>(static_cast<std::size_t>(num_tiles - 1)) : nullptr;
  int* first_segment_lengths = arena.allocate<int>(static_cast<std::size_t>(num_tiles));
  if (!arena.measuring()) {
    tiles_kernel<<<grid, threads, tiles_storage.dynamic_shared_bytes, stream>>>(element, output, n, op, totals,
                                                                                first_segment_lengths,
                                                                                tiles_storage.place);
    FASTSCAN_CUDA_TRY(cudaGetLastError());
  }
  if (num_tiles == 1) return cudaSuccess;
  FASTSCAN_CUDA_TRY((dispatch_scan<Algorithm, scan_kind::inclusive, pair_t>(
      arena, totals, totals, num_tiles - 1, segmented_op<Op>{op}, none<pair_t>(), stream)));
  const auto fixup_kernel = segmented_fixup_kernel<tuning, Kind, AccT, Element, OutputIt, Op>;
  block_storage_launch fixup_storage;
  FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, fixup_kernel, num_tiles - 1, fixup_storage));
  if (arena.measuring()) return cudaSuccess;
  fixup_kernel<<<grid - 1, threads, fixup_storage.dynamic_shared_bytes, stream>>>(
      element, output, op, static_cast<const pair_t*>(totals), static_cast<const int*>(first_segment_lengths),
      fixup_storage.place);
  return cudaGetLastError();
}

}  // namespace fastscan::detail
