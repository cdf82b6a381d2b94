// Scan-by-key and backward scans for fastscan::blelloch.
#include "scan_by_key_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(blelloch, by_key_suite, blelloch_under_test, algorithm_names);
}  // namespace fastscan_test
