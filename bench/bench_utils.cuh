#pragma once
// Timing and buffers for the benchmarks: CUDA events around each iteration (manual time), inputs
// rotated across several buffers when they would otherwise sit in L2, random (never zero) data.

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace fastscan_bench {

#define FASTSCAN_BENCH_CHECK(call)                                                                  \
  do {                                                                                              \
    cudaError_t status_ = (call);                                                                   \
    if (status_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(2);                                                                                 \
    }                                                                                               \
  } while (0)

// Every timed iteration of the running benchmark, in seconds (for its median).
inline std::vector<double>& iteration_seconds() {
  static std::vector<double> samples;
  return samples;
}

// The median iteration's time and bandwidth (`bytes` moved by one call) as the counters the tables
// read: robust against the odd slow launch.
inline void report_median(benchmark::State& state, double bytes) {
  auto& samples = iteration_seconds();
  if (samples.empty()) return;
  std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2), samples.end());
  const double median = samples[samples.size() / 2];
  state.counters["median_us"] = median * 1e6;
  state.counters["median_GBps"] = bytes / median / 1e9;
}

// With --help or -h: prints `usage` and Google Benchmark's flags, and returns true.
inline bool printed_help(int argc, char** argv, const char* usage) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf("%s\nGoogle Benchmark's flags follow.\n\n", usage);
      benchmark::PrintDefaultHelp();
      return true;
    }
  }
  return false;
}

// The number of CUDA devices; 0 after saying on stderr why `program` cannot run.
inline int usable_devices(const char* program) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "%s: no usable GPU (%s); the comparison needs an NVIDIA GPU and its driver.\n", program,
                 status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA device found");
    return 0;
  }
  return devices;
}

// Times one region on a stream with CUDA events and hands the result to Google Benchmark.
class event_timer {
 public:
  event_timer(benchmark::State& state, cudaStream_t stream) : state_(state), stream_(stream) {
    FASTSCAN_BENCH_CHECK(cudaEventCreate(&start_));
    FASTSCAN_BENCH_CHECK(cudaEventCreate(&stop_));
    FASTSCAN_BENCH_CHECK(cudaEventRecord(start_, stream_));
  }
  ~event_timer() {
    cudaEventRecord(stop_, stream_);
    cudaEventSynchronize(stop_);
    float ms = 0;
    cudaEventElapsedTime(&ms, start_, stop_);
    state_.SetIterationTime(ms / 1000.0);
    iteration_seconds().push_back(ms / 1000.0);
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }

 private:
  benchmark::State& state_;
  cudaStream_t stream_;
  cudaEvent_t start_{}, stop_{};
};



// Raw device buffers of `bytes` each; enough of them that one pass over all exceeds the L2 cache.
class rotating_buffers {
 public:
  rotating_buffers(std::size_t bytes, std::size_t l2_bytes) : bytes_(bytes) {
    const std::size_t copies = bytes >= 4 * l2_bytes ? 1 : (4 * l2_bytes + bytes - 1) / bytes;
    for (std::size_t i = 0; i < copies && i < 64; ++i) {
      void* p = nullptr;
      FASTSCAN_BENCH_CHECK(cudaMalloc(&p, bytes));
      buffers_.push_back(p);
    }
  }
  ~rotating_buffers() {
    for (void* p : buffers_) cudaFree(p);
  }
  rotating_buffers(rotating_buffers const&) = delete;
  rotating_buffers& operator=(rotating_buffers const&) = delete;

  void fill_random(std::uint32_t seed);
  void* next() { return buffers_[next_++ % buffers_.size()]; }
  void* first() const { return buffers_.front(); }
  std::vector<void*> const& all() const { return buffers_; }

 private:
  std::size_t bytes_;
  std::vector<void*> buffers_;
  std::size_t next_ = 0;
};

// Three warm-up calls (module load, pool growth), then one event-timed call per iteration, each on
// the next rotating input; `run_once(void* input)` enqueues one call on `stream`.
template <class Run>
void time_iterations(benchmark::State& state, cudaStream_t stream, rotating_buffers& inputs, Run&& run_once) {
  for (int i = 0; i < 3; ++i) run_once(inputs.next());
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    void* input = inputs.next();
    event_timer timer(state, stream);
    run_once(input);
  }
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  FASTSCAN_BENCH_CHECK(cudaGetLastError());
}

}  // namespace fastscan_bench
