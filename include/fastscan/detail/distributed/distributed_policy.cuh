#pragma once
// policy.across(comm): a fastscan policy (the local one: algorithm, stream, allocator, blocking or not)
// with an NCCL communicator. Each rank calls a Thrust algorithm with it on its own shard; the result is
// the algorithm's over the concatenation of every rank's shard in rank order. Only the algorithms that
// <fastscan/nccl.cuh> overrides take it: it is not a CUDA policy, so any other Thrust algorithm fails to
// compile rather than run on the local shard alone.

#include <fastscan/execution_policy.cuh>

#include <thrust/execution_policy.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

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

// Errors as Thrust's CUDA backend raises them (thrust::system_error), saying which step failed.
inline void throw_if_failed(cudaError_t status, const char* call, const char* step) {
  if (status != cudaSuccess)
    throw thrust::system_error(status, thrust::cuda_category(), std::string("fastscan ") + call + " across(comm): " + step);
}
inline void throw_if_failed(ncclResult_t status, const char* call, const char* step) {
  if (status != ncclSuccess) {
    throw std::runtime_error(std::string("fastscan ") + call + " across(comm): " + step + ": " + ncclGetErrorString(status) +
                             (status == ncclSystemError || status == ncclRemoteError ? std::string(" (") + ncclGetLastError(nullptr) + ")" : ""));
  }
}

}  // namespace fastscan::detail
