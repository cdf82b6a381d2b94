#pragma once
// Host side of the scans by key: the algorithm's segmented strategy picks the driver. The matrix
// algorithm runs the paper's segmented block kernel, in one pass (single-pass policies) or in the
// paper's own three steps (the deterministic policy); the other algorithms run their scan driver over
// (head, value) pairs with the segmented operator. Scans by key are scans: this builds on dispatch_scan.cuh.

#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/dispatch/block_storage_plan.cuh>
#include <fastscan/detail/dispatch/dispatch_scan.cuh>
#include <fastscan/detail/dispatch/dispatch_pipelined_scan.cuh>
#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/dispatch/temp_arena.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_plan.cuh>
#include <fastscan/detail/kernels/kernel_scan.cuh>
#include <fastscan/detail/kernels/kernel_single_pass.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/tuning/tuning_scan.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <type_traits>

namespace fastscan::detail {

// The scan by key of contiguous keys and values into contiguous results with the pipelined single pass of
// `Pipelined` tuning where it takes the call on this device (dispatch_pipelined_scan.cuh); `taken` says
// whether it did.
template <class Pipelined, scan_kind Kind, class Key, class AccT, class Element, class Output, class Op>
cudaError_t dispatch_pipelined_by_key(temp_arena& arena, Element const& element, Output const& output, offset_t n, Op op,
                                      cudaStream_t stream, bool& taken) {
  const pipelined_by_key_tiles<Pipelined, Key, AccT, decltype(element.pred), Op> io{
      thrust::raw_pointer_cast(&*element.keys), thrust::raw_pointer_cast(&*element.values),
      thrust::raw_pointer_cast(&*output.output), element.pred, op, element.init};
  return dispatch_pipelined_scan<Pipelined, Kind>(arena, io, n, segmented_op<Op>{op}, none<segmented_value<AccT>>(),
                                                  stream, taken);
}

// Matrix scan by key in one pass: `element` gives element i as a (head, value) pair (by_key_element),
// `output` writes the scanned pairs (by_key_output). Keys, values and results move in chunks (tile_io.cuh)
// when all three are aligned contiguous memory and the keys' chunks have a size one access moves. The
// pipelined single pass takes the calls its tunings take: the device's memory class's first.
template <class Algorithm, scan_kind Kind, class AccT, class Element, class Output, class Op>
cudaError_t dispatch_single_pass_segmented(temp_arena& arena, Element const& element, Output const& output,
                                           offset_t n, Op op, cudaStream_t stream) {
  using tuning = typename Algorithm::template by_key_tuning<AccT>;
  using key_t = key_type_of<decltype(element.keys)>;
  if constexpr (!std::is_void_v<key_t>) {
    if constexpr (Algorithm::template has_pipelined_by_key_tuning<key_t, AccT> &&
                  is_contiguous_of<decltype(element.keys), key_t> && is_contiguous_of<decltype(element.values), AccT> &&
                  is_contiguous_of<decltype(output.output), AccT>) {
      bool taken = false;
      if constexpr (Algorithm::template has_pipelined_by_key_fast_memory_tuning<key_t, AccT>) {
        FASTSCAN_CUDA_TRY(
            (dispatch_pipelined_by_key<typename Algorithm::template pipelined_by_key_fast_memory_tuning<key_t, AccT>,
                                       Kind, key_t, AccT>(arena, element, output, n, op, stream, taken)));
        if (taken) return cudaSuccess;
      }
      FASTSCAN_CUDA_TRY((dispatch_pipelined_by_key<typename Algorithm::template pipelined_by_key_tuning<key_t, AccT>, Kind,
                                                   key_t, AccT>(arena, element, output, n, op, stream, taken)));
      if (taken) return cudaSuccess;
    }
  }
  offset_t tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, tiles));
  if (tiles == 0) return cudaSuccess;
  const unsigned grid = static_cast<unsigned>(tiles);
  // Never streaming: it
  // measured 1-4% slower for scans by key at 2^24-2^28 (bench/PERFORMANCE.md).
  const bool vectorized = vector_access_possible<key_t, tuning::vector>(element.keys) &&
                          vector_access_possible<AccT, tuning::vector>(element.values) &&
                          vector_access_possible<AccT, tuning::vector>(output.output);
  tile_access access = tile_access::elements;
  if (!arena.measuring()) {
    std::size_t footprint = static_cast<std::size_t>(n) * 2 * sizeof(AccT);  // values and results
    if constexpr (!std::is_void_v<key_t>) footprint += static_cast<std::size_t>(n) * sizeof(key_t);
    FASTSCAN_CUDA_TRY(plan_tile_access(vectorized, footprint, false, access));
  }
  const auto kernel = single_pass_segmented_scan_kernel<tuning, Kind, AccT, Element, Output, Op>;
  block_storage_launch storage;
  FASTSCAN_CUDA_TRY((plan_block_storage<typename agent_single_pass_segmented_scan<tuning, AccT>::temp_storage>(
      arena, kernel, tiles, storage)));
  return with_tile_state<segmented_value<AccT>>(arena, tiles, stream, keeps_group_statuses(tuning::strategy), [&](auto const& state) {
    return launch_kernel(kernel, grid, tuning::threads, storage.dynamic_shared_bytes, stream, element, output, n, op, state,
                         access, storage.place);
  });
}

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
  offset_t num_tiles = 0;
  FASTSCAN_CUDA_TRY(plan_tiles(n, tuning::tile_items, num_tiles));
  if (num_tiles == 0) return cudaSuccess;
  const unsigned grid = static_cast<unsigned>(num_tiles);

  using block_storage_t = typename agent_segmented_scan<tuning, AccT>::temp_storage;
  const auto tiles_kernel = segmented_scan_tiles_kernel<tuning, Kind, AccT, Element, OutputIt, Op>;
  block_storage_launch tiles_storage;
  FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, tiles_kernel, num_tiles, tiles_storage));
  pair_t* totals = num_tiles > 1 ? arena.allocate<pair_t>(static_cast<std::size_t>(num_tiles - 1)) : nullptr;
  int* first_segment_lengths = arena.allocate<int>(static_cast<std::size_t>(num_tiles));
  if (!arena.measuring()) {
    FASTSCAN_CUDA_TRY(launch_kernel(tiles_kernel, grid, threads, tiles_storage.dynamic_shared_bytes, stream, element,
                                    output, n, op, totals, first_segment_lengths, tiles_storage.place));
  }
  if (num_tiles == 1) return cudaSuccess;
  FASTSCAN_CUDA_TRY((dispatch_scan<Algorithm, scan_kind::inclusive, pair_t>(
      arena, totals, totals, num_tiles - 1, segmented_op<Op>{op}, none<pair_t>(), stream)));
  const auto fixup_kernel = segmented_fixup_kernel<tuning, Kind, AccT, Element, OutputIt, Op>;
  block_storage_launch fixup_storage;
  FASTSCAN_CUDA_TRY(plan_block_storage<block_storage_t>(arena, fixup_kernel, num_tiles - 1, fixup_storage));
  if (arena.measuring()) return cudaSuccess;
  return launch_kernel(fixup_kernel, grid - 1, threads, fixup_storage.dynamic_shared_bytes, stream, element, output, op,
                       static_cast<const pair_t*>(totals), static_cast<const int*>(first_segment_lengths),
                       fixup_storage.place);
}

// A scan by key of `n` elements on `stream` with the algorithm's segmented strategy: the dispatch both
// the Thrust overloads and device_scan call (the iterators are native ones, see backward.cuh).
template <class Algorithm, scan_kind Kind, class AccT, class KeysIt, class ValuesIt, class OutputIt, class Pred,
          class Op>
cudaError_t dispatch_scan_by_key(temp_arena& arena, KeysIt keys, ValuesIt values, OutputIt output, offset_t n,
                                 callable<Pred> const& pred, callable<Op> const& op, AccT const& init,
                                 cudaStream_t stream) {
  using element_t = by_key_element<Kind, AccT, KeysIt, ValuesIt, callable<Pred>, callable<Op>>;
  const element_t element{keys, values, pred, op, init};
  auto input = thrust::make_transform_iterator(thrust::counting_iterator<offset_t>(0), element);
  const by_key_output<Kind, AccT, OutputIt, element_t> pair_output{output, element};
  using pair_t = segmented_value<AccT>;
  using tuning = typename Algorithm::template tuning<AccT>;
  if constexpr (tuning::segmented == segmented_strategy::segmented_block_kernel && is_single_pass(tuning::strategy)) {
    return dispatch_single_pass_segmented<Algorithm, Kind, AccT>(arena, element, pair_output, n, op, stream);
  } else if constexpr (tuning::segmented == segmented_strategy::segmented_block_kernel) {
    return dispatch_segmented_scan<Algorithm, Kind, AccT>(arena, element, pair_output, n, op, stream);
  } else {
    return dispatch_scan<Algorithm, Kind, pair_t>(arena, input, pair_output, n, segmented_op<callable<Op>>{op},
                                                  none<pair_t>(), stream);
  }
}

}  // namespace fastscan::detail
