// Scan-by-key and backward scans for fastscan::hillis_steele_deterministic: scan-then-propagate over
// (head, value) pairs with the segmented operator.
#include "scan_by_key_suite.cuh"

namespace fastscan_test {
INSTANTIATE_TYPED_TEST_SUITE_P(hillis_steele_deterministic, by_key_suite, hillis_steele_deterministic_under_test,
                               algorithm_names);
}  // namespace fastscan_test
