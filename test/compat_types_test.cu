// The drop-in compatibility suite compat_types, for every policy family.
#include "compat_suite.cuh"

namespace fastscan_test {
// The three algorithms, and the deterministic matrix driver (the multi-pass drivers' own kernels).
using compat_policies = ::testing::Types<matrix_under_test, blelloch_under_test, hillis_steele_under_test,
                                         matrix_deterministic_under_test>;
INSTANTIATE_TYPED_TEST_SUITE_P(all, compat_types, compat_policies, algorithm_names);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(compat_large_types);  // its own program
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(compat_calls);  // its own program
}  // namespace fastscan_test
