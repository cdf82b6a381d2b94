// Stream compaction through fastscan's policies against CUB and thrust::cuda::par:
//   copy_if, keeping 10%, 50% and 90% of random int32, float and int64 items (cub::DeviceSelect::If); bytes
//     moved: the input read once, the kept items written once;
//   partition_copy, 50% (cub::DevicePartition::If, whose one output takes the rejected items at its
//     end, reversed): n read, n written;
//   unique_copy over runs of mean length 2 (cub::DeviceSelect::Unique): n read, about n/2 written.
// fastscan and Thrust read the count back to return the end iterator (a synchronisation per call,
// which the interface requires); CUB leaves it on the device, and `cub_count_read` is CUB followed by
// what a Thrust user must add: the count copied back and waited for (every case here).
// Elements of 4 and 8 bytes (int32, float, int64) at three fractions kept; of 1 byte (int8) at half.

#include "bench_cases.cuh"

#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/partition.h>
#include <thrust/unique.h>

#include <cstring>

namespace fastscan_bench {
namespace {

// Keeps an item when a hash of its bits falls under permille / 1000.
template <class T>
struct keep_fraction {
  int permille;
  __host__ __device__ bool operator()(T const& x) const {
    unsigned bits = 0;
    std::memcpy(&bits, &x, sizeof(T) < sizeof(bits) ? sizeof(T) : sizeof(bits));
    return static_cast<int>(((bits * 2654435761u) >> 8) % 1000u) < permille;
  }
};

template <class T, int Permille>
void run_select(benchmark::State& state, contender who, std::size_t n, layout) {
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  rotating_buffers inputs(n * sizeof(T), l2_bytes());
  inputs.fill_random(4321);
  T* out = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&out, n * sizeof(T)));
  const keep_fraction<T> pred{Permille};
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  int* selected = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&selected, sizeof(long long)));
  count_read_back read_count;
  if (who == contender::cub || who == contender::cub_count_read) {
    FASTSCAN_BENCH_CHECK(cub::DeviceSelect::If(nullptr, cub_temp_bytes, static_cast<T*>(inputs.first()), out, selected,
                                               static_cast<int>(n), pred, stream));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  const std::size_t copy_bytes = n * sizeof(T) * (1000 + Permille) / 2000;  // as many bytes as the selection moves
  auto run_once = [&](T* in) {
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(out, in, copy_bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub:
      case contender::cub_count_read:
        FASTSCAN_BENCH_CHECK(cub::DeviceSelect::If(cub_temp, cub_temp_bytes, in, out, selected, static_cast<int>(n), pred, stream));
        if (who == contender::cub_count_read) read_count(selected, stream);
        break;
      default:
        if (!single_pass_policies::call(who, stream, [&](auto policy) { thrust::copy_if(policy, in, in + n, out, pred); })) unsupported(who);
        break;
    }
  };
  time_iterations(state, stream, inputs, [&](void* in) { run_once(static_cast<T*>(in)); });
  cudaFree(cub_temp);
  cudaFree(selected);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

enum class selection { copy_if, partition_copy, unique_copy };

// Items in runs of mean length 2 (each item repeats the one before with probability 1/2), so
// unique_copy keeps about half.
template <class T>
__global__ void make_runs(T* data, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const unsigned h = static_cast<unsigned>(i) * 2654435761u;
    data[i] = static_cast<T>((i - ((h >> 16) & 1u)) & 0xffffu);
  }
}

template <class T, selection What>
void run_other(benchmark::State& state, contender who, std::size_t n, layout) {
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  rotating_buffers inputs(n * sizeof(T), l2_bytes());
  if constexpr (What == selection::unique_copy) {
    for (void* buffer : inputs.all()) make_runs<<<1024, 256, 0, stream>>>(static_cast<T*>(buffer), n);
    FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  } else {
    inputs.fill_random(4321);
  }
  T* out = nullptr;
  T* rejected = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&out, n * sizeof(T)));
  FASTSCAN_BENCH_CHECK(cudaMalloc(&rejected, n * sizeof(T)));
  const keep_fraction<T> pred{500};
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  int* selected = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&selected, sizeof(long long)));
  auto run_cub = [&](T* in) {
    if constexpr (What == selection::partition_copy) {
      return cub::DevicePartition::If(cub_temp, cub_temp_bytes, in, out, selected, static_cast<int>(n), pred, stream);
    } else {
      return cub::DeviceSelect::Unique(cub_temp, cub_temp_bytes, in, out, selected, static_cast<int>(n), stream);
    }
  };
  count_read_back read_count;
  if (who == contender::cub || who == contender::cub_count_read) {
    FASTSCAN_BENCH_CHECK(run_cub(static_cast<T*>(inputs.first())));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  const std::size_t copy_bytes = What == selection::partition_copy ? n * sizeof(T) : n * sizeof(T) * 3 / 4;
  auto call = [&](auto policy, T* in) {
    if constexpr (What == selection::partition_copy) thrust::partition_copy(policy, in, in + n, out, rejected, pred);
    else thrust::unique_copy(policy, in, in + n, out);
  };
  auto run_once = [&](T* in) {
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(out, in, copy_bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub:
      case contender::cub_count_read:
        FASTSCAN_BENCH_CHECK(run_cub(in));
        if (who == contender::cub_count_read) read_count(selected, stream);
        break;
      default:
        if (!single_pass_policies::call(who, stream, [&](auto policy) { call(policy, in); })) unsupported(who);
        break;
    }
  };
  time_iterations(state, stream, inputs, [&](void* in) { run_once(static_cast<T*>(in)); });
  cudaFree(cub_temp);
  cudaFree(selected);
  cudaFree(rejected);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

template <class T>
void register_type(std::vector<std::size_t> const& sizes) {
  const std::vector<contender> who = baselines_with_count_read_and<single_pass_policies>();
  for (std::size_t n : sizes) {
    register_case("copy_if_keep50", type_name<T>(), n, who, n * sizeof(T) * 1.5, &run_select<T, 500>, layout::best);
    if constexpr (sizeof(T) >= 4) {
      register_case("copy_if_keep10", type_name<T>(), n, who, n * sizeof(T) * 1.1, &run_select<T, 100>, layout::best);
      register_case("copy_if_keep90", type_name<T>(), n, who, n * sizeof(T) * 1.9, &run_select<T, 900>, layout::best);
    }
    if constexpr (!std::is_same_v<T, float>)
      register_case("partition_copy_keep50", type_name<T>(), n, who, n * sizeof(T) * 2.0,
                    &run_other<T, selection::partition_copy>, layout::best);
    if constexpr (std::is_same_v<T, std::int32_t>) {
      register_case("unique_copy_runs2", type_name<T>(), n, who, n * sizeof(T) * 1.5,
                    &run_other<T, selection::unique_copy>, layout::best);
    }
  }
}

}  // namespace

void register_selects(std::vector<std::size_t> const& sizes, bool full) {
  if (full) return;  // the paper has no compaction experiment; the quick sweep covers 2^20 .. 2^28
  std::vector<std::size_t> selected_sizes;
  for (std::size_t n : sizes)
    if (n >= (std::size_t{1} << 20) && (n & (n - 1)) == 0 && __builtin_ctzll(n) % 4 == 0) selected_sizes.push_back(n);
  register_type<std::int32_t>(selected_sizes);
  register_type<float>(selected_sizes);
  register_type<std::int8_t>(selected_sizes);
  register_type<std::int64_t>(selected_sizes);
}

}  // namespace fastscan_bench
