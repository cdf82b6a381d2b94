// Scans by key: inclusive in every segment layout (the paper's best and worst case, one segment,
// random lengths of mean 32 and 1000), exclusive and backward inclusive at mean 1000; and keys of 1, 4
// and 8 bytes with values of 4, 8 and 16 bytes at mean 32 and 1000.

#include "bench_cases.cuh"

#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/reverse_iterator.h>

namespace fastscan_bench {
namespace {

enum class by_key_op { inclusive, exclusive, inclusive_backward };

// A 16-byte value (two doubles, added in each half).
struct double_pair {
  double first, second;
  friend __host__ __device__ double_pair operator+(double_pair const& l, double_pair const& r) {
    return double_pair{l.first + r.first, l.second + r.second};
  }
};

}  // namespace

template <>
const char* type_name<double_pair>() {
  return "double_pair";
}

namespace {

template <by_key_op Op, class Policy, class K, class T>
void call_policy(Policy policy, K const* keys, T* in, T* out, std::size_t n) {
  if constexpr (Op == by_key_op::inclusive) thrust::inclusive_scan_by_key(policy, keys, keys + n, in, out);
  else if constexpr (Op == by_key_op::exclusive) thrust::exclusive_scan_by_key(policy, keys, keys + n, in, out);
  else
    thrust::inclusive_scan_by_key(policy, thrust::make_reverse_iterator(keys + n), thrust::make_reverse_iterator(keys),
                                  thrust::make_reverse_iterator(in + n), thrust::make_reverse_iterator(out + n));
}

template <by_key_op Op, class K, class T>
cudaError_t call_cub(void* temp, std::size_t& temp_bytes, K const* keys, T* in, T* out, std::size_t n,
                     cudaStream_t stream) {
  if constexpr (Op == by_key_op::inclusive)
    return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, keys, in, out, n, ::cuda::std::equal_to<>{}, stream);
  else if constexpr (Op == by_key_op::exclusive)
    return cub::DeviceScan::ExclusiveSumByKey(temp, temp_bytes, keys, in, out, n, ::cuda::std::equal_to<>{}, stream);
  else
    return cub::DeviceScan::InclusiveSumByKey(temp, temp_bytes, thrust::make_reverse_iterator(keys + n),
                                              thrust::make_reverse_iterator(in + n),
                                              thrust::make_reverse_iterator(out + n), n, ::cuda::std::equal_to<>{},
                                              stream);
}

template <class T, by_key_op Op, class K = int, class Policies = scan_policies>
void run_by_key(benchmark::State& state, contender who, std::size_t n, layout l) {
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const std::size_t tile = fastscan::matrix_algorithm::tuning<T>::tile_items;
  thrust::device_vector<K> keys(n);
  {
    thrust::device_vector<int> segments(n);
    segment_keys(l, thrust::raw_pointer_cast(segments.data()), n, tile);
    thrust::copy(thrust::cuda::par, segments.begin(), segments.end(), keys.begin());  // narrower keys wrap
  }
  const K* key_ptr = thrust::raw_pointer_cast(keys.data());
  rotating_buffers values(n * sizeof(T), l2_bytes());
  values.fill_random(77);
  T* out = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&out, n * sizeof(T)));
  // memcpy moves as many bytes as the scan must: keys and values read, values written.
  const std::size_t copy_bytes = n * (sizeof(K) + 2 * sizeof(T)) / 2;
  void *copy_source = nullptr, *copy_target = nullptr;
  if (who == contender::memcpy) {
    FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_source, copy_bytes));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_target, copy_bytes));
    FASTSCAN_BENCH_CHECK(cudaMemset(copy_source, 0x5a, copy_bytes));
  }
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  if (who == contender::cub) {
    FASTSCAN_BENCH_CHECK(call_cub<Op>(nullptr, cub_temp_bytes, key_ptr, static_cast<T*>(values.first()), out, n, stream));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  auto run_once = [&](T* in) {
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(copy_target, copy_source, copy_bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub: FASTSCAN_BENCH_CHECK(call_cub<Op>(cub_temp, cub_temp_bytes, key_ptr, in, out, n, stream)); break;
      default:
        if (!Policies::call(who, stream, [&](auto policy) { call_policy<Op>(policy, key_ptr, in, out, n); })) unsupported(who);
        break;
    }
  };
  time_iterations(state, stream, values, [&](void* in) { run_once(static_cast<T*>(in)); });
  cudaFree(cub_temp);
  cudaFree(copy_source);
  cudaFree(copy_target);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

// Quick: every layout forward, exclusive and backward at mean 1000. Full: the paper's Figs. 9 and 10,
// best and worst case forward and backward.
template <class T>
void register_type(std::vector<std::size_t> const& sizes, bool full) {
  const std::vector<contender> by_key_contenders = sweep_contenders(full);
  const std::vector<layout> forward = full ? std::vector<layout>{layout::best, layout::worst}
                                           : std::vector<layout>{layout::best, layout::worst, layout::single,
                                                                 layout::mean_32, layout::mean_1000};
  const std::vector<layout> backward = full ? std::vector<layout>{layout::best, layout::worst}
                                            : std::vector<layout>{layout::mean_1000};
  for (std::size_t n : sizes) {
    const double bytes = static_cast<double>(n) * (sizeof(int) + 2 * sizeof(T));
    for (layout l : forward)
      register_case(std::string("incl_by_key_") + name_of(l), type_name<T>(), n, by_key_contenders, bytes,
                    &run_by_key<T, by_key_op::inclusive>, l);
    for (layout l : backward)
      register_case(std::string("incl_by_key_backward_") + name_of(l), type_name<T>(), n, by_key_contenders, bytes,
                    &run_by_key<T, by_key_op::inclusive_backward>, l);
    if (!full)
      register_case("excl_by_key_mean1000", type_name<T>(), n, by_key_contenders, bytes,
                    &run_by_key<T, by_key_op::exclusive>, layout::mean_1000);
  }
}

// Keys of type K with values of type T, inclusive at mean 32 and 1000, against CUB and Thrust's backend.
template <class K, class T>
void register_widths(std::vector<std::size_t> const& sizes) {
  using width_policies = timed_policies<contender::thrust_par, contender::matrix>;
  const std::string types = std::string(type_name<K>()) + "_keys_" + type_name<T>();
  for (std::size_t n : sizes)
    for (layout l : {layout::mean_32, layout::mean_1000})
      register_case(std::string("incl_by_key_") + name_of(l), types, n, baselines_and<width_policies>(),
                    static_cast<double>(n) * (sizeof(K) + 2 * sizeof(T)),
                    &run_by_key<T, by_key_op::inclusive, K, width_policies>, l);
}

}  // namespace

void register_scans_by_key(std::vector<std::size_t> const& sizes, bool full) {
  // The paper reports segmented scans at powers of two only (its section 5.2); up to 2^28 here, and
  // from 2^20 in the quick sweep.
  std::vector<std::size_t> powers;
  const std::size_t lower = full ? 0 : std::size_t{1} << 20, limit = std::size_t{1} << 28;
  for (std::size_t n : sizes)
    if ((n & (n - 1)) == 0 && n >= lower && n <= limit) powers.push_back(n);
  if (powers.empty()) powers = {std::size_t{1} << 20, std::size_t{1} << 24};
  register_type<float>(powers, full);
  if (full) return;
  register_type<std::int32_t>(powers, full);
  std::vector<std::size_t> widths;
  for (std::size_t n : powers)
    if (n == std::size_t{1} << 20 || n == std::size_t{1} << 24 || n == std::size_t{1} << 28) widths.push_back(n);
  register_widths<std::int8_t, std::int32_t>(widths);
  register_widths<std::int8_t, double>(widths);
  register_widths<std::int8_t, double_pair>(widths);
  register_widths<std::int32_t, double>(widths);
  register_widths<std::int32_t, double_pair>(widths);
  register_widths<std::int64_t, std::int32_t>(widths);
  register_widths<std::int64_t, double>(widths);
  register_widths<std::int64_t, double_pair>(widths);
}

}  // namespace fastscan_bench
