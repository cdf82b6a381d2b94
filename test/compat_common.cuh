#pragma once
// Drop-in compatibility: every overridden entry point, called the same way through thrust::cuda::par and
// through a fastscan policy, must compile and give the same bytes. Each case names its element type,
// iterators, operator and keys; together they cover every value of each axis once or more, not every
// combination (CI time). Floating-point values are small integers (or the operator is maximum), so every
// association order gives the same bits and the comparison can be exact.
//
// What the three compatibility programs share (compat_{types,large_types,calls}_test.cu, each with every
// policy family).

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
}  // namespace fastscan_test
