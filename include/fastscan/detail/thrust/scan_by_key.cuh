#pragma once
// Overloads of Thrust's scan-by-key algorithms for fastscan policies, every arity. A segment is a
// maximal run of keys for which pred(key[i-1], key[i]) holds. Types follow Thrust 3.0's CUDA
// backend: inclusive accumulates in the values' value type, exclusive in the init's type; the
// defaults are equal_to<> and plus<>, and value_type{} as init.

#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/thrust/scan.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cuda/std/functional>

namespace fastscan::detail {

// A scan by key of `n` elements on `stream` with the algorithm's segmented strategy: the dispatch both
// the Thrust overloads and device_scan call (the iterators are native ones, see backward.cuh).
template <class Algorithm, scan_kind Kind, class AccT, class KeysIt, class ValuesIt, class OutputIt, class Pred,
          class Op>
cudaError_t dispatch_scan_by_key(temp_arena& arena, KeysIt keys, ValuesIt values, OutputIt output, offset_t n,
                                 callable<Pred> const& pred, callable<Op> const& op, AccT const& init,
                                 cudaStream_t stream) {
  using element_t = by_key_element<Kind, AccT, KeysIt, ValuesIt, callable<Pred>, callable<Op>>;
  const element_t element{keys, values, pred, op, init};
  auto input = thrust::make_transform_iterator(thrust::counting_iterator<offset_t>(0), element);
  const by_key_output<Kind, AccT, OutputIt, element_t> pair_output{output, element};
  using pair_t = segmented_value<AccT>;
  using tuning = typename Algorithm::template tuning<AccT>;
  if constexpr (tuning::segmented == segmented_strategy::segmented_block_kernel &&
                tuning::strategy == multi_block::single_pass) {
    return dispatch_single_pass_segmented<Algorithm, Kind, AccT>(arena, element, pair_output, n, op, stream);
  } else if constexpr (tuning::segmented == segmented_strategy::segmented_block_kernel) {
    return dispatch_segmented_scan<Algorithm, Kind, AccT>(arena, element, pair_output, n, op, stream);
  } else {
    return dispatch_scan<Algorithm, Kind, pair_t>(arena, input, pair_output, n, segmented_op<callable<Op>>{op},
                                                  none<pair_t>(), stream);
  }
}

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

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class Pred, class Op>
OutputIt inclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result, Pred pred, Op op) {
  using acc_t = thrust::detail::it_value_t<ValuesIt>;
  return run_scan_by_key<scan_kind::inclusive, acc_t>(policy, keys_first, keys_last, values, result, pred, op,
                                                      acc_t{}, "inclusive_scan_by_key");
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class Pred>
OutputIt inclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result, Pred pred) {
  return detail::inclusive_scan_by_key(policy, keys_first, keys_last, values, result, pred, ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt>
OutputIt inclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result) {
  return detail::inclusive_scan_by_key(policy, keys_first, keys_last, values, result, ::cuda::std::equal_to<>{});
}

// ---- exclusive_scan_by_key ---------------------------------------------------------------------

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class T, class Pred, class Op>
OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result, T init, Pred pred, Op op) {
  return run_scan_by_key<scan_kind::exclusive, T>(policy, keys_first, keys_last, values, result, pred, op, init,
                                                  "exclusive_scan_by_key");
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class T, class Pred>
OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result, T init, Pred pred) {
  return detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init, pred, ::cuda::std::plus<>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt, class T>
OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result, T init) {
  return detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init, ::cuda::std::equal_to<>{});
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class OutputIt>
OutputIt exclusive_scan_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                               ValuesIt values, OutputIt result) {
  using init_t = thrust::detail::it_value_t<ValuesIt>;
  return detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init_t{});
}

}  // namespace fastscan::detail
