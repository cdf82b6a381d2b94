#pragma once
// policy.across(comm): a fastscan policy (the local one: algorithm, stream, allocator, blocking or not)
// with an NCCL communicator. Each rank calls a Thrust algorithm with it on its own shard; the result is
// the algorithm's over the concatenation of every rank's shard in rank order. Only the algorithms that
// <fastscan/nccl.cuh> overrides take it: it is not a CUDA policy, so any other Thrust algorithm fails to
// compile rather than run on the local shard alone.

#include <fastscan/detail/thrust/launch.cuh>
#include <fastscan/execution_policy.cuh>

#include <thrust/execution_policy.h>

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace fastscan::detail {

template <class Local>
struct distributed_policy : thrust::execution_policy<distributed_policy<Local>> {
  Local local;                           // the policy every local step runs with
  ncclComm_t comm;
  shard_placement* report = nullptr;     // where compactions report this rank's placement

  distributed_policy(Local const& local_policy, ncclComm_t communicator) : local(local_policy), comm(communicator) {}

  // The same policy, reporting each compaction's placement (offset on lower ranks, total) to *where.
  distributed_policy report_to(shard_placement* where) const {
    distributed_policy result = *this;
    result.report = where;
    return result;
  }
};

template <>
struct communicator_traits<ncclComm_t> {
  template <class Local>
  static distributed_policy<Local> across(Local const& local, ncclComm_t comm) {
    return distributed_policy<Local>(local, comm);
  }
};

// CUDA errors as every fastscan call raises them (thrust/launch.cuh), naming the local policy, the call
// and the step that failed.
template <class Local>
void throw_if_failed(cudaError_t status, distributed_policy<Local> const& policy, const char* call, const char* step) {
  if (status != cudaSuccess) {
    Local local = policy.local;
    throw_if_failed<typename Local::algorithm>(status, local, (std::string(call) + " across(comm)").c_str(), step);
  }
}

// The shard's length, or the shared error for a range whose last precedes its first.
template <class Local, class It>
long long shard_length(distributed_policy<Local> const& policy, It first, It last, const char* call) {
  Local local = policy.local;
  return static_cast<long long>(checked_length<typename Local::algorithm>(local, first, last, call));
}

// NCCL errors, with NCCL's own message.
inline void throw_if_failed(ncclResult_t status, const char* call, const char* step) {
  if (status != ncclSuccess) {
    throw std::runtime_error(std::string("fastscan ") + call + " across(comm): " + step + ": " + ncclGetErrorString(status) +
                             (status == ncclSystemError || status == ncclRemoteError ? std::string(" (") + ncclGetLastError(nullptr) + ")" : ""));
  }
}

}  // namespace fastscan::detail
