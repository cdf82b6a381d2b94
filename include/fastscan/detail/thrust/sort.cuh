#pragma once
// Overloads of Thrust's sorts for fastscan policies: sort, stable_sort, sort_by_key and
// stable_sort_by_key, with the default order, thrust::less or thrust::greater (or their ::cuda::std and
// <void> spellings), on keys of 8-, 16-, 32- or 64-bit integers (bool included), float or double: a
// stable LSD radix sort on the policy's block scan (dispatch/dispatch_radix_sort.cuh), values of any
// trivially copyable type. Keys are ordered as Thrust's CUDA backend orders them (it runs CUB's radix
// sort for the same calls): radix_key.cuh. Ranges that are not contiguous memory are copied to
// temporary storage and back, as Thrust does.
//
// Every other call runs Thrust's CUDA backend through the same policy, and so answers identically:
// other comparators and key types (Thrust's merge sort; __half and __nv_bfloat16 keys, which Thrust
// radix-sorts with CUB) and values that are not trivially copyable. From device code every call runs
// Thrust's sequential sort, as thrust::cuda::par does (launch.cuh).

#include <fastscan/detail/dispatch/dispatch_radix_sort.cuh>
#include <fastscan/detail/thrust/launch.cuh>

#include <thrust/detail/seq.h>
#include <thrust/detail/trivial_sequence.h>
#include <thrust/functional.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/detail/sort.h>

#include <cuda/std/functional>

#include <type_traits>

namespace fastscan::detail {

enum class radix_order { none, ascending, descending };

// Whether fastscan radix-sorts keys of type Key compared by Compare, and in which direction: the
// comparators Thrust's CUDA backend radix-sorts with.
template <class Key, class Compare>
constexpr radix_order radix_order_for() {
  if constexpr (!is_radix_sortable_key<Key>) {
    return radix_order::none;
  } else if constexpr (std::is_same_v<Compare, ::cuda::std::less<Key>> || std::is_same_v<Compare, ::cuda::std::less<void>>) {
    return radix_order::ascending;
  } else if constexpr (std::is_same_v<Compare, ::cuda::std::greater<Key>> ||
                       std::is_same_v<Compare, ::cuda::std::greater<void>>) {
    return radix_order::descending;
  } else {
    return radix_order::none;
  }
}

template <class Value>
constexpr bool is_radix_sortable_value = std::is_trivially_copyable_v<Value>;

// Sorts [keys_first, keys_last) and, unless ValuesIt is keys_only*, the values from values_first.
template <radix_order Order, class Derived, class Algorithm, class KeysIt, class ValuesIt>
void run_radix_sort(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                    ValuesIt values_first, const char* algorithm_call) {
  constexpr bool descending = Order == radix_order::descending;
  Derived& derived = static_cast<Derived&>(policy);
  const offset_t n = checked_length<Algorithm>(derived, keys_first, keys_last, algorithm_call);
  using key_t = thrust::detail::it_value_t<KeysIt>;
  thrust::detail::trivial_sequence<KeysIt, Derived> keys(derived, keys_first, keys_last);
  if constexpr (std::is_same_v<ValuesIt, keys_only*>) {
    launch(
        policy, n,
        [&](temp_arena& arena, cudaStream_t stream) {
          return dispatch_radix_sort<Algorithm, key_t, descending, keys_only>(
              arena, thrust::raw_pointer_cast(&*keys.begin()), static_cast<keys_only*>(nullptr), n, stream);
        },
        algorithm_call);
  } else {
    using value_t = thrust::detail::it_value_t<ValuesIt>;
    thrust::detail::trivial_sequence<ValuesIt, Derived> values(derived, values_first, values_first + n);
    launch(
        policy, n,
        [&](temp_arena& arena, cudaStream_t stream) {
          return dispatch_radix_sort<Algorithm, key_t, descending, value_t>(
              arena, thrust::raw_pointer_cast(&*keys.begin()), thrust::raw_pointer_cast(&*values.begin()), n, stream);
        },
        algorithm_call);
    if constexpr (!thrust::is_contiguous_iterator_v<ValuesIt>) thrust::copy(derived, values.begin(), values.end(), values_first);
  }
  if constexpr (!thrust::is_contiguous_iterator_v<KeysIt>) thrust::copy(derived, keys.begin(), keys.end(), keys_first);
}

// ---- sort, stable_sort -------------------------------------------------------------------------

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class Compare>
__host__ __device__ void sort(execution_policy<Derived, Algorithm>& policy, It first, It last, Compare comp) {
  constexpr radix_order order = radix_order_for<thrust::detail::it_value_t<It>, Compare>();
  if constexpr (order == radix_order::none) {
    thrust::cuda_cub::sort(static_cast<Derived&>(policy), first, last, comp);
  } else {
    FASTSCAN_HOST_OR_SEQUENTIAL(
        (run_radix_sort<order>(policy, first, last, static_cast<keys_only*>(nullptr), "sort");),
        (thrust::sort(thrust::seq, first, last, comp);));
  }
}

template <class Derived, class Algorithm, class It>
__host__ __device__ void sort(execution_policy<Derived, Algorithm>& policy, It first, It last) {
  detail::sort(policy, first, last, ::cuda::std::less<thrust::detail::it_value_t<It>>{});
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class It, class Compare>
__host__ __device__ void stable_sort(execution_policy<Derived, Algorithm>& policy, It first, It last, Compare comp) {
  constexpr radix_order order = radix_order_for<thrust::detail::it_value_t<It>, Compare>();
  if constexpr (order == radix_order::none) {
    thrust::cuda_cub::stable_sort(static_cast<Derived&>(policy), first, last, comp);
  } else {
    FASTSCAN_HOST_OR_SEQUENTIAL(
        (run_radix_sort<order>(policy, first, last, static_cast<keys_only*>(nullptr), "stable_sort");),
        (thrust::stable_sort(thrust::seq, first, last, comp);));
  }
}

template <class Derived, class Algorithm, class It>
__host__ __device__ void stable_sort(execution_policy<Derived, Algorithm>& policy, It first, It last) {
  detail::stable_sort(policy, first, last, ::cuda::std::less<thrust::detail::it_value_t<It>>{});
}

// ---- sort_by_key, stable_sort_by_key -----------------------------------------------------------

template <class Key, class Value, class Compare>
constexpr radix_order radix_order_by_key() {
  return is_radix_sortable_value<Value> ? radix_order_for<Key, Compare>() : radix_order::none;
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class Compare>
__host__ __device__ void sort_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                                     ValuesIt values_first, Compare comp) {
  constexpr radix_order order =
      radix_order_by_key<thrust::detail::it_value_t<KeysIt>, thrust::detail::it_value_t<ValuesIt>, Compare>();
  if constexpr (order == radix_order::none) {
    thrust::cuda_cub::sort_by_key(static_cast<Derived&>(policy), keys_first, keys_last, values_first, comp);
  } else {
    FASTSCAN_HOST_OR_SEQUENTIAL(
        (run_radix_sort<order>(policy, keys_first, keys_last, values_first, "sort_by_key");),
        (thrust::sort_by_key(thrust::seq, keys_first, keys_last, values_first, comp);));
  }
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt>
__host__ __device__ void sort_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first, KeysIt keys_last,
                                     ValuesIt values_first) {
  detail::sort_by_key(policy, keys_first, keys_last, values_first,
                      ::cuda::std::less<thrust::detail::it_value_t<KeysIt>>{});
}

#pragma nv_exec_check_disable
template <class Derived, class Algorithm, class KeysIt, class ValuesIt, class Compare>
__host__ __device__ void stable_sort_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                            KeysIt keys_last, ValuesIt values_first, Compare comp) {
  constexpr radix_order order =
      radix_order_by_key<thrust::detail::it_value_t<KeysIt>, thrust::detail::it_value_t<ValuesIt>, Compare>();
  if constexpr (order == radix_order::none) {
    thrust::cuda_cub::stable_sort_by_key(static_cast<Derived&>(policy), keys_first, keys_last, values_first, comp);
  } else {
    FASTSCAN_HOST_OR_SEQUENTIAL(
        (run_radix_sort<order>(policy, keys_first, keys_last, values_first, "stable_sort_by_key");),
        (thrust::stable_sort_by_key(thrust::seq, keys_first, keys_last, values_first, comp);));
  }
}

template <class Derived, class Algorithm, class KeysIt, class ValuesIt>
__host__ __device__ void stable_sort_by_key(execution_policy<Derived, Algorithm>& policy, KeysIt keys_first,
                                            KeysIt keys_last, ValuesIt values_first) {
  detail::stable_sort_by_key(policy, keys_first, keys_last, values_first,
                             ::cuda::std::less<thrust::detail::it_value_t<KeysIt>>{});
}

}  // namespace fastscan::detail
