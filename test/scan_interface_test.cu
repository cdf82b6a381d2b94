// The Thrust interface around the kernels: fancy iterators, in-place calls, allocators, several
// streams at once, drop-in equality with thrust::cuda::par, and bad input.

#include "common/policies.cuh"

#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>
#include <thrust/transform_scan.h>
#include <thrust/tuple.h>

#include <array>

namespace fastscan_test {

template <class Under>
class interface_test : public gpu_test {};
using algorithms = single_pass_algorithms;
TYPED_TEST_SUITE(interface_test, algorithms, algorithm_names);

struct mod_1000 {
  __host__ __device__ int operator()(long long x) const { return static_cast<int>(x % 1000) - 500; }
};
struct pair_op {  // (sum, max) of pairs, as a tuple-valued operator
  __host__ __device__ thrust::tuple<int, int> operator()(thrust::tuple<int, int> a, thrust::tuple<int, int> b) const {
    return thrust::make_tuple(thrust::get<0>(a) + thrust::get<0>(b), (thrust::get<1>(a) > thrust::get<1>(b) ? thrust::get<1>(a) : thrust::get<1>(b)));
  }
};
struct times_three {
  __host__ __device__ long long operator()(int x) const { return 3LL * x; }
};

const std::vector<std::size_t> interface_sizes = {0, 1, 1000, 4097, 1 << 20, (1 << 22) + 17};

TYPED_TEST(interface_test, CountingAndTransformInput) {
  for (std::size_t n : capped(interface_sizes)) {
    SCOPED_TRACE(n);
    auto counting = thrust::make_counting_iterator<long long>(12345);
    auto input = thrust::make_transform_iterator(counting, mod_1000{});
    thrust::device_vector<int> out = poisoned_device_vector<int>(n);
    thrust::inclusive_scan(TypeParam::blocking, input, input + n, out.begin());
    std::vector<int> host_input(n);
    for (std::size_t i = 0; i < n; ++i) host_input[i] = mod_1000{}(12345LL + static_cast<long long>(i));
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(host_input, thrust::plus<>{}), to_host(out)));
  }
}

TYPED_TEST(interface_test, ConstantInputExclusive) {
  for (std::size_t n : capped(interface_sizes)) {
    SCOPED_TRACE(n);
    thrust::constant_iterator<long long> input(3);
    thrust::device_vector<long long> out = poisoned_device_vector<long long>(n);
    thrust::exclusive_scan(TypeParam::blocking, input, input + n, out.begin(), 10LL);
    std::vector<long long> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = 10 + 3 * static_cast<long long>(i);
    ASSERT_TRUE(all_equal(expected, to_host(out)));
  }
}

TYPED_TEST(interface_test, ZipInputTupleOperator) {
  for (std::size_t n : capped(interface_sizes)) {
    SCOPED_TRACE(n);
    const auto a = random_vector<int>(n, 7), b = random_vector<int>(n, 8);
    auto da = to_device(a), db = to_device(b);
    thrust::device_vector<int> sums = poisoned_device_vector<int>(n), maxima = poisoned_device_vector<int>(n);
    auto in = thrust::make_zip_iterator(da.begin(), db.begin());
    auto out = thrust::make_zip_iterator(sums.begin(), maxima.begin());
    thrust::inclusive_scan(TypeParam::blocking, in, in + n, out, pair_op{});
    std::vector<int> expected_sums(n), expected_maxima(n);
    for (std::size_t i = 0; i < n; ++i) {
      expected_sums[i] = a[i] + (i ? expected_sums[i - 1] : 0);
      expected_maxima[i] = i ? std::max(b[i], expected_maxima[i - 1]) : b[i];
    }
    ASSERT_TRUE(all_equal(expected_sums, to_host(sums)));
    ASSERT_TRUE(all_equal(expected_maxima, to_host(maxima)));
  }
}

TYPED_TEST(interface_test, DiscardAndTransformOutput) {
  for (std::size_t n : capped(interface_sizes)) {
    SCOPED_TRACE(n);
    const auto input = random_vector<int>(n, 9);
    auto d_in = to_device(input);
    auto discard = thrust::make_discard_iterator();
    auto end = thrust::inclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), discard);
    EXPECT_EQ(end - discard, static_cast<std::ptrdiff_t>(n));
    thrust::device_vector<long long> out = poisoned_device_vector<long long>(n);
    auto tripled = thrust::make_transform_output_iterator(out.begin(), times_three{});
    thrust::exclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), tripled, 4);
    auto expected = reference_exclusive<int, long long>(input, thrust::plus<>{}, 4);
    for (auto& v : expected) v *= 3;
    ASSERT_TRUE(all_equal(expected, to_host(out)));
  }
}

TYPED_TEST(interface_test, InPlace) {
  for (std::size_t n : capped(interface_sizes)) {
    SCOPED_TRACE(n);
    const auto input = random_vector<int>(n, 10);
    auto data = to_device(input);
    thrust::inclusive_scan(TypeParam::blocking, data.begin(), data.end(), data.begin());
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(data)));
    data = to_device(input);
    thrust::exclusive_scan(TypeParam::blocking, data.begin(), data.end(), data.begin(), 5, thrust::maximum<int>{});
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(input, thrust::maximum<int>{}, 5), to_host(data)));
    // int8 values accumulated in int (the init's type decides): the local scans cannot live in the output.
    const auto narrow = random_vector<std::int8_t>(n, 11);
    auto narrow_data = to_device(narrow);
    thrust::inclusive_scan(TypeParam::blocking, narrow_data.begin(), narrow_data.end(), narrow_data.begin(), 1,
                           thrust::plus<>{});
    ASSERT_TRUE(all_equal(reference_inclusive<int, std::int8_t>(narrow, thrust::plus<>{}, 1), to_host(narrow_data)));
  }
}

// Temporary storage comes from the user's allocator. A single-pass scan of a type whose tile status
// fits one word needs none at all; 48-byte values keep their statuses' values in temporary storage.
TYPED_TEST(interface_test, UserAllocatorIsUsed) {
  const auto input = random_vector<int>(1 << 20, 12);
  auto d_in = to_device(input);
  thrust::device_vector<int> out = poisoned_device_vector<int>(input.size());
  counting_allocator allocator;
  long before = counting_allocator::allocations;
  thrust::inclusive_scan(TypeParam::blocking(allocator), d_in.begin(), d_in.end(), out.begin());
  EXPECT_EQ(counting_allocator::allocations, before);
  ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(out)));

  const auto maps = random_vector<affine3>(1 << 18, 13);
  auto d_maps = to_device(maps);
  auto d_composed = poisoned_device_vector<affine3>(maps.size());
  before = counting_allocator::allocations;
  thrust::inclusive_scan(TypeParam::blocking(allocator), d_maps.begin(), d_maps.end(), d_composed.begin(),
                         compose_affine3{});
  EXPECT_GT(counting_allocator::allocations, before);
  EXPECT_EQ(counting_allocator::live, 0);
  ASSERT_TRUE(all_equal(reference_inclusive<affine3, affine3>(maps, compose_affine3{}), to_host(d_composed)));
}

TYPED_TEST(interface_test, FourStreamsInFlight) {
  constexpr int streams = 4;
  std::array<scoped_stream, streams> stream;
  std::vector<std::vector<int>> inputs;
  std::vector<thrust::device_vector<int>> d_in, d_out;
  for (int s = 0; s < streams; ++s) {
    inputs.push_back(random_vector<int>((std::size_t{1} << 21) + 1000 * s, 20 + s));
    d_in.push_back(to_device(inputs[s]));
    d_out.push_back(poisoned_device_vector<int>(inputs[s].size()));
  }
  // All four launched before any is waited for; then the blocking flavour, also on each stream.
  for (int s = 0; s < streams; ++s)
    thrust::inclusive_scan(TypeParam::nosync.on(stream[s].get()), d_in[s].begin(), d_in[s].end(), d_out[s].begin());
  for (int s = 0; s < streams; ++s) ASSERT_EQ(cudaStreamSynchronize(stream[s].get()), cudaSuccess);
  for (int s = 0; s < streams; ++s)
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(inputs[s], thrust::plus<>{}), to_host(d_out[s])));
  for (int s = 0; s < streams; ++s)
    thrust::exclusive_scan(TypeParam::blocking.on(stream[s].get()), d_in[s].begin(), d_in[s].end(), d_out[s].begin());
  for (int s = 0; s < streams; ++s)
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(inputs[s], thrust::plus<>{}, 0), to_host(d_out[s])));
}

// An unchanged user function body, run with thrust::cuda::par and with a fastscan policy.
template <class Policy>
std::vector<std::vector<long long>> user_pipeline(Policy policy, thrust::device_vector<int> const& in) {
  const std::size_t n = in.size();
  thrust::device_vector<long long> a(n), b(n), c(n), d(n);
  thrust::inclusive_scan(policy, in.begin(), in.end(), a.begin());
  thrust::exclusive_scan(policy, in.begin(), in.end(), b.begin(), 100LL, thrust::maximum<long long>{});
  thrust::transform_inclusive_scan(policy, in.begin(), in.end(), c.begin(), times_three{}, thrust::plus<long long>{});
  thrust::transform_exclusive_scan(policy, in.begin(), in.end(), d.begin(), thrust::negate<int>{}, -1,
                                   thrust::plus<int>{});
  const long long total = thrust::reduce(policy, a.begin(), a.end(), 0LL);
  std::vector<std::vector<long long>> results;
  for (auto* v : {&a, &b, &c, &d}) {
    std::vector<long long> h(n);
    thrust::copy(v->begin(), v->end(), h.begin());
    results.push_back(h);
  }
  results.push_back({total});
  return results;
}

TYPED_TEST(interface_test, DropInIdenticalToThrustPar) {
  for (std::size_t n : capped(interface_sizes)) {
    SCOPED_TRACE(n);
    auto d_in = to_device(random_vector<int>(n, 30));
    const auto expected = user_pipeline(thrust::cuda::par, d_in);
    const auto actual = user_pipeline(TypeParam::blocking, d_in);
    ASSERT_EQ(expected.size(), actual.size());
    for (std::size_t r = 0; r < expected.size(); ++r) ASSERT_TRUE(all_equal(expected[r], actual[r])) << "result " << r;
  }
}

TYPED_TEST(interface_test, NegativeRangeThrowsAndWritesNothing) {
  auto data = to_device(random_vector<int>(100, 40));
  thrust::device_vector<int> out = poisoned_device_vector<int>(100);
  const auto before = to_host(out);
  try {
    thrust::inclusive_scan(TypeParam::blocking, data.begin() + 50, data.begin() + 10, out.begin());
    FAIL() << "expected thrust::system_error";
  } catch (thrust::system_error const& error) {
    EXPECT_NE(std::string(error.what()).find("last precedes first"), std::string::npos) << error.what();
  }
  ASSERT_TRUE(all_equal(before, to_host(out)));
}

}  // namespace fastscan_test
