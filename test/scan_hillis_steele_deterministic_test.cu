// The scan suite for fastscan::hillis_steele_deterministic:
// scan-then-propagate, recursing over the tile totals.
#include "scan_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(hillis_steele_deterministic, scan_suite, hillis_steele_deterministic_under_test,
                               algorithm_names);
}  // namespace fastscan_test
