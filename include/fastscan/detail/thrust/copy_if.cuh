#pragma once
// Overloads of Thrust's stream compaction for fastscan policies: copy_if (with and without stencil)
// and remove_copy_if (both arities), on the algorithm's own block scan and the single-pass look-back
// (dispatch/dispatch_select.cuh). Like Thrust's, they wait for the selected count to return the end of
// the output, whatever the policy's synchronisation.

#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_select.cuh>
#include <fastscan/detail/thrust/scan.cuh>

#include <thrust/iterator/iterator_traits.h>

namespace fastscan::detail {

// pred negated, for remove_copy_if (a callable, so called non-const as the predicate itself is).
template <class Pred>
struct negated {
  callable<Pred> pred;
  template <class... Args>
  __host__ __device__ bool operator()(Args&&... args) {
    return !static_cast<bool>(pred(static_cast<Args&&>(args)...));
  }
};

template <class Derived, class Algorithm, class InputIt, class StencilIt, class OutputIt, class Pred>
OutputIt run_select(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, StencilIt stencil,
                    OutputIt result, Pred pred, const char* algorithm_call) {
  const offset_t n = checked_length<Algorithm>(static_cast<Derived&>(policy), first, last, algorithm_call);
  using value_t = thrust::detail::it_value_t<InputIt>;
  const auto select_pred = make_callable(pred);
  offset_t selected = 0;
  launch(
      policy, n,
      [&](temp_arena& arena, cudaStream_t stream) {
        return dispatch_select<Algorithm, value_t>(arena, first, stencil, result, n, select_pred, stream, selected);
      },
      algorithm_call);
  return result + selected;
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class Pred>
OutputIt copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result, Pred pred) {
  return run_select(policy, first, last, no_stencil{}, result, pred, "copy_if");
}

template <class Derived, class Algorithm, class InputIt, class StencilIt, class OutputIt, class Pred>
OutputIt copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, StencilIt stencil,
                 OutputIt result, Pred pred) {
  return run_select(policy, first, last, stencil, result, pred, "copy_if");
}

template <class Derived, class Algorithm, class InputIt, class OutputIt, class Pred>
OutputIt remove_copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, OutputIt result,
                        Pred pred) {
  return run_select(policy, first, last, no_stencil{}, result, negated<Pred>{make_callable(pred)}, "remove_copy_if");
}

template <class Derived, class Algorithm, class InputIt, class StencilIt, class OutputIt, class Pred>
OutputIt remove_copy_if(execution_policy<Derived, Algorithm>& policy, InputIt first, InputIt last, StencilIt stencil,
                        OutputIt result, Pred pred) {
  return run_select(policy, first, last, stencil, result, negated<Pred>{make_callable(pred)}, "remove_copy_if");
}

}  // namespace fastscan::detail
