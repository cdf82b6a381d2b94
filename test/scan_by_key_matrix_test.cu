// Scan-by-key and backward scans for fastscan::matrix.
#include "scan_by_key_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(matrix, by_key_suite, matrix_under_test, algorithm_names);
}  // namespace fastscan_test
