// Scans: exclusive and inclusive forward, exclusive backward (reverse iterators), and the matrix
// ablations of the paper's Fig. 8 (float, exclusive, forward).

#include "bench_cases.cuh"

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/reverse_iterator.h>

namespace fastscan_bench {
namespace {

enum class scan_op { exclusive, inclusive, exclusive_backward };

template <scan_op Op, class Policy, class T>
void call_policy(Policy policy, T* in, T* out, std::size_t n) {
  if constexpr (Op == scan_op::exclusive) thrust::exclusive_scan(policy, in, in + n, out);
  else if constexpr (Op == scan_op::inclusive) thrust::inclusive_scan(policy, in, in + n, out);
  else
    thrust::exclusive_scan(policy, thrust::make_reverse_iterator(in + n), thrust::make_reverse_iterator(in),
                           thrust::make_reverse_iterator(out + n));
}

// The same calls through fastscan's CUB-shaped entry (matrix), for the column beside CUB.
template <scan_op Op, class T>
cudaError_t call_device_scan(void* temp, std::size_t& temp_bytes, T* in, T* out, std::size_t n, cudaStream_t stream) {
  using scan = fastscan::device_scan<fastscan::matrix_algorithm>;
  if constexpr (Op == scan_op::exclusive) return scan::exclusive_sum(temp, temp_bytes, in, out, n, stream);
  else if constexpr (Op == scan_op::inclusive) return scan::inclusive_sum(temp, temp_bytes, in, out, n, stream);
  else
    return scan::exclusive_sum(temp, temp_bytes, thrust::make_reverse_iterator(in + n),
                               thrust::make_reverse_iterator(out + n), n, stream);
}

template <scan_op Op, class T>
cudaError_t call_cub(void* temp, std::size_t& temp_bytes, T* in, T* out, std::size_t n, cudaStream_t stream) {
  if constexpr (Op == scan_op::exclusive) return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, n, stream);
  else if constexpr (Op == scan_op::inclusive) return cub::DeviceScan::InclusiveSum(temp, temp_bytes, in, out, n, stream);
  else
    return cub::DeviceScan::ExclusiveSum(temp, temp_bytes, thrust::make_reverse_iterator(in + n),
                                         thrust::make_reverse_iterator(out + n), n, stream);
}

// The ablation variants are compiled only where they are measured.
constexpr bool with_ablations(scan_op op, bool is_float) { return op == scan_op::exclusive && is_float; }
constexpr bool with_shapes(scan_op op, bool is_shape_type) { return op == scan_op::exclusive && is_shape_type; }

template <class T, scan_op Op>
void run_scan(benchmark::State& state, contender who, std::size_t n, layout) {
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::size_t bytes = n * sizeof(T);
  rotating_buffers inputs(bytes, l2_bytes());
  inputs.fill_random(1234);
  T* out = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&out, bytes));
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  if (who == contender::cub) {
    FASTSCAN_BENCH_CHECK(call_cub<Op>(nullptr, cub_temp_bytes, static_cast<T*>(inputs.first()), out, n, stream));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  if (who == contender::matrix_device_scan) {
    FASTSCAN_BENCH_CHECK(call_device_scan<Op>(nullptr, cub_temp_bytes, static_cast<T*>(inputs.first()), out, n, stream));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  auto run_once = [&](T* in) {
    switch (who) {
      case contender::memcpy: FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream)); break;
      case contender::cub: FASTSCAN_BENCH_CHECK(call_cub<Op>(cub_temp, cub_temp_bytes, in, out, n, stream)); break;
      case contender::matrix_device_scan:
        FASTSCAN_BENCH_CHECK(call_device_scan<Op>(cub_temp, cub_temp_bytes, in, out, n, stream));
        break;
      default:
        if (scan_policies::call(who, stream, [&](auto policy) { call_policy<Op>(policy, in, out, n); })) break;
        if constexpr (with_ablations(Op, std::is_same_v<T, float>)) {
          if (ablation_policies::call(who, stream, [&](auto policy) { call_policy<Op>(policy, in, out, n); })) break;
          if (who == contender::matrix_no_padding) call_policy<Op>(matrix_no_padding_policy{}.on(stream), in, out, n);
          if (who == contender::matrix_seq_column) call_policy<Op>(matrix_seq_column_policy{}.on(stream), in, out, n);
          if (who == contender::matrix_srp) call_policy<Op>(matrix_srp_policy{}.on(stream), in, out, n);
        }
        if constexpr (with_shapes(Op, std::is_same_v<T, std::int32_t> || std::is_same_v<T, double>)) {
          if (who == contender::matrix_160x192B) call_policy<Op>(matrix_shape_policy<160, 192>{}.on(stream), in, out, n);
          if (who == contender::matrix_192x192B) call_policy<Op>(matrix_shape_policy<192, 192>{}.on(stream), in, out, n);
          if (who == contender::matrix_224x192B) call_policy<Op>(matrix_shape_policy<224, 192>{}.on(stream), in, out, n);
          if (who == contender::matrix_256x192B) call_policy<Op>(matrix_shape_policy<256, 192>{}.on(stream), in, out, n);
        }
        break;
    }
  };
  time_iterations(state, stream, inputs, [&](void* in) { run_once(static_cast<T*>(in)); });
  cudaFree(cub_temp);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

template <class T>
void register_type(std::vector<std::size_t> const& sizes, bool full) {
  const bool with_inclusive = !full;
  std::vector<contender> main_contenders = sweep_contenders(full);
  if (!full) main_contenders.insert(main_contenders.begin() + 4, contender::matrix_device_scan);
  for (std::size_t n : sizes) {
    const double bytes = 2.0 * n * sizeof(T);
    register_case("exclusive", type_name<T>(), n, main_contenders, bytes, &run_scan<T, scan_op::exclusive>, layout::best);
    register_case("exclusive_backward", type_name<T>(), n, main_contenders, bytes,
                  &run_scan<T, scan_op::exclusive_backward>, layout::best);
    if (with_inclusive)
      register_case("inclusive", type_name<T>(), n, main_contenders, bytes, &run_scan<T, scan_op::inclusive>, layout::best);
  }
}

}  // namespace

void register_scans(std::vector<std::size_t> const& sizes, bool full) {
  // Quick: every type and algorithm at a few sizes. Full: the paper's experiments, which it ran on
  // float (forward and backward exclusive, Figs. 6, 7, 11; the ablations, Fig. 8), over the whole
  // size protocol.
  register_type<float>(sizes, full);
  if (!full) {
    register_type<std::int32_t>(sizes, false);
    register_type<std::int64_t>(sizes, false);
    register_type<double>(sizes, false);
  }
  for (std::size_t n : sizes) {
    if (!full && n != (std::size_t{1} << 20) && n != (std::size_t{1} << 24) && n != (std::size_t{1} << 28)) continue;
    register_case("ablation_exclusive", "float", n,
                  {contender::matrix_multi_pass, contender::matrix_no_padding, contender::matrix_seq_column,
                   contender::matrix_srp},
                  2.0 * n * sizeof(float), &run_scan<float, scan_op::exclusive>, layout::best);
  }
  // Block-shape experiments for the single-pass matrix scan, only when asked for by name
  // (--benchmark_filter=shape_): they are not part of either sweep.
  if (std::getenv("FASTSCAN_BENCH_SHAPES") != nullptr) {
    const std::vector<contender> shapes = {contender::memcpy,          contender::cub,
                                           contender::matrix,          contender::matrix_160x192B,
                                           contender::matrix_192x192B, contender::matrix_224x192B,
                                           contender::matrix_256x192B};
    for (std::size_t n : {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22, std::size_t{1} << 24,
                          std::size_t{1} << 26, std::size_t{1} << 28}) {
      register_case("shape_exclusive", "int32", n, shapes, 2.0 * n * sizeof(std::int32_t),
                    &run_scan<std::int32_t, scan_op::exclusive>, layout::best);
      register_case("shape_exclusive", "double", n, shapes, 2.0 * n * sizeof(double),
                    &run_scan<double, scan_op::exclusive>, layout::best);
    }
  }
}

}  // namespace fastscan_bench
