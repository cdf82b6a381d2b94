#pragma once
// Overloads of Thrust's scan-by-key algorithms for fastscan policies, every arity. A segment is a
// maximal run of keys for which pred(key[i-1], key[i]) holds. Types follow Thrust 3.0's CUDA
// backend: inclusive accumulates in the values' value type, exclusive in the init's type; the
// defaults are equal_to<> and plus<>, and value_type{} as init. From device code each runs Thrust's
// sequential algorithm, as thrust::cuda::par does (launch.cuh).

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_scan_by_key.cuh>
#include <fastscan/detail/thrust/launch.cuh>

#include <thrust/detail/seq.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/scan.h>

#include <cuda/std/functional>

namespace fastscan::detail {

template <scan_kind Kind, class AccT, class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt,
          class Pred, class Op>
OutputIt run_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                         ValuesIt values, OutputIt result, Pred pred, Op op, AccT init, const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), keys_first, keys_last, algorithm_call);
  auto keys = native_iterator(keys_first);
  auto native_values = native_iterator(values);
  auto output = native_iterator(result);
  const auto scan_op = make_callable(op);
  const auto key_pred = make_callable(pred);
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_scan_by_key<Algorithm, Kind, AccT>(arena, keys, native_values, output, n, key_pred, scan_op,
                                                           init, stream);
      },
      algorithm_call);
  return result + n;
}

// ---- inclusive_scan_by_key ---------------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class Pred, class Op>
__host__ __device__ OutputIt inclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result, Pred pred,
                                                   Op op) {
  using acc_t = thrust::detail::it_value_t<ValuesIt>;
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan_by_key<scan_kind::inclusive, acc_t>(policy, keys_first, keys_last, values, result, pred, op,
                                                           acc_t{}, "inclusive_scan_by_key");),
      (return thrust::inclusive_scan_by_key(thrust::seq, keys_first, keys_last, values, result, pred, op);));
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class Pred>
__host__ __device__ OutputIt inclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result, Pred pred) {
  return detail::inclusive_scan_by_key(policy, keys_first, keys_last, values, result, pred, ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt>
__host__ __device__ OutputIt inclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result) {
  return detail::inclusive_scan_by_key(policy, keys_first, keys_last, values, result, ::cuda::std::equal_to<>{});
}

// ---- exclusive_scan_by_key ---------------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class T, class Pred, class Op>
__host__ __device__ OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result, T init,
                                                   Pred pred, Op op) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_scan_by_key<scan_kind::exclusive, T>(policy, keys_first, keys_last, values, result, pred, op, init,
                                                       "exclusive_scan_by_key");),
      (return thrust::exclusive_scan_by_key(thrust::seq, keys_first, keys_last, values, result, init, pred, op);));
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class T, class Pred>
__host__ __device__ OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result, T init,
                                                   Pred pred) {
  return detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init, pred,
                                       ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class T>
__host__ __device__ OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result, T init) {
  return detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init, ::cuda::std::equal_to<>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt>
__host__ __device__ OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values, OutputIt result) {
  using init_t = thrust::detail::it_value_t<ValuesIt>;
  return detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init_t{});
}

}  // namespace fastscan::detail
