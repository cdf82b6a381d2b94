// The README's quick start: the same Thrust calls, with fastscan's policies swapped in.
#include <fastscan/fastscan.cuh>

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include <cstdio>

int main() {
  try {
    thrust::device_vector<int> values(1 << 20);
    thrust::sequence(values.begin(), values.end());
    thrust::device_vector<int> sums(values.size());

    thrust::exclusive_scan(fastscan::matrix, values.begin(), values.end(), sums.begin());  // was thrust::cuda::par

    cudaStream_t stream;
    cudaStreamCreate(&stream);
    thrust::inclusive_scan(fastscan::blelloch.on(stream), values.begin(), values.end(), sums.begin(),
                           thrust::maximum<int>{});
    thrust::device_allocator<char> allocator;
    thrust::exclusive_scan(fastscan::hillis_steele(allocator).on(stream), values.begin(), values.end(), sums.begin(),
                           0, thrust::plus<int>{});
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);

    const int total = thrust::reduce(fastscan::matrix, values.begin(), values.end());  // Thrust's own backend
    std::printf("last exclusive sum %d, total %d\n", static_cast<int>(sums.back()), total);
  } catch (std::exception const& error) {
    std::fprintf(stderr, "quickstart failed: %s\n", error.what());
    return 1;
  }
  return 0;
}
