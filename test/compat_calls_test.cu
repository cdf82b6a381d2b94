// Drop-in compatibility with thrust::cuda::par: operators, keys, fancy iterators, in-place calls
// and transform scans. Every policy family in one program, so that
// thrust::cuda::par's kernels (most of the compile time) are compiled once.
#include "compat_common.cuh"

namespace fastscan_test {

template <class Under>
class compat_calls : public gpu_test {};
TYPED_TEST_SUITE(compat_calls, policy_families, algorithm_names);

using namespace compat;

TYPED_TEST(compat_calls, NonConstStatefulAndNonCommutativeOperators) {
  scans_of<TypeParam, int>(nonconst_plus{}, 17);
  scans_of<TypeParam, affine>(masked_compose{0xfffffu}, affine{5u, 9u});
  scans_of<TypeParam, std::uint32_t>(thrust::maximum<>{}, 0u);
  scans_of<TypeParam, double>(thrust::plus<>{}, 0.5);
}

TYPED_TEST(compat_calls, AccumulatorWiderThanElements) {
  for (std::size_t n : compat_sizes<TypeParam, long long>()) {
    const auto values = compat_input<std::int8_t>(n, 31);
    const auto keys = compat_keys<std::int8_t>(n, 32);
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, values.begin(), values.end(), out, 1LL, widen_plus{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), out, 2LL, widen_plus{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out, 4LL, nonconst_equal{}, widen_plus{});
    });
    // Without an init the accumulator is the element type: int8 sums wrap as they do under par.
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), out);
    });
  }
}

TYPED_TEST(compat_calls, KeyTypesAndPredicates) {
  for (std::size_t n : compat_sizes<TypeParam, int>()) {
    const auto values = compat_input<int>(n, 41);
    const auto bool_keys = compat_keys<bool>(n, 42);
    const auto byte_keys = compat_keys<std::int8_t>(n, 43);
    const auto float_keys = compat_input<float>(n, 44);  // neighbours within 0.5 are one segment: only equal ones
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan_by_key(policy, bool_keys.begin(), bool_keys.end(), values.begin(), out);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, byte_keys.begin(), byte_keys.end(), values.begin(), out);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, byte_keys.begin(), byte_keys.end(), values.begin(), out, -3);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan_by_key(policy, float_keys.begin(), float_keys.end(), values.begin(), out, near_equal{});
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, float_keys.begin(), float_keys.end(), values.begin(), out, 5, nonconst_equal{});
    });
    // Keys from a fancy iterator: runs of seven.
    auto run_keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), segment_of{});
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan_by_key(policy, run_keys, run_keys + n, values.begin(), out, thrust::equal_to<int>{},
                                    nonconst_plus{});
    });
  }
}

TYPED_TEST(compat_calls, FancyInputs) {
  for (std::size_t n : compat_sizes<TypeParam, long long>()) {
    const auto values = compat_input<int>(n, 51);
    const long long length = static_cast<long long>(n);
    auto counting = thrust::counting_iterator<long long>(-1000);
    auto constant = thrust::constant_iterator<int>(3);
    auto squares = thrust::make_transform_iterator(values.begin(), square_mod{});
    auto permuted = thrust::make_permutation_iterator(
        values.begin(), thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), scatter_index{n > 0 ? length : 1}));
    auto reversed = thrust::make_reverse_iterator(values.end());
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, counting, counting + length, out);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, constant, constant + length, out, 7);
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, squares, squares + length, out);
    });
    if (n % 7919 != 0) {
      expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
        thrust::inclusive_scan(policy, permuted, permuted + length, out, thrust::maximum<>{});
      });
    }
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, reversed, reversed + length, out);
    });
    // Raw pointers and device_ptr.
    const int* raw = thrust::raw_pointer_cast(values.data());
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, raw, raw + n, thrust::raw_pointer_cast(&*out), thrust::plus<>{});
    });
    const thrust::device_ptr<const int> pointer(raw);
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, pointer, pointer + length, thrust::device_pointer_cast(thrust::raw_pointer_cast(&*out)));
    });
  }
}

TYPED_TEST(compat_calls, FancyOutputsAndInPlace) {
  for (std::size_t n : compat_sizes<TypeParam, int>()) {
    const auto values = compat_input<int>(n, 61);
    const auto keys = compat_keys<int>(n, 62);
    // Reverse and transform outputs.
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), thrust::make_reverse_iterator(out + n));
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(),
                                    thrust::make_transform_output_iterator(out, negate_int{}), 2);
    });
    // In place: the output starts as a copy of the input.
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::copy(thrust::cuda::par, values.begin(), values.end(), out);
      thrust::exclusive_scan(policy, out, out + n, out, 9);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::copy(thrust::cuda::par, values.begin(), values.end(), out);
      thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), out, out);
    });
    // A discard output: the call compiles, runs, and returns the end of the range.
    const auto end = thrust::inclusive_scan(TypeParam::blocking, values.begin(), values.end(), thrust::make_discard_iterator());
    EXPECT_EQ(end - thrust::make_discard_iterator(), static_cast<std::ptrdiff_t>(n));
    const auto key_end = thrust::exclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), values.begin(),
                                                       thrust::make_discard_iterator());
    EXPECT_EQ(key_end - thrust::make_discard_iterator(), static_cast<std::ptrdiff_t>(n));
  }
}

TYPED_TEST(compat_calls, TransformScans) {
  for (std::size_t n : compat_sizes<TypeParam, long long>()) {
    const auto values = compat_input<int>(n, 71);
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::transform_inclusive_scan(policy, values.begin(), values.end(), out, square_mod{}, thrust::plus<>{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::transform_inclusive_scan(policy, values.begin(), values.end(), out, square_mod{}, 100LL, nonconst_plus{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::transform_exclusive_scan(policy, values.begin(), values.end(), out, square_mod{}, -5LL, thrust::maximum<>{});
    });
  }
}

}  // namespace fastscan_test
