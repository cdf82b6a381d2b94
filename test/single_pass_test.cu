// The single-pass driver under stress: sizes at tile and look-back-window edges, the large calls' own
// tunings (8-byte tiles, 4-byte tiles staged in shared memory), thousands of back-to-back calls of
// mixed sizes on four streams, sizes where the grid grows past what fits on the device at once (aligned,
// misaligned, in place), large and small calls interleaved on one stream, calls from several host
// threads (on their own streams and on one shared stream), calls after a failed call, a call after a
// kernel that lets its dependents start before it writes their input, scans captured
// into a CUDA graph and replayed, and the tile-state tags running out. Every output element is checked.

#include "common/by_key_checks.cuh"
#include "common/policies.cuh"

#include <fastscan/detail/dispatch/device_facts.cuh>
#include <fastscan/detail/dispatch/dispatch_pipelined_scan.cuh>
#include <fastscan/detail/dispatch/tile_access_plan.cuh>
#include <fastscan/detail/dispatch/tile_state_registry.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>

#include <array>
#include <cstring>
#include <new>
#include <thread>

namespace fastscan_test {

// Upper-triangular 2x2 matrices [[a, b], [0, c]] over the integers mod 2^32 under the product: 12 bytes,
// the largest value the packed status word holds, non-commutative.
struct triangular {
  std::uint32_t a, b, c;
  friend __host__ __device__ bool operator==(triangular const& l, triangular const& r) {
    return l.a == r.a && l.b == r.b && l.c == r.c;
  }
  friend std::ostream& operator<<(std::ostream& os, triangular const& t) {
    return os << "[[" << t.a << ", " << t.b << "], [0, " << t.c << "]]";
  }
};
static_assert(sizeof(triangular) == 12);

struct multiply_triangular {
  __host__ __device__ triangular operator()(triangular const& l, triangular const& r) const {
    return triangular{l.a * r.a, l.a * r.b + l.b * r.c, l.c * r.c};
  }
};

std::vector<triangular> random_triangulars(std::size_t n, std::uint64_t seed) {
  std::vector<triangular> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t x = splitmix64(seed * 0x100000001B3ull + i);
    const auto a = static_cast<std::uint32_t>(x = splitmix64(x));
    const auto b = static_cast<std::uint32_t>(x = splitmix64(x));
    v[i] = triangular{a | 1u, b, static_cast<std::uint32_t>(splitmix64(x)) | 1u};
  }
  return v;
}

template <class Under>
class single_pass_test : public gpu_test {};
using algorithms = single_pass_algorithms;
TYPED_TEST_SUITE(single_pass_test, algorithms, algorithm_names);

// Sizes around multiples of the tile where the look-back crosses windows of 32 tiles.
inline std::vector<std::size_t> window_edge_sizes(std::size_t tile) {
  std::vector<std::size_t> sizes;
  for (std::size_t tiles : {1, 2, 3, 31, 32, 33, 34, 63, 64, 65, 96, 97, 1000, 1025})
    for (long delta : {-1L, 0L, 1L}) sizes.push_back(tiles * tile + delta);
  return capped(sizes);
}

TYPED_TEST(single_pass_test, LookBackWindowEdges) {
  scoped_stream stream;
  int round = 0;
  for (std::size_t n : window_edge_sizes(TypeParam::template tile<int>)) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto input = random_vector<int>(n, 7000 + n);
    auto d_in = to_device(input);
    auto d_out = poisoned_device_vector<int>(n);
    with_policy_flavour<TypeParam>(round++, stream.get(), [&](auto policy) {
      thrust::inclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin());
    });
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(d_out)));
    // Non-commutative, 8 and 12 bytes (the 16-byte status word) and 48 bytes (the fenced status format).
    const auto maps = random_vector<affine>(n, 7100 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine>(n);
    thrust::exclusive_scan(TypeParam::blocking, d_maps.begin(), d_maps.end(), d_composed.begin(), affine{3, 5},
                           compose_affine{});
    ASSERT_TRUE(all_equal(reference_exclusive<affine, affine>(maps, compose_affine{}, affine{3, 5}), to_host(d_composed)));
    const auto matrices = random_triangulars(n, 7150 + n);
    auto d_matrices = to_device(matrices);
    auto d_products = poisoned_device_vector<triangular>(n);
    thrust::inclusive_scan(TypeParam::blocking, d_matrices.begin(), d_matrices.end(), d_products.begin(),
                           multiply_triangular{});
    ASSERT_TRUE(all_equal(reference_inclusive<triangular, triangular>(matrices, multiply_triangular{}),
                          to_host(d_products)));
  }
  for (std::size_t n : capped({1, 31 * TypeParam::template tile<affine3> + 1, 33 * TypeParam::template tile<affine3> - 1})) {
    SCOPED_TRACE("affine3, n = " + std::to_string(n));
    const auto maps = random_vector<affine3>(n, 7200 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine3>(n);
    thrust::inclusive_scan(TypeParam::blocking, d_maps.begin(), d_maps.end(), d_composed.begin(), compose_affine3{});
    ASSERT_TRUE(all_equal(reference_inclusive<affine3, affine3>(maps, compose_affine3{}), to_host(d_composed)));
  }
}

// Sizes around the number of blocks that fit on the device at once (SMs x 1..8 blocks each, in tiles),
// where the grid goes from one wave of blocks to several.
inline std::vector<std::size_t> resident_grid_sizes(std::size_t tile) {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  std::vector<std::size_t> sizes;
  for (std::size_t per_sm = 1; per_sm <= 8; ++per_sm) {
    const std::size_t tiles = per_sm * static_cast<std::size_t>(sms);
    for (std::size_t n : {tiles * tile, tiles * tile + 1, (tiles + 1) * tile - 1, (tiles + 1) * tile + tile / 2})
      sizes.push_back(n);
  }
  sizes.push_back(8 * static_cast<std::size_t>(sms) * 3 * tile + 17);  // several tiles per resident block
  return capped(sizes);
}

TYPED_TEST(single_pass_test, ResidentGridEdges) {
  scoped_stream stream;
  int round = 0;
  for (std::size_t n : resident_grid_sizes(TypeParam::template tile<int>)) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto input = random_vector<int>(n, 7300 + n);
    auto d_in = to_device(input);
    auto d_out = poisoned_device_vector<int>(n);
    with_policy_flavour<TypeParam>(round++, stream.get(), [&](auto policy) {
      thrust::exclusive_scan(policy, d_in.begin(), d_in.end(), d_out.begin(), -17);
    });
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(input, thrust::plus<>{}, -17), to_host(d_out)));
    // In place, inclusive.
    thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_in.begin(), d_in.end(), d_in.begin());
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(d_in)));
    // Misaligned by one element: the element-by-element path over the same sizes.
    if (n > 1) {
      auto d_shifted = to_device(input);
      auto d_shifted_out = poisoned_device_vector<int>(n);
      thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_shifted.begin() + 1, d_shifted.end(),
                             d_shifted_out.begin() + 1);
      const std::vector<int> tail(input.begin() + 1, input.end());
      auto got = to_host(d_shifted_out);
      ASSERT_TRUE(all_equal(reference_inclusive<int, int>(tail, thrust::plus<>{}), std::vector<int>(got.begin() + 1, got.end())));
    }
  }
  for (std::size_t n : resident_grid_sizes(TypeParam::template tile<double>)) {
    SCOPED_TRACE("affine and double, n = " + std::to_string(n));
    const auto maps = random_vector<affine>(n, 7400 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine>(n);
    thrust::inclusive_scan(TypeParam::nosync.on(stream.get()), d_maps.begin(), d_maps.end(), d_composed.begin(),
                           compose_affine{});
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_inclusive<affine, affine>(maps, compose_affine{}), to_host(d_composed)));
    // Small integers in doubles: every association order gives the same bits.
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(static_cast<int>(splitmix64(i + n) % 201) - 100);
    auto d_values = to_device(values);
    auto d_sums = poisoned_device_vector<double>(n);
    thrust::exclusive_scan(TypeParam::blocking.on(stream.get()), d_values.begin(), d_values.end(), d_sums.begin(), 0.5);
    ASSERT_TRUE(all_equal(reference_exclusive<double, double>(values, thrust::plus<>{}, 0.5), to_host(d_sums)));
  }
}

// From 2^25 elements on, 8-byte scans take the matrix policy's large tiles (224 x 24 elements): sizes
// around the switch and around its tiles, non-commutative, in place, with an init.
TYPED_TEST(single_pass_test, LargeEightByteScans) {
  constexpr std::size_t switch_n = std::size_t{1} << 25;
  constexpr std::size_t large_tile = 224 * 24;
  for (std::size_t n : capped({switch_n - 1, switch_n, switch_n + large_tile + 1, 7000 * large_tile - 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto maps = random_vector<affine>(n, 7600 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine>(n);
    thrust::exclusive_scan(TypeParam::blocking, d_maps.begin(), d_maps.end(), d_composed.begin(), affine{3, 5},
                           compose_affine{});
    ASSERT_TRUE(all_equal(reference_exclusive<affine, affine>(maps, compose_affine{}, affine{3, 5}), to_host(d_composed)));
    const auto values = random_vector<std::int64_t>(n, 7700 + n);
    auto d_values = to_device(values);
    thrust::inclusive_scan(TypeParam::blocking, d_values.begin(), d_values.end(), d_values.begin());  // in place
    ASSERT_TRUE(all_equal(reference_inclusive<std::int64_t, std::int64_t>(values, thrust::plus<>{}), to_host(d_values)));
  }
}

// x -> a*x + b over the integers mod 2^16: a 4-byte user type, non-commutative.
struct affine16 {
  std::uint16_t a, b;
  friend __host__ __device__ bool operator==(affine16 const& l, affine16 const& r) { return l.a == r.a && l.b == r.b; }
  friend std::ostream& operator<<(std::ostream& os, affine16 const& m) { return os << m.a << "x + " << m.b; }
};
static_assert(sizeof(affine16) == 4);

struct compose_affine16 {  // apply `first`, then `second`
  __host__ __device__ affine16 operator()(affine16 const& first, affine16 const& second) const {
    return affine16{static_cast<std::uint16_t>(second.a * first.a),
                    static_cast<std::uint16_t>(second.a * first.b + second.b)};
  }
};

struct scrambled_int {  // element i of a fancy iterator's input
  __host__ __device__ int operator()(int i) const {
    return static_cast<int>((static_cast<unsigned>(i) * 2654435761u) >> 20) - 2048;
  }
};

std::vector<affine16> random_affine16s(std::size_t n, std::uint64_t seed) {
  std::vector<affine16> maps(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t bits = splitmix64(seed + i);
    maps[i] = affine16{static_cast<std::uint16_t>(bits | 1u), static_cast<std::uint16_t>(bits >> 16)};
  }
  return maps;
}

// Two calls whose tiles move element by element: `values` misaligned by one element (exclusive, init
// 7), and n elements of a fancy iterator's input (inclusive).
template <class Under>
void check_element_paths(std::vector<int> const& values) {
  const std::size_t n = values.size();
  auto d_values = to_device(values);
  auto d_shifted_sums = poisoned_device_vector<int>(n);
  thrust::exclusive_scan(Under::blocking, d_values.begin() + 1, d_values.end(), d_shifted_sums.begin() + 1, 7);
  const std::vector<int> tail(values.begin() + 1, values.end());
  const auto shifted = to_host(d_shifted_sums);
  ASSERT_TRUE(all_equal(reference_exclusive<int, int>(tail, thrust::plus<>{}, 7),
                        std::vector<int>(shifted.begin() + 1, shifted.end())));

  const auto first = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), scrambled_int{});
  std::vector<int> generated(n);
  for (std::size_t i = 0; i < n; ++i) generated[i] = scrambled_int{}(static_cast<int>(i));
  auto d_generated_sums = poisoned_device_vector<int>(n);
  thrust::inclusive_scan(Under::blocking, first, first + static_cast<std::ptrdiff_t>(n), d_generated_sums.begin());
  ASSERT_TRUE(all_equal(reference_inclusive<int, int>(generated, thrust::plus<>{}), to_host(d_generated_sums)));
}

// From 2^25 elements on, 4-byte scans of aligned contiguous memory stage the matrix policy's tiles in
// shared memory (agent_staged_single_pass_scan): sizes around the switch and its tiles (the last tile
// partial or full), in place, with an init, non-commutative, through the deterministic driver, and
// the calls that keep the tiles in registers (misaligned, a fancy iterator's input).
TYPED_TEST(single_pass_test, LargeFourByteScans) {
  constexpr std::size_t switch_n = std::size_t{1} << 25;
  constexpr std::size_t tile = 128 * 32;
  scoped_stream stream;
  for (std::size_t n : capped({switch_n - 1, switch_n, switch_n + tile + 1, 3 * (switch_n / 2) + 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto values = random_vector<int>(n, 7800 + n);
    const auto inclusive = reference_inclusive<int, int>(values, thrust::plus<>{});
    auto d_values = to_device(values);
    thrust::inclusive_scan(TypeParam::blocking, d_values.begin(), d_values.end(), d_values.begin());  // in place
    ASSERT_TRUE(all_equal(inclusive, to_host(d_values)));

    auto d_copy = to_device(values);
    auto d_sums = poisoned_device_vector<int>(n);
    thrust::inclusive_scan(fastscan::matrix_deterministic, d_copy.begin(), d_copy.end(), d_sums.begin());
    ASSERT_TRUE(all_equal(inclusive, to_host(d_sums)));

    const auto maps = random_affine16s(n, 7900 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine16>(n);
    thrust::exclusive_scan(TypeParam::nosync.on(stream.get()), d_maps.begin(), d_maps.end(), d_composed.begin(),
                           affine16{3, 5}, compose_affine16{});
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_exclusive<affine16, affine16>(maps, compose_affine16{}, affine16{3, 5}),
                          to_host(d_composed)));

    ASSERT_NO_FATAL_FAILURE(check_element_paths<TypeParam>(values));
  }
}

// Tiles staged in shared memory at every size, not only from 2^25 elements as the matrix policies take
// them: the staged tuning's own algorithm as a policy, plain and deterministic, at the look-back
// window's edges, aligned (16-byte vectors), misaligned and from a fancy iterator (every tile element by
// element), in place, non-commutative. Small enough for compute-sanitizer (test/sanitize.sh).
template <fastscan::detail::multi_block Strategy>
using staged_matrix = fastscan::detail::matrix_algorithm<true, fastscan::detail::column_scan::warp_matrix, Strategy,
                                                         128, 128, 1, 11>;
template <class Under>
class staged_tiles_test : public gpu_test {};
using staged_algorithms =
    ::testing::Types<algorithm_under_test<staged_matrix<fastscan::detail::multi_block::single_pass>>,
                     algorithm_under_test<staged_matrix<fastscan::detail::multi_block::single_pass_deterministic>>>;
TYPED_TEST_SUITE(staged_tiles_test, staged_algorithms, algorithm_names);

TYPED_TEST(staged_tiles_test, EveryPathAtWindowEdges) {
  static_assert(TypeParam::algorithm::template tuning<int>::staged &&
                    TypeParam::algorithm::template tuning<affine16>::staged,
                "the tuning under test stages its tiles");
  scoped_stream stream;
  int round = 0;
  for (std::size_t n : window_edge_sizes(TypeParam::template tile<int>)) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto values = random_vector<int>(n, 8100 + n);
    auto d_values = to_device(values);
    auto d_sums = poisoned_device_vector<int>(n);
    with_policy_flavour<TypeParam>(round++, stream.get(), [&](auto policy) {
      thrust::exclusive_scan(policy, d_values.begin(), d_values.end(), d_sums.begin(), -3);
    });
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(values, thrust::plus<>{}, -3), to_host(d_sums)));
    thrust::exclusive_scan(fastscan::matrix, d_values.begin() + 1, d_values.end(), d_sums.begin() + 1, -3);
    {  // misaligned by one element: the one-tile-a-block pass
      const std::vector<int> tail(values.begin() + 1, values.end());
      const auto expected = reference_exclusive<int, int>(tail, thrust::plus<>{}, -3);
      const auto got = to_host(d_sums);
      ASSERT_TRUE(std::equal(expected.begin(), expected.end(), got.begin() + 1));
      ASSERT_EQ(got[0], -3);
    }
    thrust::inclusive_scan(TypeParam::blocking, d_values.begin(), d_values.end(), d_values.begin());  // in place
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(values, thrust::plus<>{}), to_host(d_values)));

    const auto maps = random_affine16s(n, 8200 + n);
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<affine16>(n);
    thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_maps.begin(), d_maps.end(), d_composed.begin(),
                           compose_affine16{});
    ASSERT_TRUE(all_equal(reference_inclusive<affine16, affine16>(maps, compose_affine16{}), to_host(d_composed)));

    if (n > 1) ASSERT_NO_FATAL_FAILURE(check_element_paths<TypeParam>(values));
  }
}

// One inclusive scan of n ints through `policy` on `stream`, captured into a graph and replayed over new
// data `replays` times (the capture path zeroes its own tile state in the graph, since a replay would
// otherwise repeat the tag); every replay's output poisoned first and checked whole.
template <class Policy>
void check_captured_inclusive_scan(Policy const& policy, cudaStream_t stream, std::size_t n, int replays,
                                   std::uint64_t seed) {
  thrust::device_vector<int> d_in(n);
  auto d_out = poisoned_device_vector<int>(n);
  cudaGraph_t graph{};
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  std::string failure;
  try {
    thrust::inclusive_scan(policy.on(stream), d_in.begin(), d_in.end(), d_out.begin());
  } catch (std::exception const& error) {
    failure = error.what();
  }
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  ASSERT_EQ(failure, "");
  cudaGraphExec_t exec{};
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  for (int replay = 0; replay < replays; ++replay) {
    SCOPED_TRACE("replay " + std::to_string(replay));
    const auto input = random_vector<int>(n, seed + replay);
    thrust::copy(input.begin(), input.end(), d_in.begin());
    ASSERT_EQ(cudaMemset(thrust::raw_pointer_cast(d_out.data()), 0xA5, n * sizeof(int)), cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(d_out)));
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// A backward exclusive scan of values[first, last) (read from last - 1 down, written the same way) on
// the device, against the host; every element outside the range must keep its poison. With last a
// multiple of 16 bytes and first not, the pipelined pass takes it with a partial tile whose first
// elements in memory are not whole vectors.
template <class T, class Op>
void check_backward_exclusive(std::vector<T> const& values, thrust::device_vector<T> const& d_values, std::size_t first,
                              std::size_t last, T init, Op op) {
  SCOPED_TRACE("backward over [" + std::to_string(first) + ", " + std::to_string(last) + ")");
  const std::vector<T> reversed(values.rend() - static_cast<std::ptrdiff_t>(last),
                                values.rend() - static_cast<std::ptrdiff_t>(first));
  const auto expected = reference_exclusive<T, T>(reversed, op, init);
  auto d_out = poisoned_device_vector<T>(values.size());
  const auto poison = to_host(poisoned_device_vector<T>(1))[0];
  thrust::exclusive_scan(fastscan::matrix, thrust::make_reverse_iterator(d_values.begin() + last),
                         thrust::make_reverse_iterator(d_values.begin() + first),
                         thrust::make_reverse_iterator(d_out.begin() + last), init, op);
  const auto got = to_host(d_out);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool inside = i >= first && i < last;
    wrong += inside ? !(got[i] == expected[last - 1 - i]) : std::memcmp(&got[i], &poison, sizeof(T)) != 0;
  }
  EXPECT_EQ(wrong, 0u);
}

// Keys belong together when they lie in the same hundred: a predicate other than equality, whose
// segments span several runs of equal keys.
struct same_hundred {
  template <class K>
  __host__ __device__ bool operator()(K a, K b) const {
    return a / 100 == b / 100;
  }
};

// Scans by key of n 8-byte values with keys of type K through fastscan::matrix on `stream`, each checked
// whole against the host, for several segment layouts (tile: the pipelined pass's 2048): inclusive sums
// of doubles (small integers: every association order gives the same bits), exclusive with an init and
// a non-commutative operator (affine maps), in place with a predicate other than equality, and a call
// misaligned by one element (the one-tile-a-block pass).
template <class K>
void check_pipelined_by_key(std::size_t n, cudaStream_t stream, std::uint64_t seed) {
  for (layout l : {layout::mean_32, layout::mean_1000, layout::single, layout::tile_ends, layout::singletons}) {
    SCOPED_TRACE(std::string("by key, ") + std::to_string(sizeof(K)) + "-byte keys, layout " + name_of(l));
    const auto keys = segment_keys<K>(l, n, 2048, seed);
    const auto d_keys = to_device(keys);
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(static_cast<int>(splitmix64(seed + i) % 201) - 100);
    const auto d_values = to_device(values);
    auto d_sums = poisoned_device_vector<double>(n);
    thrust::inclusive_scan_by_key(fastscan::matrix_nosync.on(stream), d_keys.begin(), d_keys.end(), d_values.begin(),
                                  d_sums.begin());
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_inclusive_by_key<double, double>(keys, values, thrust::equal_to<>{}, thrust::plus<>{}),
                          to_host(d_sums)));

    std::vector<std::uint64_t> maps(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = splitmix64(seed + 7 * i) | 1u;
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<std::uint64_t>(n);
    thrust::exclusive_scan_by_key(fastscan::matrix, d_keys.begin(), d_keys.end(), d_maps.begin(), d_composed.begin(),
                                  std::uint64_t{5u << 1 | 1u}, thrust::equal_to<>{}, compose_packed32{});
    ASSERT_TRUE(all_equal(reference_exclusive_by_key<std::uint64_t, std::uint64_t>(keys, maps, std::uint64_t{5u << 1 | 1u},
                                                                                    thrust::equal_to<>{}, compose_packed32{}),
                          to_host(d_composed)));
    thrust::inclusive_scan_by_key(fastscan::matrix, d_keys.begin(), d_keys.end(), d_maps.begin(), d_maps.begin(),
                                  same_hundred{}, compose_packed32{});  // in place
    ASSERT_TRUE(all_equal(reference_inclusive_by_key<std::uint64_t, std::uint64_t>(keys, maps, same_hundred{}, compose_packed32{}),
                          to_host(d_maps)));

    auto d_shifted = poisoned_device_vector<double>(n);
    thrust::exclusive_scan_by_key(fastscan::matrix, d_keys.begin() + 1, d_keys.end(), d_values.begin() + 1,
                                  d_shifted.begin() + 1, 0.5);
    const std::vector<K> tail_keys(keys.begin() + 1, keys.end());
    const std::vector<double> tail_values(values.begin() + 1, values.end());
    const auto expected = reference_exclusive_by_key<double, double>(tail_keys, tail_values, 0.5, thrust::equal_to<>{},
                                                                     thrust::plus<>{});
    const auto got = to_host(d_shifted);
    ASSERT_TRUE(std::equal(expected.begin(), expected.end(), got.begin() + 1));
  }
}

// Scans of 4- and 8-byte arithmetic types whose data exceed the device's L2 take the pipelined single
// pass (persistent blocks; agent_pipelined_scan.cuh) on sm_90 and later: sizes just past the L2 and
// around its 32 KiB tiles (the last tile full, one element, one vector plus one, a segment plus one),
// exclusive with an init and inclusive in place, non-commutative, doubles, two streams at once, scans by
// key of 8-byte values with 4- and 8-byte keys, and calls of other paths interleaved on one stream (each
// call's tile numbers start where the previous call's draws ended, the pipelined blocks' final empty
// draws included).
TEST(PipelinedSinglePass, SizesPastTheL2) {
  FASTSCAN_REQUIRE_GPU();
  fastscan::detail::device_facts device{};
  ASSERT_EQ(fastscan::detail::current_device_facts(device), cudaSuccess);
  const std::size_t l2 = device.l2_bytes;
  if (device.compute_major >= 9) {  // the calls below do take the pipelined pass there
    using matrix = fastscan::detail::matrix_drivers::single_pass;
    static_assert(matrix::has_pipelined_tuning<int> && matrix::has_pipelined_tuning<double>);
    bool runs = false;
    using tuning = matrix::pipelined_tuning<int>;
    ASSERT_EQ((fastscan::detail::pipelined_kernel_runs<tuning, fastscan::detail::scan_kind::exclusive,
                                                       fastscan::detail::pipelined_plain_tiles<tuning, int, false>,
                                                       thrust::plus<>>(device, runs)),
              cudaSuccess);
    EXPECT_TRUE(runs);
  }
  const std::size_t tile4 = 8192, tile8 = 4096;  // elements of a 32 KiB tile
  const std::size_t first4 = (l2 / 4 / tile4 + 1) * tile4, first8 = (l2 / 8 / tile8 + 1) * tile8;
  scoped_stream stream, other;
  for (std::size_t n : capped({first4, first4 + 1, first4 + 7, first4 + tile4 + 1, first4 + 3 * tile4 + 1025,
                               first4 + 5 * tile4 - 1})) {
    SCOPED_TRACE("4-byte n = " + std::to_string(n));
    const auto values = random_vector<int>(n, 9100 + n);
    auto d_values = to_device(values);
    auto d_sums = poisoned_device_vector<int>(n);
    thrust::exclusive_scan(fastscan::matrix, d_values.begin(), d_values.end(), d_sums.begin(), -3);
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(values, thrust::plus<>{}, -3), to_host(d_sums)));
    thrust::exclusive_scan(fastscan::matrix, d_values.begin() + 1, d_values.end(), d_sums.begin() + 1, -3);
    {  // misaligned by one element: the one-tile-a-block pass
      const std::vector<int> tail(values.begin() + 1, values.end());
      const auto expected = reference_exclusive<int, int>(tail, thrust::plus<>{}, -3);
      const auto got = to_host(d_sums);
      ASSERT_TRUE(std::equal(expected.begin(), expected.end(), got.begin() + 1));
      ASSERT_EQ(got[0], -3);
    }
    thrust::inclusive_scan(fastscan::matrix_nosync.on(stream.get()), d_values.begin(), d_values.end(),
                           d_values.begin());  // in place
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(values, thrust::plus<>{}), to_host(d_values)));

    std::vector<std::uint32_t> maps(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = static_cast<std::uint32_t>(splitmix64(9200 + i)) | 1u;
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<std::uint32_t>(n);
    auto d_composed_other = poisoned_device_vector<std::uint32_t>(n);
    thrust::exclusive_scan(fastscan::matrix_nosync.on(stream.get()), d_maps.begin(), d_maps.end(), d_composed.begin(),
                           std::uint32_t{1}, compose_packed16{});
    thrust::inclusive_scan(fastscan::matrix_nosync.on(other.get()), d_maps.begin(), d_maps.end(),
                           d_composed_other.begin(), compose_packed16{});
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(other.get()), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_exclusive<std::uint32_t, std::uint32_t>(maps, compose_packed16{}, 1u),
                          to_host(d_composed)));
    ASSERT_TRUE(all_equal(reference_inclusive<std::uint32_t, std::uint32_t>(maps, compose_packed16{}),
                          to_host(d_composed_other)));
    check_backward_exclusive<std::uint32_t>(maps, d_maps, 0, n, 1u, compose_packed16{});
  }
  for (std::size_t n : capped({first8, first8 + 1, first8 + 3, first8 + tile8 + 1, first8 + 2 * tile8 + 513})) {
    SCOPED_TRACE("8-byte n = " + std::to_string(n));
    std::vector<double> values(n);  // small integers: every association order gives the same bits
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(static_cast<int>(splitmix64(i + n) % 201) - 100);
    auto d_values = to_device(values);
    auto d_sums = poisoned_device_vector<double>(n);
    thrust::exclusive_scan(fastscan::matrix, d_values.begin(), d_values.end(), d_sums.begin(), 0.5);
    ASSERT_TRUE(all_equal(reference_exclusive<double, double>(values, thrust::plus<>{}, 0.5), to_host(d_sums)));

    std::vector<std::uint64_t> maps(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = splitmix64(9300 + i) | 1u;
    auto d_maps = to_device(maps);
    check_backward_exclusive<std::uint64_t>(maps, d_maps, 0, n, 3u, compose_packed32{});
    thrust::inclusive_scan(fastscan::matrix, d_maps.begin(), d_maps.end(), d_maps.begin(), compose_packed32{});
    ASSERT_TRUE(all_equal(reference_inclusive<std::uint64_t, std::uint64_t>(maps, compose_packed32{}), to_host(d_maps)));
  }
  // Scans by key of 8-byte values with 8- and 4-byte keys, their keys and values past the L2 for 8-byte
  // keys (the 4-byte keys' call below, three quarters of it, takes the pass where the memory is fast;
  // the lowered test covers them in the pass everywhere).
  static_assert(fastscan::detail::matrix_drivers::single_pass::has_pipelined_by_key_tuning<long long, double> &&
                fastscan::detail::matrix_drivers::single_pass::has_pipelined_by_key_tuning<unsigned long long, std::uint64_t> &&
                fastscan::detail::matrix_drivers::single_pass::has_pipelined_by_key_tuning<int, double>);
  const std::size_t tile_by_key = 2048, first_by_key = (l2 / 16 / tile_by_key + 1) * tile_by_key;
  for (std::size_t n : capped({first_by_key, first_by_key + 2 * tile_by_key + 513})) {
    SCOPED_TRACE("by key, n = " + std::to_string(n));
    check_pipelined_by_key<long long>(n, stream.get(), 9350 + n);
  }
  for (std::size_t n : capped({first_by_key + 1})) {
    SCOPED_TRACE("by key, n = " + std::to_string(n));
    check_pipelined_by_key<unsigned long long>(n, other.get(), 9360 + n);
    check_pipelined_by_key<int>(n, stream.get(), 9370 + n);
  }
  // Pipelined and one-tile-a-block calls interleaved on one stream.
  if (capped({first4 + 1}).empty()) return;
  const std::vector<std::size_t> shapes = {first4 + 1, 1, 3 * 4096 + 1, first4 + tile4 * 2, 100000};
  std::vector<std::vector<int>> inputs(shapes.size() * 2);
  std::vector<thrust::device_vector<int>> d_in(inputs.size()), d_out(inputs.size());
  for (std::size_t c = 0; c < inputs.size(); ++c) {
    inputs[c] = random_vector<int>(shapes[c % shapes.size()], 9400 + c);
    d_in[c] = to_device(inputs[c]);
    d_out[c] = poisoned_device_vector<int>(inputs[c].size());
  }
  for (std::size_t c = 0; c < inputs.size(); ++c)
    thrust::inclusive_scan(fastscan::matrix_nosync.on(stream.get()), d_in[c].begin(), d_in[c].end(), d_out[c].begin());
  ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
  for (std::size_t c = 0; c < inputs.size(); ++c)
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(inputs[c], thrust::plus<>{}), to_host(d_out[c]))) << "call " << c;
}

// The pipelined single pass with its size rule lowered to every call of two tiles or more (quick enough
// for the sanitizers): fewer tiles than SMs (grids of 2 .. SMs blocks), one block per SM with several
// rounds of the stage and metadata rings, partial last tiles of each shape, init and no init,
// non-commutative, in place, doubles, scans by key, two streams, and a scan captured into a graph and
// replayed; then again with grids of at most three blocks, each going round its rings many times.
class PipelinedSinglePassLowered : public ::testing::TestWithParam<int> {};

TEST_P(PipelinedSinglePassLowered, SmallSizes) {
  FASTSCAN_REQUIRE_PIPELINED_PASS();
  fastscan::detail::device_facts device{};
  ASSERT_EQ(fastscan::detail::current_device_facts(device), cudaSuccess);
  const pipelined_size_rule_lowered lowered(GetParam());
  const std::size_t tile4 = 8192, tile8 = 4096, sms = static_cast<std::size_t>(device.sms);
  scoped_stream stream, other;
  for (std::size_t n : capped({tile4 + 1, 2 * tile4, 2 * tile4 + 3, 5 * tile4 + 1025, 7919 * 3, (sms - 1) * tile4 + 17,
                               sms * tile4, sms * tile4 + 1, 3 * sms * tile4 + 4 * 32 * 4 + 1, 104729 * 13})) {
    SCOPED_TRACE("4-byte n = " + std::to_string(n));
    const auto values = random_vector<int>(n, 9500 + n);
    auto d_values = to_device(values);
    auto d_sums = poisoned_device_vector<int>(n);
    auto d_sums_other = poisoned_device_vector<int>(n);
    thrust::exclusive_scan(fastscan::matrix_nosync.on(stream.get()), d_values.begin(), d_values.end(), d_sums.begin(), 11);
    thrust::inclusive_scan(fastscan::matrix_nosync.on(other.get()), d_values.begin(), d_values.end(),
                           d_sums_other.begin(), thrust::maximum<int>{});
    ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(other.get()), cudaSuccess);
    ASSERT_TRUE(all_equal(reference_exclusive<int, int>(values, thrust::plus<>{}, 11), to_host(d_sums)));
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(values, thrust::maximum<int>{}), to_host(d_sums_other)));
    thrust::inclusive_scan(fastscan::matrix.on(stream.get()), d_values.begin(), d_values.end(),
                           d_values.begin());  // in place
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(values, thrust::plus<>{}), to_host(d_values)));

    std::vector<std::uint32_t> maps(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = static_cast<std::uint32_t>(splitmix64(9600 + i)) | 1u;
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<std::uint32_t>(n);
    thrust::exclusive_scan(fastscan::matrix, d_maps.begin(), d_maps.end(), d_composed.begin(), std::uint32_t{7u << 16 | 3u},
                           compose_packed16{});
    ASSERT_TRUE(all_equal(reference_exclusive<std::uint32_t, std::uint32_t>(maps, compose_packed16{}, 7u << 16 | 3u),
                          to_host(d_composed)));
    check_backward_exclusive<std::uint32_t>(maps, d_maps, 0, n, 7u << 16 | 3u, compose_packed16{});
    check_backward_exclusive<std::uint32_t>(maps, d_maps, 1, n / 4 * 4, 5u, compose_packed16{});
    // Backward and in place, inclusive.
    const std::size_t end = n / 4 * 4;
    thrust::inclusive_scan(fastscan::matrix, thrust::make_reverse_iterator(d_maps.begin() + end), d_maps.rend(),
                           thrust::make_reverse_iterator(d_maps.begin() + end), compose_packed16{});
    const std::vector<std::uint32_t> reversed(maps.rend() - static_cast<std::ptrdiff_t>(end), maps.rend());
    const auto expected = reference_inclusive<std::uint32_t, std::uint32_t>(reversed, compose_packed16{});
    const auto got = to_host(d_maps);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += got[i] != (i < end ? expected[end - 1 - i] : maps[i]);
    EXPECT_EQ(wrong, 0u);
  }
  for (std::size_t n : capped({tile8 + 1, 2 * tile8 + 1, 9 * tile8 + 511, sms * tile8 - 1, 2 * sms * tile8 + 3})) {
    SCOPED_TRACE("8-byte n = " + std::to_string(n));
    std::vector<std::uint64_t> maps(n);
    for (std::size_t i = 0; i < n; ++i) maps[i] = splitmix64(9700 + i) | 1u;
    auto d_maps = to_device(maps);
    auto d_composed = poisoned_device_vector<std::uint64_t>(n);
    thrust::exclusive_scan(fastscan::matrix, d_maps.begin(), d_maps.end(), d_composed.begin(), std::uint64_t{5},
                           compose_packed32{});
    ASSERT_TRUE(all_equal(reference_exclusive<std::uint64_t, std::uint64_t>(maps, compose_packed32{}, 5u),
                          to_host(d_composed)));
    check_backward_exclusive<std::uint64_t>(maps, d_maps, 0, n, 5u, compose_packed32{});
    check_backward_exclusive<std::uint64_t>(maps, d_maps, 1, n / 2 * 2, 9u, compose_packed32{});
    std::vector<double> values(n);  // small integers: every association order gives the same bits
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<double>(static_cast<int>(splitmix64(i + 3 * n) % 201) - 100);
    auto d_values = to_device(values);
    thrust::inclusive_scan(fastscan::matrix, d_values.begin(), d_values.end(), d_values.begin());
    ASSERT_TRUE(all_equal(reference_inclusive<double, double>(values, thrust::plus<>{}), to_host(d_values)));
  }
  // Scans by key of 8-byte values with 8- and 4-byte keys (2048-element tiles); 4-byte keys with the
  // tunings of both memory classes (one block an SM and two), whatever this device's class.
  static_assert(fastscan::detail::matrix_drivers::single_pass::has_pipelined_by_key_fast_memory_tuning<int, double> &&
                !fastscan::detail::matrix_drivers::single_pass::has_pipelined_by_key_fast_memory_tuning<long long, double>);
  for (std::size_t n : capped({2049, 4096, 9 * 2048 + 511, sms * 2048 + 3, 2 * sms * 2048 + 1, 4 * sms * 2048 + 5})) {
    SCOPED_TRACE("by key, n = " + std::to_string(n));
    check_pipelined_by_key<long long>(n, stream.get(), 9750 + n);
    check_pipelined_by_key<unsigned long long>(n, other.get(), 9760 + n);
    under_each_memory_class([&] {
      check_pipelined_by_key<int>(n, stream.get(), 9770 + n);
      check_pipelined_by_key<unsigned>(n, other.get(), 9780 + n);
    });
  }
  // Captured into a graph: the statuses come from the call's temporary storage, zeroed in the graph.
  check_captured_inclusive_scan(fastscan::matrix_nosync, stream.get(), 40 * tile4 + 5, 3, 9800);
}

INSTANTIATE_TEST_SUITE_P(PipelinedSinglePass, PipelinedSinglePassLowered, ::testing::Values(0, 3), pipelined_grid_name);

// Large and small calls interleaved on one stream: each call's tile numbers start where the previous
// call's draws ended.
TYPED_TEST(single_pass_test, LargeAndSmallCallsInterleavedOnOneStream) {
  scoped_stream stream;
  const std::size_t tile = TypeParam::template tile<int>;
  const auto large_sizes = resident_grid_sizes(tile);
  const std::size_t large = large_sizes.back();
  const std::vector<std::size_t> shapes = {large, 1, 3 * tile + 1, large - tile / 3, 40 * tile, large / 2 + 1};
  constexpr int calls = 24;
  std::vector<std::vector<int>> inputs(calls);
  std::vector<thrust::device_vector<int>> d_in(calls), d_out(calls);
  for (int c = 0; c < calls; ++c) {
    inputs[c] = random_vector<int>(shapes[c % shapes.size()], 7500 + c);
    d_in[c] = to_device(inputs[c]);
    d_out[c] = poisoned_device_vector<int>(inputs[c].size());
  }
  for (int c = 0; c < calls; ++c)
    thrust::inclusive_scan(TypeParam::nosync.on(stream.get()), d_in[c].begin(), d_in[c].end(), d_out[c].begin());
  ASSERT_EQ(cudaStreamSynchronize(stream.get()), cudaSuccess);
  for (int c = 0; c < calls; ++c) {
    SCOPED_TRACE("call " + std::to_string(c) + ", n = " + std::to_string(inputs[c].size()));
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(inputs[c], thrust::plus<>{}), to_host(d_out[c])));
  }
}

// Many calls queued back to back on four streams without waiting, every result checked afterwards.
TYPED_TEST(single_pass_test, ThousandsOfBackToBackCallsOnFourStreams) {
  constexpr int streams = 4;
  const int calls = std::getenv("FASTSCAN_TEST_MAX_N") ? 200 : 2000;
  std::array<scoped_stream, streams> stream;
  const std::size_t tile = TypeParam::template tile<int>;
  const std::vector<std::size_t> shapes = {1, 2, tile - 1, tile, tile + 1, 32 * tile + 1, 3 * tile + 17, 40000, 100003, 250000};
  std::vector<std::vector<int>> inputs(calls);
  std::vector<thrust::device_vector<int>> d_in(calls), d_out(calls);
  for (int c = 0; c < calls; ++c) {
    const std::size_t n = shapes[splitmix64(c) % shapes.size()];
    inputs[c] = random_vector<int>(n, 8000 + c);
    d_in[c] = to_device(inputs[c]);
    d_out[c] = poisoned_device_vector<int>(n);
  }
  for (int c = 0; c < calls; ++c) {
    auto policy = TypeParam::nosync.on(stream[c % streams].get());
    if (c % 3 == 0) thrust::inclusive_scan(policy, d_in[c].begin(), d_in[c].end(), d_out[c].begin());
    else thrust::exclusive_scan(policy, d_in[c].begin(), d_in[c].end(), d_out[c].begin(), c);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int c = 0; c < calls; ++c) {
    SCOPED_TRACE("call " + std::to_string(c) + ", n = " + std::to_string(inputs[c].size()));
    const auto expected = c % 3 == 0 ? reference_inclusive<int, int>(inputs[c], thrust::plus<>{})
                                     : reference_exclusive<int, int>(inputs[c], thrust::plus<>{}, c);
    ASSERT_TRUE(all_equal(expected, to_host(d_out[c])));
  }
}

// Host threads scanning at once: each on its own stream, all on one shared stream, and on each
// thread's per-thread default stream.
TYPED_TEST(single_pass_test, SeveralHostThreads) {
  constexpr int threads = 4;
  const int calls_per_thread = 50;
  scoped_stream shared;
  const std::size_t n = 37 * TypeParam::template tile<int> + 5;
  const auto input = random_vector<int>(n, 9000);
  const auto expected = reference_inclusive<int, int>(input, thrust::plus<>{});
  auto d_in = to_device(input);
  std::array<std::vector<thrust::device_vector<int>>, threads> outputs;
  for (auto& per_thread : outputs)
    for (int c = 0; c < 3 * calls_per_thread; ++c) per_thread.push_back(poisoned_device_vector<int>(n));
  std::array<std::string, threads> failures;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      try {
        cudaStream_t own;
        cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
        for (int c = 0; c < calls_per_thread; ++c) {
          auto& out = outputs[t];
          thrust::inclusive_scan(TypeParam::nosync.on(own), d_in.begin(), d_in.end(), out[3 * c].begin());
          thrust::inclusive_scan(TypeParam::nosync.on(shared.get()), d_in.begin(), d_in.end(), out[3 * c + 1].begin());
          thrust::inclusive_scan(TypeParam::blocking.on(cudaStreamPerThread), d_in.begin(), d_in.end(),
                                 out[3 * c + 2].begin());
        }
        cudaStreamSynchronize(own);
        cudaStreamDestroy(own);
      } catch (std::exception const& error) {
        failures[t] = error.what();
      }
    });
  }
  for (auto& worker : workers) worker.join();
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  for (int t = 0; t < threads; ++t) {
    ASSERT_EQ(failures[t], "") << "thread " << t;
    for (std::size_t c = 0; c < outputs[t].size(); ++c) ASSERT_TRUE(all_equal(expected, to_host(outputs[t][c]))) << "thread " << t << " call " << c;
  }
}

// An allocator that fails every allocation: the call fails cleanly, and the next one works.
struct failing_allocator : thrust::device_allocator<char> {
  pointer allocate(size_type) { throw std::bad_alloc(); }
};

TYPED_TEST(single_pass_test, CallAfterFailedCalls) {
  scoped_stream stream;
  const std::size_t n = 45 * TypeParam::template tile<affine3> + 3;
  const auto maps = random_vector<affine3>(n, 9100);
  auto d_maps = to_device(maps);
  auto d_out = poisoned_device_vector<affine3>(n);
  failing_allocator failing;
  // The fenced status format needs temporary storage, so this call fails before its launch.
  EXPECT_ANY_THROW(thrust::inclusive_scan(TypeParam::blocking(failing).on(stream.get()), d_maps.begin(), d_maps.end(),
                                          d_out.begin(), compose_affine3{}));
  EXPECT_ANY_THROW(thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_maps.begin() + 10, d_maps.begin(),
                                          d_out.begin(), compose_affine3{}));
  thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_maps.begin(), d_maps.end(), d_out.begin(),
                         compose_affine3{});
  ASSERT_TRUE(all_equal(reference_inclusive<affine3, affine3>(maps, compose_affine3{}), to_host(d_out)));
  const auto input = random_vector<int>(n, 9101);
  auto d_in = to_device(input);
  auto d_sums = poisoned_device_vector<int>(n);
  thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_in.begin(), d_in.end(), d_sums.begin());
  ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(d_sums)));
}

// The kernel before a call lets its dependents start early and writes the call's input late: the call's
// kernels wait for it (fastscan launches them as programmatic dependents of the kernel before).
TYPED_TEST(single_pass_test, WaitsForTheKernelBeforeIt) {
  scoped_stream stream;
  const std::size_t n = 37 * TypeParam::template tile<int> + 5;
  const auto input = random_vector<int>(n, 9150);
  const auto d_values = to_device(input);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    auto d_in = poisoned_device_vector<int>(n);
    auto d_out = poisoned_device_vector<int>(n);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    write_after_letting_dependents_start<<<8, 256, 0, stream.get()>>>(thrust::raw_pointer_cast(d_values.data()),
                                                                      thrust::raw_pointer_cast(d_in.data()), n,
                                                                      200000ll << round);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_in.begin(), d_in.end(), d_out.begin());
    ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(d_out)));
  }
}

// A scan captured into a graph and replayed over new data each time (the capture path zeroes its own
// tile state in the graph, since a replay would otherwise repeat the tag).
TYPED_TEST(single_pass_test, CapturedIntoGraphAndReplayed) {
  scoped_stream stream;
  check_captured_inclusive_scan(TypeParam::nosync, stream.get(), 70 * TypeParam::template tile<int> + 9, 4, 9200);
}

// The tags run out after 2^30 calls on a stream; the buffer is then zeroed and tags start again.
TYPED_TEST(single_pass_test, TagsRunningOut) {
  scoped_stream stream;
  const std::size_t n = 50 * TypeParam::template tile<int> + 1;
  const auto input = random_vector<int>(n, 9300);
  auto d_in = to_device(input);
  const auto expected = reference_inclusive<int, int>(input, thrust::plus<>{});
  // Grow the stream's buffer first, then move its tags near the end.
  auto d_out = poisoned_device_vector<int>(n);
  thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_in.begin(), d_in.end(), d_out.begin());
  ASSERT_TRUE(all_equal(expected, to_host(d_out)));
  std::shared_ptr<fastscan::detail::tile_state_buffer> buffer;
  ASSERT_EQ(fastscan::detail::stream_tile_state_buffer(stream.get(), buffer), cudaSuccess);
  {
    std::lock_guard<std::mutex> lock(buffer->mutex);
    buffer->last_tag = fastscan::detail::max_tile_state_tag - 2;
  }
  for (int call = 0; call < 5; ++call) {
    SCOPED_TRACE("call " + std::to_string(call));
    d_out = poisoned_device_vector<int>(n);
    thrust::inclusive_scan(TypeParam::blocking.on(stream.get()), d_in.begin(), d_in.end(), d_out.begin());
    ASSERT_TRUE(all_equal(expected, to_host(d_out)));
  }
  EXPECT_LT(buffer->last_tag, 5u);
}

// How a call's full tiles move, by its size (dispatch/tile_access_plan.cuh). Small calls and ranges that
// cannot take vectors are planned without asking the device.
TEST(TileAccessPlan, SmallCallsPrefetchWithoutAskingTheDevice) {
  using fastscan::detail::tile_access;
  tile_access access = tile_access::vectors;
  ASSERT_EQ(fastscan::detail::plan_tile_access(false, std::size_t{1} << 40, true, access), cudaSuccess);
  EXPECT_EQ(access, tile_access::elements);
  for (const bool streaming : {false, true}) {
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{4096}, fastscan::detail::latency_bound_footprint_bytes}) {
      access = tile_access::elements;
      ASSERT_EQ(fastscan::detail::plan_tile_access(true, bytes, streaming, access), cudaSuccess);
      EXPECT_EQ(access, tile_access::prefetched_vectors) << bytes << " bytes";
    }
  }
}

// The pipelined pass's tunings by memory class: `fast` above 30 GB/s an SM at peak (the H200, not the
// H100); an unknown peak is not fast; `any` suits every device. The calls the pass takes: past the L2 on
// the other class; on the fast one past half the L2 (plain scans) or five eighths (scans by key); the
// deterministic pass past 50 MiB on every device.
TEST(PipelinedTunings, ChosenByTheMemoryPerSm) {
  using fastscan::detail::device_facts;
  using fastscan::detail::has_memory_class;
  using fastscan::detail::memory_class;
  const device_facts h100 = h100_facts();
  const device_facts h200 = h200_facts();
  device_facts unknown = h100;
  unknown.memory_bytes_per_second = 0;
  EXPECT_FALSE(has_memory_class(h100, memory_class::fast));
  EXPECT_TRUE(has_memory_class(h200, memory_class::fast));
  EXPECT_FALSE(has_memory_class(unknown, memory_class::fast));
  EXPECT_FALSE(has_memory_class(device_facts{}, memory_class::fast));
  for (const device_facts& device : {h100, h200, unknown}) EXPECT_TRUE(has_memory_class(device, memory_class::any));
  using matrix = fastscan::detail::matrix_drivers::single_pass;
  using fast = matrix::pipelined_by_key_fast_memory_tuning<int, double>;
  using any = matrix::pipelined_by_key_tuning<int, double>;
  EXPECT_EQ(fast::blocks_per_sm, 2);
  EXPECT_EQ(any::blocks_per_sm, 1);
  EXPECT_TRUE(fast::suits(h200));
  EXPECT_FALSE(fast::suits(h100));
  EXPECT_TRUE(any::suits(h100));
  using plain = matrix::pipelined_tuning<int>;
  using deterministic = fastscan::detail::matrix_drivers::deterministic::pipelined_tuning<int>;
  const std::size_t h100_l2 = h100.l2_bytes, h200_l2 = h200.l2_bytes;
  EXPECT_TRUE(any::takes(h100_l2 + 1, h100) && plain::takes(h100_l2 + 1, h100));
  EXPECT_FALSE(any::takes(h100_l2, h100) || plain::takes(h100_l2, h100));
  EXPECT_TRUE(plain::takes(h200_l2 / 2 + 1, h200));
  EXPECT_FALSE(plain::takes(h200_l2 / 2, h200));
  EXPECT_TRUE(fast::takes(h200_l2 / 8 * 5 + 1, h200) && any::takes(h200_l2 / 8 * 5 + 1, h200));
  EXPECT_FALSE(fast::takes(h200_l2 / 8 * 5, h200) || any::takes(h200_l2 / 8 * 5, h200));
  const std::size_t past_50_mib = (std::size_t{50} << 20) + 1;
  for (const device_facts& device : {h100, h200}) {
    EXPECT_TRUE(deterministic::takes(past_50_mib, device));
    EXPECT_FALSE(deterministic::takes(past_50_mib - 1, device));
  }
}

TEST(TileAccessPlan, LargerCallsByTheL2Size) {
  FASTSCAN_REQUIRE_GPU();
  using fastscan::detail::tile_access;
  fastscan::detail::device_facts device{};
  ASSERT_EQ(fastscan::detail::current_device_facts(device), cudaSuccess);
  const std::size_t l2 = device.l2_bytes;
  ASSERT_GT(l2, 0u);
  tile_access access = tile_access::elements;
  if (l2 > fastscan::detail::latency_bound_footprint_bytes) {  // data that may sit in L2: plain vectors
    ASSERT_EQ(fastscan::detail::plan_tile_access(true, l2, true, access), cudaSuccess);
    EXPECT_EQ(access, tile_access::vectors);
  }
  ASSERT_EQ(fastscan::detail::plan_tile_access(true, l2 + 1, true, access), cudaSuccess);
  EXPECT_EQ(access, tile_access::prefetched_streaming_vectors);
  ASSERT_EQ(fastscan::detail::plan_tile_access(true, l2 + 1, false, access), cudaSuccess);
  EXPECT_EQ(access, tile_access::prefetched_vectors);
  ASSERT_EQ(fastscan::detail::plan_tile_access(false, l2 + 1, true, access), cudaSuccess);
  EXPECT_EQ(access, tile_access::elements);
}

}  // namespace fastscan_test
