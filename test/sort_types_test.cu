// Radix sort key and value types, against a CPU stable sort for integer keys and thrust::cuda::par bit
// for bit otherwise (common/sort_checks.cuh): every integer width signed and
// unsigned (char and bool included), float and double with NaNs, signed zeros, infinities and
// subnormals, ascending and descending; values of 1 to 48 bytes (wide ones take the gather path) and a
// user-defined type; ranges that are not contiguous memory; calls Thrust answers itself (non-trivially
// copyable values). The sort's code is shared by the policies, which differ only in the block scan of
// the digit counts (sort_test.cu runs every family with each of those), so these run on fastscan::matrix.

#include "common/sort_checks.cuh"

#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/reverse_iterator.h>

#include <cmath>
#include <limits>

namespace fastscan_test {
namespace {

template <class Under>
class sort_types_test : public gpu_test {};
using algorithms = ::testing::Types<matrix_under_test>;
TYPED_TEST_SUITE(sort_types_test, algorithms, algorithm_names);

const std::vector<std::size_t>& type_sizes() {
  static const auto sizes = capped({0, 1, 2, 257, 4609, 8193, 104729, (std::size_t{1} << 20) + 1});
  return sizes;
}

// Random keys of every bit pattern (signed ones negative too), with repeats so stability shows.
template <class Key>
std::vector<Key> typed_keys(std::size_t n, std::uint64_t seed) {
  std::vector<Key> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits = splitmix64(seed * 0x100000001B3ull + (i % 3 == 0 ? i / 3 : i));  // some repeats
    if constexpr (std::is_floating_point_v<Key>) v[i] = static_cast<Key>((static_cast<double>(bits >> 11) * 0x1.0p-53 - 0.5) * 1e6);
    else std::memcpy(&v[i], &bits, sizeof(Key));
  }
  return v;
}

template <class Key, class Under>
void check_key_type() {
  for (std::size_t n : type_sizes()) {
    SCOPED_TRACE(std::string("key of ") + std::to_string(sizeof(Key)) + " bytes, n = " + std::to_string(n));
    const auto keys = typed_keys<Key>(n, 6000 + n);
    expect_sorted_by_key_like_par<std::uint32_t>(keys, Under::blocking, thrust::less<Key>{}, sort_call::sort);
    expect_sorted_by_key_like_par<std::uint32_t>(keys, Under::nosync, thrust::greater<Key>{}, sort_call::stable_sort);
  }
}

TYPED_TEST(sort_types_test, IntegerKeysOfEveryWidth) {
  check_key_type<std::int8_t, TypeParam>();
  check_key_type<std::uint8_t, TypeParam>();
  check_key_type<char, TypeParam>();
  check_key_type<std::int16_t, TypeParam>();
  check_key_type<std::uint16_t, TypeParam>();
  check_key_type<std::int32_t, TypeParam>();
  check_key_type<std::int64_t, TypeParam>();
  check_key_type<std::uint64_t, TypeParam>();
}

// 8-bit keys alone are not moved but written from their digit counts (agent_radix_sort_fill.cuh):
// every 8-bit type ascending and descending, skewed inputs (most digits empty, runs longer than a
// thread's 16-byte store), sizes around the 16-key runs, at every offset from a 16-byte boundary, with
// the bytes around the range checked untouched.
template <class Key, class Under>
void check_one_byte_keys_alone() {
  const std::size_t guard = 32;
  for (std::size_t n : capped({0, 1, 2, 15, 16, 17, 31, 33, 257, 4099, 104729, (std::size_t{1} << 20) + 1, (std::size_t{1} << 22) + 3})) {
    for (int skew = 0; skew < 2; ++skew) {
      std::vector<Key> keys(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = splitmix64(7000 + 31 * n + i + skew);
        const std::uint8_t byte = skew ? static_cast<std::uint8_t>(r % 97 < 90 ? 0x80 : r % 3 == 0 ? 0x7f : r >> 8) : static_cast<std::uint8_t>(r);
        std::memcpy(&keys[i], &byte, 1);
      }
      for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{15}}) {
        SCOPED_TRACE("n = " + std::to_string(n) + ", skew " + std::to_string(skew) + ", offset " + std::to_string(offset));
        std::vector<Key> buffer(n + 2 * guard);
        for (std::size_t i = 0; i < buffer.size(); ++i) {
          const auto byte = static_cast<std::uint8_t>(0xA5 ^ i);
          std::memcpy(&buffer[i], &byte, 1);
        }
        std::copy(keys.begin(), keys.end(), buffer.begin() + guard + offset);
        auto ascending = to_device(buffer), descending = to_device(buffer);
        Key* up = thrust::raw_pointer_cast(ascending.data()) + guard + offset;
        Key* down = thrust::raw_pointer_cast(descending.data()) + guard + offset;
        thrust::sort(Under::blocking, thrust::device_pointer_cast(up), thrust::device_pointer_cast(up + n));
        thrust::sort(Under::nosync, thrust::device_pointer_cast(down), thrust::device_pointer_cast(down + n), thrust::greater<Key>{});
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<Key> expected_up(buffer), expected_down(buffer);
        std::sort(expected_up.begin() + guard + offset, expected_up.begin() + guard + offset + n);
        std::sort(expected_down.begin() + guard + offset, expected_down.begin() + guard + offset + n, std::greater<Key>{});
        const auto actual_up = to_host(ascending), actual_down = to_host(descending);
        ASSERT_TRUE(same_bits(expected_up, actual_up)) << "ascending, first difference at " << first_difference(expected_up, actual_up);
        ASSERT_TRUE(same_bits(expected_down, actual_down)) << "descending, first difference at " << first_difference(expected_down, actual_down);
      }
    }
  }
}

TYPED_TEST(sort_types_test, OneByteKeysAloneFromTheirCounts) {
  check_one_byte_keys_alone<std::uint8_t, TypeParam>();
  check_one_byte_keys_alone<std::int8_t, TypeParam>();
  check_one_byte_keys_alone<char, TypeParam>();
}

// bool keys (std::vector<bool> has no data(), so through thrust::host_vector).
TYPED_TEST(sort_types_test, BoolKeys) {
  for (std::size_t n : capped({1, 3, 9000, 104729})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    thrust::host_vector<bool> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = (splitmix64(6050 + i) & 1) != 0;
    thrust::device_vector<bool> ek = keys, ak = keys;
    auto ev = to_device(positions_as<std::uint32_t>(n)), av = ev;
    thrust::stable_sort_by_key(thrust::cuda::par, ek.begin(), ek.end(), ev.begin(), thrust::greater<bool>{});
    thrust::sort_by_key(TypeParam::blocking, ak.begin(), ak.end(), av.begin(), thrust::greater<bool>{});
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    thrust::host_vector<bool> e = ek, a = ak;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(e[i], a[i]) << "at " << i;
    ASSERT_TRUE(same_bits(to_host(ev), to_host(av)));
    // Alone, from their counts.
    thrust::device_vector<bool> alone = keys;
    thrust::sort(TypeParam::blocking, alone.begin(), alone.end());
    std::size_t falses = 0;
    for (std::size_t i = 0; i < n; ++i) falses += keys[i] ? 0 : 1;
    thrust::host_vector<bool> sorted = alone;
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i >= falses) << "keys alone, at " << i;
  }
}

// Host side, no GPU needed: a pass holds keys as their ordered bits and turns them back as it stores
// them, so the round trip must give every key's bits back exactly (NaN payloads and -0.0 included),
// the ordered bits must order keys as the comparison does, and -0.0 must take +0.0's digits.
template <class Key, bool Descending>
void check_ordered_bits() {
  using radix = fastscan::detail::radix_key<Key, Descending>;
  using bits_t = typename radix::bits_t;
  auto bits_of = [](Key k) {
    bits_t b;
    std::memcpy(&b, &k, sizeof(Key));
    return b;
  };
  std::vector<bits_t> patterns;
  for (std::uint64_t i = 0; i < 4096; ++i) patterns.push_back(static_cast<bits_t>(splitmix64(7000 + i)));
  if constexpr (std::is_floating_point_v<Key>) {
    for (Key k : {Key(0), -Key(0), std::numeric_limits<Key>::infinity(), -std::numeric_limits<Key>::infinity(),
                  std::numeric_limits<Key>::quiet_NaN(), std::numeric_limits<Key>::denorm_min(), Key(1), Key(-1)})
      patterns.push_back(bits_of(k));
  }
  patterns.push_back(bits_t{0});
  patterns.push_back(static_cast<bits_t>(~bits_t{0}));
  for (bits_t b : patterns) ASSERT_EQ(radix::from_ordered(radix::ordered(b)), b) << "bits " << +b;
  for (std::size_t i = 0; i + 1 < patterns.size(); ++i) {
    Key a, b;
    std::memcpy(&a, &patterns[i], sizeof(Key));
    std::memcpy(&b, &patterns[i + 1], sizeof(Key));
    if constexpr (std::is_floating_point_v<Key>) {
      if (std::isnan(a) || std::isnan(b) || (a == 0 && b == 0)) continue;
    }
    const bool a_first = Descending ? b < a : a < b;
    const bool b_first = Descending ? a < b : b < a;
    if (a_first) EXPECT_LT(radix::ordered(patterns[i]), radix::ordered(patterns[i + 1])) << +a << " " << +b;
    if (b_first) EXPECT_GT(radix::ordered(patterns[i]), radix::ordered(patterns[i + 1])) << +a << " " << +b;
  }
  if constexpr (std::is_floating_point_v<Key>) {
    for (int pass = 0; pass < radix::passes; ++pass)
      EXPECT_EQ(radix::digit_of_ordered(radix::ordered(bits_of(-Key(0))), pass),
                radix::digit_of_ordered(radix::ordered(bits_of(Key(0))), pass))
          << "pass " << pass;
  }
}

TEST(radix_key, OrderedBitsRoundTripAndOrder) {
  check_ordered_bits<float, false>();
  check_ordered_bits<float, true>();
  check_ordered_bits<double, false>();
  check_ordered_bits<double, true>();
  check_ordered_bits<std::int32_t, false>();
  check_ordered_bits<std::int64_t, true>();
  check_ordered_bits<std::uint32_t, true>();
  check_ordered_bits<std::int8_t, false>();
}

TYPED_TEST(sort_types_test, FloatingPointKeys) {
  check_key_type<float, TypeParam>();
  check_key_type<double, TypeParam>();
}

// NaNs of both signs and several payloads, both zeros, infinities, subnormals, the extremes, among
// ordinary numbers: placed, and kept in order among equals, exactly as Thrust's CUDA backend does.
template <class Real>
std::vector<Real> special_reals(std::size_t n, std::uint64_t seed) {
  using limits = std::numeric_limits<Real>;
  using bits_t = typename fastscan::detail::radix_key<Real, false>::bits_t;
  const bits_t sign = bits_t{1} << (sizeof(Real) * 8 - 1);
  auto from_bits = [](bits_t b) {
    Real r;
    std::memcpy(&r, &b, sizeof(Real));
    return r;
  };
  const Real nan = limits::quiet_NaN();
  bits_t nan_bits;
  std::memcpy(&nan_bits, &nan, sizeof(Real));
  const std::vector<Real> specials = {nan, from_bits(nan_bits | sign), from_bits(nan_bits | 1), from_bits((nan_bits | 5) | sign),
                                      Real(0), -Real(0), limits::infinity(), -limits::infinity(), limits::denorm_min(),
                                      -limits::denorm_min(), limits::min(), -limits::min(), limits::max(), limits::lowest(),
                                      Real(1), Real(-1)};
  std::vector<Real> v = typed_keys<Real>(n, seed);
  for (std::size_t i = 0; i < n; ++i)
    if (splitmix64(seed + i) % 3 != 0) v[i] = specials[splitmix64(seed ^ i) % specials.size()];
  return v;
}

TYPED_TEST(sort_types_test, NaNsSignedZerosAndInfinities) {
  for (std::size_t n : capped({16, 1000, 9000, 104729})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto floats = special_reals<float>(n, 6100 + n);
    const auto doubles = special_reals<double>(n, 6200 + n);
    expect_sorted_by_key_like_par<std::uint32_t>(floats, TypeParam::blocking, thrust::less<float>{}, sort_call::sort);
    expect_sorted_by_key_like_par<std::uint32_t>(floats, TypeParam::blocking, thrust::greater<float>{}, sort_call::sort);
    expect_sorted_by_key_like_par<std::uint32_t>(doubles, TypeParam::blocking, thrust::less<>{}, sort_call::stable_sort);
    expect_sorted_by_key_like_par<std::uint32_t>(doubles, TypeParam::blocking, thrust::greater<>{}, sort_call::stable_sort);
    expect_sorted_like_par(floats, TypeParam::blocking, thrust::less<float>{}, sort_call::sort);
    expect_sorted_like_par(doubles, TypeParam::blocking, thrust::greater<double>{}, sort_call::sort);
  }
}

TYPED_TEST(sort_types_test, ValuesOfEveryWidthAndUserTypes) {
  for (std::size_t n : capped({1, 2, 5000, 104729, (std::size_t{1} << 20) + 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = typed_keys<std::uint32_t>(n, 6300 + n);
    expect_sorted_by_key_like_par<std::uint8_t>(keys, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
    expect_sorted_by_key_like_par<std::uint16_t>(keys, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
    expect_sorted_by_key_like_par<double>(keys, TypeParam::blocking, thrust::greater<>{}, sort_call::sort);
    // User types: values built from the positions.
    auto check_user = [&](auto tag) {
      using value_t = decltype(tag);
      std::vector<value_t> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = random_value<value_t>(splitmix64(i));
      auto ek = to_device(keys), ak = to_device(keys);
      auto ev = to_device(values), av = to_device(values);
      thrust::stable_sort_by_key(thrust::cuda::par, ek.begin(), ek.end(), ev.begin());
      thrust::sort_by_key(TypeParam::blocking, ak.begin(), ak.end(), av.begin());
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      ASSERT_TRUE(same_bits(to_host(ek), to_host(ak)));
      ASSERT_TRUE(same_bits(to_host(ev), to_host(av)));
    };
    check_user(affine{});   // 8 bytes: rides along
    check_user(affine3{});  // 48 bytes: sorted positions, then gathered
  }
}

// Ranges that are not contiguous memory (reverse iterators) are copied to temporary storage and back.
TYPED_TEST(sort_types_test, RangesThatAreNotContiguous) {
  const std::size_t n = 104729;
  const auto keys = typed_keys<std::int32_t>(n, 6400);
  const auto values = positions_as<std::uint32_t>(n);
  auto ek = to_device(keys), ak = to_device(keys);
  auto ev = to_device(values), av = to_device(values);
  thrust::stable_sort_by_key(thrust::cuda::par, thrust::make_reverse_iterator(ek.end()), thrust::make_reverse_iterator(ek.begin()),
                             thrust::make_reverse_iterator(ev.end()));
  thrust::sort_by_key(TypeParam::blocking, thrust::make_reverse_iterator(ak.end()), thrust::make_reverse_iterator(ak.begin()),
                      thrust::make_reverse_iterator(av.end()));
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(same_bits(to_host(ek), to_host(ak)));
  EXPECT_TRUE(same_bits(to_host(ev), to_host(av)));
  auto pk = to_device(keys), qk = to_device(keys);
  thrust::sort(thrust::cuda::par, thrust::make_reverse_iterator(pk.end()), thrust::make_reverse_iterator(pk.begin()),
               thrust::greater<>{});
  thrust::stable_sort(TypeParam::nosync, thrust::make_reverse_iterator(qk.end()), thrust::make_reverse_iterator(qk.begin()),
                      thrust::greater<>{});
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(same_bits(to_host(pk), to_host(qk)));
}

}  // namespace
}  // namespace fastscan_test
