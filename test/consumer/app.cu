// A Thrust program as a user writes it, with fastscan's policies swapped in: built with no flag beyond
// the language standard and the GPU architecture (plain nvcc, C++17 and C++20; find_package and
// add_subdirectory build its first call only, FASTSCAN_CONSUMER_ONE_CALL, to check the packaging).
// Exits 77 (ctest's "skipped") where no GPU can run it.
#include <fastscan/fastscan.cuh>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "built; not run: no usable GPU\n");
    return 77;
  }
  const int n = 100003;
  thrust::device_vector<int> values(n), out(n), expected(n), keys(n);
  thrust::sequence(values.begin(), values.end(), -n / 2);
  bool ok = true;

  thrust::exclusive_scan(fastscan::matrix, values.begin(), values.end(), out.begin());
  thrust::exclusive_scan(thrust::cuda::par, values.begin(), values.end(), expected.begin());
  ok = ok && out == expected;

#ifndef FASTSCAN_CONSUMER_ONE_CALL
  thrust::sequence(keys.begin(), keys.end());
  thrust::transform(keys.begin(), keys.end(), keys.begin(), thrust::placeholders::_1 / 7);
  thrust::inclusive_scan_by_key(fastscan::blelloch, keys.begin(), keys.end(), values.begin(), out.begin());
  thrust::inclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), values.begin(), expected.begin());
  ok = ok && out == expected;

  thrust::device_vector<int> run_keys(n), run_sums(n), expected_keys(n), expected_sums(n);
  const auto ends = thrust::reduce_by_key(fastscan::matrix, keys.begin(), keys.end(), values.begin(), run_keys.begin(),
                                          run_sums.begin());
  const auto expected_ends = thrust::reduce_by_key(thrust::cuda::par, keys.begin(), keys.end(), values.begin(),
                                                   expected_keys.begin(), expected_sums.begin());
  ok = ok && ends.first - run_keys.begin() == expected_ends.first - expected_keys.begin() &&
       thrust::equal(run_keys.begin(), ends.first, expected_keys.begin()) &&
       thrust::equal(run_sums.begin(), ends.second, expected_sums.begin());

  const auto kept = thrust::copy_if(fastscan::hillis_steele, values.begin(), values.end(), out.begin(), is_odd{});
  const auto expected_kept = thrust::copy_if(thrust::cuda::par, values.begin(), values.end(), expected.begin(), is_odd{});
  ok = ok && kept - out.begin() == expected_kept - expected.begin() && thrust::equal(out.begin(), kept, expected.begin());

  thrust::sort(fastscan::matrix, values.begin(), values.end(), thrust::greater<int>());
  ok = ok && thrust::is_sorted(thrust::cuda::par, values.begin(), values.end(), thrust::greater<int>());
#endif

  std::printf("%s\n", ok ? "consumer: ok" : "consumer: MISMATCH");
  return ok ? 0 : 1;
}
