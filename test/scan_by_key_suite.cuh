#pragma once
// Scan-by-key and backward-scan suite, instantiated once per algorithm (test/CMakeLists.txt). Backward
// results are checked against the forward reference over a reversed copy.

#include "common/by_key_checks.cuh"

namespace fastscan_test {

template <class Under>
class by_key_suite : public gpu_test {};
TYPED_TEST_SUITE_P(by_key_suite);

TYPED_TEST_P(by_key_suite, InclusiveAllSizesRotatingLayouts) {
  // Every size of the foundation sweep, the layout rotating with the size, forward and backward.
  const auto sizes = full_sizes(TypeParam::template by_key_tile<int>, 23);
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const layout l = all_layouts[i % std::size(all_layouts)];
    for (bool backward : {false, true}) {
      sweep_by_key<TypeParam, int, int>({sizes[i]}, {l}, 100 + i, backward, inclusive_plus,
                                        [](auto const& k, auto const& v) {
                                          return reference_inclusive_by_key<int, int>(k, v, thrust::equal_to<>{},
                                                                                      thrust::plus<>{});
                                        });
    }
  }
  sweep_by_key<TypeParam, int, int>(capped({0}), {layout::single}, 99, false, inclusive_plus,
                                    [](auto const&, auto const&) { return std::vector<int>(); });
}

TYPED_TEST_P(by_key_suite, InclusiveEveryLayout) {
  sweep_by_key<TypeParam, int, int>(
      by_key_sizes(TypeParam::template by_key_tile<int>), {std::begin(all_layouts), std::end(all_layouts)}, 200, false,
      inclusive_plus, [](auto const& k, auto const& v) {
        return reference_inclusive_by_key<int, int>(k, v, thrust::equal_to<>{}, thrust::plus<>{});
      });
}

TYPED_TEST_P(by_key_suite, ExclusiveWithInitEveryLayout) {
  sweep_by_key<TypeParam, int, int>(
      by_key_sizes(TypeParam::template by_key_tile<int>), {std::begin(all_layouts), std::end(all_layouts)}, 300, false,
      exclusive_init, [](auto const& k, auto const& v) {
        return reference_exclusive_by_key<int, int>(k, v, -3, thrust::equal_to<>{}, thrust::plus<>{});
      });
}

TYPED_TEST_P(by_key_suite, EveryArity) {
  const auto sizes = capped({1, 5000, (std::size_t{1} << 20) + 7});
  const std::vector<layout> layouts = {layout::mean_32, layout::tile_ends};
  auto eq = thrust::equal_to<int>{};
  auto mx = thrust::maximum<long long>{};
  sweep_by_key<TypeParam, int, long long>(
      sizes, layouts, 400, false,
      [&](auto p, auto k0, auto k1, auto v, auto r) { return thrust::inclusive_scan_by_key(p, k0, k1, v, r, eq); },
      [&](auto const& k, auto const& v) { return reference_inclusive_by_key<int, long long>(k, v, eq, thrust::plus<>{}); });
  sweep_by_key<TypeParam, int, long long>(
      sizes, layouts, 401, false,
      [&](auto p, auto k0, auto k1, auto v, auto r) {
        return thrust::inclusive_scan_by_key(p, k0, k1, v, r, eq, thrust::maximum<int>{});
      },
      [&](auto const& k, auto const& v) { return reference_inclusive_by_key<int, long long>(k, v, eq, thrust::maximum<int>{}); });
  sweep_by_key<TypeParam, int, long long>(
      sizes, layouts, 402, false,
      [&](auto p, auto k0, auto k1, auto v, auto r) { return thrust::exclusive_scan_by_key(p, k0, k1, v, r); },
      [&](auto const& k, auto const& v) {
        return reference_exclusive_by_key<int, long long>(k, v, 0, eq, thrust::plus<>{});
      });
  sweep_by_key<TypeParam, int, long long>(
      sizes, layouts, 403, false,
      [&](auto p, auto k0, auto k1, auto v, auto r) { return thrust::exclusive_scan_by_key(p, k0, k1, v, r, 1LL << 33); },
      [&](auto const& k, auto const& v) {
        return reference_exclusive_by_key<long long, long long>(k, v, 1LL << 33, eq, thrust::plus<>{});
      });
  sweep_by_key<TypeParam, int, long long>(
      sizes, layouts, 404, false,
      [&](auto p, auto k0, auto k1, auto v, auto r) { return thrust::exclusive_scan_by_key(p, k0, k1, v, r, 5LL, eq); },
      [&](auto const& k, auto const& v) { return reference_exclusive_by_key<long long, long long>(k, v, 5LL, eq, thrust::plus<>{}); });
  sweep_by_key<TypeParam, int, long long>(
      sizes, layouts, 405, false,
      [&](auto p, auto k0, auto k1, auto v, auto r) {
        return thrust::exclusive_scan_by_key(p, k0, k1, v, r, -100LL, eq, mx);
      },
      [&](auto const& k, auto const& v) { return reference_exclusive_by_key<long long, long long>(k, v, -100LL, eq, mx); });
}

TYPED_TEST_P(by_key_suite, FloatKeysCustomPredicate) {
  const auto sizes = by_key_sizes(TypeParam::template by_key_tile<int>);
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    // Keys: segment index plus noise below 0.1, so only the predicate (|a - b| < 0.5) sees the runs.
    auto int_keys = segment_keys(layout::mean_32, n, TypeParam::template by_key_tile<int>, 500 + n);
    std::vector<float> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<float>(int_keys[i] % 2 * 3) + random_value<float>(i) * 0.05f;
    const auto values = random_vector<int>(n, 501 + n);
    auto d_keys = to_device(keys);
    auto d_values = to_device(values);
    auto d_out = poisoned_device_vector<int>(n);
    thrust::inclusive_scan_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_values.begin(), d_out.begin(),
                                  near_equal{});
    ASSERT_TRUE(all_equal(reference_inclusive_by_key<int, int>(keys, values, near_equal{}, thrust::plus<>{}), to_host(d_out)));
    d_out = poisoned_device_vector<int>(n);
    thrust::exclusive_scan_by_key(TypeParam::blocking, d_keys.rbegin(), d_keys.rend(), d_values.rbegin(), d_out.rbegin(),
                                  4, near_equal{});
    ASSERT_TRUE(all_equal(reversed(reference_exclusive_by_key<int, int>(reversed(keys), reversed(values), 4, near_equal{},
                                                                        thrust::plus<>{})),
                          to_host(d_out)));
  }
}

TYPED_TEST_P(by_key_suite, NonCommutativeInsideSegments) {
  const affine init{5, 2};
  for (bool backward : {false, true}) {
    sweep_by_key<TypeParam, affine, affine>(
        by_key_sizes(TypeParam::template by_key_tile<affine>), {layout::mean_3, layout::mean_1000, layout::tile_ends}, 600,
        backward,
        [](auto p, auto k0, auto k1, auto v, auto r) {
          return thrust::inclusive_scan_by_key(p, k0, k1, v, r, thrust::equal_to<>{}, compose_affine{});
        },
        [](auto const& k, auto const& v) {
          return reference_inclusive_by_key<affine, affine>(k, v, thrust::equal_to<>{}, compose_affine{});
        });
    sweep_by_key<TypeParam, affine, affine>(
        by_key_sizes(TypeParam::template by_key_tile<affine>), {layout::mean_32, layout::tile_starts}, 601, backward,
        [&](auto p, auto k0, auto k1, auto v, auto r) {
          return thrust::exclusive_scan_by_key(p, k0, k1, v, r, init, thrust::equal_to<>{}, compose_affine{});
        },
        [&](auto const& k, auto const& v) {
          return reference_exclusive_by_key<affine, affine>(k, v, init, thrust::equal_to<>{}, compose_affine{});
        });
  }
}

TYPED_TEST_P(by_key_suite, BackwardEveryLayout) {
  const auto sizes = by_key_sizes(TypeParam::template by_key_tile<int>);
  const std::vector<layout> layouts = {std::begin(all_layouts), std::end(all_layouts)};
  sweep_by_key<TypeParam, int, int>(sizes, layouts, 700, true, inclusive_plus, [](auto const& k, auto const& v) {
    return reference_inclusive_by_key<int, int>(k, v, thrust::equal_to<>{}, thrust::plus<>{});
  });
  sweep_by_key<TypeParam, int, int>(sizes, layouts, 701, true, exclusive_init, [](auto const& k, auto const& v) {
    return reference_exclusive_by_key<int, int>(k, v, -3, thrust::equal_to<>{}, thrust::plus<>{});
  });
}

TYPED_TEST_P(by_key_suite, InPlaceValuesAreResult) {
  for (std::size_t n : by_key_sizes(TypeParam::template by_key_tile<int>)) {
    SCOPED_TRACE(n);
    const auto keys = segment_keys(layout::mean_32, n, TypeParam::template by_key_tile<int>, 800 + n);
    const auto values = random_vector<int>(n, 801 + n);
    auto d_keys = to_device(keys);
    auto data = to_device(values);
    thrust::inclusive_scan_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), data.begin(), data.begin());
    ASSERT_TRUE(all_equal(reference_inclusive_by_key<int, int>(keys, values, thrust::equal_to<>{}, thrust::plus<>{}),
                          to_host(data)));
    data = to_device(values);
    thrust::exclusive_scan_by_key(TypeParam::blocking, d_keys.rbegin(), d_keys.rend(), data.rbegin(), data.rbegin(), 9);
    ASSERT_TRUE(all_equal(reversed(reference_exclusive_by_key<int, int>(reversed(keys), reversed(values), 9,
                                                                        thrust::equal_to<>{}, thrust::plus<>{})),
                          to_host(data)));
  }
}

// Backward plain scans: reverse iterators over contiguous memory, every foundation size.
TYPED_TEST_P(by_key_suite, BackwardScansAllSizes) {
  scoped_stream stream;
  int round = 0;
  // Besides the foundation sweep, multiples of 16 elements over many tiles: the 16-byte vector path.
  auto sizes = full_sizes(TypeParam::template by_key_tile<int>, 23);
  for (std::size_t n : capped({37 * TypeParam::template by_key_tile<int>, std::size_t{1} << 20, std::size_t{1} << 22}))
    sizes.push_back(n);
  for (std::size_t n : sizes) {
    SCOPED_TRACE(n);
    const auto input = random_vector<int>(n, 900 + n);
    auto d_in = to_device(input);
    auto d_out = poisoned_device_vector<int>(n);
    with_policy_flavour<TypeParam>(round++, stream.get(), [&](auto policy) {
      if (round % 2) thrust::inclusive_scan(policy, d_in.rbegin(), d_in.rend(), d_out.rbegin());
      else thrust::exclusive_scan(policy, d_in.rbegin(), d_in.rend(), d_out.rbegin(), 11);
    });
    const auto forward = round % 2 ? reference_inclusive<int, int>(reversed(input), thrust::plus<>{})
                                   : reference_exclusive<int, int>(reversed(input), thrust::plus<>{}, 11);
    ASSERT_TRUE(all_equal(reversed(forward), to_host(d_out)));
  }
}

TYPED_TEST_P(by_key_suite, BackwardNonCommutativeScan) {
  for (std::size_t n : edge_sizes(TypeParam::template by_key_tile<affine>)) {
    SCOPED_TRACE(n);
    const auto input = random_vector<affine>(n, 950 + n);
    auto d_in = to_device(input);
    auto d_out = poisoned_device_vector<affine>(n);
    thrust::inclusive_scan(TypeParam::blocking, d_in.rbegin(), d_in.rend(), d_out.rbegin(), compose_affine{});
    ASSERT_TRUE(all_equal(reversed(reference_inclusive<affine, affine>(reversed(input), compose_affine{})), to_host(d_out)));
  }
}

// An unchanged function body, run with thrust::cuda::par and with the policy: identical integers.
template <class Policy>
std::vector<std::vector<long long>> by_key_pipeline(Policy policy, thrust::device_vector<int> const& keys,
                                                    thrust::device_vector<int> const& values) {
  const std::size_t n = keys.size();
  thrust::device_vector<long long> a(n), b(n), c(n), d(n);
  thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), a.begin());
  thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), b.begin(), 7LL,
                                thrust::equal_to<int>{}, thrust::maximum<long long>{});
  thrust::inclusive_scan_by_key(policy, keys.rbegin(), keys.rend(), values.rbegin(), c.rbegin());
  thrust::exclusive_scan(policy, values.rbegin(), values.rend(), d.rbegin(), -1LL);
  std::vector<std::vector<long long>> results;
  for (auto* v : {&a, &b, &c, &d}) {
    std::vector<long long> h(n);
    thrust::copy(v->begin(), v->end(), h.begin());
    results.push_back(h);
  }
  return results;
}

TYPED_TEST_P(by_key_suite, DropInIdenticalToThrustPar) {
  for (std::size_t n : capped({1, 777, 4097, (std::size_t{1} << 20) + 3, (std::size_t{1} << 23) + 1})) {
    for (layout l : {layout::mean_3, layout::mean_1000, layout::tile_ends}) {
      SCOPED_TRACE(std::to_string(n) + " " + name_of(l));
      auto keys = to_device(segment_keys(l, n, TypeParam::template by_key_tile<int>, 1000 + n));
      auto values = to_device(random_vector<int>(n, 1001 + n));
      const auto expected = by_key_pipeline(thrust::cuda::par, keys, values);
      const auto actual = by_key_pipeline(TypeParam::blocking, keys, values);
      for (std::size_t r = 0; r < expected.size(); ++r) ASSERT_TRUE(all_equal(expected[r], actual[r])) << "result " << r;
    }
  }
}

REGISTER_TYPED_TEST_SUITE_P(by_key_suite, InclusiveAllSizesRotatingLayouts, InclusiveEveryLayout,
                            ExclusiveWithInitEveryLayout, EveryArity, FloatKeysCustomPredicate,
                            NonCommutativeInsideSegments, BackwardEveryLayout, InPlaceValuesAreResult,
                            BackwardScansAllSizes, BackwardNonCommutativeScan, DropInIdenticalToThrustPar);

}  // namespace fastscan_test
