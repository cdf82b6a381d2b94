#pragma once
// Shared test vocabulary: GPU detection, random inputs, poisoned outputs, CPU references,
// element-by-element comparison, the size sweeps, and the user types and operators under test.

#include <fastscan/fastscan.cuh>

#include <gtest/gtest.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace fastscan_test {

// ---- GPU presence ----------------------------------------------------------------------------

inline bool gpu_available() {
  int count = 0;
  const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
  cudaGetLastError();
  return ok;
}

#define FASTSCAN_REQUIRE_GPU()                                                                         \
  do {                                                                                                \
    if (!::fastscan_test::gpu_available())                                                            \
      GTEST_SKIP() << "no usable GPU on this machine: GPU test skipped (run the tests on a machine with one)"; \
  } while (0)

class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override { FASTSCAN_REQUIRE_GPU(); }
};

// Skips a test of the pipelined single pass where it cannot run (no GPU, or one before sm_90).
#define FASTSCAN_REQUIRE_PIPELINED_PASS()                                                              \
  do {                                                                                                \
    FASTSCAN_REQUIRE_GPU();                                                                           \
    fastscan::detail::device_facts facts{};                                                           \
    ASSERT_EQ(fastscan::detail::current_device_facts(facts), cudaSuccess);                            \
    if (facts.compute_major < 9) GTEST_SKIP() << "the pipelined single pass runs on sm_90 and later"; \
  } while (0)

// For its scope, every call whose tuning has the pipelined single pass takes it whatever its size, with
// grids of at most max_blocks blocks (0: one an SM).
struct pipelined_size_rule_lowered {
  explicit pipelined_size_rule_lowered(int max_blocks) {
    fastscan::detail::pipelined_scan_overrides_for_tests() = {1, max_blocks};
  }
  ~pipelined_size_rule_lowered() { fastscan::detail::pipelined_scan_overrides_for_tests() = {}; }
};

// For its scope, tunings are chosen as for a device whose memory's peak is `bytes_per_second`
// (tuning_common.cuh: memory_class), whatever this device's.
struct memory_peak_taken_as {
  explicit memory_peak_taken_as(double bytes_per_second) { fastscan::detail::memory_peak_for_tests() = bytes_per_second; }
  ~memory_peak_taken_as() { fastscan::detail::memory_peak_for_tests() = 0; }
};

// Runs check() once under each memory class's tunings, whatever this device's: with the memory's peak
// taken far below the fast class, then far above it.
template <class Check>
void under_each_memory_class(Check&& check) {
  for (const double bytes_per_second : {1e9, 1e16}) {
    SCOPED_TRACE("memory peak taken as " + std::to_string(bytes_per_second) + " B/s");
    const memory_peak_taken_as memory(bytes_per_second);
    check();
  }
}

// Host-side device facts (device_facts.cuh) of the two GPUs the memory classes were measured on, for
// the tests of which tuning each gets: the H100 (SXM, HBM3) and the H200 (HBM3e), as
// cudaGetDeviceProperties reports them.
// They differ only in the memory's peak (its clock and bus width).
inline fastscan::detail::device_facts h100_facts() { return {132, 9, 50u << 20, 227u << 10, 2.0 * 2619e6 * 5120 / 8}; }
inline fastscan::detail::device_facts h200_facts() {
  auto facts = h100_facts();
  facts.l2_bytes = 60u << 20;
  facts.memory_bytes_per_second = 2.0 * 3201e6 * 6144 / 8;
  return facts;
}

// The name of a test instance whose parameter is pipelined_size_rule_lowered's max_blocks.
inline std::string pipelined_grid_name(::testing::TestParamInfo<int> const& info) {
  return info.param == 0 ? std::string("BlockPerSm") : "AtMost" + std::to_string(info.param) + "Blocks";
}

// ---- a kernel before a fastscan call ----------------------------------------------------------

// Lets the kernels after it on its stream start at once (programmatic dependent launch, sm_90 and later:
// fastscan launches its kernels as such dependents), then, after delay_cycles, writes out[i] = values[i].
// A fastscan kernel that read its input before this kernel ended would see the old contents.
template <class T>
__global__ void write_after_letting_dependents_start(T const* values, T* out, std::size_t n, long long delay_cycles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  const long long start = clock64();
  while (clock64() - start < delay_cycles) {
  }
  for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = values[i];
}

// ---- user types and operators ----------------------------------------------------------------

// x -> a*x + b over the integers mod 2^32. Composition is associative and not commutative.
struct affine {
  std::uint32_t a, b;
  friend __host__ __device__ bool operator==(affine const& l, affine const& r) { return l.a == r.a && l.b == r.b; }
};

// Apply `first`, then `second`.
struct compose_affine {
  __host__ __device__ affine operator()(affine const& first, affine const& second) const {
    return affine{second.a * first.a, second.a * first.b + second.b};
  }
};

// x -> a*x + b over the integers mod 2^64: a 16-byte user type (one whole 16-byte vector) with a
// non-commutative op.
struct affine64 {
  std::uint64_t a, b;
  friend __host__ __device__ bool operator==(affine64 const& l, affine64 const& r) { return l.a == r.a && l.b == r.b; }
};
static_assert(sizeof(affine64) == 16);

struct compose_affine64 {
  __host__ __device__ affine64 operator()(affine64 const& first, affine64 const& second) const {
    return affine64{second.a * first.a, second.a * first.b + second.b};
  }
};

// Packed affine maps x -> a*x + b as plain integers (the pipelined single pass takes arithmetic types
// only): a 16-bit pair in a uint32 (mod 2^16) and a 32-bit pair in a uint64 (mod 2^32); non-commutative.
struct compose_packed16 {  // apply `first`, then `second`
  __host__ __device__ std::uint32_t operator()(std::uint32_t first, std::uint32_t second) const {
    const std::uint32_t a1 = first & 0xffffu, b1 = first >> 16, a2 = second & 0xffffu, b2 = second >> 16;
    return ((a2 * a1) & 0xffffu) | (((a2 * b1 + b2) & 0xffffu) << 16);
  }
};
struct compose_packed32 {
  __host__ __device__ std::uint64_t operator()(std::uint64_t first, std::uint64_t second) const {
    const std::uint32_t a1 = static_cast<std::uint32_t>(first), b1 = static_cast<std::uint32_t>(first >> 32);
    const std::uint32_t a2 = static_cast<std::uint32_t>(second), b2 = static_cast<std::uint32_t>(second >> 32);
    return std::uint64_t{a2 * a1} | (std::uint64_t{a2 * b1 + b2} << 32);
  }
};

// x -> M x + t in 3-D over the integers mod 2^32: a 48-byte user type with a non-commutative op.
struct affine3 {
  std::uint32_t m[9];
  std::uint32_t t[3];
  friend __host__ __device__ bool operator==(affine3 const& l, affine3 const& r) {
    for (int i = 0; i < 9; ++i)
      if (l.m[i] != r.m[i]) return false;
    for (int i = 0; i < 3; ++i)
      if (l.t[i] != r.t[i]) return false;
    return true;
  }
};
static_assert(sizeof(affine3) == 48);

struct compose_affine3 {
  __host__ __device__ affine3 operator()(affine3 const& first, affine3 const& second) const {
    affine3 r;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        std::uint32_t s = 0;
        for (int k = 0; k < 3; ++k) s += second.m[3 * i + k] * first.m[3 * k + j];
        r.m[3 * i + j] = s;
      }
      std::uint32_t s = second.t[i];
      for (int k = 0; k < 3; ++k) s += second.m[3 * i + k] * first.t[k];
      r.t[i] = s;
    }
    return r;
  }
};

inline std::ostream& operator<<(std::ostream& os, affine const& f) { return os << "{" << f.a << "," << f.b << "}"; }
inline std::ostream& operator<<(std::ostream& os, affine64 const& f) { return os << "{" << f.a << "," << f.b << "}"; }
inline std::ostream& operator<<(std::ostream& os, affine3 const& f) {
  os << "{m=";
  for (auto v : f.m) os << v << " ";
  os << "t=";
  for (auto v : f.t) os << v << " ";
  return os << "}";
}
inline std::ostream& operator<<(std::ostream& os, std::int8_t v) { return os << static_cast<int>(v); }

// ---- random inputs -------------------------------------------------------------------------

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Values chosen so that sums never overflow a signed type (overflow is undefined behaviour) while
// unsigned and narrow types wrap freely (both sides compute modulo 2^k).
template <class T>
T random_value(std::uint64_t bits) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return static_cast<T>(static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0);
  } else if constexpr (std::is_same_v<T, affine>) {
    return affine{static_cast<std::uint32_t>(bits) | 1u, static_cast<std::uint32_t>(bits >> 32)};
  } else if constexpr (std::is_same_v<T, affine64>) {
    return affine64{bits | 1u, splitmix64(bits)};
  } else if constexpr (std::is_same_v<T, affine3>) {
    affine3 f;
    std::uint64_t x = bits;
    for (auto& v : f.m) v = static_cast<std::uint32_t>((x = splitmix64(x)));
    for (auto& v : f.t) v = static_cast<std::uint32_t>((x = splitmix64(x)));
    return f;
  } else if constexpr (std::is_same_v<T, std::int32_t>) {
    return static_cast<T>(static_cast<std::int64_t>(bits % 129) - 64);
  } else if constexpr (std::is_same_v<T, std::int64_t>) {
    return static_cast<T>(static_cast<std::int32_t>(bits));
  } else {
    return static_cast<T>(bits);  // int8, uint32, ...: every bit pattern
  }
}

template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = random_value<T>(splitmix64(seed * 0x100000001B3ull + i));
  return v;
}

// A device buffer whose every byte is 0xA5 before the call under test, so unwritten outputs show.
template <class T>
thrust::device_vector<T> poisoned_device_vector(std::size_t n) {
  thrust::device_vector<T> v(n);
  if (n > 0) {
    EXPECT_EQ(cudaMemset(thrust::raw_pointer_cast(v.data()), 0xA5, n * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
  return v;
}

template <class T>
std::vector<T> to_host(thrust::device_vector<T> const& d) {
  std::vector<T> h(d.size());
  if (!h.empty())
    EXPECT_EQ(cudaMemcpy(h.data(), thrust::raw_pointer_cast(d.data()), h.size() * sizeof(T), cudaMemcpyDeviceToHost),
              cudaSuccess);
  return h;
}

// A copy from pageable memory may return before its transfer lands, and work on a non-blocking stream
// does not wait for the default stream: the device is synchronised before the data are handed out.
template <class T>
thrust::device_vector<T> to_device(std::vector<T> const& h) {
  thrust::device_vector<T> d(h.size());
  if (!h.empty())
    EXPECT_EQ(cudaMemcpy(thrust::raw_pointer_cast(d.data()), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice),
              cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return d;
}

// ---- CPU references (the accumulator type as Thrust's CUDA backend uses it) -------------------

template <class AccT, class Out, class In, class Op>
std::vector<Out> reference_inclusive(std::vector<In> const& in, Op op, std::optional<AccT> init = std::nullopt) {
  std::vector<Out> out(in.size());
  std::optional<AccT> acc = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    acc = acc ? static_cast<AccT>(op(*acc, in[i])) : static_cast<AccT>(in[i]);
    out[i] = static_cast<Out>(*acc);
  }
  return out;
}

template <class AccT, class Out, class In, class Op>
std::vector<Out> reference_exclusive(std::vector<In> const& in, Op op, AccT init) {
  std::vector<Out> out(in.size());
  AccT acc = init;
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = static_cast<Out>(acc);
    acc = static_cast<AccT>(op(acc, in[i]));
  }
  return out;
}

// Floating-point reference and bound: every output is a sum along some evaluation tree whose paths
// pass through at most 256 roundings in any of the three algorithms (row or tree depth per tile,
// column, recursion levels and init folding), so |error| <= 256 * eps * sum |a_j| (Higham's
// gamma_k bound). The reference itself is accumulated in long double.
template <class T>
struct float_reference {
  std::vector<long double> value;
  std::vector<long double> magnitude;  // sum of |a_j| that fed each output
};

template <class T>
float_reference<T> reference_float_sum(std::vector<T> const& in, std::optional<T> init, bool exclusive) {
  float_reference<T> r;
  r.value.resize(in.size());
  r.magnitude.resize(in.size());
  long double acc = init ? *init : 0.0L, mag = init ? std::fabs(static_cast<long double>(*init)) : 0.0L;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (exclusive) {
      r.value[i] = acc;
      r.magnitude[i] = mag;
    }
    acc += in[i];
    mag += std::fabs(static_cast<long double>(in[i]));
    if (!exclusive) {
      r.value[i] = acc;
      r.magnitude[i] = mag;
    }
  }
  return r;
}

// ---- comparison ----------------------------------------------------------------------------

template <class T>
::testing::AssertionResult all_equal(std::vector<T> const& expected, std::vector<T> const& actual) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure() << "size " << actual.size() << ", expected " << expected.size();
  std::size_t mismatches = 0, first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(expected[i] == actual[i])) {
      if (mismatches++ == 0) first = i;
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  std::ostringstream msg;
  msg << mismatches << " of " << expected.size() << " elements differ; first at " << first << ": got " << actual[first]
      << ", expected " << expected[first];
  return ::testing::AssertionFailure() << msg.str();
}

template <class T>
::testing::AssertionResult all_close(float_reference<T> const& expected, std::vector<T> const& actual) {
  const long double eps = std::numeric_limits<T>::epsilon();
  std::size_t mismatches = 0, first = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const long double tolerance = 256 * eps * expected.magnitude[i] + std::numeric_limits<T>::min();
    const long double error = std::fabs(static_cast<long double>(actual[i]) - expected.value[i]);
    if (!(error <= tolerance)) {  // NaN fails too
      if (mismatches++ == 0) first = i;
    }
  }
  if (mismatches == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << mismatches << " of " << actual.size() << " elements out of tolerance; first at "
                                       << first << ": got " << actual[first] << ", expected "
                                       << static_cast<double>(expected.value[first]);
}

// ---- sizes ---------------------------------------------------------------------------------

// FASTSCAN_TEST_MAX_N caps the sizes (for compute-sanitizer runs, which are orders slower).
inline std::vector<std::size_t> capped(std::vector<std::size_t> sizes) {
  if (const char* cap = std::getenv("FASTSCAN_TEST_MAX_N")) {
    const std::size_t limit = std::stoull(cap);
    sizes.erase(std::remove_if(sizes.begin(), sizes.end(), [&](std::size_t n) { return n > limit; }), sizes.end());
  }
  return sizes;
}

// Every edge the issue names: 0, 1, 2, tile-1, tile, tile+1, several tiles, tile^2 +- 1 (one more
// recursion level), 2^k-1, 2^k+1 and 3*2^(k-1)+1 for k up to max_log2, primes and random sizes.
inline std::vector<std::size_t> full_sizes(std::size_t tile, int max_log2 = 24) {
  std::vector<std::size_t> s = {0, 1, 2, tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1, 7 * tile + 3,
                                tile * tile - 1, tile * tile, tile * tile + 1, 7919, 104729, 1299709, 15485863};
  for (int k = 1; k <= max_log2; ++k) {
    s.push_back((std::size_t{1} << k) - 1);
    s.push_back((std::size_t{1} << k) + 1);
    s.push_back(3 * (std::size_t{1} << (k - 1)) + 1);
  }
  for (std::uint64_t i = 0; i < 6; ++i) s.push_back(splitmix64(i + 42) % (std::size_t{1} << 22));
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  const std::size_t limit = (std::size_t{3} << (max_log2 - 1)) + 1;
  s.erase(std::remove_if(s.begin(), s.end(), [&](std::size_t n) { return n > limit; }), s.end());
  return capped(s);
}

// The edges alone, for the many type/operator combinations.
inline std::vector<std::size_t> edge_sizes(std::size_t tile) {
  return capped({0, 1, 2, tile - 1, tile, tile + 1, 2 * tile + 1, 104729, (std::size_t{1} << 20) + 1,
                 tile * tile + 1, 3 * (std::size_t{1} << 21) + 1});
}

}  // namespace fastscan_test
