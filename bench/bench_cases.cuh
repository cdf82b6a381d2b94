#pragma once
// What the benchmark compares: cases (an algorithm on a type, size and segment layout) and
// contenders (memcpy, CUB, thrust::cuda::par, fastscan's policies and the matrix ablations).

#include "bench_utils.cuh"

#include <fastscan/fastscan.cuh>

#include <thrust/system/cuda/execution_policy.h>

#include <string>
#include <vector>

namespace fastscan_bench {

// Every contender, from one table each: the ones that are a Thrust policy (a new block algorithm is one
// line there), and the others, which each benchmark times itself (memcpy, CUB called directly, the
// CUB-shaped entry point, CUB's calls that return a count with the count read back and CUB's sort with
// its result copied back into the input, as Thrust's interfaces need) or which only the scan benchmark
// registers (the matrix ablations and block shapes). The enumeration and the names follow from the
// tables.
#define FASTSCAN_BENCH_POLICY_CONTENDERS(X)                      \
  X(thrust_par, thrust::cuda::par_nosync)                        \
  X(matrix, fastscan::matrix_nosync)                             \
  X(matrix_deterministic, fastscan::matrix_deterministic_nosync) \
  X(matrix_multi_pass, fastscan::matrix_multi_pass_nosync)       \
  X(blelloch, fastscan::blelloch_nosync)                         \
  X(hillis_steele, fastscan::hillis_steele_nosync)
// block-shape experiments (threads x bytes a thread): larger blocks holding more per thread, as CUB's
// 8-byte tuning does (224 threads x 24 items)
#define FASTSCAN_BENCH_OTHER_CONTENDERS(X)                                                       \
  X(memcpy) X(cub) X(cub_count_read) X(cub_in_place) X(matrix_device_scan) X(matrix_no_padding) X(matrix_seq_column) X(matrix_srp) \
  X(matrix_160x192B) X(matrix_192x192B) X(matrix_224x192B) X(matrix_256x192B)

#define FASTSCAN_BENCH_ENUMERATOR(name, ...) name,
enum class contender {
  FASTSCAN_BENCH_OTHER_CONTENDERS(FASTSCAN_BENCH_ENUMERATOR) FASTSCAN_BENCH_POLICY_CONTENDERS(FASTSCAN_BENCH_ENUMERATOR)
};
#undef FASTSCAN_BENCH_ENUMERATOR

// A contender's name in the benchmark's rows.
inline const char* name_of(contender c) {
  switch (c) {
#define FASTSCAN_BENCH_NAME(name, ...) \
  case contender::name:                \
    return #name;
    FASTSCAN_BENCH_OTHER_CONTENDERS(FASTSCAN_BENCH_NAME) FASTSCAN_BENCH_POLICY_CONTENDERS(FASTSCAN_BENCH_NAME)
#undef FASTSCAN_BENCH_NAME
  }
  return "?";
}

// Stops the run: `who` was registered for a benchmark that has no way to time it.
[[noreturn]] void unsupported(contender who);

// The Thrust policy of a policy contender (none for the others: naming one is a compile error).
template <contender Who>
struct policy_of;
#define FASTSCAN_BENCH_POLICY_OF(name, policy)                         \
  template <>                                                          \
  struct policy_of<contender::name> {                                  \
    static auto on(cudaStream_t stream) { return policy.on(stream); }  \
  };
FASTSCAN_BENCH_POLICY_CONTENDERS(FASTSCAN_BENCH_POLICY_OF)
#undef FASTSCAN_BENCH_POLICY_OF

// The Thrust policies a benchmark times: for `who` among Policies, calls call(policy.on(stream)) and
// returns true; false otherwise. Only the listed policies' calls are compiled.
template <contender... Policies>
struct timed_policies {
  static std::vector<contender> list() { return {Policies...}; }
  template <class Call>
  static bool call(contender who, cudaStream_t stream, Call&& call) {
    return ((who == Policies ? (call(policy_of<Policies>::on(stream)), true) : false) || ...);
  }
};
// Thrust's backend and fastscan's single-pass policies: the contenders of compaction, sort and reduce_by_key.
using single_pass_policies =
    timed_policies<contender::thrust_par, contender::matrix, contender::blelloch, contender::hillis_steele>;
// Those and the deterministic matrix policy: the contenders of the scans; and the paper's multi-pass
// driver, the reference of its ablations.
using scan_policies = timed_policies<contender::thrust_par, contender::matrix, contender::matrix_deterministic,
                                     contender::blelloch, contender::hillis_steele>;
using ablation_policies = timed_policies<contender::matrix_multi_pass>;

// The paper's ablations (Fig. 8) as compile-time variants of the matrix policy, on the paper's own
// reduce-then-scan driver (matrix_multi_pass) so that each differs from it in one thing.
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
template <> inline const char* type_name<std::int8_t>() { return "int8"; }
template <> inline const char* type_name<std::int16_t>() { return "int16"; }
template <> inline const char* type_name<std::uint8_t>() { return "uint8"; }
template <> inline const char* type_name<std::uint16_t>() { return "uint16"; }
template <> inline const char* type_name<std::int32_t>() { return "int32"; }
template <> inline const char* type_name<float>() { return "float"; }
template <> inline const char* type_name<std::int64_t>() { return "int64"; }
template <> inline const char* type_name<double>() { return "double"; }
template <> inline const char* type_name<std::uint32_t>() { return "uint32"; }
template <> inline const char* type_name<std::uint64_t>() { return "uint64"; }

// memcpy and CUB, then the benchmark's policies, in the order of the table's columns.
template <class Policies>
std::vector<contender> baselines_and() {
  std::vector<contender> who = {contender::memcpy, contender::cub};
  for (contender c : Policies::list()) who.push_back(c);
  return who;
}

// The contenders of a call whose Thrust interface returns a count (copy_if, partition_copy, unique_copy,
// reduce_by_key, unique_by_key): as baselines_and, with CUB followed by its count read back.
template <class Policies>
std::vector<contender> baselines_with_count_read_and() {
  std::vector<contender> who = baselines_and<Policies>();
  who.insert(who.begin() + 2, contender::cub_count_read);
  return who;
}

// What a Thrust user must add to CUB's call to get the count Thrust's interface returns: the count
// copied back and waited for (the `cub_count_read` contender).
class count_read_back {
 public:
  count_read_back() { FASTSCAN_BENCH_CHECK(cudaMallocHost(&host_, sizeof(long long))); }
  ~count_read_back() { cudaFreeHost(host_); }
  count_read_back(count_read_back const&) = delete;
  count_read_back& operator=(count_read_back const&) = delete;
  template <class Count>
  void operator()(Count const* device_count, cudaStream_t stream) {
    FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(host_, device_count, sizeof(Count), cudaMemcpyDeviceToHost, stream));
    FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  }

 private:
  void* host_ = nullptr;
};

// The contenders a scan sweep measures: all of them in the quick sweep; in the full sweep those the
// paper's figures need (memcpy for the limit, CUB for the baseline, matrix and the tree).
inline std::vector<contender> sweep_contenders(bool full) {
  if (full) return {contender::memcpy, contender::cub, contender::matrix, contender::blelloch};
  return baselines_and<scan_policies>();
}

// Registration entry points, one per source file (compiled in parallel).
void register_scans(std::vector<std::size_t> const& sizes, bool full);
void register_scans_by_key(std::vector<std::size_t> const& sizes, bool full);
void register_selects(std::vector<std::size_t> const& sizes, bool full);
void register_sorts(std::vector<std::size_t> const& sizes, bool full);
void register_reductions_by_key(std::vector<std::size_t> const& sizes, bool full);

}  // namespace fastscan_bench
