// The README's first example: existing Thrust calls with fastscan's policies swapped in.
#include <fastscan/fastscan.cuh>

#include <thrust/device_vector.h>
#include <thrust/equal.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

#include "example_support.cuh"

struct low_byte {
  __host__ __device__ int operator()(int x) const { return x & 0xff; }
};

int main() {
  if (!example::gpu_usable("fastscan_quickstart")) return example::skipped;
  try {
    const int n = 1 << 16;  // the sums stay within int
    thrust::device_vector<int> values(n);
    thrust::sequence(values.begin(), values.end(), -n / 2);
    thrust::device_vector<int> sums(n), expected(n);
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    thrust::device_allocator<char> alloc;
    auto first = values.begin(), last = values.end();
    auto out = sums.begin();
    auto op = thrust::maximum<int>{};
    bool ok = true;

    thrust::exclusive_scan(fastscan::matrix, first, last, out);                     // was thrust::cuda::par
    thrust::exclusive_scan(thrust::cuda::par, first, last, expected.begin());
    ok &= example::check(sums == expected, "exclusive_scan, fastscan::matrix");

    thrust::inclusive_scan(fastscan::blelloch.on(stream), first, last, out, op);
    thrust::inclusive_scan(thrust::cuda::par.on(stream), first, last, expected.begin(), op);
    ok &= example::check(sums == expected, "inclusive_scan, fastscan::blelloch.on(stream)");

    const int init = 7;
    thrust::exclusive_scan(fastscan::hillis_steele(alloc).on(stream), first, last, out, init, op);
    thrust::exclusive_scan(thrust::cuda::par.on(stream), first, last, expected.begin(), init, op);
    ok &= example::check(sums == expected, "exclusive_scan, fastscan::hillis_steele(alloc).on(stream)");

    const auto unary = low_byte{};
    const auto binary = thrust::plus<int>{};
    thrust::transform_inclusive_scan(fastscan::matrix_nosync.on(stream), first, last, out, unary, binary);
    cudaStreamSynchronize(stream);  // _nosync: synchronise before reading, as with par_nosync
    thrust::transform_inclusive_scan(thrust::cuda::par, first, last, expected.begin(), unary, binary);
    ok &= example::check(sums == expected, "transform_inclusive_scan, fastscan::matrix_nosync.on(stream)");

    const int total = thrust::reduce(fastscan::matrix, first, last);                // Thrust's backend runs this
    ok &= example::check(total == thrust::reduce(thrust::cuda::par, first, last), "reduce through fastscan::matrix");
    cudaStreamDestroy(stream);
    return ok ? 0 : 1;
  } catch (std::exception const& error) {
    std::fprintf(stderr, "fastscan_quickstart failed: %s\n", error.what());
    return 1;
  }
}
