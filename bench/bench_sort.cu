// Radix sort through fastscan's policies against cub::DeviceRadixSort and thrust::cuda::par:
//   sort of uint32, float and uint64 keys, uniform (every bit random; floats uniform in [-1, 1)) and
//     few distinct (16 values spread over every digit);
//   sort_by_key of uint32 keys with uint32 values, uniform and few distinct;
//   the widths users also sort: uint8 and uint16 keys (sort, and sort_by_key with uint32 values),
//   uint64 keys with uint32 values, uint32 keys with uint64 values;
//   keys of a small range, as indices and labels are: uint32 keys below 2^16 with uint32 values
//   (`sort_by_key_range16`), uint64 keys below 2^32 (`sort_range32`).
// Bytes a sort must move: its keys (and values) read once and written once. Each iteration sorts a
// fresh copy of the input (copied before the timed region). CUB runs as Thrust's CUDA backend calls
// it: a DoubleBuffer with a second buffer allocated once, the result left in whichever buffer it ends.
// `cub_in_place` is the same call followed by the copy back into the input that an in-place interface
// needs when the result ends in the second buffer (one pass, or any odd number of passes): the cost
// Thrust's own backend pays, without its allocations.

#include "bench_cases.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <thrust/sort.h>

namespace fastscan_bench {
namespace {

enum class distribution { uniform, few_distinct, small_range };

__host__ __device__ inline std::uint32_t hash32(std::uint64_t i, std::uint32_t seed) {
  std::uint32_t x = static_cast<std::uint32_t>(i) * 0x9E3779B9u ^ static_cast<std::uint32_t>(i >> 32) ^ seed;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

template <class Key>
__global__ void make_keys(Key* keys, std::size_t n, distribution d, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint32_t h = hash32(i, seed);
    if (d == distribution::few_distinct) {
      keys[i] = static_cast<Key>((h % 16u) * 0x9E3779B97F4A7C15ull);
    } else if (d == distribution::small_range) {  // below 2^16 (32-bit keys) or 2^32 (64-bit keys)
      keys[i] = static_cast<Key>(sizeof(Key) == 8 ? h : h >> 16);
    } else if constexpr (std::is_same_v<Key, float>) {
      keys[i] = static_cast<float>(h >> 8) * 0x1.0p-23f - 1.0f;
    } else if constexpr (sizeof(Key) == 8) {
      keys[i] = (static_cast<Key>(h) << 32) | hash32(i, seed ^ 0x5bd1e995u);
    } else {
      keys[i] = static_cast<Key>(h);
    }
  }
}

template <class Key, class Value, distribution Distribution>
void run_sort(benchmark::State& state, contender who, std::size_t n, layout) {
  constexpr bool pairs = !std::is_void_v<Value>;
  using value_t = std::conditional_t<pairs, Value, char>;
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  Key *source = nullptr, *keys = nullptr, *other_keys = nullptr;
  value_t *values = nullptr, *other_values = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&source, n * sizeof(Key)));
  FASTSCAN_BENCH_CHECK(cudaMalloc(&keys, n * sizeof(Key)));
  make_keys<<<1024, 256, 0, stream>>>(source, n, Distribution, 777);
  if constexpr (pairs) FASTSCAN_BENCH_CHECK(cudaMalloc(&values, n * sizeof(value_t)));
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  cub::DoubleBuffer<Key> key_buffers(keys, nullptr);
  cub::DoubleBuffer<value_t> value_buffers(values, nullptr);
  auto run_cub = [&] {
    const int items = static_cast<int>(n);
    if constexpr (pairs) return cub::DeviceRadixSort::SortPairs(cub_temp, cub_temp_bytes, key_buffers, value_buffers, items, 0,
                                                                static_cast<int>(sizeof(Key) * 8), stream);
    else return cub::DeviceRadixSort::SortKeys(cub_temp, cub_temp_bytes, key_buffers, items, 0,
                                               static_cast<int>(sizeof(Key) * 8), stream);
  };
  if (who == contender::cub || who == contender::cub_in_place) {
    FASTSCAN_BENCH_CHECK(cudaMalloc(&other_keys, n * sizeof(Key)));
    if constexpr (pairs) FASTSCAN_BENCH_CHECK(cudaMalloc(&other_values, n * sizeof(value_t)));
    key_buffers = cub::DoubleBuffer<Key>(keys, other_keys);
    value_buffers = cub::DoubleBuffer<value_t>(values, other_values);
    FASTSCAN_BENCH_CHECK(run_cub());
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  // memcpy moves as many bytes as the sort must (keys and values, read once and written once).
  const std::size_t copy_bytes = n * (sizeof(Key) + (pairs ? sizeof(value_t) : 0));
  void *copy_source = nullptr, *copy_target = nullptr;
  if (who == contender::memcpy) {
    FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_source, copy_bytes));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_target, copy_bytes));
    FASTSCAN_BENCH_CHECK(cudaMemset(copy_source, 0x5a, copy_bytes));
  }
  auto call = [&](auto policy) {
    if constexpr (pairs) thrust::sort_by_key(policy, keys, keys + n, values);
    else thrust::sort(policy, keys, keys + n);
  };
  auto run_once = [&] {
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(copy_target, copy_source, copy_bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub:
      case contender::cub_in_place:
        key_buffers = cub::DoubleBuffer<Key>(keys, other_keys);
        value_buffers = cub::DoubleBuffer<value_t>(values, other_values);
        FASTSCAN_BENCH_CHECK(run_cub());
        if (who == contender::cub_in_place && key_buffers.selector != 0) {
          FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(keys, other_keys, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
          if constexpr (pairs)
            FASTSCAN_BENCH_CHECK(
                cudaMemcpyAsync(values, other_values, n * sizeof(value_t), cudaMemcpyDeviceToDevice, stream));
        }
        break;
      default:
        if (!single_pass_policies::call(who, stream, call)) unsupported(who);
        break;
    }
  };
  auto restore_input = [&] {
    FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(keys, source, n * sizeof(Key), cudaMemcpyDeviceToDevice, stream));
  };
  for (int i = 0; i < 3; ++i) {  // warm-up: module load, pool growth
    restore_input();
    run_once();
  }
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    if (who != contender::memcpy) restore_input();
    event_timer timer(state, stream);
    run_once();
  }
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  FASTSCAN_BENCH_CHECK(cudaGetLastError());
  cudaFree(copy_source);
  cudaFree(copy_target);
  cudaFree(cub_temp);
  cudaFree(other_values);
  cudaFree(other_keys);
  cudaFree(values);
  cudaFree(keys);
  cudaFree(source);
  cudaStreamDestroy(stream);
}

template <class Key, class Value, distribution Distribution>
void register_sort(std::string const& algorithm, std::vector<std::size_t> const& sizes) {
  static_assert(std::is_unsigned_v<Key> || std::is_floating_point_v<Key>, "keys as the sweep names them");
  std::vector<contender> who = baselines_and<single_pass_policies>();
  who.insert(who.begin() + 2, contender::cub_in_place);
  double item_bytes = sizeof(Key);
  if constexpr (!std::is_void_v<Value>) item_bytes += sizeof(Value);
  // A sort of 2^28 keys takes 5-20 ms: at least 0.2 s of them, so each median is of 10 calls or more
  // (one or two calls gave single slow outliers).
  for (std::size_t n : sizes)
    register_case(algorithm, type_name<Key>(), n, who, 2.0 * item_bytes * static_cast<double>(n),
                  &run_sort<Key, Value, Distribution>, layout::best, n >= (std::size_t{1} << 26) ? 0.2 : 0.0);
}

}  // namespace

void register_sorts(std::vector<std::size_t> const& sizes, bool full) {
  if (full) return;  // the quick sweep covers 2^20 .. 2^28
  std::vector<std::size_t> sort_sizes;
  for (std::size_t n : sizes)
    if (n >= (std::size_t{1} << 20) && (n & (n - 1)) == 0 && __builtin_ctzll(n) % 4 == 0) sort_sizes.push_back(n);
  register_sort<std::uint32_t, void, distribution::uniform>("sort", sort_sizes);
  register_sort<float, void, distribution::uniform>("sort", sort_sizes);
  register_sort<std::uint64_t, void, distribution::uniform>("sort", sort_sizes);
  register_sort<std::uint32_t, void, distribution::few_distinct>("sort_few16", sort_sizes);
  register_sort<std::uint32_t, std::uint32_t, distribution::uniform>("sort_by_key", sort_sizes);
  register_sort<std::uint32_t, std::uint32_t, distribution::few_distinct>("sort_by_key_few16", sort_sizes);
  register_sort<std::uint8_t, void, distribution::uniform>("sort", sort_sizes);
  register_sort<std::uint16_t, void, distribution::uniform>("sort", sort_sizes);
  register_sort<std::uint8_t, std::uint32_t, distribution::uniform>("sort_by_key", sort_sizes);
  register_sort<std::uint16_t, std::uint32_t, distribution::uniform>("sort_by_key", sort_sizes);
  register_sort<std::uint64_t, std::uint32_t, distribution::uniform>("sort_by_key", sort_sizes);
  register_sort<std::uint32_t, std::uint64_t, distribution::uniform>("sort_by_key_values64", sort_sizes);
  register_sort<std::uint32_t, std::uint32_t, distribution::small_range>("sort_by_key_range16", sort_sizes);
  register_sort<std::uint64_t, void, distribution::small_range>("sort_range32", sort_sizes);
}

}  // namespace fastscan_bench
