// Scans by key: each run of equal keys is scanned on its own.
#include <fastscan/fastscan.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include "example_support.cuh"

int main() {
  if (!example::gpu_usable("fastscan_by_key")) return example::skipped;
  try {
    const thrust::host_vector<int> h_keys = std::vector<int>{1, 1, 1, 2, 2, 3, 1, 1};
    const thrust::host_vector<int> h_values = std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8};
    thrust::device_vector<int> keys = h_keys, values = h_values, out(8);

    thrust::inclusive_scan_by_key(fastscan::matrix, keys.begin(), keys.end(), values.begin(), out.begin());
    // out = {1, 3, 6, 4, 9, 6, 7, 15}
    bool ok = example::check(out == std::vector<int>{1, 3, 6, 4, 9, 6, 7, 15}, "inclusive_scan_by_key");

    thrust::exclusive_scan_by_key(fastscan::blelloch, keys.begin(), keys.end(), values.begin(), out.begin(), 100);
    // out = {100, 101, 103, 100, 104, 100, 100, 107}
    ok &= example::check(out == std::vector<int>{100, 101, 103, 100, 104, 100, 100, 107}, "exclusive_scan_by_key");
    return ok ? 0 : 1;
  } catch (std::exception const& error) {
    std::fprintf(stderr, "fastscan_by_key failed: %s\n", error.what());
    return 1;
  }
}
