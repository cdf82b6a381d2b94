// Stream compaction: thrust::copy_if through fastscan's policies against cub::DeviceSelect::If and
// thrust::cuda::par, keeping 10%, 50% and 90% of random int32 and float items. Bytes moved: the input
// read once, the kept items written once. fastscan and Thrust read the count back to return the end
// iterator (a synchronisation per call, which copy_if's interface requires); CUB leaves it on the device.

#include "bench_cases.cuh"

#include <cub/device/device_select.cuh>
#include <thrust/copy.h>

#include <cstring>

namespace fastscan_bench {
namespace {

// Keeps an item when a hash of its bits falls under permille / 1000.
template <class T>
struct keep_fraction {
  int permille;
  __host__ __device__ bool operator()(T const& x) const {
    unsigned bits = 0;
    std::memcpy(&bits, &x, sizeof(bits));
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
  if (who == contender::cub) {
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
        FASTSCAN_BENCH_CHECK(cub::DeviceSelect::If(cub_temp, cub_temp_bytes, in, out, selected, static_cast<int>(n), pred, stream));
        break;
      case contender::thrust_par: thrust::copy_if(thrust::cuda::par_nosync.on(stream), in, in + n, out, pred); break;
      case contender::matrix: thrust::copy_if(fastscan::matrix_nosync.on(stream), in, in + n, out, pred); break;
      case contender::blelloch: thrust::copy_if(fastscan::blelloch_nosync.on(stream), in, in + n, out, pred); break;
      default: thrust::copy_if(fastscan::hillis_steele_nosync.on(stream), in, in + n, out, pred); break;
    }
  };
  time_iterations(state, stream, inputs, [&](void* in) { run_once(static_cast<T*>(in)); });
  cudaFree(cub_temp);
  cudaFree(selected);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

template <class T>
void register_type(std::vector<std::size_t> const& sizes) {
  const std::vector<contender> who = {contender::memcpy,   contender::cub,      contender::thrust_par,
                                      contender::matrix,   contender::blelloch, contender::hillis_steele};
  for (std::size_t n : sizes) {
    register_case("copy_if_keep10", type_name<T>(), n, who, n * sizeof(T) * 1.1, &run_select<T, 100>, layout::best);
    register_case("copy_if_keep50", type_name<T>(), n, who, n * sizeof(T) * 1.5, &run_select<T, 500>, layout::best);
    register_case("copy_if_keep90", type_name<T>(), n, who, n * sizeof(T) * 1.9, &run_select<T, 900>, layout::best);
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
}

}  // namespace fastscan_bench
