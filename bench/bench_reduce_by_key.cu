// reduce_by_key and unique_by_key through fastscan's policies against CUB and thrust::cuda::par, over
// int32 keys in runs of 1, 32 and 1000 and int32, float or double values:
//   reduce_by_key (cub::DeviceReduce::ReduceByKey, plus): keys and values read once, one key and one
//     value written per run;
//   unique_by_key_copy (cub::DeviceSelect::UniqueByKey): the same bytes.
// fastscan and Thrust read the run count back to return the end iterators (a wait per call, which the
// interface requires); CUB leaves it on the device, and `cub_count_read` is CUB followed by the count
// copied back and waited for, as a Thrust user must add.

#include "bench_cases.cuh"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/reduce.h>
#include <thrust/unique.h>

namespace fastscan_bench {
namespace {

enum class by_key_call { reduce, unique };

// keys[i] = a hash of i / run: runs of exactly `run` equal keys, neighbouring runs different.
__global__ void make_run_keys(int* keys, std::size_t n, unsigned run) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    keys[i] = static_cast<int>(static_cast<unsigned>(i / run) * 2654435761u);
}

template <class V, by_key_call What, unsigned Run>
void run_by_key(benchmark::State& state, contender who, std::size_t n, layout) {
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  // Each rotating input holds the keys, then the values (16-byte aligned: n is a power of two).
  rotating_buffers inputs(n * (sizeof(int) + sizeof(V)), l2_bytes());
  inputs.fill_random(4321);
  for (void* buffer : inputs.all()) make_run_keys<<<1024, 256, 0, stream>>>(static_cast<int*>(buffer), n, Run);
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  int* keys_out = nullptr;
  V* values_out = nullptr;
  long long* runs = nullptr;
  void* copy_target = nullptr;  // memcpy's destination: as large as an input
  FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_target, n * (sizeof(int) + sizeof(V))));
  FASTSCAN_BENCH_CHECK(cudaMalloc(&keys_out, n * sizeof(int)));
  FASTSCAN_BENCH_CHECK(cudaMalloc(&values_out, n * sizeof(V)));
  FASTSCAN_BENCH_CHECK(cudaMalloc(&runs, sizeof(long long)));
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  auto run_cub = [&](int* keys, V* values) {
    if constexpr (What == by_key_call::reduce) {
      return cub::DeviceReduce::ReduceByKey(cub_temp, cub_temp_bytes, keys, keys_out, values, values_out, runs,
                                            cuda::std::plus<V>{}, static_cast<long long>(n), stream);
    } else {
      return cub::DeviceSelect::UniqueByKey(cub_temp, cub_temp_bytes, keys, values, keys_out, values_out, runs,
                                            static_cast<long long>(n), stream);
    }
  };
  auto call = [&](auto policy, int* keys, V* values) {
    if constexpr (What == by_key_call::reduce) thrust::reduce_by_key(policy, keys, keys + n, values, keys_out, values_out);
    else thrust::unique_by_key_copy(policy, keys, keys + n, values, keys_out, values_out);
  };
  auto split = [&](void* in) { return std::make_pair(static_cast<int*>(in), reinterpret_cast<V*>(static_cast<int*>(in) + n)); };
  count_read_back read_count;
  if (who == contender::cub || who == contender::cub_count_read) {
    const auto [keys, values] = split(inputs.first());
    FASTSCAN_BENCH_CHECK(run_cub(keys, values));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  const std::size_t copy_bytes = (n + n / Run) * (sizeof(int) + sizeof(V)) / 2;  // as many bytes as the call moves
  auto run_once = [&](void* in) {
    int* const keys = split(in).first;  // named, not bound: lambdas capture structured bindings only from C++20
    V* const values = split(in).second;
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(copy_target, in, copy_bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub:
      case contender::cub_count_read:
        FASTSCAN_BENCH_CHECK(run_cub(keys, values));
        if (who == contender::cub_count_read) read_count(runs, stream);
        break;
      default:
        if (!single_pass_policies::call(who, stream, [&](auto policy) { call(policy, keys, values); })) unsupported(who);
        break;
    }
  };
  time_iterations(state, stream, inputs, run_once);
  cudaFree(cub_temp);
  cudaFree(runs);
  cudaFree(copy_target);
  cudaFree(values_out);
  cudaFree(keys_out);
  cudaStreamDestroy(stream);
}

template <class V>
void register_type(std::vector<std::size_t> const& sizes) {
  const std::vector<contender> who = baselines_with_count_read_and<single_pass_policies>();
  for (std::size_t n : sizes) {
    const double item = sizeof(int) + sizeof(V);
    register_case("reduce_by_key_runs1", type_name<V>(), n, who, 2.0 * n * item, &run_by_key<V, by_key_call::reduce, 1>, layout::best);
    register_case("reduce_by_key_runs32", type_name<V>(), n, who, n * item * 33 / 32, &run_by_key<V, by_key_call::reduce, 32>, layout::best);
    register_case("reduce_by_key_runs1000", type_name<V>(), n, who, n * item * 1001 / 1000, &run_by_key<V, by_key_call::reduce, 1000>, layout::best);
    register_case("unique_by_key_runs1", type_name<V>(), n, who, 2.0 * n * item, &run_by_key<V, by_key_call::unique, 1>, layout::best);
    register_case("unique_by_key_runs32", type_name<V>(), n, who, n * item * 33 / 32, &run_by_key<V, by_key_call::unique, 32>, layout::best);
    register_case("unique_by_key_runs1000", type_name<V>(), n, who, n * item * 1001 / 1000, &run_by_key<V, by_key_call::unique, 1000>, layout::best);
  }
}

}  // namespace

void register_reductions_by_key(std::vector<std::size_t> const& sizes, bool full) {
  if (full) return;  // the paper has no such experiment; the quick sweep covers 2^20, 2^24 and 2^28
  std::vector<std::size_t> selected_sizes;
  for (std::size_t n : sizes)
    if (n >= (std::size_t{1} << 20) && (n & (n - 1)) == 0 && __builtin_ctzll(n) % 4 == 0) selected_sizes.push_back(n);
  register_type<std::int32_t>(selected_sizes);
  register_type<float>(selected_sizes);
  register_type<double>(selected_sizes);  // keys and values of different widths
}

}  // namespace fastscan_bench
