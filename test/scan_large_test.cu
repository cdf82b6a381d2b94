// One scan of more than 2^32 elements (int8, so it fits comfortably): 64-bit offsets end to end.

#include "common/policies.cuh"

#include <thrust/tabulate.h>

namespace fastscan_test {

struct hashed_int8 {
  __host__ __device__ std::int8_t operator()(long long i) const {
    unsigned long long x = static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return static_cast<std::int8_t>(x >> 7);
  }
};

class large_test : public gpu_test {};

TEST_F(large_test, Int8InclusiveAbove2To32Elements) {
  const std::size_t n = (std::size_t{1} << 32) + (std::size_t{1} << 20) + 3;
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (free_bytes < 3 * n) GTEST_SKIP() << "needs " << 3 * n / (1 << 20) << " MiB of device memory";

  thrust::device_vector<std::int8_t> input(n);
  thrust::tabulate(input.begin(), input.end(), hashed_int8{});
  const std::vector<std::int8_t> host_input = to_host(input);
  const std::vector<std::int8_t> expected = reference_inclusive<std::int8_t, std::int8_t>(host_input, thrust::plus<>{});

  auto check = [&](auto policy, const char* name) {
    SCOPED_TRACE(name);
    thrust::device_vector<std::int8_t> out = poisoned_device_vector<std::int8_t>(n);
    thrust::inclusive_scan(policy, input.begin(), input.end(), out.begin());
    ASSERT_TRUE(all_equal(expected, to_host(out)));
  };
  check(fastscan::matrix, "matrix");
  check(fastscan::blelloch, "blelloch");
  check(fastscan::hillis_steele, "hillis_steele");
}

struct hashed_key {  // segments of 1024 elements whose keys repeat rarely
  __host__ __device__ std::int8_t operator()(long long i) const { return hashed_int8{}(i >> 10); }
};

TEST_F(large_test, Int8InclusiveByKeyAbove2To32Elements) {
  const std::size_t n = (std::size_t{1} << 32) + (std::size_t{1} << 20) + 3;
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  if (free_bytes < 4 * n) GTEST_SKIP() << "needs " << 4 * n / (1 << 20) << " MiB of device memory";

  thrust::device_vector<std::int8_t> keys(n), values(n);
  thrust::tabulate(keys.begin(), keys.end(), hashed_key{});
  thrust::tabulate(values.begin(), values.end(), hashed_int8{});
  const std::vector<std::int8_t> host_keys = to_host(keys), host_values = to_host(values);
  std::vector<std::int8_t> expected(n);
  std::int8_t acc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc = (i == 0 || host_keys[i] != host_keys[i - 1]) ? host_values[i] : static_cast<std::int8_t>(acc + host_values[i]);
    expected[i] = acc;
  }
  auto check = [&](auto policy, const char* name) {
    SCOPED_TRACE(name);
    thrust::device_vector<std::int8_t> out = poisoned_device_vector<std::int8_t>(n);
    thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out.begin());
    ASSERT_TRUE(all_equal(expected, to_host(out)));
  };
  check(fastscan::matrix, "matrix");
  check(fastscan::blelloch, "blelloch");
  check(fastscan::hillis_steele, "hillis_steele");
}

}  // namespace fastscan_test
