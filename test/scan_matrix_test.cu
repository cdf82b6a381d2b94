// The scan suite for fastscan::matrix.
#include "scan_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(matrix, scan_suite, matrix_under_test, algorithm_names);
}  // namespace fastscan_test
