// Drop-in compatibility with thrust::cuda::par: large user types. Every policy family in one program, so
// that thrust::cuda::par's kernels (most of the compile time) are compiled once. Scans of 512-byte values,
// plain and by key, against a CPU reference (thrust::cuda::par's kernels for them would double this
// program's build): compat_large_types_by_key_test.cu, a program of its own built in parallel with this one.
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
}

}  // namespace fastscan_test
