// Scans of 512-byte values, plain and by key, against a CPU reference: thrust::cuda::par compiles scans
// by key only up to about 128-byte values (CUB's kernel runs out of shared memory), and its plain scans
// of them would double the build. Large user types against thrust::cuda::par: compat_large_types_test.cu.
#include "compat_common.cuh"

namespace fastscan_test {

template <class Under>
class compat_large_types_by_key : public gpu_test {};
TYPED_TEST_SUITE(compat_large_types_by_key, policy_families, algorithm_names);

using namespace compat;

// Run twice: with each block's storage where it normally goes (shared memory, dynamic for the matrix scan),
// and with dynamic shared memory ruled out, so that storage too large for shared memory goes to global
// memory as it does for elements of kilobytes (whose compile times are too long for CI).
TYPED_TEST(compat_large_types_by_key, LargeUserTypesByKey) {
  using T = wide<128>;
  const wide_plus<128> op;
  struct restore_limit {
    ~restore_limit() { fastscan::detail::dynamic_shared_limit_for_tests() = 0; }
  } restore;
  for (int storage_in_global = 0; storage_in_global < 2; ++storage_in_global)
  for (std::size_t n : compat_sizes<TypeParam, T>()) {
    SCOPED_TRACE(storage_in_global ? "block storage in global memory" : "block storage in shared memory");
    SCOPED_TRACE(n);
    fastscan::detail::dynamic_shared_limit_for_tests() = storage_in_global ? 1 : 0;
    const auto values = compat_input<T>(n, 13);
    const auto keys = compat_keys<int>(n, 14);
    const thrust::host_vector<T> host_values(values);
    const thrust::host_vector<int> host_keys(keys);
    T init{};
    init.word[2] = 5;
    thrust::host_vector<T> inclusive(n), exclusive(n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool head = i == 0 || host_keys[i] != host_keys[i - 1];
      inclusive[i] = head ? host_values[i] : op(inclusive[i - 1], host_values[i]);
      exclusive[i] = head ? init : op(exclusive[i - 1], host_values[i - 1]);
    }
    thrust::device_vector<T> out = poisoned_device_vector<T>(n);
    thrust::inclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), values.begin(), out.begin(),
                                  thrust::equal_to<int>{}, op);
    EXPECT_TRUE(same_bytes(thrust::device_vector<T>(inclusive), out));
    out = poisoned_device_vector<T>(n);
    thrust::exclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), values.begin(), out.begin(), init,
                                  thrust::equal_to<int>{}, op);
    EXPECT_TRUE(same_bytes(thrust::device_vector<T>(exclusive), out));
    out = poisoned_device_vector<T>(n);
    thrust::inclusive_scan(TypeParam::blocking, values.begin(), values.end(), out.begin(), op);
    for (std::size_t i = 1; i < n; ++i) inclusive[i] = op(inclusive[i - 1], host_values[i]);
    EXPECT_TRUE(same_bytes(thrust::device_vector<T>(inclusive), out));
    out = poisoned_device_vector<T>(n);
    thrust::exclusive_scan(TypeParam::blocking, values.begin(), values.end(), out.begin(), init, op);
    for (std::size_t i = 0; i < n; ++i) exclusive[i] = i == 0 ? init : op(exclusive[i - 1], host_values[i - 1]);
    EXPECT_TRUE(same_bytes(thrust::device_vector<T>(exclusive), out));
  }
}

}  // namespace fastscan_test
