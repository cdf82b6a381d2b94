// Drop-in compatibility with thrust::cuda::par: large user types. Every policy family in one program, so
// that thrust::cuda::par's kernels (most of the compile time) are compiled once. Scans by key of larger
// values than thrust::cuda::par compiles: compat_large_types_by_key_test.cu (a program of its own, built
// in parallel with this one).
#include "compat_common.cuh"

namespace fastscan_test {

template <class Under>
class compat_large_types : public gpu_test {};
TYPED_TEST_SUITE(compat_large_types, policy_families, algorithm_names);

using namespace compat;

TYPED_TEST(compat_large_types, LargeUserTypes) {
  wide<32> init32{};
  init32.word[0] = 7;
  scans_of<TypeParam, wide<32>>(wide_plus<32>{}, init32);  // 128 bytes
  wide<128> init128{};
  init128.word[1] = 9;
  // 512 bytes. thrust::cuda::par compiles scans by key only up to about 128-byte values (CUB's kernel
  // runs out of shared memory); fastscan's scans by key of 512-byte values are checked against a CPU
  // reference in compat_large_types_by_key_test.cu.
  scans_of<TypeParam, wide<128>, /*ByKey=*/false>(wide_plus<128>{}, init128);
}

}  // namespace fastscan_test
