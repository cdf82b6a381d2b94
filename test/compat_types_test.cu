// Drop-in compatibility with thrust::cuda::par: element types (narrow, 16-byte vectors, mixed-type
// operators, zips of tuples). Every policy family in one program, so that thrust::cuda::par's kernels
// (most of the compile time) are compiled once.
#include "compat_common.cuh"

namespace fastscan_test {

template <class Under>
class compat_types : public gpu_test {};
TYPED_TEST_SUITE(compat_types, policy_families, algorithm_names);

using namespace compat;

TYPED_TEST(compat_types, NarrowTypes) {
  scans_of<TypeParam, std::int8_t>(thrust::plus<>{}, std::int8_t{5});
  scans_of<TypeParam, bool>(thrust::logical_or<bool>{}, false);
  scans_of<TypeParam, __half>(half_max{}, __float2half(-2000.0f));
  scans_of<TypeParam, __nv_bfloat16>(bfloat_max{}, __float2bfloat16(-500.0f));
}

TYPED_TEST(compat_types, SixteenByteVectors) {
  scans_of<TypeParam, int4>(int4_plus{}, make_int4(1, 2, 3, 4));
  scans_of<TypeParam, double2>(double2_plus{}, make_double2(0.5, -1.0));
}

TYPED_TEST(compat_types, PairsWithMixedTypeOperator) {
  scans_of<TypeParam, byte_pair>(mixed_pair_plus{}, byte_pair(1, 1));
}

TYPED_TEST(compat_types, ZipOfTuples) {
  for (std::size_t n : compat_sizes<TypeParam, thrust::tuple<int, float>>()) {
    const auto ints = compat_input<int>(n, 21);
    const auto floats = compat_input<float>(n, 22);
    const auto keys = compat_keys<int>(n, 23);
    auto in = thrust::make_zip_iterator(ints.begin(), floats.begin());
    thrust::device_vector<int> expected_ints = poisoned_device_vector<int>(n), actual_ints = poisoned_device_vector<int>(n);
    thrust::device_vector<float> expected_floats = poisoned_device_vector<float>(n), actual_floats = poisoned_device_vector<float>(n);
    thrust::inclusive_scan(thrust::cuda::par, in, in + n, thrust::make_zip_iterator(expected_ints.begin(), expected_floats.begin()), tuple_op{});
    thrust::inclusive_scan(TypeParam::blocking, in, in + n, thrust::make_zip_iterator(actual_ints.begin(), actual_floats.begin()), tuple_op{});
    EXPECT_TRUE(same_bytes(expected_ints, actual_ints));
    EXPECT_TRUE(same_bytes(expected_floats, actual_floats));
    const thrust::tuple<int, float> init(3, -100.0f);
    thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in,
                                  thrust::make_zip_iterator(expected_ints.begin(), expected_floats.begin()), init,
                                  thrust::equal_to<int>{}, tuple_op{});
    thrust::exclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), in,
                                  thrust::make_zip_iterator(actual_ints.begin(), actual_floats.begin()), init,
                                  thrust::equal_to<int>{}, tuple_op{});
    EXPECT_TRUE(same_bytes(expected_ints, actual_ints));
    EXPECT_TRUE(same_bytes(expected_floats, actual_floats));
  }
}

}  // namespace fastscan_test
