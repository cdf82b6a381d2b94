#pragma once
// What the benchmark compares: cases (an algorithm on a type, size and segment layout) and
// contenders (memcpy, CUB, thrust::cuda::par, fastscan's policies and the matrix ablations).

#include "bench_utils.cuh"

#include <fastscan/fastscan.cuh>

#include <string>
#include <vector>

namespace fastscan_bench {

enum class contender {
  memcpy, cub, thrust_par, matrix, matrix_device_scan, matrix_deterministic, blelloch, hillis_steele,
  matrix_no_padding, matrix_seq_column, matrix_srp,
  // block-shape experiments (threads x bytes a thread): larger blocks holding more per thread, as
  // CUB's 8-byte tuning does (224 threads x 24 items)
  matrix_160x192B, matrix_192x192B, matrix_224x192B, matrix_256x192B
};

// The paper's ablations (Fig. 8) as compile-time variants of the matrix policy, on the paper's own
// reduce-then-scan driver (the deterministic flavour) so that each differs from it in one thing.
using matrix_no_padding_policy = fastscan::detail::nosync_policy<
    fastscan::detail::matrix_algorithm<false, fastscan::detail::column_scan::warp_matrix,
                                       fastscan::detail::multi_block::reduce_then_scan>>;
using matrix_seq_column_policy = fastscan::detail::nosync_policy<fastscan::detail::matrix_algorithm<
    true, fastscan::detail::column_scan::sequential, fastscan::detail::multi_block::reduce_then_scan>>;
using matrix_srp_policy = fastscan::detail::nosync_policy<fastscan::detail::matrix_algorithm<
    true, fastscan::detail::column_scan::warp_matrix, fastscan::detail::multi_block::scan_then_propagate>>;

// Block shapes tried against the tuned one (bench "shape_exclusive" rows).
template <int Threads, int ThreadBytes, int LookbackTilesPerLane = 1>
using matrix_shape_policy = fastscan::detail::nosync_policy<
    fastscan::detail::matrix_algorithm<true, fastscan::detail::column_scan::warp_matrix,
                                       fastscan::detail::multi_block::single_pass, Threads, ThreadBytes,
                                       LookbackTilesPerLane>>;

const char* name_of(contender c);

// Segment layouts for scans by key (tile = the matrix policy's tile for the value type).
enum class layout { best, worst, single, mean_32, mean_1000 };
const char* name_of(layout l);
// Fills keys[0, n) on the device (building them on the host took minutes at 2^28).
void segment_keys(layout l, int* keys, std::size_t n, std::size_t tile);

std::size_t l2_bytes();

// Registers one benchmark per contender for `algorithm`/`type`/`n`; `run(who, stream, state)` times it.
// bytes: what the algorithm must move per call (for bandwidth and the ratios). min_seconds: timed
// seconds at least, where the run's default would leave only a few calls to take the median of.
void register_case(std::string const& algorithm, std::string const& type, std::size_t n,
                   std::vector<contender> const& who, double bytes,
                   void (*run)(benchmark::State&, contender, std::size_t, layout), layout l, double min_seconds = 0);

template <class T> const char* type_name();
template <> inline const char* type_name<std::int32_t>() { return "int32"; }
template <> inline const char* type_name<float>() { return "float"; }
template <> inline const char* type_name<std::int64_t>() { return "int64"; }
template <> inline const char* type_name<double>() { return "double"; }
template <> inline const char* type_name<std::uint32_t>() { return "uint32"; }
template <> inline const char* type_name<std::uint64_t>() { return "uint64"; }

// The contenders a sweep measures: all of them in the quick sweep; in the full sweep those the paper's
// figures need (memcpy for the limit, CUB for the baseline, matrix and the tree).
inline std::vector<contender> sweep_contenders(bool full) {
  if (full) return {contender::memcpy, contender::cub, contender::matrix, contender::blelloch};
  return {contender::memcpy,   contender::cub,           contender::thrust_par, contender::matrix,
          contender::matrix_deterministic, contender::blelloch, contender::hillis_steele};
}

// Registration entry points, one per source file (compiled in parallel).
void register_scans(std::vector<std::size_t> const& sizes, bool full);
void register_scans_by_key(std::vector<std::size_t> const& sizes, bool full);
void register_selects(std::vector<std::size_t> const& sizes, bool full);
void register_sorts(std::vector<std::size_t> const& sizes, bool full);
void register_reductions_by_key(std::vector<std::size_t> const& sizes, bool full);

}  // namespace fastscan_bench
