#pragma once
// Shared checks of the radix sort tests: a sort through a fastscan policy against a CPU stable sort
// (std::stable_sort of the positions) where that is the one right answer, otherwise against the same
// sort through thrust::cuda::par (bit for bit, keys and values).

#include "common/policies.cuh"

#include <thrust/sort.h>

#include <algorithm>
#include <cstring>
#include <numeric>

namespace fastscan_test {

enum class sort_call { sort, stable_sort };

template <class T>
bool same_bits(std::vector<T> const& a, std::vector<T> const& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// The first position where two vectors' bits differ, for messages.
template <class T>
std::size_t first_difference(std::vector<T> const& a, std::vector<T> const& b) {
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T)) != 0) return i;
  return std::min(a.size(), b.size());
}

// Payload of position i: its index (any arithmetic type wide enough to stay distinct mod 2^bits).
template <class Value>
std::vector<Value> positions_as(std::size_t n) {
  std::vector<Value> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<Value>(i);
  return v;
}

// Keys sorted stably on the CPU, with their positions.
template <class Key, class Compare>
std::vector<std::size_t> cpu_stable_order(std::vector<Key> const& keys, Compare comp) {
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return comp(keys[a], keys[b]); });
  return order;
}

// Integer keys with arithmetic values (their positions, or none) have one right answer, the stable
// order, which thrust::cuda::par gives too (its sorts are stable): the CPU's stable sort is the reference,
// and par's sort need not be compiled for every key and value type. Floating-point keys (NaNs of both
// signs, -0.0 beside +0.0: par's order is the specification) and user-defined values are checked
// against par bit for bit.
template <class Key, class Value = void>
constexpr bool stable_order_is_the_answer =
    std::is_integral_v<Key> && (std::is_void_v<Value> || std::is_arithmetic_v<Value>);

// Sorts keys alone through `policy` (sort or stable_sort, with comp) and checks the result against the
// CPU's stable sort for integer keys, against thrust::cuda::par bit for bit otherwise.
template <class Key, class Policy, class Compare>
void expect_sorted_like_par(std::vector<Key> const& keys, Policy policy, Compare comp, sort_call call) {
  auto actual = to_device(keys);
  if (call == sort_call::sort) thrust::sort(policy, actual.begin(), actual.end(), comp);
  else thrust::stable_sort(policy, actual.begin(), actual.end(), comp);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto a = to_host(actual);
  ASSERT_EQ(a.size(), keys.size());
  if constexpr (stable_order_is_the_answer<Key>) {
    const auto order = cpu_stable_order(keys, comp);
    for (std::size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(a[i], keys[order[i]]) << "at " << i << " of " << keys.size();
  } else {
    auto expected = to_device(keys);
    thrust::stable_sort(thrust::cuda::par, expected.begin(), expected.end(), comp);
    const auto e = to_host(expected);
    ASSERT_TRUE(same_bits(e, a)) << "first difference at " << first_difference(e, a) << " of " << keys.size();
  }
}

// Sorts keys with their positions as values (of type Value) and checks keys and values against the
// CPU's stable order for integer keys (the values prove stability), against thrust::cuda::par bit for
// bit otherwise (par's sort is stable).
template <class Value, class Key, class Policy, class Compare>
void expect_sorted_by_key_like_par(std::vector<Key> const& keys, Policy policy, Compare comp, sort_call call) {
  const auto values = positions_as<Value>(keys.size());
  auto actual_keys = to_device(keys);
  auto actual_values = to_device(values);
  if (call == sort_call::sort) thrust::sort_by_key(policy, actual_keys.begin(), actual_keys.end(), actual_values.begin(), comp);
  else thrust::stable_sort_by_key(policy, actual_keys.begin(), actual_keys.end(), actual_values.begin(), comp);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const auto ak = to_host(actual_keys);
  const auto av = to_host(actual_values);
  ASSERT_EQ(ak.size(), keys.size());
  ASSERT_EQ(av.size(), keys.size());
  if constexpr (stable_order_is_the_answer<Key, Value>) {
    const auto order = cpu_stable_order(keys, comp);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ(ak[i], keys[order[i]]) << "key at " << i << " of " << keys.size();
      ASSERT_EQ(av[i], static_cast<Value>(order[i])) << "value at " << i << " of " << keys.size();
    }
  } else {
    auto expected_keys = to_device(keys);
    auto expected_values = to_device(values);
    thrust::stable_sort_by_key(thrust::cuda::par, expected_keys.begin(), expected_keys.end(), expected_values.begin(), comp);
    const auto ek = to_host(expected_keys);
    const auto ev = to_host(expected_values);
    ASSERT_TRUE(same_bits(ek, ak)) << "keys: first difference at " << first_difference(ek, ak) << " of " << keys.size();
    ASSERT_TRUE(same_bits(ev, av)) << "values: first difference at " << first_difference(ev, av) << " of " << keys.size();
  }
}

}  // namespace fastscan_test
