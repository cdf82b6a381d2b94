// The reproducible drivers (the deterministic single pass and the multi-pass drivers): correct
// results, and bitwise-identical float results over many repeated runs on adversarial data (magnitudes
// from 1e-8 to 1e8, both signs, values that cancel), for scans and scans by key, on several streams and
// host threads at once and in both synchronisation flavours. The plain policies' look-back may combine
// tiles in another order from run to run; these must not.

#include "common/policies.cuh"

#include <thrust/scan.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <optional>
#include <thread>
#include <tuple>

namespace fastscan_test {

template <class Under>
class deterministic_test : public gpu_test {};
TYPED_TEST_SUITE(deterministic_test, reproducible_algorithms, algorithm_names);

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

template <class T>
bool bitwise_equal(std::vector<T> const& a, std::vector<T> const& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
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

// One bit pattern for a scan and a scan by key of the same floats, called 1000 times each (200 at the
// two sizes of millions) from two host threads on four streams, alternating blocking and _nosync
// policies, at sizes around the tile and the deterministic single pass's group boundaries.
TYPED_TEST(deterministic_test, SameBitsOnEveryStreamThreadAndFlavour) {
  using tuning = typename TypeParam::algorithm::template tuning<float>;
  const std::size_t tile = tuning::tile_items;
  // The deterministic single pass's boundaries: groups of 32 tiles, and the group prefix 32 groups back.
  const std::size_t group = 32 * tile;
  for (std::size_t n : capped({tile - 1, tile + 1, group + 1, group + tile - 1, 32 * group + 1, 33 * group + tile + 17})) {
    SCOPED_TRACE(n);
    const int calls = std::getenv("FASTSCAN_TEST_MAX_N") ? 20 : n > (std::size_t{1} << 20) ? 200 : 1000;
    const auto input = adversarial_floats(n, 7 * n);
    std::vector<int> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<int>(i / 3001);
    const auto d_in = to_device(input);
    const auto d_keys = to_device(keys);
    thrust::device_vector<float> d_scan(n), d_by_key(n);
    thrust::inclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), d_scan.begin());
    thrust::inclusive_scan_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_in.begin(), d_by_key.begin());
    const auto expected_scan = to_host(d_scan), expected_by_key = to_host(d_by_key);
    ASSERT_TRUE(all_close(reference_float_sum<float>(input, std::nullopt, false), expected_scan));

    std::atomic<int> differing{0}, failed{0};
    auto worker = [&](int thread) {
      cudaStream_t streams[2];
      thrust::device_vector<float> scan_out[2] = {thrust::device_vector<float>(n), thrust::device_vector<float>(n)};
      thrust::device_vector<float> by_key_out[2] = {thrust::device_vector<float>(n), thrust::device_vector<float>(n)};
      std::vector<float> scan(n), by_key(n);
      for (auto& s : streams)
        if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) ++failed;
      for (int call = thread; call < 2 * calls; call += 2) {
        const int k = call / 2 % 2;
        const cudaStream_t stream = streams[k];
        float* out = thrust::raw_pointer_cast(scan_out[k].data());
        float* by_key_result = thrust::raw_pointer_cast(by_key_out[k].data());
        cudaMemsetAsync(out, 0xA5, n * sizeof(float), stream);
        cudaMemsetAsync(by_key_result, 0xA5, n * sizeof(float), stream);
        if (call / 4 % 2 == 0) {
          thrust::inclusive_scan(TypeParam::nosync.on(stream), d_in.begin(), d_in.end(), scan_out[k].begin());
          thrust::inclusive_scan_by_key(TypeParam::nosync.on(stream), d_keys.begin(), d_keys.end(), d_in.begin(),
                                        by_key_out[k].begin());
        } else {
          thrust::inclusive_scan(TypeParam::blocking.on(stream), d_in.begin(), d_in.end(), scan_out[k].begin());
          thrust::inclusive_scan_by_key(TypeParam::blocking.on(stream), d_keys.begin(), d_keys.end(), d_in.begin(),
                                        by_key_out[k].begin());
        }
        if (cudaMemcpyAsync(scan.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
            cudaMemcpyAsync(by_key.data(), by_key_result, n * sizeof(float), cudaMemcpyDeviceToHost, stream) !=
                cudaSuccess ||
            cudaStreamSynchronize(stream) != cudaSuccess) {
          ++failed;
          continue;
        }
        if (!bitwise_equal(expected_scan, scan) || !bitwise_equal(expected_by_key, by_key)) ++differing;
      }
      for (auto& s : streams) cudaStreamDestroy(s);
    };
    std::thread first(worker, 0), second(worker, 1);
    first.join();
    second.join();
    EXPECT_EQ(failed.load(), 0);
    EXPECT_EQ(differing.load(), 0) << "calls whose bits differ from the first call's, of " << 2 * calls;
  }
}

// ---- the deterministic single pass against its formula, on the host ----------------------------

template <class Under>
class deterministic_single_pass_test : public gpu_test {};
TYPED_TEST_SUITE(deterministic_single_pass_test, deterministic_algorithms, algorithm_names);

// Lanes [0, last] folded as the kernels' fold_lanes does: a tree, farther lanes on the left of op.
float fold_lanes_on_host(std::vector<float> lanes) {
  const std::size_t last = lanes.size() - 1;
  for (std::size_t delta = 1; delta < 32; delta *= 2) {
    const std::vector<float> before = lanes;
    for (std::size_t lane = 0; lane + delta <= last; ++lane) lanes[lane] = before[lane + delta] + before[lane];
  }
  return lanes[0];
}

// Every tile's exclusive prefix as the deterministic single pass defines it (deterministic_lookback.cuh):
// groups of 32 tiles; G(g), a group's tile aggregates folded; I(g), G(g - 30 .. g) folded onto I(g - 31)
// or the init; tile t of group g: its group's earlier tiles folded onto I(g - 1) or the init.
std::vector<std::optional<float>> deterministic_tile_prefixes(std::vector<float> const& aggregates,
                                                              std::optional<float> init) {
  const std::size_t tiles = aggregates.size();
  auto within = [&](std::size_t tile) {  // the tiles before `tile` in its group, nearest in lane 0
    std::vector<float> lanes;
    for (std::size_t t = tile; t-- > tile / 32 * 32;) lanes.push_back(aggregates[t]);
    return lanes;
  };
  std::vector<float> group_aggregate, group_inclusive;
  for (std::size_t g = 0; (g + 1) * 32 <= tiles; ++g) {
    group_aggregate.push_back(fold_lanes_on_host(within(g * 32 + 31)) + aggregates[g * 32 + 31]);
    std::vector<float> lanes;  // G(g - lane)
    for (std::size_t lane = 0; lane < 31 && lane <= g; ++lane) lanes.push_back(group_aggregate[g - lane]);
    const float folded = fold_lanes_on_host(lanes);
    group_inclusive.push_back(g >= 31 ? group_inclusive[g - 31] + folded : init ? *init + folded : folded);
  }
  std::vector<std::optional<float>> prefixes(tiles);
  for (std::size_t t = 0; t < tiles; ++t) {
    const std::optional<float> before = t >= 32 ? std::optional<float>(group_inclusive[t / 32 - 1]) : init;
    if (t % 32 == 0) {
      prefixes[t] = before;
    } else {
      const float folded = fold_lanes_on_host(within(t));
      prefixes[t] = before ? *before + folded : folded;
    }
  }
  return prefixes;
}

// Floats whose tiles hold one value each (at the tile's first element; zeros after it, which any order
// adds exactly), so every output is a tile prefix, or a tile prefix plus that value, and the prefixes'
// bits show the order in which the kernel combined the tiles: it must be the formula's. Through the
// policies `blocking` and `nosync` of a deterministic algorithm whose kernel has tiles of `tile` floats.
template <class Blocking, class Nosync>
void check_tile_prefix_formula(Blocking const& blocking, Nosync const& nosync, std::size_t tile) {
  const std::size_t group = 32 * tile;
  for (std::size_t n : capped({tile + 5, group, group + 1, 33 * group + 3, 65 * group + tile / 2})) {
    SCOPED_TRACE(n);
    const std::size_t tiles = (n + tile - 1) / tile;
    std::vector<float> aggregates(tiles), input(n, 0.0f);
    for (std::size_t t = 0; t < tiles; ++t) {
      const std::uint64_t bits = splitmix64(n * 31 + t);
      const float mantissa = 1.0f + static_cast<float>(bits % 1000003) / 1000003.0f;
      aggregates[t] = std::ldexp(mantissa, static_cast<int>((bits >> 32) % 21) - 10) * ((bits >> 60) & 1 ? -1.0f : 1.0f);
      input[t * tile] = aggregates[t];
    }
    const auto d_in = to_device(input);
    auto d_out = poisoned_device_vector<float>(n);
    thrust::inclusive_scan(blocking, d_in.begin(), d_in.end(), d_out.begin());
    auto out = to_host(d_out);
    const auto prefixes = deterministic_tile_prefixes(aggregates, std::nullopt);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = i / tile;
      const float expected = prefixes[t] ? *prefixes[t] + aggregates[t] : aggregates[t];
      if (std::memcmp(&expected, &out[i], sizeof(float)) != 0 && wrong++ < 5)
        ADD_FAILURE() << "inclusive: element " << i << " (tile " << t << "): " << out[i] << ", expected " << expected;
    }
    EXPECT_EQ(wrong, 0u);

    const float init = 0.3f;
    d_out = poisoned_device_vector<float>(n);
    thrust::exclusive_scan(nosync, d_in.begin(), d_in.end(), d_out.begin(), init);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    out = to_host(d_out);
    const auto with_init = deterministic_tile_prefixes(aggregates, init);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = i / tile;
      const float expected = i % tile == 0 ? *with_init[t] : *with_init[t] + aggregates[t];
      if (std::memcmp(&expected, &out[i], sizeof(float)) != 0 && wrong++ < 5)
        ADD_FAILURE() << "exclusive: element " << i << " (tile " << t << "): " << out[i] << ", expected " << expected;
    }
    EXPECT_EQ(wrong, 0u);
  }
}

TYPED_TEST(deterministic_single_pass_test, EqualsTheHostFormulaOverItsTiles) {
  check_tile_prefix_formula(TypeParam::blocking, TypeParam::nosync, TypeParam::template tile<float>);
}

// ---- the deterministic pipelined single pass ----------------------------------------------------

// fastscan::matrix_deterministic's scans of 4- and 8-byte arithmetic types past 50 MiB take the
// pipelined single pass on sm_90 and later (its threshold the same on every device). Here the size rule
// is lowered so that small calls take it, with one block an SM and with at most three blocks: the same
// formula over its tiles (8192 floats), the same bits whatever the grid, exact integer results with a
// non-commutative operator, forward and backward.
class DeterministicPipelined : public ::testing::TestWithParam<int> {};

TEST_P(DeterministicPipelined, FormulaAndBitsWhateverTheGrid) {
  FASTSCAN_REQUIRE_PIPELINED_PASS();
  {
    const pipelined_size_rule_lowered lowered(GetParam());
    check_tile_prefix_formula(fastscan::matrix_deterministic, fastscan::matrix_deterministic_nosync, 8192);
  }
  // Adversarial doubles and floats: the bits of one block an SM, of at most three blocks and of repeated
  // calls on two streams all equal.
  // Past 70 groups of 8-byte tiles, a partial last tile; both ends of every range on 16 bytes, as the
  // backward pass needs.
  const std::size_t n = 70 * 32 * 4096 + 4092;
  for (std::size_t size : capped({n})) {
    const auto floats = adversarial_floats(size, 77);
    const std::vector<double> doubles(floats.begin(), floats.end());
    const auto d_floats = to_device(floats);
    auto d_doubles = to_device(doubles);
    auto scan_both = [&](cudaStream_t stream) {
      auto f = poisoned_device_vector<float>(size);
      auto d = poisoned_device_vector<double>(size);
      auto backward = poisoned_device_vector<double>(size);
      thrust::inclusive_scan(fastscan::matrix_deterministic.on(stream), d_floats.begin(), d_floats.end(), f.begin());
      thrust::exclusive_scan(fastscan::matrix_deterministic.on(stream), d_doubles.begin(), d_doubles.end(), d.begin(), 0.25);
      thrust::inclusive_scan(fastscan::matrix_deterministic.on(stream), d_doubles.rbegin(), d_doubles.rend(),
                             backward.rbegin());
      return std::make_tuple(to_host(f), to_host(d), to_host(backward));
    };
    scoped_stream stream, other;
    decltype(scan_both(nullptr)) first;
    {
      const pipelined_size_rule_lowered lowered(0);
      first = scan_both(stream.get());
    }
    const pipelined_size_rule_lowered lowered(GetParam() == 0 ? 3 : 1);
    for (int run = 0; run < 3; ++run) {
      SCOPED_TRACE(run);
      const auto again = scan_both(run % 2 ? other.get() : stream.get());
      EXPECT_TRUE(bitwise_equal(std::get<0>(first), std::get<0>(again)));
      EXPECT_TRUE(bitwise_equal(std::get<1>(first), std::get<1>(again)));
      EXPECT_TRUE(bitwise_equal(std::get<2>(first), std::get<2>(again)));
    }
    // Integers exact: non-commutative affine maps forward with an init, ints backward in place.
    std::vector<std::uint64_t> maps(size);
    for (std::size_t i = 0; i < size; ++i) maps[i] = splitmix64(4242 + i) | 1u;
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<std::uint64_t>(size);
    thrust::exclusive_scan(fastscan::matrix_deterministic, d_maps.begin(), d_maps.end(), d_composed.begin(),
                           std::uint64_t{3}, compose_packed32{});
    ASSERT_TRUE(all_equal(reference_exclusive<std::uint64_t, std::uint64_t>(maps, compose_packed32{}, 3u),
                          to_host(d_composed)));
    const auto ints = random_vector<int>(size, 4343);
    auto d_ints = to_device(ints);
    thrust::inclusive_scan(fastscan::matrix_deterministic, d_ints.rbegin(), d_ints.rend(), d_ints.rbegin());
    const std::vector<int> reversed(ints.rbegin(), ints.rend());
    auto expected = reference_inclusive<int, int>(reversed, thrust::plus<>{});
    std::reverse(expected.begin(), expected.end());
    ASSERT_TRUE(all_equal(expected, to_host(d_ints)));
  }
}

INSTANTIATE_TEST_SUITE_P(DeterministicPipelined, DeterministicPipelined, ::testing::Values(0, 3), pipelined_grid_name);

// The largest size the tests allow, a few calls on two streams: the same bits.
TYPED_TEST(deterministic_test, SameBitsAtTheLargestSize) {
  if (capped({std::size_t{1} << 28}).empty()) GTEST_SKIP() << "2^28 elements exceed FASTSCAN_TEST_MAX_N";
  const std::size_t n = std::size_t{1} << 28;
  const auto input = adversarial_floats(n, 5);
  const auto d_in = to_device(input);
  scoped_stream stream;
  thrust::device_vector<float> first(n), again(n);
  thrust::inclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), first.begin());
  const auto expected = to_host(first);
  for (int run = 0; run < 3; ++run) {
    ASSERT_EQ(cudaMemset(thrust::raw_pointer_cast(again.data()), 0xA5, n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_in.begin(), d_in.end(), again.begin());
    ASSERT_TRUE(bitwise_equal(expected, to_host(again))) << "run " << run;
  }
}

}  // namespace fastscan_test
