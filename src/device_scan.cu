// fastscan with cub::DeviceScan's calling convention: query the temporary storage, allocate, scan.
#include <fastscan/fastscan.cuh>

#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include "example_support.cuh"

int main() {
  if (!example::gpu_usable("fastscan_device_scan")) return example::skipped;
  const int n = 1 << 22;
  thrust::device_vector<int> in(n), out(n), reference(n);
  thrust::sequence(in.begin(), in.end(), 0, 3);
  const int* d_in = thrust::raw_pointer_cast(in.data());
  int* d_out = thrust::raw_pointer_cast(out.data());
  cudaStream_t stream = nullptr;

  using scan = fastscan::device_scan<fastscan::matrix_algorithm>;  // was cub::DeviceScan
  void* d_temp = nullptr;
  std::size_t temp_bytes = 0;
  scan::exclusive_sum(d_temp, temp_bytes, d_in, d_out, n, stream);  // sets temp_bytes
  cudaMalloc(&d_temp, temp_bytes);
  cudaError_t status = scan::exclusive_sum(d_temp, temp_bytes, d_in, d_out, n, stream);
  cudaFree(d_temp);

  // The same call to CUB, for comparison.
  std::size_t cub_bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, d_in, thrust::raw_pointer_cast(reference.data()), n, stream);
  void* cub_temp = nullptr;
  cudaMalloc(&cub_temp, cub_bytes);
  cub::DeviceScan::ExclusiveSum(cub_temp, cub_bytes, d_in, thrust::raw_pointer_cast(reference.data()), n, stream);
  cudaFree(cub_temp);
  const bool ok = example::check(status == cudaSuccess && out == reference, "device_scan::exclusive_sum against cub::DeviceScan");
  return ok ? 0 : 1;
}
