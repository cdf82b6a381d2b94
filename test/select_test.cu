// Stream compaction (copy_if, remove_copy_if, remove_copy, remove_if, remove, partition_copy,
// stable_partition_copy, partition, stable_partition, unique_copy, unique; every arity) through every
// policy family, against thrust::cuda::par: the same items in the same order and the same returned
// iterators, into poisoned outputs, at every size edge of the tile and the look-back window, with none,
// all, alternating and random fractions kept, stencils, in place, fancy iterators, every element width,
// a user-defined type, several streams at once and more than 2^32 elements.

#include "common/policies.cuh"

#include <thrust/copy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/partition.h>
#include <thrust/remove.h>
#include <thrust/sequence.h>
#include <thrust/unique.h>

#include <cuda/std/functional>
#include <cuda/std/tuple>

#include <cstring>

#include <thread>

namespace fastscan_test {
namespace {

template <class Under>
class select_test : public gpu_test {};
using algorithms = policy_families;
TYPED_TEST_SUITE(select_test, algorithms, algorithm_names);

// Keeps an item when its hash falls under `permille` / 1000 (0: none, 1000: all); -1: every other item.
struct keep_fraction {
  int permille;
  template <class T>
  __host__ __device__ bool operator()(T const& x) const {
    const auto bits = static_cast<unsigned long long>(x);
    if (permille < 0) return (bits & 1) == 0;
    const unsigned h = static_cast<unsigned>(bits ^ (bits >> 32)) * 2654435761u;
    return static_cast<int>((h >> 8) % 1000u) < permille;
  }
};

struct affine_pred {
  __host__ __device__ bool operator()(affine const& f) const { return (f.b & 3u) != 0; }
};

struct affine3_pred {
  __host__ __device__ bool operator()(affine3 const& f) const { return (f.t[1] & 1u) != 0; }
};

// Not symmetric: a run continues while items do not decrease, so unique keeps each item smaller than
// its predecessor (and the first). Catches binary_pred called as (current, previous).
struct not_decreasing {
  __host__ __device__ bool operator()(std::uint32_t previous, std::uint32_t current) const { return current >= previous; }
};

// Items in runs: few distinct values, long and short runs.
std::vector<std::uint32_t> runs_vector(std::size_t n, std::uint64_t seed, unsigned distinct) {
  std::vector<std::uint32_t> v(n);
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed * 0x100000001B3ull + i);
    if (r % 4 == 0) value = static_cast<std::uint32_t>((r >> 8) % distinct);
    v[i] = value;
  }
  return v;
}

template <class Under>
std::vector<std::size_t> select_sizes() {
  const std::size_t tile = Under::template select_tile<std::uint32_t>;
  return capped({0, 1, 2, 31, 33, tile - 1, tile, tile + 1, 31 * tile, 32 * tile + 1, 33 * tile - 1, 104729,
                 (std::size_t{1} << 20) - 1, (std::size_t{1} << 20) + 1, 3 * (std::size_t{1} << 21) + 1,
                 (std::size_t{1} << 24) + 3});
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

// Runs an in-place `call(policy, data)` under thrust::cuda::par and the policy on copies of `input`
// and compares the returned ends and the first `compared(end)` items (the whole range for
// partitions; the kept part for remove and unique, whose tail Thrust leaves unspecified).
template <class T, class Under, class Call>
void expect_same_in_place(std::vector<T> const& input, bool whole_range, Call&& call) {
  auto expected = to_device(input);
  auto actual = to_device(input);
  const auto expected_end = call(thrust::cuda::par, expected.begin(), expected.end()) - expected.begin();
  const auto actual_end = call(Under::nosync, actual.begin(), actual.end()) - actual.begin();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  ASSERT_EQ(expected_end, actual_end);
  auto e = to_host(expected);
  auto a = to_host(actual);
  if (!whole_range) {
    e.resize(static_cast<std::size_t>(expected_end));
    a.resize(static_cast<std::size_t>(actual_end));
  }
  ASSERT_TRUE(all_equal(e, a));
}

TYPED_TEST(select_test, CopyIfKeepsWhatParKeeps) {
  int flavour = 0;
  cudaStream_t stream;
  ASSERT_EQ(cudaStreamCreate(&stream), cudaSuccess);
  for (std::size_t n : select_sizes<TypeParam>()) {
    const auto input = random_vector<std::uint32_t>(n, 1100 + n);
    auto d_in = to_device(input);
    for (int permille : {0, 1000, -1, 100, 500, 900}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", kept per mille " + std::to_string(permille));
      expect_same_as_par<std::uint32_t, TypeParam>(n, [&](auto policy, auto out) {
        return thrust::copy_if(policy, d_in.begin(), d_in.end(), out, keep_fraction{permille});
      });
    }
    // Every spelling of the policy in turn, against a CPU reference.
    std::vector<std::uint32_t> reference;
    for (auto x : input)
      if (keep_fraction{500}(x)) reference.push_back(x);
    auto out = poisoned_device_vector<std::uint32_t>(n);
    std::ptrdiff_t kept = -1;
    with_policy_flavour<TypeParam>(flavour++, stream, [&](auto policy) {
      kept = thrust::copy_if(policy, d_in.begin(), d_in.end(), out.begin(), keep_fraction{500}) - out.begin();
    });
    ASSERT_EQ(kept, static_cast<std::ptrdiff_t>(reference.size()));
    auto got = to_host(out);
    got.resize(reference.size());
    ASSERT_TRUE(all_equal(reference, got));
  }
  ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TYPED_TEST(select_test, StencilRemoveCopyIfAndRemoveCopy) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto d_values = to_device(random_vector<double>(n, 1200 + n));
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
    auto d_runs = to_device(runs_vector(n, 1450 + n, 4));
    expect_same_as_par<std::uint32_t, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::remove_copy(policy, d_runs.begin(), d_runs.end(), out, 2u);
    });
  }
}

TYPED_TEST(select_test, RemoveInPlace) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto input = random_vector<std::uint32_t>(n, 1500 + n);
    for (int permille : {0, 1000, -1, 700}) {
      expect_same_in_place<std::uint32_t, TypeParam>(input, false, [&](auto policy, auto first, auto last) {
        return thrust::remove_if(policy, first, last, keep_fraction{permille});
      });
    }
    auto d_stencil = to_device(random_vector<std::uint32_t>(n, 1600 + n));
    expect_same_in_place<std::uint32_t, TypeParam>(input, false, [&](auto policy, auto first, auto last) {
      return thrust::remove_if(policy, first, last, d_stencil.begin(), keep_fraction{400});
    });
    expect_same_in_place<std::uint32_t, TypeParam>(runs_vector(n, 1650 + n, 3), false,
                                                   [&](auto policy, auto first, auto last) {
                                                     return thrust::remove(policy, first, last, 1u);
                                                   });
  }
}

// Both outputs, into poisoned buffers; partition_copy and stable_partition_copy, with and without stencil.
TYPED_TEST(select_test, PartitionCopy) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    const auto input = random_vector<std::uint64_t>(n, 1700 + n);
    auto d_in = to_device(input);
    auto d_stencil = to_device(random_vector<std::uint32_t>(n, 1800 + n));
    for (int variant = 0; variant < 4; ++variant) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", variant " + std::to_string(variant));
      const int permille = variant == 0 ? 0 : variant == 1 ? 1000 : variant == 2 ? -1 : 600;
      auto expected_true = poisoned_device_vector<std::uint64_t>(n + 1);
      auto expected_false = poisoned_device_vector<std::uint64_t>(n + 1);
      auto actual_true = poisoned_device_vector<std::uint64_t>(n + 1);
      auto actual_false = poisoned_device_vector<std::uint64_t>(n + 1);
      auto run = [&](auto policy, auto out_true, auto out_false) {
        const keep_fraction pred{permille};
        switch (variant) {
          case 0: return thrust::partition_copy(policy, d_in.begin(), d_in.end(), out_true, out_false, pred);
          case 1: return thrust::stable_partition_copy(policy, d_in.begin(), d_in.end(), out_true, out_false, pred);
          case 2:
            return thrust::partition_copy(policy, d_in.begin(), d_in.end(), d_stencil.begin(), out_true, out_false,
                                          pred);
          default:
            return thrust::stable_partition_copy(policy, d_in.begin(), d_in.end(), d_stencil.begin(), out_true,
                                                 out_false, pred);
        }
      };
      const auto e = run(thrust::cuda::par, expected_true.begin(), expected_false.begin());
      const auto a = run(TypeParam::blocking, actual_true.begin(), actual_false.begin());
      ASSERT_EQ(e.first - expected_true.begin(), a.first - actual_true.begin());
      ASSERT_EQ(e.second - expected_false.begin(), a.second - actual_false.begin());
      ASSERT_TRUE(all_equal(to_host(expected_true), to_host(actual_true)));
      ASSERT_TRUE(all_equal(to_host(expected_false), to_host(actual_false)));
    }
  }
}

// In place: the whole range must match (partition leaves the rejected items reversed, as Thrust's
// CUDA backend does; stable_partition in order).
TYPED_TEST(select_test, PartitionInPlace) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto input = random_vector<std::uint32_t>(n, 1900 + n);
    auto d_stencil = to_device(random_vector<std::uint32_t>(n, 2000 + n));
    for (int permille : {0, 1000, -1, 350}) {
      expect_same_in_place<std::uint32_t, TypeParam>(input, true, [&](auto policy, auto first, auto last) {
        return thrust::partition(policy, first, last, keep_fraction{permille});
      });
      expect_same_in_place<std::uint32_t, TypeParam>(input, true, [&](auto policy, auto first, auto last) {
        return thrust::stable_partition(policy, first, last, keep_fraction{permille});
      });
    }
    expect_same_in_place<std::uint32_t, TypeParam>(input, true, [&](auto policy, auto first, auto last) {
      return thrust::partition(policy, first, last, d_stencil.begin(), keep_fraction{500});
    });
    expect_same_in_place<std::uint32_t, TypeParam>(input, true, [&](auto policy, auto first, auto last) {
      return thrust::stable_partition(policy, first, last, d_stencil.begin(), keep_fraction{500});
    });
  }
}

TYPED_TEST(select_test, UniqueCopyAndUnique) {
  for (std::size_t n : select_sizes<TypeParam>()) {
    for (unsigned distinct : {1u, 2u, 50u, 0xffffffffu}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", distinct values " + std::to_string(distinct));
      const auto input = distinct == 0xffffffffu ? random_vector<std::uint32_t>(n, 2100 + n)
                                                 : runs_vector(n, 2200 + n + distinct, distinct);
      auto d_in = to_device(input);
      expect_same_as_par<std::uint32_t, TypeParam>(n, [&](auto policy, auto out) {
        return thrust::unique_copy(policy, d_in.begin(), d_in.end(), out);
      });
      expect_same_as_par<std::uint32_t, TypeParam>(n, [&](auto policy, auto out) {
        return thrust::unique_copy(policy, d_in.begin(), d_in.end(), out, not_decreasing{});
      });
      expect_same_in_place<std::uint32_t, TypeParam>(input, false, [&](auto policy, auto first, auto last) {
        return thrust::unique(policy, first, last);
      });
      expect_same_in_place<std::uint32_t, TypeParam>(input, false, [&](auto policy, auto first, auto last) {
        return thrust::unique(policy, first, last, not_decreasing{});
      });
    }
  }
}

// Every vector width the tile loads use: 16, 8, 2 and 1 elements per 16 bytes, and 48-byte elements.
TYPED_TEST(select_test, EveryElementWidth) {
  for (std::size_t n : capped({0, 1, 4095, 4097, 16385, 104729, (std::size_t{1} << 20) + 17})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto bytes = to_device(random_vector<std::uint8_t>(n, 2300 + n));
    expect_same_as_par<std::uint8_t, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, bytes.begin(), bytes.end(), out, keep_fraction{500});
    });
    auto shorts = to_device(random_vector<std::uint16_t>(n, 2400 + n));
    expect_same_as_par<std::uint16_t, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, shorts.begin(), shorts.end(), out, keep_fraction{-1});
    });
    auto longs = to_device(random_vector<std::uint64_t>(n, 2500 + n));
    expect_same_as_par<std::uint64_t, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, longs.begin(), longs.end(), out, keep_fraction{900});
    });
    auto maps = to_device(random_vector<affine3>(n, 2600 + n));
    expect_same_as_par<affine3, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, maps.begin(), maps.end(), out, affine3_pred{});
    });
    // Misaligned (by one element) contiguous input: the element-by-element path.
    if (n > 1) {
      expect_same_as_par<std::uint64_t, TypeParam>(n - 1, [&](auto policy, auto out) {
        return thrust::copy_if(policy, longs.begin() + 1, longs.end(), out, keep_fraction{500});
      });
    }
  }
}

// 8-byte elements take a tile of their own shape: its edges and the look-back window's, with the
// selected output alone, the rejected output too (in place) and the unique selector.
TYPED_TEST(select_test, EightByteElementsAtTheirTileEdges) {
  const std::size_t tile = TypeParam::template select_tile<std::uint64_t>;
  for (std::size_t n : capped({tile - 1, tile, tile + 1, 2 * tile + 1, 31 * tile, 32 * tile + 1, 33 * tile - 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto longs = to_device(random_vector<std::uint64_t>(n, 3100 + n));
    expect_same_as_par<std::uint64_t, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, longs.begin(), longs.end(), out, keep_fraction{100});
    });
    expect_same_in_place<std::uint64_t, TypeParam>(random_vector<std::uint64_t>(n, 3200 + n), true,
                                                   [&](auto policy, auto first, auto last) {
                                                     return thrust::stable_partition(policy, first, last, keep_fraction{500});
                                                   });
    const auto runs = runs_vector(n, 3300 + n, 50);
    expect_same_in_place<double, TypeParam>(std::vector<double>(runs.begin(), runs.end()), false,
                                            [&](auto policy, auto first, auto last) {
                                              return thrust::unique(policy, first, last);
                                            });
  }
}

struct half {
  __host__ __device__ int operator()(int i) const { return i / 2; }
};

TYPED_TEST(select_test, FancyIteratorsAndUserTypes) {
  for (std::size_t n : capped({0, 1, 5000, 104729, 3 * (std::size_t{1} << 20) + 7})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto first = thrust::make_counting_iterator<int>(0);
    expect_same_as_par<int, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, first, first + static_cast<long>(n), out, keep_fraction{250});
    });
    expect_same_as_par<int, TypeParam>(n, [&](auto policy, auto out) {
      auto halves = thrust::make_transform_iterator(first, half{});
      return thrust::unique_copy(policy, halves, halves + static_cast<long>(n), out);
    });
    auto d_maps = to_device(random_vector<affine>(n, 2700 + n));
    expect_same_as_par<affine, TypeParam>(n, [&](auto policy, auto out) {
      return thrust::copy_if(policy, d_maps.begin(), d_maps.end(), out, affine_pred{});
    });
    expect_same_in_place<affine, TypeParam>(random_vector<affine>(n, 2800 + n), true,
                                            [&](auto policy, auto first, auto last) {
                                              return thrust::stable_partition(policy, first, last, affine_pred{});
                                            });
  }
}

// Four streams, each compacting its own data with its own policy at once; every result checked.
TYPED_TEST(select_test, SeveralStreamsAtOnce) {
  constexpr int streams = 4;
  const std::size_t n = capped({(std::size_t{1} << 20) + 3}).empty() ? 100003 : (std::size_t{1} << 20) + 3;
  std::vector<cudaStream_t> s(streams);
  std::vector<std::vector<std::uint32_t>> inputs;
  std::vector<thrust::device_vector<std::uint32_t>> in, out;
  for (int i = 0; i < streams; ++i) {
    ASSERT_EQ(cudaStreamCreateWithFlags(&s[i], cudaStreamNonBlocking), cudaSuccess);
    inputs.push_back(random_vector<std::uint32_t>(n, 2900 + i));
    in.push_back(to_device(inputs.back()));
    out.push_back(poisoned_device_vector<std::uint32_t>(n));
  }
  for (int round = 0; round < 3; ++round) {
    std::vector<std::ptrdiff_t> kept(streams);
    for (int i = 0; i < streams; ++i) {
      kept[i] = thrust::copy_if(TypeParam::nosync.on(s[i]), in[i].begin(), in[i].end(), out[i].begin(),
                                keep_fraction{100 + 250 * i}) -
                out[i].begin();
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < streams; ++i) {
      std::vector<std::uint32_t> reference;
      for (auto x : inputs[i])
        if (keep_fraction{100 + 250 * i}(x)) reference.push_back(x);
      ASSERT_EQ(kept[i], static_cast<std::ptrdiff_t>(reference.size()));
      auto got = to_host(out[i]);
      got.resize(reference.size());
      ASSERT_TRUE(all_equal(reference, got)) << "stream " << i << ", round " << round;
    }
  }
  for (auto stream : s) ASSERT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// Host threads calling at once (each has its own slot for the selected count), every result checked.
TYPED_TEST(select_test, SeveralHostThreadsAtOnce) {
  constexpr int host_threads = 4;
  std::vector<std::string> failures(host_threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < host_threads; ++t) {
    workers.emplace_back([t, &failures] {
      for (int call = 0; call < 20; ++call) {
        const std::size_t n = 1000 + static_cast<std::size_t>(splitmix64(t * 100 + call) % 300000);
        const auto input = random_vector<std::uint32_t>(n, 3000 + t * 100 + call);
        thrust::device_vector<std::uint32_t> d_in(input.begin(), input.end());
        thrust::device_vector<std::uint32_t> d_out(n);
        const int permille = (t * 250 + call * 37) % 1001;
        const auto kept =
            thrust::copy_if(TypeParam::blocking, d_in.begin(), d_in.end(), d_out.begin(), keep_fraction{permille}) -
            d_out.begin();
        std::vector<std::uint32_t> reference;
        for (auto x : input)
          if (keep_fraction{permille}(x)) reference.push_back(x);
        std::vector<std::uint32_t> got(static_cast<std::size_t>(kept));
        if (kept > 0 && cudaMemcpy(got.data(), thrust::raw_pointer_cast(d_out.data()), got.size() * sizeof(std::uint32_t),
                                   cudaMemcpyDeviceToHost) != cudaSuccess) {
          failures[t] = "copying the result back failed";
          return;
        }
        if (got != reference) {
          failures[t] = "thread " + std::to_string(t) + ", call " + std::to_string(call) + ", n = " + std::to_string(n);
          return;
        }
      }
    });
  }
  for (auto& w : workers) w.join();
  for (auto const& f : failures) EXPECT_TRUE(f.empty()) << f;
}

// The host waits for each call's count by its 16-bit ticket in a per-thread slot: more calls than
// tickets, back to back on two streams without synchronising, every count checked.
TYPED_TEST(select_test, MoreCallsThanTickets) {
  if constexpr (!std::is_same_v<TypeParam, matrix_under_test>) GTEST_SKIP() << "the matrix family covers the tickets";
  constexpr int calls = 70000;  // past 2^16
  const std::size_t max_n = 3000;
  const auto input = random_vector<std::uint32_t>(max_n, 3500);
  const auto d_in = to_device(input);
  thrust::device_vector<std::uint32_t> d_out(max_n);
  scoped_stream streams[2];
  for (int call = 0; call < calls; ++call) {
    const std::size_t n = 1 + static_cast<std::size_t>(splitmix64(call) % max_n);
    const keep_fraction keep{call % 1001};
    std::ptrdiff_t expected = 0;
    for (std::size_t i = 0; i < n; ++i) expected += keep(input[i]) ? 1 : 0;
    const auto kept = thrust::copy_if(TypeParam::nosync.on(streams[call % 2].get()), d_in.begin(),
                                      d_in.begin() + static_cast<std::ptrdiff_t>(n), d_out.begin(), keep) -
                      d_out.begin();
    ASSERT_EQ(kept, expected) << "call " << call << ", n = " << n;
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// More than 2^32 elements: 64-bit counts and offsets in the look-back and the scatter.
struct every_4096th {
  __host__ __device__ bool operator()(long long x) const { return x % 4096 == 4095; }
};

TYPED_TEST(select_test, BeyondFourGiElements) {
  const std::size_t n = (std::size_t{1} << 32) + 4096 * 3 + 5;
  if (capped({n}).empty()) GTEST_SKIP() << "sizes capped by FASTSCAN_TEST_MAX_N";
  auto first = thrust::make_counting_iterator<long long>(0);
  const std::size_t expected = n / 4096;
  auto out = poisoned_device_vector<long long>(expected + 1);
  const auto end = thrust::copy_if(TypeParam::blocking, first, first + static_cast<long long>(n), out.begin(), every_4096th{});
  ASSERT_EQ(static_cast<std::size_t>(end - out.begin()), expected);
  const auto got = to_host(out);
  for (std::size_t i = 0; i < expected; ++i) ASSERT_EQ(got[i], static_cast<long long>(i * 4096 + 4095)) << "at " << i;
  long long poison;
  std::memset(&poison, 0xA5, sizeof(poison));
  ASSERT_EQ(got[expected], poison);
}

// The pipelined single pass's compaction (4-byte items by a predicate of the item: copy_if,
// remove_copy_if, remove_if), with its size rule lowered to every call of two tiles or more: fewer
// tiles than SMs, one block an SM with several rounds of its rings, grids of three blocks going round
// them many times; partial last tiles, none, all, alternating and random fractions kept, an output that
// is not 16-byte aligned, in place, against a CPU reference; under both memory classes (the other class
// and an input that is not 16-byte aligned take the select kernel).
struct pipelined_select : public gpu_test {};

template <class T>
void check_pipelined_copy_if(std::vector<T> const& input, int permille, std::size_t out_offset, cudaStream_t stream) {
  const keep_fraction keep{permille};
  std::vector<T> expected;
  for (T x : input)
    if (keep(x)) expected.push_back(x);
  const auto d_in = to_device(input);
  auto d_out = poisoned_device_vector<T>(input.size() + out_offset + 1);
  const auto out = d_out.begin() + static_cast<std::ptrdiff_t>(out_offset);
  const auto end = thrust::copy_if(fastscan::matrix.on(stream), d_in.begin(), d_in.end(), out, keep);
  ASSERT_EQ(end - out, static_cast<std::ptrdiff_t>(expected.size()));
  const auto got = to_host(d_out);
  T poison;
  std::memset(&poison, 0xA5, sizeof(poison));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool kept = i >= out_offset && i - out_offset < expected.size();
    wrong += std::memcmp(&got[i], kept ? &expected[i - out_offset] : &poison, sizeof(T)) != 0;
  }
  ASSERT_EQ(wrong, 0u);
}

// Runs check(n) for sizes at a pipelined tuning's tile edges, with the size rule lowered: grids of one
// block an SM and of three blocks, under each memory class.
template <class Pipelined, class Check>
void at_pipelined_tile_edges(Check&& check) {
  fastscan::detail::device_facts device{};
  ASSERT_EQ(fastscan::detail::current_device_facts(device), cudaSuccess);
  const std::size_t tile = Pipelined::tile_items, segment = Pipelined::segment_items;
  const std::size_t sms = static_cast<std::size_t>(device.sms);
  for (int max_blocks : {0, 3}) {
    const pipelined_size_rule_lowered lowered(max_blocks);
    under_each_memory_class([&] {
      for (std::size_t n : capped({tile + 1, 2 * tile, 2 * tile + 3, 5 * tile + segment + 1, (sms - 1) * tile + 17,
                                   sms * tile + 1, 3 * sms * tile + 4 * 32 * Pipelined::vector + 1, 104729 * 13})) {
        SCOPED_TRACE("max blocks " + std::to_string(max_blocks) + ", n = " + std::to_string(n));
        check(n);
      }
    });
  }
}

TEST_F(pipelined_select, EveryFractionAtTheTileEdges) {
  FASTSCAN_REQUIRE_PIPELINED_PASS();
  using tuning = fastscan::detail::select_tuning<fastscan::detail::matrix_drivers::single_pass, std::uint32_t>;
  static_assert(tuning::has_pipelined && !fastscan::detail::select_tuning<fastscan::detail::matrix_drivers::single_pass, long long>::has_pipelined);
  scoped_stream stream;
  at_pipelined_tile_edges<tuning::pipelined_tuning>([&](std::size_t n) {
    const auto input = random_vector<std::uint32_t>(n, 3700 + n);
    for (int permille : {0, 1000, -1, 100, 500, 900}) {
      SCOPED_TRACE("kept per mille " + std::to_string(permille));
      check_pipelined_copy_if(input, permille, permille == 500 ? 1 : 0, stream.get());
    }
    std::vector<float> floats(n);
    for (std::size_t i = 0; i < n; ++i) floats[i] = static_cast<float>(input[i] % 20011) * 0.5f;  // keep_fraction needs x >= 0
    check_pipelined_copy_if(floats, 300, 0, stream.get());
    // remove_copy_if, remove_if in place and an input that is not 16-byte aligned, against par.
    auto d_in = to_device(input);
    expect_same_as_par<std::uint32_t, matrix_under_test>(n, [&](auto policy, auto out) {
      return thrust::remove_copy_if(policy, d_in.begin(), d_in.end(), out, keep_fraction{700});
    });
    expect_same_as_par<std::uint32_t, matrix_under_test>(n - 1, [&](auto policy, auto out) {
      return thrust::copy_if(policy, d_in.begin() + 1, d_in.end(), out, keep_fraction{400});
    });
    expect_same_in_place<std::uint32_t, matrix_under_test>(input, false, [&](auto policy, auto first, auto last) {
      return thrust::remove_if(policy, first, last, keep_fraction{600});
    });
  });
}

// The pipelined single pass's unique_by_key (4- and 8-byte keys with doubles, from 16-byte aligned
// arrays into arrays apart from them), with its size rule lowered as above: runs of every length,
// layouts whose density changes along the input (the stages' previous tiles then guess wrong whether
// to bring the values), into aligned outputs (rows of heads stored whole) and outputs one element past
// alignment, with a predicate that is not symmetric; in place (the select kernel's); against a CPU
// reference, every output checked, the rest of each output still poisoned.
template <class K>
std::vector<K> keys_in_runs(std::size_t n, std::uint64_t seed, int layout) {
  std::vector<K> keys(n);
  K key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed * 0x100000001B3ull + i);
    const bool dense = layout == 0 || (layout == 4 && i < n / 2) || (layout == 5 && (i / 50000) % 2 == 1);
    const std::uint64_t mean = dense ? 1 : layout == 1 ? 2 : layout == 2 ? 24 : layout == 3 ? 1000 : 500;
    if (i == 0 || r % mean == 0) key = static_cast<K>(key + 1 + static_cast<K>((r >> 40) % 3));  // runs of 1 when dense
  }
  return keys;
}

struct within_three_above {  // a run continues while a key is at most three above its predecessor
  template <class K>
  __host__ __device__ bool operator()(K previous, K current) const { return current >= previous && current - previous <= 3; }
};

// Where the results go: in place, to outputs 16-byte aligned, or to outputs one element past that.
enum class unique_target { in_place, aligned, offset };

template <class K, class Equal>
void check_pipelined_unique_by_key(std::vector<K> const& keys, std::vector<double> const& values, Equal equal,
                                   unique_target target, cudaStream_t stream) {
  const bool in_place = target == unique_target::in_place;
  const std::size_t n = keys.size();
  std::vector<K> expected_keys;
  std::vector<double> expected_values;
  for (std::size_t i = 0; i < n; ++i)
    if (i == 0 || !equal(keys[i - 1], keys[i])) {
      expected_keys.push_back(keys[i]);
      expected_values.push_back(values[i]);
    }
  const std::size_t offset = target == unique_target::offset ? 1 : 0;
  auto d_keys = to_device(keys);
  auto d_values = to_device(values);
  auto keys_out = poisoned_device_vector<K>(n + 2);
  auto values_out = poisoned_device_vector<double>(n + 2);
  std::size_t kept = 0;
  if (in_place) {
    const auto end = thrust::unique_by_key(fastscan::matrix.on(stream), d_keys.begin(), d_keys.end(), d_values.begin(), equal);
    kept = static_cast<std::size_t>(end.first - d_keys.begin());
    ASSERT_EQ(end.second - d_values.begin(), static_cast<std::ptrdiff_t>(kept));
    thrust::copy(d_keys.begin(), d_keys.begin() + static_cast<std::ptrdiff_t>(kept), keys_out.begin());
    thrust::copy(d_values.begin(), d_values.begin() + static_cast<std::ptrdiff_t>(kept), values_out.begin());
  } else {
    const auto at = static_cast<std::ptrdiff_t>(offset);
    const auto end = thrust::unique_by_key_copy(fastscan::matrix.on(stream), d_keys.begin(), d_keys.end(), d_values.begin(),
                                                keys_out.begin() + at, values_out.begin() + at, equal);
    kept = static_cast<std::size_t>(end.first - (keys_out.begin() + at));
    ASSERT_EQ(end.second - (values_out.begin() + at), static_cast<std::ptrdiff_t>(kept));
  }
  ASSERT_EQ(kept, expected_keys.size());
  const auto got_keys = to_host(keys_out);
  const auto got_values = to_host(values_out);
  K key_poison;
  double value_poison;
  std::memset(&key_poison, 0xA5, sizeof(K));
  std::memset(&value_poison, 0xA5, sizeof(double));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n + 2; ++i) {
    const bool written = i >= offset && i - offset < kept;
    wrong += std::memcmp(&got_keys[i], written ? &expected_keys[i - offset] : &key_poison, sizeof(K)) != 0;
    wrong += std::memcmp(&got_values[i], written ? &expected_values[i - offset] : &value_poison, sizeof(double)) != 0;
  }
  ASSERT_EQ(wrong, 0u);
}

template <class K>
void check_pipelined_unique_by_key_layouts() {
  using item = ::cuda::std::tuple<K, double>;
  using tuning = fastscan::detail::select_tuning<fastscan::detail::matrix_drivers::single_pass, item>;
  static_assert(tuning::has_pipelined_pairs());
  scoped_stream stream;
  at_pipelined_tile_edges<typename tuning::template pipelined_pairs_tuning<K, double>>([&](std::size_t n) {
    const auto values = random_vector<double>(n, 5100 + n);
    for (int layout = 0; layout < 6; ++layout) {
      SCOPED_TRACE("layout " + std::to_string(layout));
      const auto keys = keys_in_runs<K>(n, 5200 + n, layout);
      check_pipelined_unique_by_key(keys, values, ::cuda::std::equal_to<K>{}, unique_target::aligned, stream.get());
      check_pipelined_unique_by_key(keys, values, ::cuda::std::equal_to<K>{},
                                    layout % 2 == 0 ? unique_target::in_place : unique_target::offset, stream.get());
      if (layout == 2 || layout == 5)
        check_pipelined_unique_by_key(keys, values, within_three_above{}, unique_target::aligned, stream.get());
    }
  });
}

TEST_F(pipelined_select, UniqueByKeyEveryRunLayoutAtTheTileEdges) {
  FASTSCAN_REQUIRE_PIPELINED_PASS();
  check_pipelined_unique_by_key_layouts<int>();
  check_pipelined_unique_by_key_layouts<long long>();
}

// Host side: which unique_by_key pairs have the pipelined pass, its shape by key width, the devices and
// calls it takes (the fast memory class, past five eighths of the L2), and that its blocks an SM
// together fit a block's opt-in shared memory on both GPUs' facts (where one did not, the pass would
// never run; where they did not, fewer would be resident).
template <class K, class V, class Algorithm = fastscan::detail::matrix_drivers::single_pass>
constexpr bool unique_by_key_has_pipelined_pass =
    fastscan::detail::select_tuning<Algorithm, ::cuda::std::tuple<K, V>>::has_pipelined_pairs();

template <class K>
void expect_unique_by_key_pipelined_shape(int blocks_per_sm, int stages) {
  using fastscan::detail::device_facts;
  using tuning = fastscan::detail::select_tuning<fastscan::detail::matrix_drivers::single_pass, ::cuda::std::tuple<K, double>>;
  using pipelined = typename tuning::template pipelined_pairs_tuning<K, double>;
  using tiles = fastscan::detail::pipelined_unique_by_key_tiles<pipelined, K, double, typename tuning::pipelined_count,
                                                                ::cuda::std::equal_to<K>>;
  using storage = typename fastscan::detail::agent_pipelined_scan<pipelined, tiles>::shared_storage;
  const device_facts h100 = h100_facts(), h200 = h200_facts();
  EXPECT_EQ(pipelined::blocks_per_sm, blocks_per_sm);
  EXPECT_EQ(pipelined::stages, stages);
  EXPECT_EQ(pipelined::tile_items, 2048);
  EXPECT_TRUE(pipelined::suits(h200));
  EXPECT_FALSE(pipelined::suits(h100));
  EXPECT_TRUE(pipelined::takes(h200.l2_bytes / 8 * 5 + 1, h200));
  EXPECT_FALSE(pipelined::takes(h200.l2_bytes / 8 * 5, h200));
  EXPECT_LE(sizeof(storage) * pipelined::blocks_per_sm, h200.shared_per_block_opt_in);
  EXPECT_LE(sizeof(storage), h100.shared_per_block_opt_in);
}

TEST(PipelinedUniqueByKey, PairsShapesAndDevices) {
  static_assert(unique_by_key_has_pipelined_pass<int, double> && unique_by_key_has_pipelined_pass<long long, double> &&
                unique_by_key_has_pipelined_pass<unsigned, std::uint64_t> && unique_by_key_has_pipelined_pass<float, double>);
  static_assert(!unique_by_key_has_pipelined_pass<int, float> && !unique_by_key_has_pipelined_pass<std::int16_t, double> &&
                !unique_by_key_has_pipelined_pass<int, affine> &&
                !unique_by_key_has_pipelined_pass<int, double, fastscan::detail::blelloch_drivers::single_pass>);
  // A family's policies share their compaction kernels (integer counts: the same answer from each).
  static_assert(unique_by_key_has_pipelined_pass<int, double, fastscan::detail::matrix_drivers::deterministic>);
  expect_unique_by_key_pipelined_shape<int>(2, 4);
  expect_unique_by_key_pipelined_shape<long long>(1, 6);
}

// 2^31 items and more: the pipelined pass counts in 32 bits, so such calls take the select kernel.
struct every_4096th_of_uint {
  __host__ __device__ bool operator()(std::uint32_t x) const { return x % 4096 == 4095; }
};

TEST_F(pipelined_select, TwoGiItemsAndMore) {
  FASTSCAN_REQUIRE_PIPELINED_PASS();
  const std::size_t n = (std::size_t{1} << 31) + 4096 + 7;
  if (capped({n}).empty()) GTEST_SKIP() << "sizes capped by FASTSCAN_TEST_MAX_N";
  const memory_peak_taken_as fast_memory(1e16);
  thrust::device_vector<std::uint32_t> input(n);
  thrust::sequence(thrust::cuda::par, input.begin(), input.end());
  const std::size_t expected = n / 4096;
  auto out = poisoned_device_vector<std::uint32_t>(expected + 1);
  const auto end = thrust::copy_if(fastscan::matrix, input.begin(), input.end(), out.begin(), every_4096th_of_uint{});
  ASSERT_EQ(static_cast<std::size_t>(end - out.begin()), expected);
  const auto got = to_host(out);
  for (std::size_t i = 0; i < expected; ++i) ASSERT_EQ(got[i], static_cast<std::uint32_t>(i * 4096 + 4095)) << "at " << i;
  ASSERT_EQ(got[expected], 0xA5A5A5A5u);
}

}  // namespace
}  // namespace fastscan_test
