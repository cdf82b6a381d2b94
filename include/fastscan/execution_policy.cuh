#pragma once
// fastscan's execution policies. Each is a Thrust CUDA policy (so every algorithm fastscan does not
// override runs on Thrust's CUDA backend), with a root base of its own that fastscan's overloads bind to.
//
//   fastscan::matrix, fastscan::blelloch, fastscan::hillis_steele       blocking, like thrust::cuda::par
//   fastscan::matrix_nosync, ..._nosync                                 like thrust::cuda::par_nosync
//   fastscan::matrix_deterministic, ..._deterministic(_nosync)          bitwise-identical results run to run
//   fastscan::matrix_multi_pass, ..._multi_pass(_nosync)                the papers' multi-pass drivers
//   policy.on(stream), policy(allocator), policy(allocator).on(stream)
//   policy.across(comm)                   the same policy over the shards of an NCCL communicator: each
//                                         rank passes its shard and gets the algorithm's result over all
//                                         shards in rank order (include <fastscan/nccl.cuh>)
//
// The plain policies scan in a single pass (decoupled look-back): which earlier tiles' totals a tile
// combines depends on timing, so floating-point results may differ in the last bits from run to run
// (as with CUB's scans). The _deterministic policies run the same single pass with each tile's prefix
// combined in a shape fixed by the tile's index: the same input gives the same bits every time. The
// _multi_pass policies are the papers' multi-pass drivers (matrix: reduce-then-scan; the trees:
// scan-then-propagate), deterministic too, kept for the papers' experiments.

#include <fastscan/detail/tuning/tuning_scan.cuh>

#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/detail/execute_with_allocator.h>
#include <thrust/system/cuda/detail/execution_policy.h>
#include <thrust/system/cuda/detail/util.h>

#include <string>
#include <type_traits>

namespace fastscan {

// Where a rank's part of a distributed compaction lies in the whole result: `offset` elements selected
// on the ranks below it, `total` selected on all ranks (policy.across(comm).report_to(&placement)).
struct shard_placement {
  long long offset = 0;
  long long total = 0;
};

namespace detail {

// How policy.across(comm) makes a distributed policy for a communicator type; defined for ncclComm_t
// by <fastscan/nccl.cuh> (an incomplete type here: .across needs that header).
template <class Comm>
struct communicator_traits;

// Root of every fastscan policy. Thrust finds algorithm overloads by argument-dependent lookup on
// the most-derived policy type; overloads taking this base bind more tightly than the CUDA
// backend's (which take thrust::cuda_cub::execution_policy<Derived>&), so they win.
template <class Derived, class Algorithm>
struct execution_policy : thrust::cuda_cub::execution_policy<Derived> {
  using algorithm = Algorithm;
};

template <class Algorithm, bool Blocking>
struct policy_family {
  // CRTP base that carries a stream, for `.on(stream)` and for policies made with an allocator.
  template <class Derived>
  struct stream_base : execution_policy<Derived, Algorithm> {
    stream_base(cudaStream_t stream = thrust::cuda_cub::default_stream()) : stream_(stream) {}

    Derived on(cudaStream_t stream) const {
      Derived result = static_cast<Derived const&>(*this);
      result.stream_ = stream;
      return result;
    }

    template <class Comm>
    auto across(Comm comm) const {
      return communicator_traits<Comm>::across(static_cast<Derived const&>(*this), comm);
    }

   private:
    cudaStream_t stream_;

    friend cudaStream_t get_stream(stream_base const& policy) { return policy.stream_; }
    friend bool must_perform_optional_stream_synchronization(stream_base const&) { return Blocking; }
  };

  struct stream_policy : stream_base<stream_policy> {
    explicit stream_policy(cudaStream_t stream) : stream_base<stream_policy>(stream) {}
  };

  // The stateless policy object users name; `(alloc)` comes from Thrust's allocator-aware base.
  struct policy : execution_policy<policy, Algorithm>,
                  thrust::detail::allocator_aware_execution_policy<stream_base> {
    constexpr policy() = default;

    stream_policy on(cudaStream_t stream) const { return stream_policy(stream); }

    template <class Comm>
    auto across(Comm comm) const {
      return communicator_traits<Comm>::across(*this, comm);
    }

   private:
    friend bool must_perform_optional_stream_synchronization(policy const&) { return Blocking; }
  };
};

template <class Algorithm>
using blocking_policy = typename policy_family<Algorithm, true>::policy;
template <class Algorithm>
using nosync_policy = typename policy_family<Algorithm, false>::policy;

template <class Policy>
struct made_with_allocator : std::false_type {};
template <class Allocator, template <class> class Base>
struct made_with_allocator<thrust::detail::execute_with_allocator<Allocator, Base>> : std::true_type {};

// A policy as the user spelled it, for messages: "fastscan::matrix_nosync(allocator).on(stream)".
template <class Algorithm, class Derived>
std::string policy_spelling(Derived& policy) {
  std::string spelling = Algorithm::name;
  if (!thrust::cuda_cub::must_perform_optional_synchronization(policy)) spelling += "_nosync";
  if (made_with_allocator<std::remove_cv_t<Derived>>::value) spelling += "(allocator)";
  if (thrust::cuda_cub::stream(policy) != thrust::cuda_cub::default_stream()) spelling += ".on(stream)";
  return spelling;
}

}  // namespace detail

// Every flavour of a block algorithm's policies from one description, its drivers (tuning_scan.cuh).
// For `name` this declares the policy types name_policy, name_nosync_policy,
// name_deterministic_policy, name_deterministic_nosync_policy, name_multi_pass_policy,
// name_multi_pass_nosync_policy, their objects (name, name_nosync, ...), and the algorithm types
// device_scan takes (name_algorithm, name_deterministic_algorithm, name_multi_pass_algorithm).
#define FASTSCAN_DECLARE_POLICIES(name, drivers)                                                    \
  using name##_algorithm = drivers::single_pass;                                                    \
  using name##_deterministic_algorithm = drivers::deterministic;                                    \
  using name##_multi_pass_algorithm = drivers::multi_pass;                                          \
  using name##_policy = detail::blocking_policy<name##_algorithm>;                                  \
  using name##_nosync_policy = detail::nosync_policy<name##_algorithm>;                             \
  using name##_deterministic_policy = detail::blocking_policy<name##_deterministic_algorithm>;      \
  using name##_deterministic_nosync_policy = detail::nosync_policy<name##_deterministic_algorithm>; \
  using name##_multi_pass_policy = detail::blocking_policy<name##_multi_pass_algorithm>;            \
  using name##_multi_pass_nosync_policy = detail::nosync_policy<name##_multi_pass_algorithm>;       \
  inline constexpr name##_policy name{};                                                            \
  inline constexpr name##_nosync_policy name##_nosync{};                                            \
  inline constexpr name##_deterministic_policy name##_deterministic{};                              \
  inline constexpr name##_deterministic_nosync_policy name##_deterministic_nosync{};                \
  inline constexpr name##_multi_pass_policy name##_multi_pass{};                                    \
  inline constexpr name##_multi_pass_nosync_policy name##_multi_pass_nosync{};

// The block algorithms, one line each.
FASTSCAN_DECLARE_POLICIES(matrix, detail::matrix_drivers)
FASTSCAN_DECLARE_POLICIES(blelloch, detail::blelloch_drivers)
FASTSCAN_DECLARE_POLICIES(hillis_steele, detail::hillis_steele_drivers)

#undef FASTSCAN_DECLARE_POLICIES

}  // namespace fastscan
