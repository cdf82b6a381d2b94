// Scans by key whose keys are narrower or wider than their values (1-, 2-, 4- and 8-byte keys with 2-,
// 4-, 8- and 16-byte values), forward and backward, through the matrix scan by key's drivers: full
// tiles move the keys in chunks of their own width beside the values' 16-byte vectors (tile_io.cuh),
// so every key width meets every way its chunk can be loaded, misaligned calls included.

#include "common/by_key_checks.cuh"

#include <thrust/scan.h>

namespace fastscan_test {

using matrix_by_key_drivers = ::testing::Types<matrix_under_test, matrix_deterministic_under_test>;

template <class Under>
class scan_by_key_widths_test : public gpu_test {};
TYPED_TEST_SUITE(scan_by_key_widths_test, matrix_by_key_drivers, algorithm_names);

// A 16-byte value with a non-commutative operator: affine maps x -> a x + b composed, mod 2^64.
struct wide_affine {
  std::uint64_t a, b;
  friend __host__ __device__ bool operator==(wide_affine const& l, wide_affine const& r) { return l.a == r.a && l.b == r.b; }
  friend std::ostream& operator<<(std::ostream& os, wide_affine const& m) { return os << "(" << m.a << ", " << m.b << ")"; }
};
struct compose_wide_affine {  // first l, then r
  __host__ __device__ wide_affine operator()(wide_affine const& l, wide_affine const& r) const {
    return wide_affine{r.a * l.a, r.a * l.b + r.b};
  }
};

template <class Under, class K, class V, class Op = thrust::plus<V>>
void check_widths(std::uint64_t seed, std::vector<V> (*values_of)(std::size_t, std::uint64_t), Op op = {}) {
  const std::vector<layout> layouts = {layout::tile_ends, layout::mean_32, layout::single, layout::spanning};
  const auto eq = thrust::equal_to<K>{};
  for (bool backward : {false, true}) {
    SCOPED_TRACE(std::string("key bytes ") + std::to_string(sizeof(K)) + ", value bytes " + std::to_string(sizeof(V)));
    auto sweep = [&](auto call, auto reference) {
      scoped_stream stream;
      int round = 0;
      for (std::size_t n : by_key_sizes(Under::template by_key_tile<V>)) {
        for (layout l : layouts) {
          SCOPED_TRACE("n = " + std::to_string(n) + ", layout " + name_of(l) + (backward ? ", backward" : ""));
          const auto keys = segment_keys<K>(l, n, Under::template by_key_tile<V>, seed + n);
          const auto values = values_of(n, seed + 2 * n + 1);
          auto d_keys = to_device(keys);
          auto d_values = to_device(values);
          // One element in: keys and values misaligned for their chunks, so the element path runs too.
          const std::size_t skip = round % 3 == 2 && n > 1 ? 1 : 0;
          auto d_out = poisoned_device_vector<V>(n);
          with_policy_flavour<Under>(round++, stream.get(), [&](auto policy) {
            if (backward) call(policy, d_keys.rbegin(), d_keys.rend() - skip, d_values.rbegin(), d_out.rbegin());
            else call(policy, d_keys.begin() + skip, d_keys.end(), d_values.begin() + skip, d_out.begin() + skip);
          });
          const std::vector<K> used_keys(keys.begin() + skip, keys.end());
          const std::vector<V> used_values(values.begin() + skip, values.end());
          auto out = to_host(d_out);
          std::vector<V> got(out.begin() + skip, out.end());
          const auto expected = backward ? reversed(reference(reversed(used_keys), reversed(used_values)))
                                         : reference(used_keys, used_values);
          ASSERT_TRUE(all_equal(expected, got));
        }
      }
    };
    sweep([&](auto p, auto k0, auto k1, auto v, auto r) { return thrust::inclusive_scan_by_key(p, k0, k1, v, r, eq, op); },
          [&](auto const& k, auto const& v) { return reference_inclusive_by_key<V, V>(k, v, eq, op); });
    const V init = values_of(1, seed)[0];
    sweep([&](auto p, auto k0, auto k1, auto v, auto r) {
            return thrust::exclusive_scan_by_key(p, k0, k1, v, r, init, eq, op);
          },
          [&](auto const& k, auto const& v) { return reference_exclusive_by_key<V, V>(k, v, init, eq, op); });
  }
}

template <class V>
std::vector<V> random_values(std::size_t n, std::uint64_t seed) {
  return random_vector<V>(n, seed);
}
std::vector<wide_affine> random_wide_affines(std::size_t n, std::uint64_t seed) {
  std::vector<wide_affine> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = wide_affine{splitmix64(seed + 2 * i) | 1, splitmix64(seed + 2 * i + 1)};
  return v;
}

TYPED_TEST(scan_by_key_widths_test, KeysNarrowerThanValues) {
  check_widths<TypeParam, signed char, int>(10, random_values<int>);
  check_widths<TypeParam, short, int>(11, random_values<int>);
  check_widths<TypeParam, signed char, std::int64_t>(12, random_values<std::int64_t>);
  check_widths<TypeParam, int, std::int64_t>(13, random_values<std::int64_t>);
  check_widths<TypeParam, int, wide_affine>(14, random_wide_affines, compose_wide_affine{});
}

TYPED_TEST(scan_by_key_widths_test, KeysWiderThanValues) {
  check_widths<TypeParam, long long, int>(20, random_values<int>);
  check_widths<TypeParam, long long, short>(21, random_values<short>);
  check_widths<TypeParam, int, short>(22, random_values<short>);
}

}  // namespace fastscan_test
