#pragma once
// The scan test suite, instantiated once per algorithm (scan_<algorithm>_test.cu) so the three
// compile in parallel. Every test: random input, poisoned output, every element checked against a
// CPU reference (exactly for integers and user types, within a stated bound for floats).

#include "common/policies.cuh"

#include <thrust/transform_scan.h>

namespace fastscan_test {

template <class Under>
class scan_suite : public gpu_test {};

struct square_op {
  __host__ __device__ int operator()(int x) const { return x * x; }
};
struct twice_op {
  __host__ __device__ int operator()(int x) const { return 2 * x; }
};
TYPED_TEST_SUITE_P(scan_suite);

// Runs `call(policy, d_in.begin(), d_in.end(), d_out.begin())` for every size, each through the next
// policy flavour, and checks the output against `reference(host_input)`.
template <class Under, class In, class Out, class Call, class Reference>
void sweep(std::vector<std::size_t> const& sizes, std::uint64_t seed, Call call, Reference reference) {
  scoped_stream stream;
  int flavour = 0;
  for (std::size_t n : sizes) {
    SCOPED_TRACE("n = " + std::to_string(n) + ", policy flavour " + std::to_string(flavour % 6));
    const std::vector<In> input = random_vector<In>(n, seed + n);
    thrust::device_vector<In> d_in = to_device(input);
    thrust::device_vector<Out> d_out = poisoned_device_vector<Out>(n);
    with_policy_flavour<Under>(flavour++, stream.get(), [&](auto policy) {
      auto end = call(policy, d_in.begin(), d_in.end(), d_out.begin());
      EXPECT_EQ(end - d_out.begin(), static_cast<std::ptrdiff_t>(n));
    });
    const std::vector<Out> actual = to_host(d_out);
    const auto expected = reference(input);
    if constexpr (std::is_floating_point_v<Out> && !std::is_same_v<std::decay_t<decltype(expected)>, std::vector<Out>>) {
      ASSERT_TRUE(all_close(expected, actual));
    } else {
      ASSERT_TRUE(all_equal(expected, actual));
    }
  }
}

// inclusive (op), inclusive (init, op) and exclusive (init, op) for one element type and operator.
template <class Under, class T, class Op>
void check_type_and_op(Op op, T init, std::uint64_t seed) {
  const auto sizes = edge_sizes(Under::template tile<T>);
  using acc_with_init = ::cuda::std::__accumulator_t<Op, T, T>;
  sweep<Under, T, T>(
      sizes, seed, [&](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r, op); },
      [&](auto const& in) { return reference_inclusive<T, T>(in, op); });
  sweep<Under, T, T>(
      sizes, seed + 1,
      [&](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r, init, op); },
      [&](auto const& in) { return reference_inclusive<acc_with_init, T>(in, op, acc_with_init(init)); });
  sweep<Under, T, T>(
      sizes, seed + 2,
      [&](auto policy, auto f, auto l, auto r) { return thrust::exclusive_scan(policy, f, l, r, init, op); },
      [&](auto const& in) { return reference_exclusive<T, T>(in, op, init); });
}

// Floating-point sums: compared with a long double reference within the bound of test_utils.cuh.
template <class Under, class T>
void check_float_sum(std::uint64_t seed) {
  const auto sizes = edge_sizes(Under::template tile<T>);
  const T init = T(0.5);
  sweep<Under, T, T>(
      sizes, seed,
      [&](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r, thrust::plus<T>{}); },
      [&](auto const& in) { return reference_float_sum<T>(in, std::nullopt, false); });
  sweep<Under, T, T>(
      sizes, seed + 1,
      [&](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r, init, thrust::plus<T>{}); },
      [&](auto const& in) { return reference_float_sum<T>(in, init, false); });
  sweep<Under, T, T>(
      sizes, seed + 2,
      [&](auto policy, auto f, auto l, auto r) { return thrust::exclusive_scan(policy, f, l, r, init, thrust::plus<T>{}); },
      [&](auto const& in) { return reference_float_sum<T>(in, init, true); });
}

// ---- the short arities and the transform scans, over the full size sweep (int32) --------------

TYPED_TEST_P(scan_suite, InclusiveScanDefaultPlusAllSizes) {
  sweep<TypeParam, int, int>(
      full_sizes(TypeParam::template tile<int>), 1,
      [](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r); },
      [](auto const& in) { return reference_inclusive<int, int>(in, thrust::plus<>{}); });
}

TYPED_TEST_P(scan_suite, ExclusiveScanDefaultInitAllSizes) {
  sweep<TypeParam, int, int>(
      full_sizes(TypeParam::template tile<int>), 2,
      [](auto policy, auto f, auto l, auto r) { return thrust::exclusive_scan(policy, f, l, r); },
      [](auto const& in) { return reference_exclusive<int, int>(in, thrust::plus<>{}, 0); });
}

TYPED_TEST_P(scan_suite, ExclusiveScanInitAllSizes) {
  sweep<TypeParam, int, int>(
      full_sizes(TypeParam::template tile<int>), 3,
      [](auto policy, auto f, auto l, auto r) { return thrust::exclusive_scan(policy, f, l, r, -17); },
      [](auto const& in) { return reference_exclusive<int, int>(in, thrust::plus<>{}, -17); });
}

TYPED_TEST_P(scan_suite, TransformInclusiveScanAllSizes) {
  auto negate = thrust::negate<int>{};
  sweep<TypeParam, int, int>(
      full_sizes(TypeParam::template tile<int>, 22), 4,
      [&](auto policy, auto f, auto l, auto r) {
        return thrust::transform_inclusive_scan(policy, f, l, r, negate, thrust::plus<int>{});
      },
      [&](auto const& in) {
        std::vector<int> t(in.size());
        std::transform(in.begin(), in.end(), t.begin(), negate);
        return reference_inclusive<int, int>(t, thrust::plus<int>{});
      });
}

TYPED_TEST_P(scan_suite, TransformInclusiveScanInitAllSizes) {
  auto square = square_op{};
  sweep<TypeParam, int, long long>(
      full_sizes(TypeParam::template tile<int>, 22), 5,
      [&](auto policy, auto f, auto l, auto r) {
        return thrust::transform_inclusive_scan(policy, f, l, r, square, 3LL, thrust::plus<>{});
      },
      [&](auto const& in) {
        std::vector<int> t(in.size());
        std::transform(in.begin(), in.end(), t.begin(), square);
        return reference_inclusive<long long, long long>(t, thrust::plus<>{}, 3LL);
      });
}

TYPED_TEST_P(scan_suite, TransformExclusiveScanAllSizes) {
  auto twice = twice_op{};
  sweep<TypeParam, int, int>(
      full_sizes(TypeParam::template tile<int>, 22), 6,
      [&](auto policy, auto f, auto l, auto r) {
        return thrust::transform_exclusive_scan(policy, f, l, r, twice, 7, thrust::maximum<int>{});
      },
      [&](auto const& in) {
        std::vector<int> t(in.size());
        std::transform(in.begin(), in.end(), t.begin(), twice);
        return reference_exclusive<int, int>(t, thrust::maximum<int>{}, 7);
      });
}

// ---- element types x operators (edge sizes) -------------------------------------------------

TYPED_TEST_P(scan_suite, Int8PlusAndMax) {
  check_type_and_op<TypeParam, std::int8_t>(thrust::plus<>{}, std::int8_t{5}, 10);
  check_type_and_op<TypeParam, std::int8_t>(thrust::maximum<std::int8_t>{}, std::int8_t{-128}, 11);
}

TYPED_TEST_P(scan_suite, Int32PlusAndMax) {
  check_type_and_op<TypeParam, std::int32_t>(thrust::plus<std::int32_t>{}, 11, 20);
  check_type_and_op<TypeParam, std::int32_t>(thrust::maximum<std::int32_t>{}, -5, 21);
}

TYPED_TEST_P(scan_suite, Uint32PlusAndMax) {
  check_type_and_op<TypeParam, std::uint32_t>(thrust::plus<std::uint32_t>{}, 123u, 30);
  check_type_and_op<TypeParam, std::uint32_t>(thrust::maximum<std::uint32_t>{}, 0u, 31);
}

TYPED_TEST_P(scan_suite, Int64PlusAndMax) {
  check_type_and_op<TypeParam, std::int64_t>(thrust::plus<std::int64_t>{}, std::int64_t{1} << 40, 40);
  check_type_and_op<TypeParam, std::int64_t>(thrust::maximum<std::int64_t>{}, std::int64_t{0}, 41);
}

TYPED_TEST_P(scan_suite, FloatPlusAndMax) {
  check_float_sum<TypeParam, float>(50);
  check_type_and_op<TypeParam, float>(thrust::maximum<float>{}, -2.0f, 51);
}

TYPED_TEST_P(scan_suite, DoublePlusAndMax) {
  check_float_sum<TypeParam, double>(60);
  check_type_and_op<TypeParam, double>(thrust::maximum<double>{}, -2.0, 61);
}

// Non-commutative: affine-map composition, 8 bytes over the full sweep and 48 bytes over the edges.
TYPED_TEST_P(scan_suite, AffineCompositionAllSizes) {
  const auto sizes = full_sizes(TypeParam::template tile<affine>, 22);
  sweep<TypeParam, affine, affine>(
      sizes, 70,
      [](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r, compose_affine{}); },
      [](auto const& in) { return reference_inclusive<affine, affine>(in, compose_affine{}); });
  const affine init{3, 1};
  sweep<TypeParam, affine, affine>(
      sizes, 71,
      [&](auto policy, auto f, auto l, auto r) {
        return thrust::exclusive_scan(policy, f, l, r, init, compose_affine{});
      },
      [&](auto const& in) { return reference_exclusive<affine, affine>(in, compose_affine{}, init); });
}

TYPED_TEST_P(scan_suite, Affine3d48ByteStruct) {
  affine3 init{};
  for (int i = 0; i < 9; ++i) init.m[i] = i % 4 == 0 ? 1u : 0u;
  init.t[0] = 7;
  check_type_and_op<TypeParam, affine3>(compose_affine3{}, init, 80);
}

// Mixed types: int8 input, int init and plus<> accumulate in int; int32 input into int64 output.
TYPED_TEST_P(scan_suite, MixedInputInitOutputTypes) {
  const auto sizes = edge_sizes(TypeParam::template tile<int>);
  sweep<TypeParam, std::int8_t, int>(
      sizes, 90, [](auto policy, auto f, auto l, auto r) { return thrust::inclusive_scan(policy, f, l, r, 1000, thrust::plus<>{}); },
      [](auto const& in) { return reference_inclusive<int, int>(in, thrust::plus<>{}, 1000); });
  sweep<TypeParam, int, std::int64_t>(
      sizes, 91,
      [](auto policy, auto f, auto l, auto r) {
        return thrust::exclusive_scan(policy, f, l, r, std::int64_t{1} << 35, thrust::plus<>{});
      },
      [](auto const& in) { return reference_exclusive<std::int64_t, std::int64_t>(in, thrust::plus<>{}, std::int64_t{1} << 35); });
}

REGISTER_TYPED_TEST_SUITE_P(scan_suite, InclusiveScanDefaultPlusAllSizes, ExclusiveScanDefaultInitAllSizes,
                            ExclusiveScanInitAllSizes, TransformInclusiveScanAllSizes,
                            TransformInclusiveScanInitAllSizes, TransformExclusiveScanAllSizes, Int8PlusAndMax,
                            Int32PlusAndMax, Uint32PlusAndMax, Int64PlusAndMax, FloatPlusAndMax, DoublePlusAndMax,
                            AffineCompositionAllSizes, Affine3d48ByteStruct, MixedInputInitOutputTypes);

}  // namespace fastscan_test
