// The deterministic flavours (multi-pass drivers): correct results, and bitwise-identical float results
// over many repeated runs on adversarial data (magnitudes from 1e-8 to 1e8, both signs, values that
// cancel), for scans and scans by key. The plain policies' look-back may combine tiles in another
// order from run to run; these must not.

#include "common/policies.cuh"

#include <thrust/scan.h>

#include <cstring>

namespace fastscan_test {

template <class Under>
class deterministic_test : public gpu_test {};
TYPED_TEST_SUITE(deterministic_test, deterministic_algorithms, algorithm_names);

// Mixed magnitudes and cancellation: x, then later -x, with small values between.
std::vector<float> adversarial_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t bits = splitmix64(seed * 1000003 + i);
    const double exponent = static_cast<double>(bits % 17) - 8.0;  // 1e-8 .. 1e8
    const double mantissa = static_cast<double>((bits >> 8) % 100000) / 100000.0 + 0.1;
    double x = mantissa * std::pow(10.0, exponent) * ((bits >> 40) & 1 ? -1.0 : 1.0);
    if (i >= 3 && (bits >> 50) % 4 == 0) x = -static_cast<double>(v[i - 3]);  // cancel an earlier value
    v[i] = static_cast<float>(x);
  }
  return v;
}

bool bitwise_equal(std::vector<float> const& a, std::vector<float> const& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TYPED_TEST(deterministic_test, IntegerResultsExact) {
  for (std::size_t n : edge_sizes(TypeParam::template tile<int>)) {
    SCOPED_TRACE(n);
    const auto input = random_vector<int>(n, 10000 + n);
    auto d_in = to_device(input);
    auto d_out = poisoned_device_vector<int>(n);
    thrust::exclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), d_out.begin(), 3);
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(input, thrust::plus<>{}, 3), to_host(d_out)));
    const auto maps = random_vector<affine>(n, 10001 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine>(n);
    thrust::inclusive_scan(TypeParam::nosync, d_maps.begin(), d_maps.end(), d_composed.begin(), compose_affine{});
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_inclusive<affine, affine>(maps, compose_affine{}), to_host(d_composed)));
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(splitmix64(i / 37 + n) % 3);
    auto d_keys = to_device(keys);
    d_out = poisoned_device_vector<int>(n);
    thrust::inclusive_scan_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_in.begin(), d_out.begin());
    std::vector<int> expected(n);
    for (std::size_t i = 0; i < n; ++i)
      expected[i] = (i == 0 || keys[i] != keys[i - 1]) ? input[i] : expected[i - 1] + input[i];
    ASSERT_TRUE(all_equal(expected, to_host(d_out)));
  }
}

TYPED_TEST(deterministic_test, FloatBitsIdenticalOverRepeatedRuns) {
  const int runs = std::getenv("FASTSCAN_TEST_MAX_N") ? 5 : 100;
  scoped_stream stream;
  for (std::size_t n : capped({100003, (std::size_t{1} << 20) + 1, 3 * (std::size_t{1} << 22) + 1})) {
    SCOPED_TRACE(n);
    const auto input = adversarial_floats(n, n);
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(i / 5000);  // long segments spanning tiles
    auto d_in = to_device(input);
    auto d_keys = to_device(keys);
    thrust::device_vector<float> d_out(n), d_by_key(n);
    std::vector<float> first_scan, first_by_key;
    for (int run = 0; run < runs; ++run) {
      ASSERT_EQ(cudaMemset(thrust::raw_pointer_cast(d_out.data()), 0xA5, n * sizeof(float)), cudaSuccess);
      ASSERT_EQ(cudaMemset(thrust::raw_pointer_cast(d_by_key.data()), 0xA5, n * sizeof(float)), cudaSuccess);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);  // the poison lands before the scans on another stream
      thrust::inclusive_scan(TypeParam::nosync.on(stream.get()), d_in.begin(), d_in.end(), d_out.begin());
      thrust::inclusive_scan_by_key(TypeParam::blocking.on(stream.get()), d_keys.begin(), d_keys.end(), d_in.begin(),
                                    d_by_key.begin());
      const auto scan = to_host(d_out), by_key = to_host(d_by_key);
      if (run == 0) {
        // The first run is also checked against a long double reference.
        ASSERT_TRUE(all_close(reference_float_sum<float>(input, std::nullopt, false), scan));
        first_scan = scan;
        first_by_key = by_key;
      } else {
        ASSERT_TRUE(bitwise_equal(first_scan, scan)) << "scan differs in run " << run;
        ASSERT_TRUE(bitwise_equal(first_by_key, by_key)) << "scan by key differs in run " << run;
      }
    }
  }
}

}  // namespace fastscan_test
