// The scan suite for fastscan::blelloch.
#include "scan_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(blelloch, scan_suite, blelloch_under_test, algorithm_names);
}  // namespace fastscan_test
