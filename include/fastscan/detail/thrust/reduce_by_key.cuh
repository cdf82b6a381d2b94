#pragma once
// Overloads of Thrust's reduce_by_key for fastscan policies, every arity, on the one-pass kernel of
// dispatch/dispatch_reduce_by_key.cuh. Results equal Thrust's CUDA backend's, including what its
// documentation leaves open: each run of keys with binary_pred(previous, current) holding becomes its
// last key and the reduction of its values, accumulated in the values' value type; the default
// operator is plus over the values output's value type (the input's, for an output iterator such as
// discard_iterator). Like Thrust's, it waits for the number of runs, which the returned iterators need.
// The _deterministic policies keep their promise of the same bits on every run (two steps, about twice
// the traffic: dispatch/dispatch_reduce_by_key.cuh). From device code it runs Thrust's sequential
// algorithm, as thrust::cuda::par does (launch.cuh).

#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_reduce_by_key.cuh>
#include <fastscan/detail/thrust/launch.cuh>

#include <thrust/detail/seq.h>
#include <thrust/detail/type_traits/iterator/is_output_iterator.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/pair.h>
#include <thrust/reduce.h>

#include <cuda/std/functional>

#include <type_traits>

namespace fastscan::detail {

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred,
          class Op>
thrust::pair<KeysOut, ValuesOut> run_reduce_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values_first, KeysOut keys_output,
                                                   ValuesOut values_output, Pred binary_pred, Op binary_op) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), keys_first, keys_last, "reduce_by_key");
  const auto pred = make_callable(binary_pred);
  const auto op = make_callable(binary_op);
  offset_t runs = 0;
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_reduce_by_key<Algorithm>(arena, keys_first, values_first, keys_output, values_output, n, pred,
                                                 op, stream, runs);
      },
      "reduce_by_key");
  return {keys_output + runs, values_output + runs};
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred,
          class Op>
__host__ __device__ thrust::pair<KeysOut, ValuesOut> reduce_by_key(execution_policy<Derived, Algorithm>& policy,
                                                                   KeysIt keys_first, KeysIt keys_last,
                                                                   ValuesIt values_first, KeysOut keys_output,
                                                                   ValuesOut values_output, Pred binary_pred,
                                                                   Op binary_op) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_reduce_by_key(policy, keys_first, keys_last, values_first, keys_output, values_output, binary_pred,
                                binary_op);),
      (return thrust::reduce_by_key(thrust::seq, keys_first, keys_last, values_first, keys_output, values_output,
                                    binary_pred, binary_op);));
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred>
__host__ __device__ thrust::pair<KeysOut, ValuesOut> reduce_by_key(execution_policy<Derived, Algorithm>& policy,
                                                                   KeysIt keys_first, KeysIt keys_last,
                                                                   ValuesIt values_first, KeysOut keys_output,
                                                                   ValuesOut values_output, Pred binary_pred) {
  using value_t = std::conditional_t<thrust::detail::is_output_iterator<ValuesOut>, thrust::detail::it_value_t<ValuesIt>,
                                     thrust::detail::it_value_t<ValuesOut>>;
  return detail::reduce_by_key(policy, keys_first, keys_last, values_first, keys_output, values_output, binary_pred,
                               ::cuda::std::plus<value_t>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut>
__host__ __device__ thrust::pair<KeysOut, ValuesOut> reduce_by_key(execution_policy<Derived, Algorithm>& policy,
                                                                   KeysIt keys_first, KeysIt keys_last,
                                                                   ValuesIt values_first, KeysOut keys_output,
                                                                   ValuesOut values_output) {
  return detail::reduce_by_key(policy, keys_first, keys_last, values_first, keys_output, values_output,
                               ::cuda::std::equal_to<thrust::detail::it_value_t<KeysIt>>{});
}

}  // namespace fastscan::detail
