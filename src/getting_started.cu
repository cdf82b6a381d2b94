// The README's first program: a whole Thrust program with fastscan's policy swapped in. Builds with
// nothing but the language standard and the include path: nvcc -std=c++17 -I include getting_started.cu
#include <fastscan/fastscan.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sequence.h>

#include <cstdio>

int main() {
  int devices = 0;  // (not in the README) no GPU: ctest counts the example as skipped
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;

  thrust::device_vector<int> values(10);
  thrust::sequence(values.begin(), values.end(), 1);  // 1, 2, ..., 10
  thrust::device_vector<int> sums(10);

  thrust::inclusive_scan(fastscan::matrix, values.begin(), values.end(), sums.begin());  // was thrust::cuda::par

  thrust::host_vector<int> result = sums;
  for (int sum : result) std::printf("%d ", sum);  // 1 3 6 10 15 21 28 36 45 55
  std::printf("\n");
  return result[9] == 55 ? 0 : 1;
}
