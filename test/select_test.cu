// Stream compaction (copy_if with and without stencil, remove_copy_if) through every policy family,
// against thrust::cuda::par: the same selected items in the same order and the same returned end, into
// poisoned outputs, at every size edge of the tile and the look-back window, with none, all,
// alternating and random fractions kept, fancy iterators and a user-defined type.

#include "common/policies.cuh"

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/remove.h>

namespace fastscan_test {
namespace {

template <class Under>
class select_test : public gpu_test {};
using algorithms =
    ::testing::Types<matrix_under_test, blelloch_under_test, hillis_steele_under_test, matrix_deterministic_under_test>;
TYPED_TEST_SUITE(select_test, algorithms, algorithm_names);

// Keeps an item when its hash falls under `permille` / 1000 (0: none, 1000: all); -1: every other item.
struct keep_fraction {
  int permille;
  __host__ __device__ bool operator()(int x) const {
    if (permille < 0) return (x & 1) == 0;
    const unsigned h = static_cast<unsigned>(x) * 2654435761u;
    return static_cast<int>((h >> 8) % 1000u) < permille;
  }
};

struct affine_pred {
  __host__ __device__ bool operator()(affine const& f) const { return (f.b & 3u) != 0; }
};

template <class Under>
std::vector<std::size_t> select_sizes() {
  const std::size_t tile = Under::template tile<unsigned>;
  return capped({0, 1, 2, tile - 1, tile, tile + 1, 31 * tile, 32 * tile + 1, 33 * tile - 1, 104729,
                 (std::size_t{1} << 20) + 1, 3 * (std::size_t{1} << 21) + 1, (std::size_t{1} << 24) + 3});
}

// Runs `call(policy, out_begin)` under thrust::cuda::par and the policy, into poisoned outputs, and
// checks both the items and the returned end.
template <class T, class Under, class Call>
void expect_same_as_par(std::size_t n, Call&& call) {
  auto expected = poisoned_device_vector<T>(n + 1);
  auto actual = poisoned_device_vector<T>(n + 1);
  const auto expected_end = call(thrust::cuda::par, expected.begin());
  const auto actual_end = call(Under::nosync, actual.begin());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(expected_end - expected.begin(), actual_end - actual.begin());
  ASSERT_TRUE(all_equal(to_host(expected), to_host(actual)));  // the untouched tail is poisoned alike
}

TYPED_TEST(select_test, CopyIfKeepsWhatParKeeps) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    const auto input = random_vector<std::uint32_t>(n, 1100 + n);
    auto d_in = to_device(input);
    for (int permille : {0, 1000, -1, 100, 500, 900}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", kept per mille " + std::to_string(permille));
      expect_same_as_par<std::uint32_t, TypeParam>(n, [&](auto policy, auto out) {
        return thrust::copy_if(policy, d_in.begin(), d_in.end(), out, keep_fraction{permille});
      });
    }
  }
}

TYPED_TEST(select_test, StencilAndRemoveCopyIf) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto values = random_vector<double>(n, 1200 + n);
    auto d_values = to_device(values);
    auto d_stencil = to_device(random_vector<std::uint32_t>(n, 1300 + n));
    expect_same_as_par<double, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, d_values.begin(), d_values.end(), d_stencil.begin(), out, keep_fraction{500});
    });
    expect_same_as_par<double, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::remove_copy_if(policy, d_values.begin(), d_values.end(), d_stencil.begin(), out, keep_fraction{300});
    });
    auto d_ints = to_device(random_vector<std::uint32_t>(n, 1400 + n));
    expect_same_as_par<std::uint32_t, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::remove_copy_if(policy, d_ints.begin(), d_ints.end(), out, keep_fraction{-1});
    });
  }
}

TYPED_TEST(select_test, FancyIteratorsAndUserTypes) {
  for (std::size_t n : capped({0, 1, 5000, 104729, 3 * (std::size_t{1} << 20) + 7})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    // Counting input, transformed stencil.
    auto first = thrust::make_counting_iterator<int>(0);
    expect_same_as_par<int, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, first, first + static_cast<long>(n), out, keep_fraction{250});
    });
    const auto maps = random_vector<affine>(n, 1500 + n);
    auto d_maps = to_device(maps);
    expect_same_as_par<affine, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, d_maps.begin(), d_maps.end(), out, affine_pred{});
    });
  }
}

}  // namespace
}  // namespace fastscan_test
