#pragma once
// What the distributed algorithms exchange, and how: every rank publishes one small record of its shard
// (its count, its total, its boundary keys) with ncclAllGather on the local policy's stream; each rank
// then folds the records of the ranks below it, in rank order, on the device (the operator may be
// device-only), and takes the result to the host as the initial value of its local call. The fold's
// order is fixed by the ranks alone, so a deterministic local policy stays deterministic across ranks.

#include <fastscan/detail/dispatch/grid_plan.cuh>
#include <fastscan/detail/distributed/distributed_policy.cuh>
#include <fastscan/detail/last_value_sink.cuh>

#include <thrust/system/cuda/detail/util.h>

#include <cstddef>
#include <type_traits>
#include <vector>

namespace fastscan::detail {

template <class T>
constexpr bool exchangeable = std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>;

struct rank_layout {
  int rank = 0;
  int ranks = 1;
};

template <class Local>
rank_layout layout_of(distributed_policy<Local> const& policy, const char* call) {
  rank_layout layout;
  throw_if_failed(ncclCommUserRank(policy.comm, &layout.rank), call, "ncclCommUserRank");
  throw_if_failed(ncclCommCount(policy.comm, &layout.ranks), call, "ncclCommCount");
  return layout;
}

template <class Local>
cudaStream_t stream_of(distributed_policy<Local> const& policy) {
  return thrust::cuda_cub::stream(const_cast<Local&>(policy.local));
}

// Device memory for the records, stream-ordered.
template <class Record>
class record_buffer {
 public:
  template <class Local>
  record_buffer(distributed_policy<Local> const& policy, std::size_t count, const char* call) : stream_(stream_of(policy)) {
    throw_if_failed(cudaMallocAsync(reinterpret_cast<void**>(&data_), count * sizeof(Record), stream_), policy, call,
                    "allocating the exchange's records");
  }
  ~record_buffer() { cudaFreeAsync(data_, stream_); }
  record_buffer(record_buffer const&) = delete;
  record_buffer& operator=(record_buffer const&) = delete;
  Record* get() const { return data_; }

 private:
  Record* data_ = nullptr;
  cudaStream_t stream_;
};

// Every rank's record (`mine`, on the device) gathered into `all` (ranks records, rank order).
template <class Local, class Record>
void all_gather(distributed_policy<Local> const& policy, Record const* mine, Record* all, const char* call) {
  throw_if_failed(ncclAllGather(mine, all, sizeof(Record), ncclUint8, policy.comm, stream_of(policy)), call,
                  "ncclAllGather of the shards' records");
}

// A value computed on the device, to the host (waits for the stream).
template <class T, class Local>
T to_host(distributed_policy<Local> const& policy, T const* value, const char* call) {
  T result;
  throw_if_failed(cudaMemcpyAsync(&result, value, sizeof(T), cudaMemcpyDeviceToHost, stream_of(policy)), policy, call,
                  "copying the carry to the host");
  throw_if_failed(cudaStreamSynchronize(stream_of(policy)), policy, call, "waiting for the exchange");
  return result;
}

// A host value to the device record field `target` (pageable: the copy is staged before this returns).
template <class T, class Local>
void to_device(distributed_policy<Local> const& policy, T const& value, T* target, const char* call) {
  throw_if_failed(cudaMemcpyAsync(target, &value, sizeof(T), cudaMemcpyHostToDevice, stream_of(policy)), policy, call,
                  "writing the shard's record");
}

// Every rank's count (`mine` from this rank), gathered in rank order to the host (waits for the stream).
template <class Local>
std::vector<long long> gather_counts(distributed_policy<Local> const& policy, rank_layout layout, long long mine,
                                     const char* call) {
  record_buffer<long long> counts(policy, static_cast<std::size_t>(layout.ranks) + 1, call);
  to_device(policy, mine, counts.get() + layout.ranks, call);
  all_gather(policy, counts.get() + layout.ranks, counts.get(), call);
  std::vector<long long> all(static_cast<std::size_t>(layout.ranks));
  throw_if_failed(cudaMemcpyAsync(all.data(), counts.get(), all.size() * sizeof(long long), cudaMemcpyDeviceToHost,
                                  stream_of(policy)),
                  policy, call, "copying the ranks' counts to the host");
  throw_if_failed(cudaStreamSynchronize(stream_of(policy)), policy, call, "waiting for the exchange");
  return all;
}

template <class T>
struct carry {
  T value;
  int present;  // 0: nothing below this rank (and no initial value) to fold
};

}  // namespace fastscan::detail
