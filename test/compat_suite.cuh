#pragma once
// Drop-in compatibility: every overridden entry point, called the same way through thrust::cuda::par and
// through a fastscan policy, must compile and give the same bytes. Each case names its element type,
// iterators, operator and keys; together they cover every value of each axis once or more, not every
// combination (CI time). Floating-point values are small integers (or the operator is maximum), so every
// association order gives the same bits and the comparison can be exact.
//
// Instantiated for every policy family by compat_{types,large_types,calls}_test.cu.

#include "common/policies.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/copy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/pair.h>
#include <thrust/transform_scan.h>
#include <thrust/tuple.h>

#include <cstring>
#include <iomanip>

namespace fastscan_test {
namespace compat {

// ---- element types ---------------------------------------------------------------------------

// A large user type: `Words` 32-bit words (256 and 512 bytes in the cases below), no padding.
template <int Words>
struct wide {
  std::uint32_t word[Words];
};

template <int Words>
struct wide_plus {  // words 0 and 1 compose as affine maps (order matters), the others add
  __host__ __device__ wide<Words> operator()(wide<Words> const& a, wide<Words> const& b) const {
    wide<Words> r;
    for (int i = 2; i < Words; ++i) r.word[i] = a.word[i] + b.word[i];
    r.word[0] = b.word[0] * a.word[0];
    r.word[1] = b.word[0] * a.word[1] + b.word[1];
    return r;
  }
};

using byte_pair = thrust::pair<std::int8_t, std::int8_t>;

// ---- operators ---------------------------------------------------------------------------------

// operator() not const, with state it updates (each thread's own copy, as CUB keeps them).
struct nonconst_plus {
  int calls = 0;
  template <class T>
  __host__ __device__ T operator()(T const& a, T const& b) {
    ++calls;
    return static_cast<T>(a + b);
  }
};

// Stateful and non-commutative: x -> a*x + b composed modulo the functor's 2^k (mask = 2^k - 1).
struct masked_compose {
  std::uint32_t mask;
  __host__ __device__ affine operator()(affine const& first, affine const& second) const {
    return affine{(second.a * first.a) & mask, (second.a * first.b + second.b) & mask};
  }
};

// Two argument types, the result the first's: Thrust's tests use such operators on pairs.
struct mixed_pair_plus {
  template <class P1, class P2>
  __host__ __device__ P1 operator()(P1 const& a, P2 const& b) {
    return P1(static_cast<decltype(a.first)>(a.first + b.first), static_cast<decltype(a.second)>(a.second ^ b.second));
  }
};

// A 64-bit accumulator fed 8-bit elements: called (long long, int8) and (long long, long long).
struct widen_plus {
  template <class A, class B>
  __host__ __device__ long long operator()(A a, B b) const {
    return static_cast<long long>(a) + static_cast<long long>(b);
  }
};

struct int4_plus {
  __host__ __device__ int4 operator()(int4 a, int4 b) const {
    return make_int4(a.x + b.x, a.y | b.y, a.z ^ b.z, a.w > b.w ? a.w : b.w);
  }
};
struct double2_plus {
  __host__ __device__ double2 operator()(double2 a, double2 b) const { return make_double2(a.x + b.x, a.y > b.y ? a.y : b.y); }
};
struct half_max {
  __host__ __device__ __half operator()(__half a, __half b) const { return __hgt(b, a) ? b : a; }
};
struct bfloat_max {
  __host__ __device__ __nv_bfloat16 operator()(__nv_bfloat16 a, __nv_bfloat16 b) const { return __hgt(b, a) ? b : a; }
};
struct tuple_op {  // (sum, max) on (int, float) tuples
  __host__ __device__ thrust::tuple<int, float> operator()(thrust::tuple<int, float> a, thrust::tuple<int, float> b) const {
    const float x = thrust::get<1>(a), y = thrust::get<1>(b);
    return thrust::make_tuple(thrust::get<0>(a) + thrust::get<0>(b), x > y ? x : y);
  }
};

// Key predicates: floats within half a unit are "equal"; a non-const one.
struct near_equal {
  __host__ __device__ bool operator()(float a, float b) const { return a - b < 0.5f && b - a < 0.5f; }
};
struct nonconst_equal {
  template <class K>
  __host__ __device__ bool operator()(K const& a, K const& b) {
    return a == b;
  }
};

// Unary operators of the transform scans and iterators.
struct square_mod {  // int -> long long, not const
  __host__ __device__ long long operator()(int x) { return static_cast<long long>(x) * x % 1001; }
};
struct segment_of {  // i -> i / 7: keys in runs of seven
  __host__ __device__ int operator()(long long i) const { return static_cast<int>(i / 7); }
};
struct negate_int {
  __host__ __device__ int operator()(int x) const { return -x; }
};
struct scatter_index {  // a permutation of [0, n): i -> (i * 7919) mod n, n prime to 7919
  long long n;
  __host__ __device__ long long operator()(long long i) const { return i * 7919 % n; }
};

// ---- inputs ------------------------------------------------------------------------------------

// Random values of T whose sums stay exact in T (floating types hold small integers).
template <class T>
T compat_value(std::uint64_t bits) {
  if constexpr (std::is_same_v<T, bool>) return (bits & 3) == 0;
  else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return static_cast<T>(static_cast<int>(bits % 17) - 8);
  else if constexpr (std::is_same_v<T, __half>) return __float2half(static_cast<float>(static_cast<int>(bits % 2001) - 1000));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16(static_cast<float>(static_cast<int>(bits % 255) - 127));
  else if constexpr (std::is_same_v<T, int4>) return make_int4(static_cast<int>(bits % 100), static_cast<int>(bits >> 8), static_cast<int>(bits >> 20), static_cast<int>(bits >> 40));
  else if constexpr (std::is_same_v<T, double2>) return make_double2(static_cast<double>(bits % 1000), static_cast<double>(bits >> 44));
  else if constexpr (std::is_same_v<T, byte_pair>) return byte_pair(static_cast<std::int8_t>(bits), static_cast<std::int8_t>(bits >> 8));
  else if constexpr (std::is_same_v<T, affine>) return random_value<affine>(bits);
  else if constexpr (std::is_class_v<T>) {  // wide<Words>
    T v;
    std::uint64_t x = bits;
    for (auto& w : v.word) w = static_cast<std::uint32_t>(x = splitmix64(x));
    return v;
  } else return random_value<T>(bits);
}

template <class T>
thrust::device_vector<T> compat_input(std::size_t n, std::uint64_t seed) {
  thrust::host_vector<T> host(n);  // not std::vector: vector<bool> packs bits
  for (std::size_t i = 0; i < n; ++i) host[i] = compat_value<T>(splitmix64(seed * 0x100000001B3ull + i));
  return thrust::device_vector<T>(host);
}

// Keys in runs of random length 1..8.
template <class K>
thrust::device_vector<K> compat_keys(std::size_t n, std::uint64_t seed) {
  thrust::host_vector<K> host(n);
  std::uint64_t run = 0, state = seed;
  int key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (run == 0) {
      state = splitmix64(state);
      run = 1 + state % 8;
      ++key;
    }
    --run;
    if constexpr (std::is_same_v<K, bool>) host[i] = (key & 1) != 0;
    else host[i] = static_cast<K>(key % 100);  // int8: wraps, equal neighbours still only within a run
  }
  return thrust::device_vector<K>(host);
}

// ---- comparison --------------------------------------------------------------------------------

// Element by element, byte by byte (the types here have no padding).
template <class T>
::testing::AssertionResult same_bytes(thrust::device_vector<T> const& expected, thrust::device_vector<T> const& actual) {
  const thrust::host_vector<T> e(expected), a(actual);
  if (e.size() != a.size()) return ::testing::AssertionFailure() << "size " << a.size() << ", expected " << e.size();
  std::size_t mismatches = 0, first = 0;
  for (std::size_t i = 0; i < e.size(); ++i)
    if (std::memcmp(&e[i], &a[i], sizeof(T)) != 0 && mismatches++ == 0) first = i;
  if (mismatches == 0) return ::testing::AssertionSuccess();
  auto hex = [](T const& v) {
    std::ostringstream os;
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t b = 0; b < std::min<std::size_t>(sizeof(T), 16); ++b)
      os << std::hex << std::setw(2) << std::setfill('0') << static_cast<int>(bytes[b]);
    return os.str();
  };
  return ::testing::AssertionFailure() << mismatches << " of " << e.size() << " elements differ from thrust::cuda::par; first at "
                                       << first << ": got " << hex(a[first]) << ", expected " << hex(e[first]);
}

// Sizes: empty, one, around the tile of T, several look-back windows of tiles, and a prime.
template <class Under, class T>
std::vector<std::size_t> compat_sizes() {
  const std::size_t tile = Under::template tile<T>;
  return capped({0, 1, 2, tile - 1, tile + 1, 40 * tile + 3, 104729});
}

// call(policy, out) through thrust::cuda::par and through the policy under test (blocking, and nosync on
// a stream with an allocator), each into a poisoned buffer of Out; every element compared.
template <class Under, class Out, class Call>
void expect_same_as_par(std::size_t n, Call&& call) {
  SCOPED_TRACE(n);
  scoped_stream stream;
  counting_allocator allocator;
  thrust::device_vector<Out> expected = poisoned_device_vector<Out>(n);
  thrust::device_vector<Out> actual = poisoned_device_vector<Out>(n);
  thrust::device_vector<Out> actual_nosync = poisoned_device_vector<Out>(n);
  call(thrust::cuda::par, expected.begin());
  call(Under::blocking, actual.begin());
  call(Under::nosync(allocator).on(stream.get()), actual_nosync.begin());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(same_bytes(expected, actual));
  EXPECT_TRUE(same_bytes(expected, actual_nosync));
}

// The four main entry points on values of T under op (exclusive ones with `init`), keys in runs.
template <class Under, class T, bool ByKey = true, class Op, class Init = T>
void scans_of(Op op, Init init) {
  for (std::size_t n : compat_sizes<Under, T>()) {
    const auto values = compat_input<T>(n, 11);
    expect_same_as_par<Under, T>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), out, op);
    });
    expect_same_as_par<Under, T>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, values.begin(), values.end(), out, init, op);
    });
    if constexpr (ByKey) {  // (a run-time test would still instantiate the calls)
      const auto keys = compat_keys<int>(n, 12);
      expect_same_as_par<Under, T>(n, [&](auto const& policy, auto out) {
        thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out, thrust::equal_to<int>{}, op);
      });
      expect_same_as_par<Under, T>(n, [&](auto const& policy, auto out) {
        thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out, init, thrust::equal_to<int>{}, op);
      });
    }
  }
}

}  // namespace compat

// Three suites, each its own program with every policy family in it, so that thrust::cuda::par's
// kernels (most of the compile time) are compiled once per program rather than once per policy.
template <class Under>
class compat_types : public gpu_test {};
template <class Under>
class compat_large_types : public gpu_test {};
template <class Under>
class compat_calls : public gpu_test {};
TYPED_TEST_SUITE_P(compat_types);
TYPED_TEST_SUITE_P(compat_large_types);
TYPED_TEST_SUITE_P(compat_calls);

using namespace compat;

// ---- element types ---------------------------------------------------------------------------------

TYPED_TEST_P(compat_types, NarrowTypes) {
  scans_of<TypeParam, std::int8_t>(thrust::plus<>{}, std::int8_t{5});
  scans_of<TypeParam, bool>(thrust::logical_or<bool>{}, false);
  scans_of<TypeParam, __half>(half_max{}, __float2half(-2000.0f));
  scans_of<TypeParam, __nv_bfloat16>(bfloat_max{}, __float2bfloat16(-500.0f));
}

TYPED_TEST_P(compat_types, SixteenByteVectors) {
  scans_of<TypeParam, int4>(int4_plus{}, make_int4(1, 2, 3, 4));
  scans_of<TypeParam, double2>(double2_plus{}, make_double2(0.5, -1.0));
}

TYPED_TEST_P(compat_large_types, LargeUserTypes) {
  wide<32> init32{};
  init32.word[0] = 7;
  scans_of<TypeParam, wide<32>>(wide_plus<32>{}, init32);  // 128 bytes
  wide<128> init128{};
  init128.word[1] = 9;
  // 512 bytes. thrust::cuda::par compiles scans by key only up to about 128-byte values (CUB's kernel
  // runs out of shared memory); fastscan's scans by key of 512-byte values are checked against a CPU
  // reference in LargeUserTypesByKey.
  scans_of<TypeParam, wide<128>, /*ByKey=*/false>(wide_plus<128>{}, init128);
}

// Beyond what thrust::cuda::par compiles: scans by key of 512-byte values, against a CPU reference. Run
// twice: with each block's storage where it normally goes (shared memory, dynamic for the matrix scan),
// and with dynamic shared memory ruled out, so that storage too large for shared memory goes to global
// memory as it does for elements of kilobytes (whose compile times are too long for CI).
TYPED_TEST_P(compat_large_types, LargeUserTypesByKey) {
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
  }
}

TYPED_TEST_P(compat_types, PairsWithMixedTypeOperator) {
  scans_of<TypeParam, byte_pair>(mixed_pair_plus{}, byte_pair(1, 1));
}

TYPED_TEST_P(compat_types, ZipOfTuples) {
  for (std::size_t n : compat_sizes<TypeParam, thrust::tuple<int, float>>()) {
    const auto ints = compat_input<int>(n, 21);
    const auto floats = compat_input<float>(n, 22);
    const auto keys = compat_keys<int>(n, 23);
    auto in = thrust::make_zip_iterator(ints.begin(), floats.begin());
    thrust::device_vector<int> expected_ints = poisoned_device_vector<int>(n), actual_ints = poisoned_device_vector<int>(n);
    thrust::device_vector<float> expected_floats = poisoned_device_vector<float>(n), actual_floats = poisoned_device_vector<float>(n);
    thrust::inclusive_scan(thrust::cuda::par, in, in + n, thrust::make_zip_iterator(expected_ints.begin(), expected_floats.begin()), tuple_op{});
    thrust::inclusive_scan(TypeParam::blocking, in, in + n, thrust::make_zip_iterator(actual_ints.begin(), actual_floats.begin()), tuple_op{});
    EXPECT_TRUE(same_bytes(expected_ints, actual_ints));
    EXPECT_TRUE(same_bytes(expected_floats, actual_floats));
    const thrust::tuple<int, float> init(3, -100.0f);
    thrust::exclusive_scan_by_key(thrust::cuda::par, keys.begin(), keys.end(), in,
                                  thrust::make_zip_iterator(expected_ints.begin(), expected_floats.begin()), init,
                                  thrust::equal_to<int>{}, tuple_op{});
    thrust::exclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), in,
                                  thrust::make_zip_iterator(actual_ints.begin(), actual_floats.begin()), init,
                                  thrust::equal_to<int>{}, tuple_op{});
    EXPECT_TRUE(same_bytes(expected_ints, actual_ints));
    EXPECT_TRUE(same_bytes(expected_floats, actual_floats));
  }
}

// ---- operators -------------------------------------------------------------------------------------

TYPED_TEST_P(compat_calls, NonConstStatefulAndNonCommutativeOperators) {
  scans_of<TypeParam, int>(nonconst_plus{}, 17);
  scans_of<TypeParam, affine>(masked_compose{0xfffffu}, affine{5u, 9u});
  scans_of<TypeParam, std::uint32_t>(thrust::maximum<>{}, 0u);
  scans_of<TypeParam, double>(thrust::plus<>{}, 0.5);
}

TYPED_TEST_P(compat_calls, AccumulatorWiderThanElements) {
  for (std::size_t n : compat_sizes<TypeParam, long long>()) {
    const auto values = compat_input<std::int8_t>(n, 31);
    const auto keys = compat_keys<std::int8_t>(n, 32);
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, values.begin(), values.end(), out, 1LL, widen_plus{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), out, 2LL, widen_plus{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(), out, 4LL, nonconst_equal{}, widen_plus{});
    });
    // Without an init the accumulator is the element type: int8 sums wrap as they do under par.
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), out);
    });
  }
}

// ---- keys --------------------------------------------------------------------------------------------

TYPED_TEST_P(compat_calls, KeyTypesAndPredicates) {
  for (std::size_t n : compat_sizes<TypeParam, int>()) {
    const auto values = compat_input<int>(n, 41);
    const auto bool_keys = compat_keys<bool>(n, 42);
    const auto byte_keys = compat_keys<std::int8_t>(n, 43);
    const auto float_keys = compat_input<float>(n, 44);  // neighbours within 0.5 are one segment: only equal ones
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan_by_key(policy, bool_keys.begin(), bool_keys.end(), values.begin(), out);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, byte_keys.begin(), byte_keys.end(), values.begin(), out);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, byte_keys.begin(), byte_keys.end(), values.begin(), out, -3);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan_by_key(policy, float_keys.begin(), float_keys.end(), values.begin(), out, near_equal{});
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, float_keys.begin(), float_keys.end(), values.begin(), out, 5, nonconst_equal{});
    });
    // Keys from a fancy iterator: runs of seven.
    auto run_keys = thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), segment_of{});
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan_by_key(policy, run_keys, run_keys + n, values.begin(), out, thrust::equal_to<int>{},
                                    nonconst_plus{});
    });
  }
}

// ---- iterators ---------------------------------------------------------------------------------------

TYPED_TEST_P(compat_calls, FancyInputs) {
  for (std::size_t n : compat_sizes<TypeParam, long long>()) {
    const auto values = compat_input<int>(n, 51);
    const long long length = static_cast<long long>(n);
    auto counting = thrust::counting_iterator<long long>(-1000);
    auto constant = thrust::constant_iterator<int>(3);
    auto squares = thrust::make_transform_iterator(values.begin(), square_mod{});
    auto permuted = thrust::make_permutation_iterator(
        values.begin(), thrust::make_transform_iterator(thrust::counting_iterator<long long>(0), scatter_index{n > 0 ? length : 1}));
    auto reversed = thrust::make_reverse_iterator(values.end());
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, counting, counting + length, out);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, constant, constant + length, out, 7);
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, squares, squares + length, out);
    });
    if (n % 7919 != 0) {
      expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
        thrust::inclusive_scan(policy, permuted, permuted + length, out, thrust::maximum<>{});
      });
    }
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, reversed, reversed + length, out);
    });
    // Raw pointers and device_ptr.
    const int* raw = thrust::raw_pointer_cast(values.data());
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, raw, raw + n, thrust::raw_pointer_cast(&*out), thrust::plus<>{});
    });
    const thrust::device_ptr<const int> pointer(raw);
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan(policy, pointer, pointer + length, thrust::device_pointer_cast(thrust::raw_pointer_cast(&*out)));
    });
  }
}

TYPED_TEST_P(compat_calls, FancyOutputsAndInPlace) {
  for (std::size_t n : compat_sizes<TypeParam, int>()) {
    const auto values = compat_input<int>(n, 61);
    const auto keys = compat_keys<int>(n, 62);
    // Reverse and transform outputs.
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::inclusive_scan(policy, values.begin(), values.end(), thrust::make_reverse_iterator(out + n));
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::exclusive_scan_by_key(policy, keys.begin(), keys.end(), values.begin(),
                                    thrust::make_transform_output_iterator(out, negate_int{}), 2);
    });
    // In place: the output starts as a copy of the input.
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::copy(thrust::cuda::par, values.begin(), values.end(), out);
      thrust::exclusive_scan(policy, out, out + n, out, 9);
    });
    expect_same_as_par<TypeParam, int>(n, [&](auto const& policy, auto out) {
      thrust::copy(thrust::cuda::par, values.begin(), values.end(), out);
      thrust::inclusive_scan_by_key(policy, keys.begin(), keys.end(), out, out);
    });
    // A discard output: the call compiles, runs, and returns the end of the range.
    const auto end = thrust::inclusive_scan(TypeParam::blocking, values.begin(), values.end(), thrust::make_discard_iterator());
    EXPECT_EQ(end - thrust::make_discard_iterator(), static_cast<std::ptrdiff_t>(n));
    const auto key_end = thrust::exclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), values.begin(),
                                                       thrust::make_discard_iterator());
    EXPECT_EQ(key_end - thrust::make_discard_iterator(), static_cast<std::ptrdiff_t>(n));
  }
}

// ---- transform scans ---------------------------------------------------------------------------------

TYPED_TEST_P(compat_calls, TransformScans) {
  for (std::size_t n : compat_sizes<TypeParam, long long>()) {
    const auto values = compat_input<int>(n, 71);
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::transform_inclusive_scan(policy, values.begin(), values.end(), out, square_mod{}, thrust::plus<>{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::transform_inclusive_scan(policy, values.begin(), values.end(), out, square_mod{}, 100LL, nonconst_plus{});
    });
    expect_same_as_par<TypeParam, long long>(n, [&](auto const& policy, auto out) {
      thrust::transform_exclusive_scan(policy, values.begin(), values.end(), out, square_mod{}, -5LL, thrust::maximum<>{});
    });
  }
}

REGISTER_TYPED_TEST_SUITE_P(compat_types, NarrowTypes, SixteenByteVectors, PairsWithMixedTypeOperator, ZipOfTuples);
REGISTER_TYPED_TEST_SUITE_P(compat_large_types, LargeUserTypes, LargeUserTypesByKey);
REGISTER_TYPED_TEST_SUITE_P(compat_calls, NonConstStatefulAndNonCommutativeOperators, AccumulatorWiderThanElements, KeyTypesAndPredicates, FancyInputs, FancyOutputsAndInPlace, TransformScans);

}  // namespace fastscan_test
