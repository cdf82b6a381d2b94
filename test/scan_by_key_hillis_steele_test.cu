// Scan-by-key and backward scans for fastscan::hillis_steele.
#include "scan_by_key_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(hillis_steele, by_key_suite, hillis_steele_under_test, algorithm_names);
}  // namespace fastscan_test
