// A user-defined element type with a non-commutative operator: composing affine maps x -> a*x + b.
// The scan's i-th result is the composition of maps 0..i, applied in order.
#include <fastscan/fastscan.cuh>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

#include <vector>

#include "example_support.cuh"

struct affine {
  long long a, b;  // x -> a*x + b
};

// first, then second: x -> second.a * (first.a * x + first.b) + second.b. Associative, not commutative.
struct then {
  __host__ __device__ affine operator()(affine first, affine second) const {
    return {second.a * first.a, second.a * first.b + second.b};
  }
};

int main() {
  if (!example::gpu_usable("fastscan_user_type")) return example::skipped;
  try {
    const int n = 100'000;
    thrust::host_vector<affine> maps(n);
    for (int i = 0; i < n; ++i) maps[i] = affine{i % 3 == 0 ? -1 : 1, i % 7};  // small, so nothing overflows
    thrust::device_vector<affine> d_maps = maps;
    thrust::device_vector<affine> composed(n);

    thrust::inclusive_scan(fastscan::matrix, d_maps.begin(), d_maps.end(), composed.begin(), then{});

    thrust::host_vector<affine> result = composed;
    affine expected = maps[0];
    bool ok = result[0].a == expected.a && result[0].b == expected.b;
    for (int i = 1; i < n; ++i) {
      expected = then{}(expected, maps[i]);
      ok = ok && result[i].a == expected.a && result[i].b == expected.b;
    }
    return example::check(ok, "inclusive_scan of affine maps (non-commutative)") ? 0 : 1;
  } catch (std::exception const& error) {
    std::fprintf(stderr, "fastscan_user_type failed: %s\n", error.what());
    return 1;
  }
}
