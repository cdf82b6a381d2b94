// fastscan across the GPUs of a host (<fastscan/nccl.cuh>): exclusive_scan, copy_if and sort of 4-byte
// integers over 1, 2, 4 ... GPUs (one rank a GPU, a host thread each, one ncclCommInitAll), against
// fastscan on one GPU holding the whole input, and against copying every shard to one GPU and running
// the one-GPU call there; NCCL's all-to-all of as many bytes as a sort sends, the bound of a sort across
// GPUs; and the latency of a call on one element a rank, beside NCCL's all-gather of the record it
// exchanges. Effective bandwidth counts the bytes the call must move on all GPUs together (read once,
// written once); an iteration's time is the slowest rank's, by CUDA events. A sort's input is written
// again before each iteration, untimed.
// NVLink multicast stays off (NCCL_NVLS_ENABLE=0 unless the environment says otherwise).

#include "bench_utils.cuh"

#include <fastscan/nccl.cuh>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>

namespace fastscan_bench {
namespace {

#define FASTSCAN_BENCH_NCCL_CHECK(call)                                                                  \
  do {                                                                                                   \
    ncclResult_t status_ = (call);                                                                       \
    if (status_ != ncclSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, ncclGetErrorString(status_)); \
      std::exit(2);                                                                                      \
    }                                                                                                    \
  } while (0)

using value_t = std::uint32_t;  // wraps on overflow: the sums of 2^32 elements stay checkable

struct random_value {
  std::uint32_t seed;
  __host__ __device__ value_t operator()(std::size_t i) const {
    std::uint32_t x = static_cast<std::uint32_t>(i) * 0x9E3779B9u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x | 1u;
  }
};
struct is_kept {  // about half
  __host__ __device__ bool operator()(value_t x) const { return (x & 2u) != 0; }
};

// Ranks 0 .. ranks-1 on devices 0 .. ranks-1: a communicator, a stream and a host thread each, kept
// for the whole run. run(task) calls task(rank) on every rank's thread and returns once all have.
class rank_threads {
 public:
  explicit rank_threads(int ranks) : comms_(static_cast<std::size_t>(ranks)), streams_(comms_.size()) {
    std::vector<int> devices(comms_.size());
    for (int r = 0; r < ranks; ++r) devices[static_cast<std::size_t>(r)] = r;
    FASTSCAN_BENCH_NCCL_CHECK(ncclCommInitAll(comms_.data(), ranks, devices.data()));
    for (int r = 0; r < ranks; ++r) {
      threads_.emplace_back([this, r] { serve(r); });
    }
    run([this](int r) { FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&streams_[static_cast<std::size_t>(r)], cudaStreamNonBlocking)); });
  }
  ~rank_threads() {
    run([this](int r) { cudaStreamDestroy(streams_[static_cast<std::size_t>(r)]); });
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
    for (auto c : comms_) ncclCommDestroy(c);
  }
  rank_threads(rank_threads const&) = delete;
  rank_threads& operator=(rank_threads const&) = delete;

  int ranks() const { return static_cast<int>(comms_.size()); }
  ncclComm_t comm(int r) const { return comms_[static_cast<std::size_t>(r)]; }
  cudaStream_t stream(int r) const { return streams_[static_cast<std::size_t>(r)]; }

  void run(std::function<void(int)> const& task) {
    std::unique_lock<std::mutex> lock(mutex_);
    task_ = &task;
    pending_ = ranks();
    ++generation_;
    wake_.notify_all();
    done_.wait(lock, [this] { return pending_ == 0; });
    task_ = nullptr;
  }

 private:
  void serve(int r) {
    FASTSCAN_BENCH_CHECK(cudaSetDevice(r));
    int seen = 0;
    for (;;) {
      std::function<void(int)> const* task = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        task = task_;
      }
      (*task)(r);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--pending_ == 0) done_.notify_all();
      }
    }
  }

  std::vector<ncclComm_t> comms_;
  std::vector<cudaStream_t> streams_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::function<void(int)> const* task_ = nullptr;
  int generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

rank_threads& ranks_of(int ranks) {
  static std::map<int, std::unique_ptr<rank_threads>> pools;
  auto& pool = pools[ranks];
  if (!pool) pool = std::make_unique<rank_threads>(ranks);
  return *pool;
}

// Rank r's part of n elements: [first(r), first(r + 1)), the remainder on the last rank.
struct sharding {
  std::size_t n;
  int ranks;
  std::size_t first(int r) const { return r == ranks ? n : n / static_cast<std::size_t>(ranks) * static_cast<std::size_t>(r); }
  std::size_t size(int r) const { return first(r + 1) - first(r); }
};

// Device buffers of one rank (allocated by its own thread, on its device).
struct shard_buffers {
  value_t* in = nullptr;
  value_t* out = nullptr;
  void allocate(std::size_t count) {
    FASTSCAN_BENCH_CHECK(cudaMalloc(&in, std::max<std::size_t>(count, 1) * sizeof(value_t)));
    FASTSCAN_BENCH_CHECK(cudaMalloc(&out, std::max<std::size_t>(count, 1) * sizeof(value_t)));
  }
  void release() {
    cudaFree(in);
    cudaFree(out);
    in = out = nullptr;
  }
};

// Elements first, first + 1, ... of the whole input, so that every layout sees the same data.
struct input_from {
  std::size_t first;
  __host__ __device__ value_t operator()(std::size_t i) const { return random_value{12345}(first + i); }
};
void fill(value_t* data, std::size_t first, std::size_t count, cudaStream_t stream) {
  thrust::tabulate(thrust::cuda::par.on(stream), data, data + count, input_from{first});
}

// Warm-up calls, then one call on every rank per iteration (`call(rank)` enqueues rank's on its stream,
// after `prepare(rank)`, untimed): an iteration takes the slowest rank's time, from CUDA events around
// its call.
void time_across(benchmark::State& state, rank_threads& pool, std::function<void(int)> const& call,
                 std::function<void(int)> const& prepare = {}) {
  const auto ranks = static_cast<std::size_t>(pool.ranks());
  std::vector<cudaEvent_t> start(ranks), stop(ranks);
  std::vector<float> ms(ranks);
  pool.run([&](int r) {
    FASTSCAN_BENCH_CHECK(cudaEventCreate(&start[static_cast<std::size_t>(r)]));
    FASTSCAN_BENCH_CHECK(cudaEventCreate(&stop[static_cast<std::size_t>(r)]));
  });
  auto one_call = [&](int r) {
    const auto ru = static_cast<std::size_t>(r);
    if (prepare) prepare(r);
    FASTSCAN_BENCH_CHECK(cudaEventRecord(start[ru], pool.stream(r)));
    call(r);
    FASTSCAN_BENCH_CHECK(cudaEventRecord(stop[ru], pool.stream(r)));
    FASTSCAN_BENCH_CHECK(cudaEventSynchronize(stop[ru]));
    FASTSCAN_BENCH_CHECK(cudaEventElapsedTime(&ms[ru], start[ru], stop[ru]));
  };
  for (int warm = 0; warm < 3; ++warm) pool.run(one_call);
  for (auto _ : state) {
    pool.run(one_call);
    const double seconds = *std::max_element(ms.begin(), ms.end()) / 1000.0;
    state.SetIterationTime(seconds);
    iteration_seconds().push_back(seconds);
  }
  pool.run([&](int r) {
    cudaEventDestroy(start[static_cast<std::size_t>(r)]);
    cudaEventDestroy(stop[static_cast<std::size_t>(r)]);
  });
}

// A sort's input: out = in (the sort works in place).
void copy_input(shard_buffers const& b, std::size_t count, cudaStream_t stream) {
  FASTSCAN_BENCH_CHECK(cudaMemcpyAsync(b.out, b.in, count * sizeof(value_t), cudaMemcpyDeviceToDevice, stream));
}

// A run whose result is wrong: reported as an error, without the counters of a timing.
void fail(benchmark::State& state, const char* what) {
  state.SkipWithError(what);
  iteration_seconds().clear();
}

enum class algorithm { exclusive_scan, copy_if, sort };

// What every rank calls in one iteration, on its shard.
void call_across(algorithm a, int r, rank_threads& pool, shard_buffers const& b, std::size_t count,
                 fastscan::shard_placement* placement) {
  const auto policy = fastscan::matrix_nosync.on(pool.stream(r)).across(pool.comm(r));
  if (a == algorithm::exclusive_scan) thrust::exclusive_scan(policy, b.in, b.in + count, b.out);
  else if (a == algorithm::copy_if) thrust::copy_if(policy.report_to(placement), b.in, b.in + count, b.out, is_kept{});
  else thrust::sort(policy, b.out, b.out + count);  // in place, on a copy of the input
}

// The call over `ranks` GPUs; ranks == 1 is a one-rank communicator. Checks each rank's result against
// the whole input's (the scan's last element per rank, the compaction's placement) after timing.
void across_gpus(benchmark::State& state, algorithm a, int ranks, std::size_t n) {
  rank_threads& pool = ranks_of(ranks);
  const sharding shards{n, ranks};
  std::vector<shard_buffers> buffers(static_cast<std::size_t>(ranks));
  std::vector<fastscan::shard_placement> placements(buffers.size());
  pool.run([&](int r) {
    const auto ru = static_cast<std::size_t>(r);
    buffers[ru].allocate(shards.size(r));
    fill(buffers[ru].in, shards.first(r), shards.size(r), pool.stream(r));
    FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(pool.stream(r)));
  });
  time_across(
      state, pool,
      [&](int r) {
        const auto ru = static_cast<std::size_t>(r);
        call_across(a, r, pool, buffers[ru], shards.size(r), &placements[ru]);
      },
      [&](int r) {
        const auto ru = static_cast<std::size_t>(r);
        if (a == algorithm::sort) copy_input(buffers[ru], shards.size(r), pool.stream(r));
      });
  // The check: every rank's scan ends at the sum of everything up to its shard's end; the compaction's
  // placements count the kept elements below each rank.
  std::vector<unsigned long long> sums(buffers.size()), kept(buffers.size()), sorted_sums(buffers.size());
  std::vector<value_t> last_out(buffers.size()), first_out(buffers.size());
  std::vector<int> sorted(buffers.size(), 1);
  pool.run([&](int r) {
    const auto ru = static_cast<std::size_t>(r);
    const auto local = thrust::cuda::par.on(pool.stream(r));
    const std::size_t count = shards.size(r);
    sums[ru] = count ? thrust::reduce(local, buffers[ru].in, buffers[ru].in + count, value_t{0}) : 0;
    kept[ru] = count ? static_cast<unsigned long long>(thrust::count_if(local, buffers[ru].in, buffers[ru].in + count, is_kept{})) : 0;
    if (count) {
      FASTSCAN_BENCH_CHECK(cudaMemcpy(&last_out[ru], buffers[ru].out + count - 1, sizeof(value_t), cudaMemcpyDeviceToHost));
      FASTSCAN_BENCH_CHECK(cudaMemcpy(&first_out[ru], buffers[ru].out, sizeof(value_t), cudaMemcpyDeviceToHost));
      if (a == algorithm::sort) {
        sorted[ru] = thrust::is_sorted(local, buffers[ru].out, buffers[ru].out + count) ? 1 : 0;
        // The ranks' outputs together hold the input's elements: their sums, over all ranks, agree.
        sorted_sums[ru] = thrust::reduce(local, buffers[ru].out, buffers[ru].out + count, value_t{0});
      }
    }
  });
  value_t below = 0;
  unsigned long long kept_below = 0, kept_total = 0;
  for (auto k : kept) kept_total += k;
  for (int r = 0; r < ranks; ++r) {
    const auto ru = static_cast<std::size_t>(r);
    const std::size_t count = shards.size(r);
    const value_t through = static_cast<value_t>(below + static_cast<value_t>(sums[ru]));  // scans only
    if (a == algorithm::exclusive_scan && count) {
      value_t last_in = random_value{12345}(shards.first(r) + count - 1);
      if (static_cast<value_t>(last_out[ru] + last_in) != through) fail(state, "wrong scan result across GPUs");
    }
    if (a == algorithm::sort && (!sorted[ru] ||
                                 (r > 0 && count && shards.size(r - 1) && last_out[ru - 1] > first_out[ru])))
      fail(state, "wrong sort across GPUs");
    if (a == algorithm::copy_if &&
        (placements[ru].offset != static_cast<long long>(kept_below) || placements[ru].total != static_cast<long long>(kept_total)))
      fail(state, "wrong compaction placement across GPUs");
    below = through;
    kept_below += kept[ru];
  }
  value_t sorted_total = 0;
  for (auto t : sorted_sums) sorted_total = static_cast<value_t>(sorted_total + static_cast<value_t>(t));
  if (a == algorithm::sort && sorted_total != below) fail(state, "a sort across GPUs lost or changed elements");
  pool.run([&](int r) { buffers[static_cast<std::size_t>(r)].release(); });
}

// The whole input on GPU 0, fastscan's one-GPU call; with `gathered_from` > 1, every iteration first
// copies the shards of that many GPUs to GPU 0 (the time of the copies counts).
void one_gpu(benchmark::State& state, algorithm a, int gathered_from, std::size_t n) {
  rank_threads& pool = ranks_of(std::max(gathered_from, 1));
  const sharding shards{n, std::max(gathered_from, 1)};
  std::vector<shard_buffers> buffers(static_cast<std::size_t>(pool.ranks()));
  pool.run([&](int r) {
    if (r == 0 || gathered_from <= 1) return;
    const auto ru = static_cast<std::size_t>(r);
    buffers[ru].allocate(shards.size(r));
    fill(buffers[ru].in, shards.first(r), shards.size(r), pool.stream(r));
    FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(pool.stream(r)));
  });
  FASTSCAN_BENCH_CHECK(cudaSetDevice(0));
  for (int r = 1; r < pool.ranks(); ++r) {
    const cudaError_t status = cudaDeviceEnablePeerAccess(r, 0);
    if (status != cudaSuccess && status != cudaErrorPeerAccessAlreadyEnabled) FASTSCAN_BENCH_CHECK(status);
    cudaGetLastError();
  }
  cudaStream_t stream;
  FASTSCAN_BENCH_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  shard_buffers whole;
  whole.allocate(n);
  fill(whole.in, 0, n, stream);
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  // A sort works in place on `out`, written again from `in` before each call (untimed); the gathered
  // shards land where the call reads.
  value_t* gathered = a == algorithm::sort ? whole.out : whole.in;
  auto prepare = [&] {
    if (a == algorithm::sort) copy_input(whole, n, stream);
  };
  auto run_once = [&] {
    for (int r = 1; r < pool.ranks(); ++r) {
      FASTSCAN_BENCH_CHECK(cudaMemcpyPeerAsync(gathered + shards.first(r), 0, buffers[static_cast<std::size_t>(r)].in, r,
                                               shards.size(r) * sizeof(value_t), stream));
    }
    if (a == algorithm::exclusive_scan) thrust::exclusive_scan(fastscan::matrix_nosync.on(stream), whole.in, whole.in + n, whole.out);
    else if (a == algorithm::copy_if) thrust::copy_if(fastscan::matrix.on(stream), whole.in, whole.in + n, whole.out, is_kept{});
    else thrust::sort(fastscan::matrix_nosync.on(stream), whole.out, whole.out + n);
  };
  for (int warm = 0; warm < 2; ++warm) {
    prepare();
    run_once();
  }
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  for (auto _ : state) {
    prepare();
    event_timer timer(state, stream);
    run_once();
  }
  FASTSCAN_BENCH_CHECK(cudaStreamSynchronize(stream));
  FASTSCAN_BENCH_CHECK(cudaGetLastError());
  whole.release();
  cudaStreamDestroy(stream);
  pool.run([&](int r) { buffers[static_cast<std::size_t>(r)].release(); });
}

// NCCL's all-to-all of the bytes a sort of n elements over `ranks` GPUs sends when every rank's keys
// spread evenly over all ranks: n / ranks^2 elements from each rank to each other rank.
void all_to_all(benchmark::State& state, int ranks, std::size_t n) {
  rank_threads& pool = ranks_of(ranks);
  const sharding shards{n, ranks};
  std::vector<shard_buffers> buffers(static_cast<std::size_t>(ranks));
  const std::size_t piece = n / static_cast<std::size_t>(ranks) / static_cast<std::size_t>(ranks);
  pool.run([&](int r) { buffers[static_cast<std::size_t>(r)].allocate(shards.size(r)); });
  time_across(state, pool, [&](int r) {
    shard_buffers const& b = buffers[static_cast<std::size_t>(r)];
    FASTSCAN_BENCH_NCCL_CHECK(ncclGroupStart());
    for (int d = 0; d < ranks; ++d) {
      if (d == r) continue;
      const std::size_t at = piece * static_cast<std::size_t>(d);
      FASTSCAN_BENCH_NCCL_CHECK(ncclSend(b.in + at, piece * sizeof(value_t), ncclUint8, d, pool.comm(r), pool.stream(r)));
      FASTSCAN_BENCH_NCCL_CHECK(ncclRecv(b.out + at, piece * sizeof(value_t), ncclUint8, d, pool.comm(r), pool.stream(r)));
    }
    FASTSCAN_BENCH_NCCL_CHECK(ncclGroupEnd());
  });
  pool.run([&](int r) { buffers[static_cast<std::size_t>(r)].release(); });
}

// Latency: NCCL's all-gather of the 16-byte record a scan of 4-byte values exchanges, on every rank.
void all_gather_latency(benchmark::State& state, int ranks) {
  rank_threads& pool = ranks_of(ranks);
  std::vector<char*> records(static_cast<std::size_t>(ranks));
  constexpr std::size_t record_bytes = 16;
  const std::size_t all_bytes = record_bytes * static_cast<std::size_t>(ranks + 1);  // every rank's, then its own
  pool.run([&](int r) {
    FASTSCAN_BENCH_CHECK(cudaMalloc(&records[static_cast<std::size_t>(r)], all_bytes));
    FASTSCAN_BENCH_CHECK(cudaMemset(records[static_cast<std::size_t>(r)], 1, all_bytes));
  });
  time_across(state, pool, [&](int r) {
    char* all = records[static_cast<std::size_t>(r)];
    FASTSCAN_BENCH_NCCL_CHECK(ncclAllGather(all + all_bytes - record_bytes, all, record_bytes, ncclUint8, pool.comm(r), pool.stream(r)));
  });
  pool.run([&](int r) { cudaFree(records[static_cast<std::size_t>(r)]); });
}

// Summary rows: (algorithm, n) -> contender -> (GB/s, median us).
std::map<std::tuple<std::string, std::size_t>, std::map<std::string, std::pair<double, double>>> summary;
std::vector<std::string> contender_order;

class summary_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(std::vector<Run> const& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (auto const& run : runs) {
      const std::string name = run.run_name.function_name;  // algorithm/type/contender/n
      const auto first = name.find('/'), second = name.find('/', first + 1), third = name.find('/', second + 1);
      const auto gbps = run.counters.find("median_GBps");
      const auto us = run.counters.find("median_us");
      if (third == std::string::npos || gbps == run.counters.end()) continue;  // no counters: the run failed its check
      const std::string contender = name.substr(second + 1, third - second - 1);
      summary[{name.substr(0, first), std::stoull(name.substr(third + 1))}][contender] = {gbps->second.value, us->second.value};
      if (std::find(contender_order.begin(), contender_order.end(), contender) == contender_order.end())
        contender_order.push_back(contender);
    }
  }
};

void register_all(int devices) {
  std::vector<int> rank_counts;
  for (int r = 1; r <= devices; r *= 2) rank_counts.push_back(r);
  if (rank_counts.back() != devices) rank_counts.push_back(devices);
  const std::vector<std::size_t> sizes = {std::size_t{1} << 28, std::size_t{1} << 30, std::size_t{1} << 32};
  auto add = [](std::string const& name, double bytes, double min_seconds, std::function<void(benchmark::State&)> body) {
    benchmark::RegisterBenchmark(name.c_str(),
                                 [=](benchmark::State& state) {
                                   iteration_seconds().clear();
                                   body(state);
                                   report_median(state, bytes);
                                 })
        ->UseManualTime()
        ->MinTime(min_seconds)
        ->Unit(benchmark::kMicrosecond);
  };
  for (auto const& [algo, label] : {std::pair{algorithm::exclusive_scan, "across_gpus_exclusive_scan"},
                                    std::pair{algorithm::copy_if, "across_gpus_copy_if"},
                                    std::pair{algorithm::sort, "across_gpus_sort"}}) {
    const algorithm a = algo;  // a lambda captures variables, not structured bindings (C++17)
    for (std::size_t n : sizes) {
      // copy_if reads n and writes about n / 2 elements.
      const double bytes = (a == algorithm::copy_if ? 1.5 : 2.0) * static_cast<double>(n) * sizeof(value_t);
      const std::string tail = "/" + std::to_string(n);
      add(std::string(label) + "/uint32/one_gpu" + tail, bytes, 0.2, [=](benchmark::State& s) { one_gpu(s, a, 1, n); });
      for (int r : rank_counts)
        add(std::string(label) + "/uint32/fastscan_" + std::to_string(r) + "gpu" + tail, bytes, 0.2,
            [=](benchmark::State& s) { across_gpus(s, a, r, n); });
      if (devices > 1)
        add(std::string(label) + "/uint32/gather_" + std::to_string(devices) + "gpu_to_one" + tail, bytes, 0.2,
            [=](benchmark::State& s) { one_gpu(s, a, devices, n); });
      if (a == algorithm::sort)
        for (int r : rank_counts)
          if (r > 1)
            add(std::string(label) + "/uint32/nccl_all_to_all_" + std::to_string(r) + "gpu" + tail, bytes, 0.2,
                [=](benchmark::State& s) { all_to_all(s, r, n); });
    }
  }
  for (int r : rank_counts) {
    // A call on one element a rank: the exchange's round trip and the local launches around it.
    add("across_gpus_latency/uint32/fastscan_" + std::to_string(r) + "gpu/" + std::to_string(r), 8.0 * r, 0.05,
        [=](benchmark::State& s) { across_gpus(s, algorithm::exclusive_scan, r, static_cast<std::size_t>(r)); });
    add("across_gpus_latency/record16/nccl_all_gather_" + std::to_string(r) + "gpu/" + std::to_string(r), 16.0 * r, 0.05,
        [=](benchmark::State& s) { all_gather_latency(s, r); });
  }
}

void print_summary(std::string const& device, int devices) {
  std::printf("\n%d x %s: GB/s over all GPUs (bytes the call must move / median iteration time) [x one_gpu], "
              "median us\n",
              devices, device.c_str());
  std::printf("%-28s %11s", "algorithm", "n");
  for (auto const& c : contender_order) std::printf(" %30s", c.c_str());
  std::printf("\n");
  for (auto const& [key, by_contender] : summary) {
    std::printf("%-28s %11zu", std::get<0>(key).c_str(), std::get<1>(key));
    const auto base = by_contender.find("one_gpu");
    for (auto const& c : contender_order) {
      auto it = by_contender.find(c);
      if (it == by_contender.end()) std::printf(" %30s", "-");
      else if (base == by_contender.end()) std::printf(" %8.1f [   - ] %11.1f us", it->second.first, it->second.second);
      else std::printf(" %8.1f [%5.2f] %11.1f us", it->second.first, it->second.first / base->second.first, it->second.second);
    }
    std::printf("\n");
  }
}

}  // namespace
}  // namespace fastscan_bench

int main(int argc, char** argv) {
  using namespace fastscan_bench;
  if (printed_help(argc, argv,
                   "fastscan_nccl_bench [Google Benchmark flags]\n"
                   "  exclusive_scan, copy_if and sort of 2^28, 2^30 and 2^32 4-byte integers across 1, 2, 4 ... of\n"
                   "  this host's GPUs (fastscan::matrix_nosync.on(stream).across(comm), one rank a GPU), against\n"
                   "  fastscan on one GPU with the whole input and against copying every shard to GPU 0 first; NCCL's\n"
                   "  all-to-all of the bytes a sort sends; and the latency of a call on one element a rank beside\n"
                   "  NCCL's all-gather of its 16-byte record."))
    return 0;
  const int devices = usable_devices("fastscan_nccl_bench");
  if (devices == 0) return 1;
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  cudaDeviceProp prop{};
  FASTSCAN_BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int nccl_version = 0;
  ncclGetVersion(&nccl_version);
  std::printf("devices: %d x %s, %d SMs each; NCCL %d\n", devices, prop.name, prop.multiProcessorCount, nccl_version);
  register_all(devices);
  benchmark::Initialize(&argc, argv);
  summary_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  print_summary(prop.name, devices);
  benchmark::Shutdown();
  return 0;
}
