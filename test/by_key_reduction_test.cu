// reduce_by_key and unique_by_key (every arity) through every policy family, against
// thrust::cuda::par and a CPU reference: the same runs, the same kept key of each run (the last for
// reduce_by_key, the first for unique_by_key, shown with a predicate that calls distinct keys equal),
// the same returned iterators, into poisoned outputs, at the tile edges, with runs of every mean
// length, non-commutative operators, fancy iterators, every spelling of the policy, and bitwise
// determinism for the _deterministic policies.

#include "common/policies.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/unique.h>

namespace fastscan_test {
namespace {

template <class Under>
class by_key_reduction_test : public gpu_test {};
using algorithms = policy_families;
TYPED_TEST_SUITE(by_key_reduction_test, algorithms, algorithm_names);

// Keys in runs of random length around `mean` (1: every key its own run, mostly; 0: one run).
std::vector<int> run_keys(std::size_t n, std::uint64_t seed, unsigned mean) {
  std::vector<int> keys(n);
  int key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed * 0x100000001B3ull + i);
    if (mean != 0 && r % mean == 0) key = static_cast<int>((r >> 16) % 1000003);
    keys[i] = key;
  }
  return keys;
}

// Calls keys equal when they agree but for their lowest two bits: a run's keys may differ, so which of
// them an algorithm keeps shows.
struct same_quarter {
  __host__ __device__ bool operator()(int a, int b) const { return (a >> 2) == (b >> 2); }
};

template <class Under>
std::vector<std::size_t> reduction_sizes() {
  const std::size_t tile = fastscan::detail::reduce_by_key_tuning<typename Under::algorithm, int, int>::tile_items;
  return capped({0, 1, 2, 31, tile - 1, tile, tile + 1, 2 * tile + 1, 33 * tile - 1, 104729, (std::size_t{1} << 20) + 1,
                 3 * (std::size_t{1} << 21) + 1});
}

// CPU reduce_by_key: the last key of each run and the run's values reduced in order.
template <class K, class V, class Pred, class Op>
std::pair<std::vector<K>, std::vector<V>> reference_reduce_by_key(std::vector<K> const& keys, std::vector<V> const& values,
                                                                  Pred pred, Op op) {
  std::pair<std::vector<K>, std::vector<V>> out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == 0 || !pred(keys[i - 1], keys[i])) {
      out.first.push_back(keys[i]);
      out.second.push_back(values[i]);
    } else {
      out.first.back() = keys[i];
      out.second.back() = op(out.second.back(), values[i]);
    }
  }
  return out;
}

// Runs `call(policy, keys_out, values_out)` under thrust::cuda::par and the policy into poisoned outputs
// and compares the returned ends and both outputs whole (the untouched tails are poisoned alike).
template <class K, class V, class Under, class Call>
void expect_pairs_same_as_par(std::size_t n, Call&& call) {
  auto expected_keys = poisoned_device_vector<K>(n + 1);
  auto expected_values = poisoned_device_vector<V>(n + 1);
  auto actual_keys = poisoned_device_vector<K>(n + 1);
  auto actual_values = poisoned_device_vector<V>(n + 1);
  const auto expected_end = call(thrust::cuda::par, expected_keys.begin(), expected_values.begin());
  const auto actual_end = call(Under::nosync, actual_keys.begin(), actual_values.begin());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(expected_end.first - expected_keys.begin(), actual_end.first - actual_keys.begin());
  ASSERT_EQ(expected_end.second - expected_values.begin(), actual_end.second - actual_values.begin());
  ASSERT_TRUE(all_equal(to_host(expected_keys), to_host(actual_keys)));
  ASSERT_TRUE(all_equal(to_host(expected_values), to_host(actual_values)));
}

TYPED_TEST(by_key_reduction_test, ReduceByKeyMatchesParAndReference) {
  for (std::size_t n : reduction_sizes<TypeParam>()) {
    for (unsigned mean : {1u, 3u, 32u, 1000u, 0u}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", mean run " + std::to_string(mean));
      const auto keys = run_keys(n, 3100 + n + mean, mean);
      const auto values = random_vector<std::int32_t>(n, 3200 + n);
      auto d_keys = to_device(keys);
      auto d_values = to_device(values);
      expect_pairs_same_as_par<int, std::int32_t, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out, values_out);
      });
      expect_pairs_same_as_par<int, std::int32_t, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out, values_out,
                                     same_quarter{});
      });
      expect_pairs_same_as_par<int, std::int32_t, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out, values_out,
                                     same_quarter{}, thrust::maximum<std::int32_t>{});
      });
      // Against the CPU too, so that a shared misreading of the contract would show.
      const auto reference = reference_reduce_by_key(keys, values, same_quarter{}, thrust::plus<std::int32_t>{});
      auto keys_out = poisoned_device_vector<int>(n);
      auto values_out = poisoned_device_vector<std::int32_t>(n);
      const auto end = thrust::reduce_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_values.begin(),
                                             keys_out.begin(), values_out.begin(), same_quarter{});
      ASSERT_EQ(end.first - keys_out.begin(), static_cast<std::ptrdiff_t>(reference.first.size()));
      ASSERT_EQ(end.second - values_out.begin(), static_cast<std::ptrdiff_t>(reference.second.size()));
      auto got_keys = to_host(keys_out);
      auto got_values = to_host(values_out);
      got_keys.resize(reference.first.size());
      got_values.resize(reference.second.size());
      ASSERT_TRUE(all_equal(reference.first, got_keys));
      ASSERT_TRUE(all_equal(reference.second, got_values));
    }
  }
}

// A non-commutative operator (affine maps composed in order), wide values, and float values checked
// against a long-double reference (each run's sum: error at most 256 eps times the sum of magnitudes).
TYPED_TEST(by_key_reduction_test, ReduceByKeyOperatorsAndTypes) {
  for (std::size_t n : capped({1, 4097, 104729, (std::size_t{1} << 20) + 3})) {
    for (unsigned mean : {2u, 100u}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", mean run " + std::to_string(mean));
      const auto keys = run_keys(n, 3300 + n + mean, mean);
      auto d_keys = to_device(keys);
      const auto maps = random_vector<affine>(n, 3400 + n);
      auto d_maps = to_device(maps);
      expect_pairs_same_as_par<int, affine, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d_maps.begin(), keys_out, values_out,
                                     thrust::equal_to<int>{}, compose_affine{});
      });
      const auto reference = reference_reduce_by_key(keys, maps, thrust::equal_to<int>{}, compose_affine{});
      auto keys_out = poisoned_device_vector<int>(n);
      auto maps_out = poisoned_device_vector<affine>(n);
      const auto end = thrust::reduce_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_maps.begin(),
                                             keys_out.begin(), maps_out.begin(), thrust::equal_to<int>{},
                                             compose_affine{});
      ASSERT_EQ(end.second - maps_out.begin(), static_cast<std::ptrdiff_t>(reference.second.size()));
      auto got = to_host(maps_out);
      got.resize(reference.second.size());
      ASSERT_TRUE(all_equal(reference.second, got));

      auto d_wide = to_device(random_vector<std::uint64_t>(n, 3500 + n));
      expect_pairs_same_as_par<int, std::uint64_t, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d_wide.begin(), keys_out, values_out);
      });

      const auto floats = random_vector<float>(n, 3600 + n);
      auto d_floats = to_device(floats);
      auto float_keys = poisoned_device_vector<int>(n);
      auto float_sums = poisoned_device_vector<float>(n);
      const auto float_end = thrust::reduce_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_floats.begin(),
                                                   float_keys.begin(), float_sums.begin());
      float_reference<float> expected;
      for (std::size_t i = 0; i < n; ++i) {
        const long double x = floats[i];
        if (i == 0 || keys[i] != keys[i - 1]) {
          expected.value.push_back(x);
          expected.magnitude.push_back(std::fabs(x));
        } else {
          expected.value.back() += x;
          expected.magnitude.back() += std::fabs(x);
        }
      }
      ASSERT_EQ(float_end.second - float_sums.begin(), static_cast<std::ptrdiff_t>(expected.value.size()));
      auto sums = to_host(float_sums);
      sums.resize(expected.value.size());
      ASSERT_TRUE(all_close(expected, sums));
    }
  }
}

struct tenth {
  __host__ __device__ int operator()(int i) const { return i / 10; }
};

TYPED_TEST(by_key_reduction_test, ReduceByKeyFancyIteratorsAndFlavours) {
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  int flavour = 0;
  for (std::size_t n : capped({0, 1, 999, 100003, (std::size_t{1} << 20) + 5})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto count = static_cast<long>(n);
    auto keys = thrust::make_transform_iterator(thrust::make_counting_iterator<int>(0), tenth{});
    auto values = thrust::make_counting_iterator<int>(1);
    expect_pairs_same_as_par<int, int, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
      return thrust::reduce_by_key(policy, keys, keys + count, values, keys_out, values_out);
    });
    // Keys discarded: the values' own type accumulates, and the returned key iterator still advances.
    auto values_out = poisoned_device_vector<int>(n);
    const auto runs = (n + 9) / 10;
    thrust::pair<thrust::discard_iterator<>, thrust::device_vector<int>::iterator> end{};
    with_policy_flavour<TypeParam>(flavour++, stream, [&](auto policy) {
      end = thrust::reduce_by_key(policy, keys, keys + count, values, thrust::make_discard_iterator(),
                                  values_out.begin());
    });
    ASSERT_EQ(end.first - thrust::make_discard_iterator(), static_cast<std::ptrdiff_t>(runs));
    ASSERT_EQ(end.second - values_out.begin(), static_cast<std::ptrdiff_t>(runs));
    const auto got = to_host(values_out);
    for (std::size_t r = 0; r < runs; ++r) {
      long long sum = 0;
      for (std::size_t i = 10 * r; i < std::min(n, 10 * r + 10); ++i) sum += static_cast<long long>(i) + 1;
      ASSERT_EQ(got[r], static_cast<int>(sum)) << "run " << r;
    }
  }
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TYPED_TEST(by_key_reduction_test, UniqueByKeyMatchesPar) {
  for (std::size_t n : reduction_sizes<TypeParam>()) {
    for (unsigned mean : {1u, 4u, 1000u}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", mean run " + std::to_string(mean));
      const auto keys = run_keys(n, 3700 + n + mean, mean);
      const auto values = random_vector<std::uint64_t>(n, 3800 + n);
      auto d_keys = to_device(keys);
      auto d_values = to_device(values);
      expect_pairs_same_as_par<int, std::uint64_t, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::unique_by_key_copy(policy, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out, values_out);
      });
      expect_pairs_same_as_par<int, std::uint64_t, TypeParam>(n, [&](auto policy, auto keys_out, auto values_out) {
        return thrust::unique_by_key_copy(policy, d_keys.begin(), d_keys.end(), d_values.begin(), keys_out, values_out,
                                          same_quarter{});
      });
      // In place, both arities: the kept part and the returned iterators.
      for (bool with_pred : {false, true}) {
        auto expected_keys = to_device(keys);
        auto expected_values = to_device(values);
        auto actual_keys = to_device(keys);
        auto actual_values = to_device(values);
        const auto expected_end =
            with_pred ? thrust::unique_by_key(thrust::cuda::par, expected_keys.begin(), expected_keys.end(),
                                              expected_values.begin(), same_quarter{})
                      : thrust::unique_by_key(thrust::cuda::par, expected_keys.begin(), expected_keys.end(),
                                              expected_values.begin());
        const auto actual_end =
            with_pred ? thrust::unique_by_key(TypeParam::blocking, actual_keys.begin(), actual_keys.end(),
                                              actual_values.begin(), same_quarter{})
                      : thrust::unique_by_key(TypeParam::blocking, actual_keys.begin(), actual_keys.end(),
                                              actual_values.begin());
        const auto kept = expected_end.first - expected_keys.begin();
        ASSERT_EQ(kept, actual_end.first - actual_keys.begin());
        ASSERT_EQ(expected_end.second - expected_values.begin(), actual_end.second - actual_values.begin());
        auto e_keys = to_host(expected_keys), a_keys = to_host(actual_keys);
        auto e_values = to_host(expected_values), a_values = to_host(actual_values);
        e_keys.resize(kept), a_keys.resize(kept), e_values.resize(kept), a_values.resize(kept);
        ASSERT_TRUE(all_equal(e_keys, a_keys));
        ASSERT_TRUE(all_equal(e_values, a_values));
      }
    }
  }
}

// unique_by_key over keys and values whose (key, value) items move as one chunk of each array (a zip of
// two arrays aligned to those chunks), and over the same arrays one element off that alignment (element
// by element), copied and in place.
template <class K, class V, class Under>
void expect_unique_by_key_of_widths_same_as_par(std::uint64_t seed) {
  const std::size_t tile = Under::template select_tile<::cuda::std::tuple<K, V>>;
  for (std::size_t n : capped({0, 1, tile - 1, tile, tile + 1, 3 * tile + 7, 104729, (std::size_t{1} << 20) + 1})) {
    // Runs of 7: chunks of values with and without a kept item in the same tile.
    for (unsigned mean : {1u, 7u, 1000u}) {
      const auto int_keys = run_keys(n + 1, seed + n + mean, mean);
      std::vector<K> keys(n + 1);
      for (std::size_t i = 0; i <= n; ++i) keys[i] = static_cast<K>(int_keys[i]);
      const auto values = random_vector<V>(n + 1, seed + 7 * n + 1);
      auto d_keys = to_device(keys);
      auto d_values = to_device(values);
      for (const auto& [key_offset, value_offset] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{0, 1}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", mean run " + std::to_string(mean) + ", offsets " +
                     std::to_string(key_offset) + "/" + std::to_string(value_offset));
        const auto keys_first = d_keys.begin() + key_offset;
        const auto values_first = d_values.begin() + value_offset;
        expect_pairs_same_as_par<K, V, Under>(n, [&](auto policy, auto keys_out, auto values_out) {
          return thrust::unique_by_key_copy(policy, keys_first, keys_first + static_cast<long>(n), values_first,
                                            keys_out, values_out);
        });
        auto expected_keys = d_keys, actual_keys = d_keys;
        auto expected_values = d_values, actual_values = d_values;
        const auto expected_end = thrust::unique_by_key(
            thrust::cuda::par, expected_keys.begin() + key_offset, expected_keys.begin() + key_offset + static_cast<long>(n),
            expected_values.begin() + value_offset);
        const auto actual_end = thrust::unique_by_key(
            Under::blocking, actual_keys.begin() + key_offset, actual_keys.begin() + key_offset + static_cast<long>(n),
            actual_values.begin() + value_offset);
        ASSERT_EQ(expected_end.first - expected_keys.begin(), actual_end.first - actual_keys.begin());
        ASSERT_EQ(expected_end.second - expected_values.begin(), actual_end.second - actual_values.begin());
        const auto kept = static_cast<std::size_t>(expected_end.first - expected_keys.begin());
        auto e_keys = to_host(expected_keys), a_keys = to_host(actual_keys);
        auto e_values = to_host(expected_values), a_values = to_host(actual_values);
        e_keys.resize(kept), a_keys.resize(kept);
        e_values.resize(kept - key_offset + value_offset), a_values.resize(kept - key_offset + value_offset);
        ASSERT_TRUE(all_equal(e_keys, a_keys));
        ASSERT_TRUE(all_equal(e_values, a_values));
      }
    }
  }
}

TYPED_TEST(by_key_reduction_test, UniqueByKeyOfEveryChunkWidth) {
  expect_unique_by_key_of_widths_same_as_par<int, int, TypeParam>(4100);
  expect_unique_by_key_of_widths_same_as_par<int, float, TypeParam>(4200);
  expect_unique_by_key_of_widths_same_as_par<std::int16_t, int, TypeParam>(4300);
  expect_unique_by_key_of_widths_same_as_par<std::int8_t, std::int8_t, TypeParam>(4400);
  expect_unique_by_key_of_widths_same_as_par<int, double, TypeParam>(4500);
  expect_unique_by_key_of_widths_same_as_par<long long, float, TypeParam>(4600);
}

// reduce_by_key over keys and values of every pair of widths: the tile staged by 16-byte copies of each
// array (both aligned to 16 bytes), and element by element (one array or both one element off), each
// thread's chunk 16 bytes of values and their keys. Integer-valued values, so that every order of the
// additions gives the same sums.
template <class K, class V, class Under>
void expect_reduce_by_key_of_widths_same_as_par(std::uint64_t seed) {
  const std::size_t tile =
      fastscan::detail::reduce_by_key_tuning<typename Under::algorithm, K, V>::tile_items;
  for (std::size_t n : capped({0, 1, tile - 1, tile, tile + 1, 3 * tile + 7, 104729, (std::size_t{1} << 20) + 1})) {
    for (unsigned mean : {1u, 5u, 1000u}) {
      const auto int_keys = run_keys(n + 1, seed + n + mean, mean);
      std::vector<K> keys(n + 1);
      for (std::size_t i = 0; i <= n; ++i) keys[i] = static_cast<K>(int_keys[i]);
      const auto random = random_vector<std::uint32_t>(n + 1, seed + 7 * n + 1);
      std::vector<V> values(n + 1);
      for (std::size_t i = 0; i <= n; ++i) values[i] = static_cast<V>(static_cast<int>(random[i] % 2001) - 1000);
      auto d_keys = to_device(keys);
      auto d_values = to_device(values);
      for (const auto& [key_offset, value_offset] : {std::pair{0, 0}, std::pair{1, 1}, std::pair{0, 1}, std::pair{1, 0}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", mean run " + std::to_string(mean) + ", offsets " +
                     std::to_string(key_offset) + "/" + std::to_string(value_offset));
        const auto keys_first = d_keys.begin() + key_offset;
        const auto values_first = d_values.begin() + value_offset;
        expect_pairs_same_as_par<K, V, Under>(n, [&](auto policy, auto keys_out, auto values_out) {
          return thrust::reduce_by_key(policy, keys_first, keys_first + static_cast<long>(n), values_first, keys_out,
                                       values_out);
        });
      }
    }
  }
}

TYPED_TEST(by_key_reduction_test, ReduceByKeyOfEveryChunkWidth) {
  expect_reduce_by_key_of_widths_same_as_par<int, double, TypeParam>(4700);
  expect_reduce_by_key_of_widths_same_as_par<long long, float, TypeParam>(4800);
  expect_reduce_by_key_of_widths_same_as_par<std::int16_t, int, TypeParam>(4900);
  expect_reduce_by_key_of_widths_same_as_par<std::int8_t, long long, TypeParam>(5000);
  expect_reduce_by_key_of_widths_same_as_par<long long, std::int8_t, TypeParam>(5100);
}

// More than 2^32 items: the one-pass look-back counts runs in 64 bits (fewer items count in 32 bits where
// that packs a pair with an 8-byte value into one status word, as every smaller test here does). Keys
// i / 4099 and values i % 5, both computed on the fly; each run's sum is exact and known in closed form.
struct run_of_item {
  __host__ __device__ long long operator()(long long i) const { return i / 4099; }
};
struct value_of_item {
  __host__ __device__ double operator()(long long i) const { return static_cast<double>(i % 5); }
};
// The sum of i % 5 over [0, m).
long long sum_of_residues(long long m) { return m / 5 * 10 + (m % 5) * (m % 5 - 1) / 2; }

TYPED_TEST(by_key_reduction_test, ReduceByKeyBeyondFourGiElements) {
  if constexpr (TypeParam::algorithm::template tuning<double>::strategy != fastscan::detail::multi_block::single_pass) {
    GTEST_SKIP() << "the deterministic reduce_by_key scans into temporary storage first: 2^32 doubles";
  } else {
    const long long n = (1ll << 32) + 4096 * 3 + 5;
    if (capped({static_cast<std::size_t>(n)}).empty()) GTEST_SKIP() << "sizes capped by FASTSCAN_TEST_MAX_N";
    const long long runs = (n + 4098) / 4099;
    auto items = thrust::make_counting_iterator<long long>(0);
    auto keys = thrust::make_transform_iterator(items, run_of_item{});
    auto values = thrust::make_transform_iterator(items, value_of_item{});
    auto keys_out = poisoned_device_vector<long long>(static_cast<std::size_t>(runs) + 1);
    auto sums = poisoned_device_vector<double>(static_cast<std::size_t>(runs) + 1);
    const auto end = thrust::reduce_by_key(TypeParam::blocking, keys, keys + n, values, keys_out.begin(), sums.begin());
    ASSERT_EQ(end.first - keys_out.begin(), runs);
    ASSERT_EQ(end.second - sums.begin(), runs);
    const auto got_keys = to_host(keys_out);
    const auto got_sums = to_host(sums);
    for (long long r = 0; r < runs; ++r) {
      const long long run_end = std::min(n, (r + 1) * 4099);
      ASSERT_EQ(got_keys[r], r) << "run " << r;
      ASSERT_EQ(got_sums[r], static_cast<double>(sum_of_residues(run_end) - sum_of_residues(r * 4099))) << "run " << r;
    }
    long long key_poison;
    double sum_poison;
    std::memset(&key_poison, 0xA5, sizeof(key_poison));
    std::memset(&sum_poison, 0xA5, sizeof(sum_poison));
    ASSERT_EQ(got_keys[runs], key_poison);
    ASSERT_EQ(std::memcmp(&got_sums[runs], &sum_poison, sizeof(double)), 0);
  }
}

// The deterministic policies give the same bits on every run; the others at least the same count.
TYPED_TEST(by_key_reduction_test, FloatReductionRepeats) {
  const std::size_t n = capped({(std::size_t{1} << 22) + 11}).empty() ? 200003 : (std::size_t{1} << 22) + 11;
  auto d_keys = to_device(run_keys(n, 3900, 5000));
  auto d_values = to_device(random_vector<float>(n, 4000));
  auto first_keys = poisoned_device_vector<int>(n);
  auto first_sums = poisoned_device_vector<float>(n);
  const auto first_end = thrust::reduce_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_values.begin(),
                                               first_keys.begin(), first_sums.begin());
  const auto expected = to_host(first_sums);
  const bool deterministic = std::is_same_v<TypeParam, matrix_deterministic_under_test>;
  for (int repeat = 0; repeat < 20; ++repeat) {
    auto keys_out = poisoned_device_vector<int>(n);
    auto sums = poisoned_device_vector<float>(n);
    const auto end = thrust::reduce_by_key(TypeParam::blocking, d_keys.begin(), d_keys.end(), d_values.begin(),
                                           keys_out.begin(), sums.begin());
    ASSERT_EQ(end.first - keys_out.begin(), first_end.first - first_keys.begin());
    if (deterministic) {
      const auto got = to_host(sums);
      ASSERT_EQ(std::memcmp(got.data(), expected.data(), n * sizeof(float)), 0) << "repeat " << repeat;
    }
  }
}

}  // namespace
}  // namespace fastscan_test
