// Backward scans: reverse iterators over device memory scan from the end, nothing copied reversed.
#include <fastscan/fastscan.cuh>

#include <thrust/device_vector.h>

#include <vector>

#include "example_support.cuh"

int main() {
  if (!example::gpu_usable("fastscan_backward")) return example::skipped;
  try {
    thrust::device_vector<int> v = std::vector<int>{1, 2, 3, 4, 5};
    thrust::device_vector<int> suffix(5);

    // suffix[i] = v[i] + v[i+1] + ... + v[4], written from the end
    thrust::inclusive_scan(fastscan::matrix, v.rbegin(), v.rend(), suffix.rbegin());
    // suffix = {15, 14, 12, 9, 5}
    const bool ok = example::check(suffix == std::vector<int>{15, 14, 12, 9, 5}, "backward inclusive_scan");
    return ok ? 0 : 1;
  } catch (std::exception const& error) {
    std::fprintf(stderr, "fastscan_backward failed: %s\n", error.what());
    return 1;
  }
}
