// fastscan's scans against CUB, thrust::cuda::par and a device-to-device copy, in one run.
// Effective bandwidth counts the bytes an algorithm must move (inputs read once, output written
// once). The table at the end gives, per algorithm, type and size, each contender's GB/s and its
// ratio to CUB and to memcpy. `--full` runs the paper's protocol (n = 2^k-1, 2^k, 2^k+1,
// 3*2^(k-1)+1 for k = 10..30) and its experiments; any Google Benchmark flag works as well.

#include "bench_cases.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <tuple>

namespace fastscan_bench {

__global__ void fill_random_kernel(std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 0x9E3779B9u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    words[i] = (x & 0x3f7fffffu) | 0x1u;  // never zero; as float a finite value below 1
  }
}

void rotating_buffers::fill_random(std::uint32_t seed) {
  for (void* p : buffers_) {
    fill_random_kernel<<<1024, 256>>>(static_cast<std::uint32_t*>(p), bytes_ / 4, seed++);
    FASTSCAN_BENCH_CHECK(cudaGetLastError());
  }
  FASTSCAN_BENCH_CHECK(cudaDeviceSynchronize());
}

void unsupported(contender who) {
  std::fprintf(stderr, "benchmark: contender %s is not supported by this benchmark\n", name_of(who));
  std::abort();
}

const char* name_of(layout l) {
  const char* names[] = {"best", "worst", "single", "mean32", "mean1000"};
  return names[static_cast<int>(l)];
}

namespace {

// Key i of a layout. Random lengths: a segment starts at i with probability 1 / mean (hashed), and
// the key is the number of starts up to i (a scan of the start flags).
struct layout_head {
  layout l;
  std::size_t tile;
  __host__ __device__ int operator()(std::size_t i) const {
    std::uint64_t x = i * 0x9E3779B97F4A7C15ull + 99;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    const std::uint64_t mean = l == layout::mean_32 ? 32 : 1000;
    return i > 0 && x % mean == 0 ? 1 : 0;
  }
};
struct layout_key {
  layout l;
  std::size_t tile;
  __host__ __device__ int operator()(std::size_t i) const {
    switch (l) {
      case layout::best: return static_cast<int>(i / tile);
      case layout::worst: return static_cast<int>((i + 1) / tile);  // heads at each tile's last element
      default: return 7;
    }
  }
};

}  // namespace

void segment_keys(layout l, int* keys, std::size_t n, std::size_t tile) {
  auto index = thrust::counting_iterator<std::size_t>(0);
  if (l == layout::mean_32 || l == layout::mean_1000) {
    auto heads = thrust::make_transform_iterator(index, layout_head{l, tile});
    thrust::inclusive_scan(thrust::cuda::par, heads, heads + n, keys);
  } else {
    thrust::transform(thrust::cuda::par, index, index + n, keys, layout_key{l, tile});
  }
  FASTSCAN_BENCH_CHECK(cudaDeviceSynchronize());
}

std::size_t l2_bytes() {
  int device = 0, l2 = 0;
  FASTSCAN_BENCH_CHECK(cudaGetDevice(&device));
  FASTSCAN_BENCH_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(l2);
}

namespace {

// Summary rows: (algorithm, type, n) -> contender -> GB/s.
using row_key = std::tuple<std::string, std::string, std::size_t>;
std::map<row_key, std::map<std::string, double>> summary;
std::vector<std::string> contender_order;

class summary_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(std::vector<Run> const& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (auto const& run : runs) {
      // With repetitions only the median counts.
      if (run.run_type == Run::RT_Aggregate ? run.aggregate_name != "median" : run.repetitions > 1) continue;
      const std::string name = run.run_name.function_name;  // algorithm/type/contender/n
      std::string parts[4];
      std::size_t start = 0;
      for (auto& part : parts) {
        const std::size_t slash = name.find('/', start);
        part = name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        start = slash == std::string::npos ? name.size() : slash + 1;
      }
      const auto median = run.counters.find("median_GBps");
      if (median == run.counters.end()) continue;
      summary[{parts[0], parts[1], std::stoull(parts[3])}][parts[2]] = median->second.value;
      if (std::find(contender_order.begin(), contender_order.end(), parts[2]) == contender_order.end())
        contender_order.push_back(parts[2]);
    }
  }
};

// The device the run measured, for the table's header.
std::string measured_device;

void print_summary() {
  std::printf("\nEffective bandwidth on %s, GB/s (bytes the algorithm must move / median iteration time) "
              "[ratio to CUB | ratio to memcpy]\n",
              measured_device.c_str());
  std::printf("%-26s %-22s %11s", "algorithm", "type", "n");
  for (auto const& c : contender_order) std::printf(" %22s", c.c_str());
  std::printf("\n");
  for (auto const& [key, by_contender] : summary) {
    std::printf("%-26s %-22s %11zu", std::get<0>(key).c_str(), std::get<1>(key).c_str(), std::get<2>(key));
    const double cub = by_contender.count("cub") ? by_contender.at("cub") : NAN;
    const double copy = by_contender.count("memcpy") ? by_contender.at("memcpy") : NAN;
    for (auto const& c : contender_order) {
      auto it = by_contender.find(c);
      if (it == by_contender.end()) std::printf(" %22s", "-");
      else std::printf(" %7.1f [%5.2f|%5.2f]", it->second, it->second / cub, it->second / copy);
    }
    std::printf("\n");
  }
}

}  // namespace

double min_seconds_per_benchmark = 0.05;

void register_case(std::string const& algorithm, std::string const& type, std::size_t n,
                   std::vector<contender> const& who, double bytes,
                   void (*run)(benchmark::State&, contender, std::size_t, layout), layout l, double min_seconds) {
  for (contender c : who) {
    const std::string name = algorithm + "/" + type + "/" + name_of(c) + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& state) {
                                   iteration_seconds().clear();
                                   run(state, c, n, l);
                                   state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
                                   state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
                                   report_median(state, bytes);
                                 })
        ->UseManualTime()
        ->MinTime(std::max(min_seconds_per_benchmark, min_seconds))
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace fastscan_bench

int main(int argc, char** argv) {
  using namespace fastscan_bench;
  if (printed_help(argc, argv,
                   "fastscan_bench [--full] [Google Benchmark flags]\n"
                   "  Compares fastscan's scans, compaction and radix sorts with CUB (DeviceScan, DeviceSelect,\n"
                   "  DeviceRadixSort), thrust::cuda::par and a device memcpy on this\n"
                   "  machine's GPU, then prints a table of effective bandwidths with ratios to CUB and memcpy.\n"
                   "  --full   the matrix-scan paper's experiments over its size protocol (2^10 .. 2^30)\n"
                   "  FASTSCAN_BENCH_SHAPES=1 adds the block-shape experiments (shape_exclusive rows)."))
    return 0;
  if (usable_devices("fastscan benchmark") == 0) return 1;
  bool full = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) full = true;
    else args.push_back(argv[i]);
  }
  int arg_count = static_cast<int>(args.size());

  std::vector<std::size_t> sizes;
  if (full) {
    for (int k = 10; k <= 30; ++k) {
      const std::size_t p = std::size_t{1} << k;
      for (std::size_t n : {p - 1, p, p + 1, 3 * (p / 2) + 1}) sizes.push_back(n);
    }
  } else {
    for (int k = 10; k <= 28; k += 2) sizes.push_back(std::size_t{1} << k);
    min_seconds_per_benchmark = 0.02;  // still a hundred iterations or more per median at these sizes
  }
  register_scans(sizes, full);
  register_scans_by_key(sizes, full);
  register_selects(sizes, full);
  register_sorts(sizes, full);
  register_reductions_by_key(sizes, full);

  cudaDeviceProp prop{};
  FASTSCAN_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  measured_device = prop.name;
  std::printf("device: %s, %d SMs, L2 %d MiB; driver API %d, runtime %d; %s sweep\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, driver, runtime, full ? "full" : "quick");

  benchmark::Initialize(&arg_count, args.data());
  summary_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  print_summary();
  benchmark::Shutdown();
  return 0;
}
