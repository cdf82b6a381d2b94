// Scan-by-key and backward scans for fastscan::matrix_deterministic: the paper's own by-key driver
// (one segmented pass, the tile records scanned, each tile's first segment fixed up).
#include "scan_by_key_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(matrix_deterministic, by_key_suite, matrix_deterministic_under_test, algorithm_names);
}  // namespace fastscan_test
