#pragma once
// Overloads of Thrust's stream compaction for fastscan policies, every arity: copy_if, remove_copy_if,
// remove_copy, remove_if, remove, partition_copy, stable_partition_copy, partition, stable_partition,
// unique_copy, unique, unique_by_key_copy, unique_by_key. All run the one-pass select kernel (dispatch/dispatch_select.cuh) on the
// policy's block scan. Like Thrust's, they wait for the selected count, since the iterators they
// return depend on it, whatever the policy's synchronisation.
//
// Results equal Thrust's CUDA backend's, including what its documentation leaves open: partition
// leaves the rejected items in reverse order (stable_partition in order), unique and unique_by_key keep
// the first item of each run and call binary_pred(previous, current). Predicates get loaded values of
// the iterators' value types (a stencil's too), never references into device memory. From device code
// each runs Thrust's sequential algorithm, as thrust::cuda::par does (launch.cuh).

#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_select.cuh>
#include <fastscan/detail/thrust/launch.cuh>

#include <thrust/copy.h>
#include <thrust/detail/seq.h>
#include <thrust/functional.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/pair.h>
#include <thrust/partition.h>
#include <thrust/remove.h>
#include <thrust/unique.h>

#include <cuda/std/functional>

namespace fastscan::detail {

// pred negated, for the remove family (a callable, so called non-const as the predicate itself is).
template <class Pred>
struct negated {
  callable<Pred> pred;
  template <class... Args>
  __host__ __device__ bool operator()(Args&&... args) {
    return !static_cast<bool>(pred(static_cast<Args&&>(args)...));
  }
};

// x != value, for remove and remove_copy (Thrust compares with ==).
template <class T>
struct not_equal_to_value {
  T value;
  template <class U>
  __host__ __device__ bool operator()(U const& x) const {
    return !static_cast<bool>(x == value);
  }
};

template <class Pred>
negated<Pred> negate(Pred const& pred) {
  return negated<Pred>{make_callable(pred)};
}

// binary_pred over the keys of (key, value) items: unique_by_key's runs are runs of keys.
template <class Pred>
struct keys_equal {
  static constexpr bool first_components_only = true;
  callable<Pred> pred;
  template <class Item>
  __host__ __device__ bool operator()(Item const& previous, Item const& current) const {
    return static_cast<bool>(pred(thrust::get<0>(previous), thrust::get<0>(current)));
  }
};

// The stencil of a call without one.
struct no_stencil {};

// The selector of a call with or without a stencil.
template <class StencilIt, class Pred>
auto selector_for(StencilIt stencil, Pred const& pred) {
  using callable_t = decltype(make_callable(pred));
  if constexpr (std::is_same_v<StencilIt, no_stencil>) return select_by_predicate<callable_t>{make_callable(pred)};
  else return select_by_stencil<StencilIt, callable_t>{stencil, make_callable(pred)};
}

// Selected items of [first, last) to `selected_out`, rejected ones to `rejected_out` (no_output:
// dropped). Returns the selected count.
template <class Derived, class Algorithm, class InputIt, class Selector, class SelectedIt, class RejectedIt>
offset_t run_select(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, Selector selector,
                    SelectedIt selected_out, RejectedIt rejected_out, const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), first, last, algorithm_call);
  using value_t = thrust::detail::it_value_t<InputIt>;
  offset_t selected = 0;
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_select<Algorithm, value_t>(arena, first, selector, selected_out, rejected_out, n, stream,
                                                   selected);
      },
      algorithm_call);
  return selected;
}

template <class Derived, class Algorithm, class It, class Selector>
It run_partition_in_place(execution_policy<Derived, Algorithm>& policy, It first, It last, Selector selector,
                          bool stable, const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), first, last, algorithm_call);
  using value_t = thrust::detail::it_value_t<It>;
  offset_t selected = 0;
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_partition_in_place<Algorithm, value_t>(arena, first, selector, n, stable, stream, selected);
      },
      algorithm_call);
  return first + selected;
}

// ---- copy_if, remove_copy_if, remove_copy ---------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class Pred>
__host__ __device__ OutputIt copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                     OutputIt result, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return result + run_select(policy, first, last, selector_for(no_stencil{}, pred), result, no_output{},
                                  "copy_if");),
      (return thrust::copy_if(thrust::seq, first, last, result, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class StencilIt, class OutputIt, class Pred>
__host__ __device__ OutputIt copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                     StencilIt stencil, OutputIt result, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return result + run_select(policy, first, last, selector_for(stencil, pred), result, no_output{}, "copy_if");),
      (return thrust::copy_if(thrust::seq, first, last, stencil, result, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class Pred>
__host__ __device__ OutputIt remove_copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            OutputIt result, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return result + run_select(policy, first, last, selector_for(no_stencil{}, negate(pred)), result, no_output{},
                                  "remove_copy_if");),
      (return thrust::remove_copy_if(thrust::seq, first, last, result, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class StencilIt, class OutputIt, class Pred>
__host__ __device__ OutputIt remove_copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                            StencilIt stencil, OutputIt result, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return result + run_select(policy, first, last, selector_for(stencil, negate(pred)), result, no_output{},
                                  "remove_copy_if");),
      (return thrust::remove_copy_if(thrust::seq, first, last, stencil, result, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class T>
__host__ __device__ OutputIt remove_copy(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                         OutputIt result, T const& value) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return result + run_select(policy, first, last, selector_for(no_stencil{}, not_equal_to_value<T>{value}),
                                  result, no_output{}, "remove_copy");),
      (return thrust::remove_copy(thrust::seq, first, last, result, value);));
}

// ---- remove_if, remove (in place) -----------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class Pred>
__host__ __device__ It remove_if(execution_policy<Derived, Algorithm>& policy, It first, It last, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return first + run_select(policy, first, last, selector_for(no_stencil{}, negate(pred)), first, no_output{},
                                 "remove_if");),
      (return thrust::remove_if(thrust::seq, first, last, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class StencilIt, class Pred>
__host__ __device__ It remove_if(execution_policy<Derived, Algorithm>& policy, It first, It last, StencilIt stencil,
                                 Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return first + run_select(policy, first, last, selector_for(stencil, negate(pred)), first, no_output{},
                                 "remove_if");),
      (return thrust::remove_if(thrust::seq, first, last, stencil, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class T>
__host__ __device__ It remove(execution_policy<Derived, Algorithm>& policy, It first, It last, T const& value) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return first + run_select(policy, first, last, selector_for(no_stencil{}, not_equal_to_value<T>{value}), first,
                                 no_output{}, "remove");),
      (return thrust::remove(thrust::seq, first, last, value);));
}

// ---- partition_copy, stable_partition_copy (the same: Thrust's partition_copy is stable too) -------

template <class Derived, class Algorithm, class InputIt, class Selector, class SelectedIt, class RejectedIt>
thrust::pair<SelectedIt, RejectedIt> run_partition_copy(execution_policy<Derived, Algorithm>& policy, InputIt first,
                                                        InputIt last, Selector selector, SelectedIt selected_out,
                                                        RejectedIt rejected_out, const char* algorithm_call) {
  const offset_t selected = run_select(policy, first, last, selector, selected_out, rejected_out, algorithm_call);
  return {selected_out + selected, rejected_out + (::cuda::std::distance(first, last) - selected)};
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class SelectedIt, class RejectedIt, class Pred>
__host__ __device__ thrust::pair<SelectedIt, RejectedIt> partition_copy(execution_policy<Derived, Algorithm>& policy,
                                                                        InputIt first, InputIt last,
                                                                        SelectedIt selected_out,
                                                                        RejectedIt rejected_out, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_copy(policy, first, last, selector_for(no_stencil{}, pred), selected_out, rejected_out,
                                 "partition_copy");),
      (return thrust::partition_copy(thrust::seq, first, last, selected_out, rejected_out, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class StencilIt, class SelectedIt, class RejectedIt,
          class Pred>
__host__ __device__ thrust::pair<SelectedIt, RejectedIt> partition_copy(execution_policy<Derived, Algorithm>& policy,
                                                                        InputIt first, InputIt last,
                                                                        StencilIt stencil, SelectedIt selected_out,
                                                                        RejectedIt rejected_out, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_copy(policy, first, last, selector_for(stencil, pred), selected_out, rejected_out,
                                 "partition_copy");),
      (return thrust::partition_copy(thrust::seq, first, last, stencil, selected_out, rejected_out, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class SelectedIt, class RejectedIt, class Pred>
__host__ __device__ thrust::pair<SelectedIt, RejectedIt> stable_partition_copy(
    execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, SelectedIt selected_out,
    RejectedIt rejected_out, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_copy(policy, first, last, selector_for(no_stencil{}, pred), selected_out, rejected_out,
                                 "stable_partition_copy");),
      (return thrust::stable_partition_copy(thrust::seq, first, last, selected_out, rejected_out, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class StencilIt, class SelectedIt, class RejectedIt,
          class Pred>
__host__ __device__ thrust::pair<SelectedIt, RejectedIt> stable_partition_copy(
    execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, StencilIt stencil,
    SelectedIt selected_out, RejectedIt rejected_out, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_copy(policy, first, last, selector_for(stencil, pred), selected_out, rejected_out,
                                 "stable_partition_copy");),
      (return thrust::stable_partition_copy(thrust::seq, first, last, stencil, selected_out, rejected_out, pred);));
}

// ---- partition, stable_partition (in place) -------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class Pred>
__host__ __device__ It partition(execution_policy<Derived, Algorithm>& policy, It first, It last, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_in_place(policy, first, last, selector_for(no_stencil{}, pred), false, "partition");),
      (return thrust::partition(thrust::seq, first, last, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class StencilIt, class Pred>
__host__ __device__ It partition(execution_policy<Derived, Algorithm>& policy, It first, It last, StencilIt stencil,
                                 Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_in_place(policy, first, last, selector_for(stencil, pred), false, "partition");),
      (return thrust::partition(thrust::seq, first, last, stencil, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class Pred>
__host__ __device__ It stable_partition(execution_policy<Derived, Algorithm>& policy, It first, It last, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_in_place(policy, first, last, selector_for(no_stencil{}, pred), true,
                                     "stable_partition");),
      (return thrust::stable_partition(thrust::seq, first, last, pred);));
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class StencilIt, class Pred>
__host__ __device__ It stable_partition(execution_policy<Derived, Algorithm>& policy, It first, It last,
                                        StencilIt stencil, Pred pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_partition_in_place(policy, first, last, selector_for(stencil, pred), true, "stable_partition");),
      (return thrust::stable_partition(thrust::seq, first, last, stencil, pred);));
}

// ---- unique_copy, unique --------------------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class InputIt, class OutputIt, class EqualOp>
__host__ __device__ OutputIt unique_copy(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                         OutputIt result, EqualOp equal) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (using selector_t = select_run_heads<decltype(make_callable(equal))>;
       return result + run_select(policy, first, last, selector_t{make_callable(equal)}, result, no_output{},
                                  "unique_copy");),
      (return thrust::unique_copy(thrust::seq, first, last, result, equal);));
}

template <class Derived, class Algorithm, class InputIt, class OutputIt>
__host__ __device__ OutputIt unique_copy(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last,
                                         OutputIt result) {
  return fastscan::detail::unique_copy(policy, first, last, result,
                                       ::cuda::std::equal_to<thrust::detail::it_value_t<InputIt>>{});
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class EqualOp>
__host__ __device__ It unique(execution_policy<Derived, Algorithm>& policy, It first, It last, EqualOp equal) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (using selector_t = select_run_heads<decltype(make_callable(equal))>;
       return first + run_select(policy, first, last, selector_t{make_callable(equal)}, first, no_output{}, "unique");),
      (return thrust::unique(thrust::seq, first, last, equal);));
}

template <class Derived, class Algorithm, class It>
__host__ __device__ It unique(execution_policy<Derived, Algorithm>& policy, It first, It last) {
  return fastscan::detail::unique(policy, first, last, ::cuda::std::equal_to<thrust::detail::it_value_t<It>>{});
}

// ---- unique_by_key_copy, unique_by_key: unique over (key, value) items, runs of keys -------------

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred>
thrust::pair<KeysOut, ValuesOut> run_unique_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                                   KeysIt keys_last, ValuesIt values_first, KeysOut keys_output,
                                                   ValuesOut values_output, Pred binary_pred,
                                                   const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), keys_first, keys_last, algorithm_call);
  const auto items = thrust::make_zip_iterator(keys_first, values_first);
  using selector_t = select_run_heads<keys_equal<Pred>>;
  const offset_t kept = run_select(policy, items, items + n, selector_t{keys_equal<Pred>{make_callable(binary_pred)}},
                                   thrust::make_zip_iterator(keys_output, values_output), no_output{}, algorithm_call);
  return {keys_output + kept, values_output + kept};
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut, class Pred>
__host__ __device__ thrust::pair<KeysOut, ValuesOut> unique_by_key_copy(execution_policy<Derived, Algorithm>& policy,
                                                                        KeysIt keys_first, KeysIt keys_last,
                                                                        ValuesIt values_first, KeysOut keys_output,
                                                                        ValuesOut values_output, Pred binary_pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_unique_by_key(policy, keys_first, keys_last, values_first, keys_output, values_output, binary_pred,
                                "unique_by_key_copy");),
      (return thrust::unique_by_key_copy(thrust::seq, keys_first, keys_last, values_first, keys_output, values_output,
                                         binary_pred);));
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class KeysOut, class ValuesOut>
__host__ __device__ thrust::pair<KeysOut, ValuesOut> unique_by_key_copy(execution_policy<Derived, Algorithm>& policy,
                                                                        KeysIt keys_first, KeysIt keys_last,
                                                                        ValuesIt values_first, KeysOut keys_output,
                                                                        ValuesOut values_output) {
  return detail::unique_by_key_copy(policy, keys_first, keys_last, values_first, keys_output, values_output,
                                    ::cuda::std::equal_to<thrust::detail::it_value_t<KeysIt>>{});
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class Pred>
__host__ __device__ thrust::pair<KeysIt, ValuesIt> unique_by_key(execution_policy<Derived, Algorithm>& policy,
                                                                 KeysIt keys_first, KeysIt keys_last,
                                                                 ValuesIt values_first, Pred binary_pred) {
  FASTSCAN_HOST_OR_SEQUENTIAL(
      (return run_unique_by_key(policy, keys_first, keys_last, values_first, keys_first, values_first, binary_pred,
                                "unique_by_key");),
      (return thrust::unique_by_key(thrust::seq, keys_first, keys_last, values_first, binary_pred);));
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt>
__host__ __device__ thrust::pair<KeysIt, ValuesIt> unique_by_key(execution_policy<Derived, Algorithm>& policy,
                                                                 KeysIt keys_first, KeysIt keys_last,
                                                                 ValuesIt values_first) {
  return detail::unique_by_key(policy, keys_first, keys_last, values_first,
                               ::cuda::std::equal_to<thrust::detail::it_value_t<KeysIt>>{});
}

}  // namespace fastscan::detail
