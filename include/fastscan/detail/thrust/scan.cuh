#pragma once
// Overloads of Thrust's scan algorithms for fastscan policies, every arity. Thrust's CUDA backend
// forwards its shorter arities through qualified cuda_cub:: calls, so each arity is overridden here
// and forwards to fastscan's own. Accumulator types follow Thrust 3.0's CUDA backend exactly:
//   inclusive_scan without init: the input's value type
//   inclusive_scan with init:    decay(op(init, value))   (P2322)
//   exclusive_scan:              the init's type; without init, value_type{} with plus
//   transform scans:             the same, over transform_iterator<unary, first, value_type, value_type>
// Host-only by design: a host/device override would compile into an empty kernel.

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_scan.cuh>
#include <fastscan/detail/thrust/temporary_buffer.cuh>
#include <fastscan/execution_policy.cuh>

#include <thrust/detail/temporary_array.h>
#include <thrust/distance.h>
#include <thrust/functional.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/system/cuda/detail/util.h>
#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>

#include <cuda/std/functional>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cstdint>
#include <string>

namespace fastscan::detail {

// Counts scans dispatched to fastscan on this thread: lets tests see, without a GPU, that a Thrust
// call reached fastscan rather than Thrust's CUDA backend.
inline unsigned long long& scans_dispatched() {
  thread_local unsigned long long count = 0;
  return count;
}

// Throws as Thrust's CUDA backend does when `status` is an error, naming the policy, the call and the
// step that failed. The message is built only on failure: a call's host time matters at small n.
template <class Algorithm, class Derived>
void throw_if_failed(cudaError_t status, Derived& policy, const char* algorithm_call, const char* step) {
  if (status != cudaSuccess) {
    thrust::cuda_cub::throw_on_error(
        status, (policy_spelling<Algorithm>(policy) + " " + algorithm_call + ": " + step).c_str());
  }
}

// The range length, or a clear error for a range whose last precedes its first.
template <class Algorithm, class Derived, class It>
offset_t checked_length(Derived& policy, It first, It last, const char* algorithm_call) {
  const auto distance = ::cuda::std::distance(first, last);
  if (distance < 0) {
    throw thrust::system_error(cudaErrorInvalidValue, thrust::cuda_category(),
                               policy_spelling<Algorithm>(policy) + " " + algorithm_call +
                                   ": last precedes first (negative range length)");
  }
  return static_cast<offset_t>(distance);
}

// Plans temporary storage with a measuring pass of `dispatch(arena, stream)`, allocates it through the
// policy (the stream-ordered pool, or the user's allocator), launches, then synchronises as the policy says.
template <class Derived, class Algorithm, class Dispatch>
void launch(execution_policy<Derived, Algorithm>& policy, offset_t n, Dispatch&& dispatch, const char* algorithm_call) {
  ++scans_dispatched();
  Derived& derived = static_cast<Derived&>(policy);
  const cudaStream_t stream = thrust::cuda_cub::stream(derived);
  if (n > 0) {
    temp_arena plan = temp_arena::measure();
    throw_if_failed<Algorithm>(dispatch(plan, stream), derived, algorithm_call, "planning temporary storage");
    if (plan.bytes_used() == 0) {  // a single-pass scan whose tile statuses need no per-call storage
      temp_arena arena = temp_arena::over(nullptr, plan);
      throw_if_failed<Algorithm>(dispatch(arena, stream), derived, algorithm_call, "launching the scan kernel");
    } else {
      thrust::detail::temporary_array<std::uint8_t, Derived> storage(derived, plan.bytes_used());
      temp_arena arena = temp_arena::over(thrust::raw_pointer_cast(storage.data()), plan);
      throw_if_failed<Algorithm>(dispatch(arena, stream), derived, algorithm_call, "launching the scan kernels");
    }
  }
  throw_if_failed<Algorithm>(thrust::cuda_cub::synchronize_optional(derived), derived, algorithm_call, "failed to synchronize");
}

template <scan_kind Kind, class AccT, class Derived, class Algorithm, class InputIt, class OutputIt, class Op>
OutputIt run_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result, Op op,
                  maybe<AccT> init, const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), first, last, algorithm_call);
  auto input = native_iterator(first);
  auto output = native_iterator(result);
  const auto scan_op = make_callable(op);
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_scan<Algorithm, Kind, AccT>(arena, input, output, n, scan_op, init, stream);
      },
      algorithm_call);
  return result + n;
}

// ---- inclusive_scan ----------------------------------------------------------------------------

template <class Derived, class Algorithm, class InputIt, class OutputIt, class Op>
OutputIt inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result,
                        Op op) {
  using acc_t = thrust::detail::it_value_t<InputIt>;
  return run_scan<scan_kind::inclusive, acc_t>(policy, first, last, result, op, none<acc_t>(), "inclusive_scan");
}

template <class Derived, class Algorithm, class InputIt, class OutputIt>
OutputIt inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result) {
  return detail::inclusive_scan(policy, first, last, result, ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class T, class Op>
OutputIt inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result,
                        T init, Op op) {
  using acc_t = ::cuda::std::__accumulator_t<Op, thrust::detail::it_value_t<InputIt>, T>;
  return run_scan<scan_kind::inclusive, acc_t>(policy, first, last, result, op, some<acc_t>(init), "inclusive_scan");
}

// ---- exclusive_scan ----------------------------------------------------------------------------

template <class Derived, class Algorithm, class InputIt, class OutputIt, class T, class Op>
OutputIt exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result,
                        T init, Op op) {
  return run_scan<scan_kind::exclusive, T>(policy, first, last, result, op, some<T>(init), "exclusive_scan");
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class T>
OutputIt exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result,
                        T init) {
  return detail::exclusive_scan(policy, first, last, result, init, ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class InputIt, class OutputIt>
OutputIt exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result) {
  using init_t = thrust::detail::it_value_t<InputIt>;
  return detail::exclusive_scan(policy, first, last, result, init_t{});
}

// ---- transform scans ---------------------------------------------------------------------------

// The transformed input Thrust's backend builds for transform_inclusive_scan (P0571).
template <class InputIt, class UnaryOp>
using transformed_input_t = thrust::transform_iterator<
    UnaryOp, InputIt, ::cuda::std::remove_cvref_t<thrust::detail::invoke_result_t<UnaryOp, thrust::detail::it_value_t<InputIt>>>,
    ::cuda::std::remove_cvref_t<thrust::detail::invoke_result_t<UnaryOp, thrust::detail::it_value_t<InputIt>>>>;

template <class Derived, class Algorithm, class InputIt, class OutputIt, class UnaryOp, class Op>
OutputIt transform_inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                  OutputIt result, UnaryOp unary_op, Op op) {
  using input_t = transformed_input_t<InputIt, UnaryOp>;
  using acc_t = thrust::detail::it_value_t<input_t>;
  return run_scan<scan_kind::inclusive, acc_t>(policy, input_t(first, unary_op), input_t(last, unary_op), result, op,
                                               none<acc_t>(), "transform_inclusive_scan");
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class UnaryOp, class T, class Op>
OutputIt transform_inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                  OutputIt result, UnaryOp unary_op, T init, Op op) {
  using input_t = transformed_input_t<InputIt, UnaryOp>;
  using acc_t = ::cuda::std::__accumulator_t<Op, thrust::detail::it_value_t<input_t>, T>;
  return run_scan<scan_kind::inclusive, acc_t>(policy, input_t(first, unary_op), input_t(last, unary_op), result, op,
                                               some<acc_t>(init), "transform_inclusive_scan");
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class UnaryOp, class T, class Op>
OutputIt transform_exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                  OutputIt result, UnaryOp unary_op, T init, Op op) {
  using value_t = ::cuda::std::remove_cvref_t<T>;
  using input_t = thrust::transform_iterator<UnaryOp, InputIt, value_t, value_t>;
  return run_scan<scan_kind::exclusive, T>(policy, input_t(first, unary_op), input_t(last, unary_op), result, op,
                                           some<T>(init), "transform_exclusive_scan");
}

}  // namespace fastscan::detail
