// The scan suite for fastscan::matrix_deterministic:
// reduce-then-scan, recursing over the tile totals.
#include "scan_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(matrix_deterministic, scan_suite, matrix_deterministic_under_test, algorithm_names);
}  // namespace fastscan_test
