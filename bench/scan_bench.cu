// fastscan's scans against CUB, thrust::cuda::par and a device-to-device copy, in one run.
// Effective bandwidth counts the bytes a scan must move: n elements read once and written once.
// After the run a table gives, per algorithm, type and size, each contender's GB/s and its ratio
// to CUB and to memcpy.

#include "bench_utils.cuh"

#include <fastscan/fastscan.cuh>

#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace fastscan_bench {

__global__ void fill_random_kernel(std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 0x9E3779B9u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    // Small, non-zero-heavy magnitudes: a plausible payload that never overflows into NaN/Inf.
    words[i] = (x & 0x3f7fffffu) | 0x1u;
  }
}

void rotating_buffers::fill_random(std::uint32_t seed) {
  for (void* p : buffers_) {
    fill_random_kernel<<<1024, 256>>>(static_cast<std::uint32_t*>(p), bytes_ / 4, seed++);
    FASTSCAN_BENCH_CHECK(cudaGetLastError());
  }
  FASTSCAN_BENCH_CHECK(cudaDeviceSynchronize());
}

namespace {

std::size_t l2_bytes() {
  int device = 0, l2 = 0;
  FASTSCAN_BENCH_CHECK(cudaGetDevice(&device));
  FASTSCAN_BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(l2);
}

enum class contender { memcpy, cub, thrust_par, matrix, blelloch, hillis_steele };
const char* name_of(contender c) {
  switch (c) {
    case contender::memcpy: return "memcpy";
    case contender::cub: return "cub";
    case contender::thrust_par: return "thrust_par";
    case contender::matrix: return "matrix";
    case contender::blelloch: return "blelloch";
    default: return "hillis_steele";
  }
}

template <class T> const char* type_name();
template <> const char* type_name<std::int32_t>() { return "int32"; }
template <> const char* type_name<float>() { return "float"; }
template <> const char* type_name<std::int64_t>() { return "int64"; }
template <> const char* type_name<double>() { return "double"; }

template <class Policy, class T>
void run_policy_scan(Policy policy, bool exclusive, T* in, T* out, std::size_t n) {
  if (exclusive) thrust::exclusive_scan(policy, in, in + n, out);
  else thrust::inclusive_scan(policy, in, in + n, out);
}

template <class T>
void bench_scan(benchmark::State& state, contender who, bool exclusive, std::size_t n) {
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
    FASTSCAN_BENCH_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cub_temp_bytes, static_cast<T*>(nullptr), out, n));
    std::size_t inclusive_bytes = 0;
    FASTSCAN_BENCH_CHECK(cub::DeviceScan::InclusiveSum(nullptr, inclusive_bytes, static_cast<T*>(nullptr), out, n));
    cub_temp_bytes = std::max(cub_temp_bytes, inclusive_bytes);
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }

  auto run_once = [&](T* in) {
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub: {
        std::size_t temp = cub_temp_bytes;
        if (exclusive) FASTSCAN_BENCH_CHECK(cub::DeviceScan::ExclusiveSum(cub_temp, temp, in, out, n, stream));
        else FASTSCAN_BENCH_CHECK(cub::DeviceScan::InclusiveSum(cub_temp, temp, in, out, n, stream));
        break;
      }
      case contender::thrust_par: run_policy_scan(thrust::cuda::par_nosync.on(stream), exclusive, in, out, n); break;
      case contender::matrix: run_policy_scan(fastscan::matrix_nosync.on(stream), exclusive, in, out, n); break;
      case contender::blelloch: run_policy_scan(fastscan::blelloch_nosync.on(stream), exclusive, in, out, n); break;
      case contender::hillis_steele:
        run_policy_scan(fastscan::hillis_steele_nosync.on(stream), exclusive, in, out, n);
        break;
    }
  };

  for (int i = 0; i < 3; ++i) run_once(static_cast<T*>(inputs.next()));  // warm-up: module load, pool growth
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    T* in = static_cast<T*>(inputs.next());
    event_timer timer(state, stream);
    run_once(in);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 2 * static_cast<std::int64_t>(bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
  state.counters["n"] = static_cast<double>(n);

  cudaFree(cub_temp);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

// Inclusive scan by key over int32 keys whose segments have random lengths of mean `mean_segment`.
// Bytes moved: keys and values read once, values written once; memcpy copies half that many bytes
// (a copy reads and writes each byte), so the ratio compares equal traffic.
template <class T>
void bench_scan_by_key(benchmark::State& state, contender who, std::size_t n, std::size_t mean_segment) {
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<int> host_keys(n);
  std::uint64_t x = 99;
  for (std::size_t i = 0, segment = 0; i < n; ++segment) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const std::size_t length = 1 + (x >> 33) % (2 * mean_segment - 1);
    for (std::size_t j = 0; j < length && i < n; ++j) host_keys[i++] = static_cast<int>(segment);
  }
  int* keys = nullptr;
  T* out = nullptr;
  FASTSCAN_BENCH_CHECK(cudaMalloc(&keys, n * sizeof(int)));
  FASTSCAN_BENCH_CHECK(cudaMalloc(&out, n * sizeof(T)));
  FASTSCAN_BENCH_CHECK(cudaMemcpy(keys, host_keys.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  rotating_buffers values(n * sizeof(T), l2_bytes());
  values.fill_random(77);
  const std::size_t bytes = n * (sizeof(int) + 2 * sizeof(T));
  void *copy_source = nullptr, *copy_target = nullptr;
  if (who == contender::memcpy) {
    FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_source, bytes / 2));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&copy_target, bytes / 2));
    FASTSCAN_BENCH_CHECK(cudaMemset(copy_source, 0x5a, bytes / 2));
  }
  void* cub_temp = nullptr;
  std::size_t cub_temp_bytes = 0;
  if (who == contender::cub) {
    FASTSCAN_BENCH_CHECK(cub::DeviceScan::InclusiveSumByKey(nullptr, cub_temp_bytes, keys, static_cast<T*>(nullptr), out, n));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&cub_temp, cub_temp_bytes));
  }
  auto run_once = [&](T* in) {
    switch (who) {
      case contender::memcpy:
        FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(copy_target, copy_source, bytes / 2, cudaMemcpyDeviceToDevice, stream));
        break;
      case contender::cub: {
        std::size_t temp = cub_temp_bytes;
        FASTSCAN_BENCH_CHECK(cub::DeviceScan::InclusiveSumByKey(cub_temp, temp, keys, in, out, n, ::cuda::std::equal_to<>{}, stream));
        break;
      }
      case contender::thrust_par: thrust::inclusive_scan_by_key(thrust::cuda::par_nosync.on(stream), keys, keys + n, in, out); break;
      case contender::matrix: thrust::inclusive_scan_by_key(fastscan::matrix_nosync.on(stream), keys, keys + n, in, out); break;
      case contender::blelloch: thrust::inclusive_scan_by_key(fastscan::blelloch_nosync.on(stream), keys, keys + n, in, out); break;
      case contender::hillis_steele:
        thrust::inclusive_scan_by_key(fastscan::hillis_steele_nosync.on(stream), keys, keys + n, in, out);
        break;
    }
  };
  for (int i = 0; i < 3; ++i) run_once(static_cast<T*>(values.next()));
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    T* in = static_cast<T*>(values.next());
    event_timer timer(state, stream);
    run_once(in);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
  cudaFree(cub_temp);
  cudaFree(copy_source);
  cudaFree(copy_target);
  cudaFree(keys);
  cudaFree(out);
  cudaStreamDestroy(stream);
}

// One row of the summary: algorithm, type, n -> contender -> GB/s.
using row_key = std::tuple<std::string, std::string, std::size_t>;
std::map<row_key, std::map<std::string, double>> summary;

class summary_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(std::vector<Run> const& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (auto const& run : runs) {
      // Name: algorithm/type/contender/n (with repetitions, the median aggregate is what counts).
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
      const std::string name = run.run_name.function_name;
      std::string parts[4];
      std::size_t start = 0;
      for (int i = 0; i < 4; ++i) {
        const std::size_t slash = name.find('/', start);
        parts[i] = name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        start = slash == std::string::npos ? name.size() : slash + 1;
      }
      const auto bytes = run.counters.find("bytes_per_second");
      if (bytes == run.counters.end()) continue;
      summary[{parts[0], parts[1], std::stoull(parts[3])}][parts[2]] = bytes->second.value / 1e9;
    }
  }
};

void print_summary() {
  const char* order[] = {"memcpy", "cub", "thrust_par", "matrix", "blelloch", "hillis_steele"};
  std::printf("\nEffective bandwidth in GB/s (bytes a scan must move / time: 2 n sizeof(T), plus n sizeof(key) by key); [x CUB | x memcpy]\n");
  std::printf("%-18s %-6s %11s", "algorithm", "type", "n");
  for (auto c : order) std::printf(" %22s", c);
  std::printf("\n");
  for (auto const& [key, by_contender] : summary) {
    std::printf("%-18s %-6s %11zu", std::get<0>(key).c_str(), std::get<1>(key).c_str(), std::get<2>(key));
    const double cub = by_contender.count("cub") ? by_contender.at("cub") : NAN;
    const double copy = by_contender.count("memcpy") ? by_contender.at("memcpy") : NAN;
    for (auto c : order) {
      auto it = by_contender.find(c);
      if (it == by_contender.end()) std::printf(" %22s", "-");
      else std::printf(" %7.1f [%5.2f|%5.2f]", it->second, it->second / cub, it->second / copy);
    }
    std::printf("\n");
  }
}

template <class T>
void register_type(std::vector<std::size_t> const& sizes) {
  const contender all[] = {contender::memcpy, contender::cub, contender::thrust_par,
                           contender::matrix, contender::blelloch, contender::hillis_steele};
  for (bool exclusive : {true, false}) {
    for (std::size_t n : sizes) {
      for (contender who : all) {
        const std::string name = std::string(exclusive ? "exclusive" : "inclusive") + "/" + type_name<T>() + "/" +
                                 name_of(who) + "/" + std::to_string(n);
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) { bench_scan<T>(state, who, exclusive, n); })
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
}

template <class T>
void register_by_key(std::vector<std::size_t> const& sizes) {
  const contender all[] = {contender::memcpy, contender::cub, contender::thrust_par,
                           contender::matrix, contender::blelloch, contender::hillis_steele};
  for (std::size_t n : sizes) {
    for (contender who : all) {
      const std::string name = std::string("incl_by_key_m1000/") + type_name<T>() + "/" + name_of(who) + "/" + std::to_string(n);
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) { bench_scan_by_key<T>(state, who, n, 1000); })
          ->UseManualTime()
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace
}  // namespace fastscan_bench

int main(int argc, char** argv) {
  using namespace fastscan_bench;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "fastscan benchmark: no CUDA device found; the comparison needs a GPU.\n");
    return 1;
  }
  bool full = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) {
      full = true;
      std::memmove(argv + i, argv + i + 1, sizeof(char*) * (argc - i));
      --argc;
      --i;
    }
  }
  std::vector<std::size_t> sizes;
  if (full) {
    for (int k = 10; k <= 28; ++k) {
      const std::size_t p = std::size_t{1} << k;
      for (std::size_t n : {p - 1, p, p + 1, 3 * (p / 2) + 1}) sizes.push_back(n);
    }
  } else {
    sizes = {std::size_t{1} << 16, std::size_t{1} << 20, (std::size_t{1} << 20) + 1, std::size_t{1} << 24,
             std::size_t{1} << 26, std::size_t{1} << 28};
  }
  register_type<std::int32_t>(sizes);
  register_type<float>(sizes);
  register_type<std::int64_t>(sizes);
  register_type<double>(sizes);
  register_by_key<std::int32_t>({std::size_t{1} << 20, std::size_t{1} << 24, std::size_t{1} << 26});

  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("device: %s, %d SMs, L2 %d MiB; driver %d, runtime %d\n", prop.name, prop.multiProcessorCount,
              prop.l2CacheSize >> 20, driver, runtime);

  if (const char* keep = std::getenv("FASTSCAN_BENCH_KEEP_POOL"); keep && keep[0] == '1') {
    // Experiment: stop the default pool from returning memory at every synchronisation.
    cudaMemPool_t pool;
    cudaDeviceGetDefaultMemPool(&pool, 0);
    std::uint64_t threshold = ~std::uint64_t{0};
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    std::printf("default memory pool: release threshold raised (FASTSCAN_BENCH_KEEP_POOL=1)\n");
  }
  benchmark::Initialize(&argc, argv);
  summary_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  print_summary();
  benchmark::Shutdown();
  return 0;
}
