#pragma once
// __global__ glue only: one tile per thread block, the work itself is in agent_scan.

#include <fastscan/detail/agent/agent_scan.cuh>
#include <fastscan/detail/kernels/block_storage.cuh>
#include <fastscan/detail/kernels/grid_dependency.cuh>

namespace fastscan::detail {

// Reduce-then-scan, phase 1: tile_totals[b] = reduction of full tile b.
template <class Tuning, class AccT, class InputIt, class Op>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    reduce_tiles_kernel(InputIt input, AccT* tile_totals, Op op, tile_access access, block_storage_place place) {
  follow_previous_grid();
  using agent = agent_scan<Tuning, AccT>;
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  const AccT total = agent::reduce_tile(storage, input, blockIdx.x, op, access);
  if (threadIdx.x == 0) construct_in(tile_totals[blockIdx.x], total);
}

// Scans each tile from its carry (when known). With tile_totals, also records each tile's total;
// with intermediate, tiles after the first are written there instead of to output.
// Blocks take the tiles from the last to the first: the reduce pass before this one takes them from
// the first to the last, so the tiles it read last, the ones still in L2, are read again first (and
// the propagate pass after a scan-then-propagate one finds the first tiles in L2 the same way).
template <class Tuning, scan_kind Kind, class AccT, class InputIt, class OutputIt, class Op>
__global__ void __launch_bounds__(Tuning::threads, Tuning::min_blocks_per_sm)
    scan_tiles_kernel(InputIt input, OutputIt output, AccT* intermediate, offset_t n, Op op,
                      tile_prefixes<AccT> prefixes, AccT* tile_totals, tile_access access,
                      block_storage_place place) {
  follow_previous_grid();
  using agent = agent_scan<Tuning, AccT>;
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  const offset_t tile = static_cast<offset_t>(gridDim.x) - 1 - blockIdx.x;
  const AccT total = agent::template scan_tile<Kind>(storage, input, output, intermediate, n, tile, op,
                                                     prefixes.for_tile(tile), access);
  // The last tile's total is never needed (nothing follows it), and it may be a partial tile.
  if (tile_totals != nullptr && threadIdx.x == 0 && tile + 1 < gridDim.x) construct_in(tile_totals[tile], total);
}

// Scan-then-propagate, phase 3: tile b + 1 of the local scans combined with its carry.
template <class Tuning, scan_kind Kind, class AccT, class OutputIt, class Op>
__global__ void __launch_bounds__(Tuning::threads)
    propagate_kernel(const AccT* local, OutputIt output, offset_t n, Op op, tile_prefixes<AccT> prefixes) {
  follow_previous_grid();
  using agent = agent_scan<Tuning, AccT>;
  const offset_t tile = static_cast<offset_t>(blockIdx.x) + 1;
  agent::template propagate_tile<Kind>(local, output, n, tile, op, prefixes.for_tile(tile).value);
}

}  // namespace fastscan::detail

#include <fastscan/detail/agent/agent_segmented_scan.cuh>

namespace fastscan::detail {

// Matrix scan by key, pass 1: every tile scanned by segments; its total and first-segment length recorded.
// This pass and the fix-up take no min_blocks_per_sm: under that budget they spill hundreds of bytes
// and ran slower (bench/PERFORMANCE.md, "Tuning choices").
template <class Tuning, scan_kind Kind, class AccT, class Element, class OutputIt, class Op>
__global__ void __launch_bounds__(Tuning::threads)
    segmented_scan_tiles_kernel(Element element, OutputIt output, offset_t n, Op op, segmented_value<AccT>* tile_totals,
                                int* first_segment_lengths, block_storage_place place) {
  follow_previous_grid();
  using agent = agent_segmented_scan<Tuning, AccT>;
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  const offset_t tile = blockIdx.x;
  const offset_t tile_base = tile * Tuning::tile_items;
  const offset_t remaining = n - tile_base;
  const int valid = remaining < Tuning::tile_items ? static_cast<int>(remaining) : Tuning::tile_items;
  int first_segment = 0;
  const segmented_value<AccT> total =
      valid == Tuning::tile_items
          ? agent::template scan_tile<Kind, true>(storage, element, output, tile_base, valid, op, &first_segment)
          : agent::template scan_tile<Kind, false>(storage, element, output, tile_base, valid, op, &first_segment);
  if (threadIdx.x == 0) {
    if (tile + 1 < gridDim.x) construct_in(tile_totals[tile], total);
    first_segment_lengths[tile] = first_segment;
  }
}

// Pass 3: tile b + 1's first segment re-scanned from the carry; tiles starting with a head do nothing.
template <class Tuning, scan_kind Kind, class AccT, class Element, class OutputIt, class Op>
__global__ void __launch_bounds__(Tuning::threads)
    segmented_fixup_kernel(Element element, OutputIt output, Op op, const segmented_value<AccT>* scanned_totals,
                           const int* first_segment_lengths, block_storage_place place) {
  follow_previous_grid();
  using agent = agent_segmented_scan<Tuning, AccT>;
  auto& storage = block_temp_storage<typename agent::temp_storage>(place);
  const offset_t tile = static_cast<offset_t>(blockIdx.x) + 1;
  const int length = first_segment_lengths[tile];
  if (length == 0) return;
  agent::template fix_first_segment<Kind>(storage, element, output, tile * Tuning::tile_items, length, op,
                                          scanned_totals[tile - 1].value);
}

}  // namespace fastscan::detail
