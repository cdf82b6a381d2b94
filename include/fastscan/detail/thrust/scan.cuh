#pragma once
// Overloads of Thrust's scan algorithms for fastscan policies, every arity. Thrust's CUDA backend
// forwards its shorter arities through qualified cuda_cub:: calls, so each arity is overridden here
// and forwards to fastscan's own. Accumulator types follow Thrust 3.0's CUDA backend exactly:
//   inclusive_scan without init: the input's value type
//   inclusive_scan with init:    decay(op(init, value))   (P2322)
//   exclusive_scan:              the init's type; without init, value_type{} with plus
//   transform scans:             the same, over transform_iterator<unary, first, value_type, value_type>
// From device code each runs Thrust's sequential algorithm, as thrust::cuda::par does (launch.cuh).

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_reduce.cuh>
#include <fastscan/detail/dispatch/dispatch_scan.cuh>
#include <fastscan/detail/thrust/launch.cuh>
#include <fastscan/detail/thrust/temporary_buffer.cuh>

#include <thrust/detail/seq.h>
#include <thrust/functional.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

namespace fastscan::detail {

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

// The reduction of [first, last) in order into *result (device memory), on the policy's stream; nothing
// is written for an empty range. Not a Thrust algorithm: the distributed scan's shard total.
template <class AccT, class Derived, class Algorithm, class InputIt, class Op>
void reduce_in_order(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, Op op, AccT* result,
                     const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), first, last, algorithm_call);
  if (n == 0) return;
  auto input = native_iterator(first);
  const auto reduce_op = make_callable(op);
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_ordered_reduce<Algorithm, AccT>(arena, input, n, reduce_op, result, stream);
      },
      algorithm_call);
}

// ---- inclusive_scan ----------------------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class Op>
__host__ __device__ OutputIt inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result, Op op) {
  using acc_t = thrust::detail::it_value_t<InputIt>;
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan<scan_kind::inclusive, acc_t>(policy, first, last, result, op, none<acc_t>(), "inclusive_scan");),
      (return thrust::inclusive_scan(thrust::seq, first, last, result, op);));
}

template <class Derived, class Algorithm, class InputIt, class OutputIt>
__host__ __device__ OutputIt inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result) {
  return detail::inclusive_scan(policy, first, last, result, ::cuda::std::plus<>{});
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class T, class Op>
__host__ __device__ OutputIt inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result, T init, Op op) {
  using acc_t = ::cuda::std::__accumulator_t<Op, thrust::detail::it_value_t<InputIt>, T>;
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan<scan_kind::inclusive, acc_t>(policy, first, last, result, op, some<acc_t>(init),
                                                    "inclusive_scan");),
      (return thrust::inclusive_scan(thrust::seq, first, last, result, init, op);));
}

// ---- exclusive_scan ----------------------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class T, class Op>
__host__ __device__ OutputIt exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result, T init, Op op) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan<scan_kind::exclusive, T>(policy, first, last, result, op, some<T>(init), "exclusive_scan");),
      (return thrust::exclusive_scan(thrust::seq, first, last, result, init, op);));
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class T>
__host__ __device__ OutputIt exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result, T init) {
  return detail::exclusive_scan(policy, first, last, result, init, ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class InputIt, class OutputIt>
__host__ __device__ OutputIt exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result) {
  using init_t = thrust::detail::it_value_t<InputIt>;
  return detail::exclusive_scan(policy, first, last, result, init_t{});
}

// ---- transform scans ---------------------------------------------------------------------------

// The transformed input Thrust's backend builds for transform_inclusive_scan (P0571).
template <class InputIt, class UnaryOp>
using transformed_input_t = thrust::transform_iterator<
    UnaryOp, InputIt, ::cuda::std::remove_cvref_t<thrust::detail::invoke_result_t<UnaryOp, thrust::detail::it_value_t<InputIt>>>,
    ::cuda::std::remove_cvref_t<thrust::detail::invoke_result_t<UnaryOp, thrust::detail::it_value_t<InputIt>>>>;

// From device code, the sequential scan of the same transformed input, as Thrust's backend runs it.
#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class UnaryOp, class Op>
__host__ __device__ OutputIt transform_inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first,
                                                      InputIt last, OutputIt result, UnaryOp unary_op, Op op) {
  using input_t = transformed_input_t<InputIt, UnaryOp>;
  using acc_t = thrust::detail::it_value_t<input_t>;
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan<scan_kind::inclusive, acc_t>(policy, input_t(first, unary_op), input_t(last, unary_op), result,
                                                    op, none<acc_t>(), "transform_inclusive_scan");),
      (return thrust::inclusive_scan(thrust::seq, input_t(first, unary_op), input_t(last, unary_op), result, op);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class UnaryOp, class T, class Op>
__host__ __device__ OutputIt transform_inclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first,
                                                      InputIt last, OutputIt result, UnaryOp unary_op, T init, Op op) {
  using input_t = transformed_input_t<InputIt, UnaryOp>;
  using acc_t = ::cuda::std::__accumulator_t<Op, thrust::detail::it_value_t<input_t>, T>;
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan<scan_kind::inclusive, acc_t>(policy, input_t(first, unary_op), input_t(last, unary_op), result,
                                                    op, some<acc_t>(init), "transform_inclusive_scan");),
      (return thrust::inclusive_scan(thrust::seq, input_t(first, unary_op), input_t(last, unary_op), result, init,
                                     op);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class UnaryOp, class T, class Op>
__host__ __device__ OutputIt transform_exclusive_scan(execution_policy<Derived, Algorithm>& policy, InputIt first,
                                                      InputIt last, OutputIt result, UnaryOp unary_op, T init, Op op) {
  using value_t = ::cuda::std::remove_cvref_t<T>;
  using input_t = thrust::transform_iterator<UnaryOp, InputIt, value_t, value_t>;
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan<scan_kind::exclusive, T>(policy, input_t(first, unary_op), input_t(last, unary_op), result, op,
                                                some<T>(init), "transform_exclusive_scan");),
      (return thrust::exclusive_scan(thrust::seq, input_t(first, unary_op), input_t(last, unary_op), result, init,
                                     op);));
}

}  // namespace fastscan::detail
