#pragma once
// fastscan's execution policies. Each is a Thrust CUDA policy (so every algorithm fastscan does not
// override runs on Thrust's CUDA backend), with a root base of its own that fastscan's overloads bind to.
//
//   fastscan::matrix, fastscan::blelloch, fastscan::hillis_steele       blocking, like thrust::cuda::par
//   fastscan::matrix_nosync, ..._nosync                                 like thrust::cuda::par_nosync
//   fastscan::matrix_deterministic, ..._deterministic(_nosync)          bitwise-identical results run to run
//   policy.on(stream), policy(allocator), policy(allocator).on(stream)
//
// The plain policies scan in a single pass (decoupled look-back): the fastest, but which earlier tiles'
// totals a tile combines depends on timing, so floating-point results may differ in the last bits from
// run to run (as with CUB's scans). The _deterministic policies use the multi-pass drivers, whose order
// of combination is fixed: the same input gives the same bits every time.

#include <fastscan/detail/tuning.cuh>

#include <thrust/detail/allocator_aware_execution_policy.h>
#include <thrust/detail/execute_with_allocator.h>
#include <thrust/system/cuda/detail/execution_policy.h>
#include <thrust/system/cuda/detail/util.h>

#include <string>
#include <type_traits>

namespace fastscan {
namespace detail {

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

namespace detail {
using matrix_single_pass = matrix_algorithm<>;
using matrix_deterministic = matrix_algorithm<true, column_scan::warp_matrix, multi_block::reduce_then_scan>;
using blelloch_single_pass = blelloch_algorithm<>;
using blelloch_deterministic = blelloch_algorithm<multi_block::scan_then_propagate>;
using hillis_steele_single_pass = hillis_steele_algorithm<>;
using hillis_steele_deterministic = hillis_steele_algorithm<multi_block::scan_then_propagate>;
}  // namespace detail

using matrix_policy = detail::blocking_policy<detail::matrix_single_pass>;
using blelloch_policy = detail::blocking_policy<detail::blelloch_single_pass>;
using hillis_steele_policy = detail::blocking_policy<detail::hillis_steele_single_pass>;
using matrix_nosync_policy = detail::nosync_policy<detail::matrix_single_pass>;
using blelloch_nosync_policy = detail::nosync_policy<detail::blelloch_single_pass>;
using hillis_steele_nosync_policy = detail::nosync_policy<detail::hillis_steele_single_pass>;
using matrix_deterministic_policy = detail::blocking_policy<detail::matrix_deterministic>;
using blelloch_deterministic_policy = detail::blocking_policy<detail::blelloch_deterministic>;
using hillis_steele_deterministic_policy = detail::blocking_policy<detail::hillis_steele_deterministic>;
using matrix_deterministic_nosync_policy = detail::nosync_policy<detail::matrix_deterministic>;
using blelloch_deterministic_nosync_policy = detail::nosync_policy<detail::blelloch_deterministic>;
using hillis_steele_deterministic_nosync_policy = detail::nosync_policy<detail::hillis_steele_deterministic>;

inline constexpr matrix_policy matrix{};
inline constexpr blelloch_policy blelloch{};
inline constexpr hillis_steele_policy hillis_steele{};
inline constexpr matrix_nosync_policy matrix_nosync{};
inline constexpr blelloch_nosync_policy blelloch_nosync{};
inline constexpr hillis_steele_nosync_policy hillis_steele_nosync{};
inline constexpr matrix_deterministic_policy matrix_deterministic{};
inline constexpr blelloch_deterministic_policy blelloch_deterministic{};
inline constexpr hillis_steele_deterministic_policy hillis_steele_deterministic{};
inline constexpr matrix_deterministic_nosync_policy matrix_deterministic_nosync{};
inline constexpr blelloch_deterministic_nosync_policy blelloch_deterministic_nosync{};
inline constexpr hillis_steele_deterministic_nosync_policy hillis_steele_deterministic_nosync{};

}  // namespace fastscan
