// Algorithms across ranks (<fastscan/nccl.cuh>), against thrust::cuda::par on the whole input: a
// one-rank communicator on any GPU (the local calls, and the exchanges of compaction and of scans by
// key; scans and sorts on one rank skip theirs); with two or
// more GPUs, one host thread per rank on shards of uneven sizes, empty and one-element shards included,
// segments spanning several ranks, gathered and compared element by element. Sorts: few distinct keys
// (runs of equal keys across ranks, whose values must keep their input order), both orders, 32- and
// 64-bit integer keys and doubles with -0.0 beside +0.0 (compared by their bits).

#include "common/test_utils.cuh"

#include <fastscan/nccl.cuh>

#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace fastscan_test {
namespace {

struct compose_affine {
  __host__ __device__ affine operator()(affine const& f, affine const& g) const {
    return {f.a * g.a, f.b * g.a + g.b};  // x -> g(f(x))
  }
};
struct is_odd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

// Every call under test over one rank's shard (appending its outputs) or, with par, over the whole input.
struct outputs {
  std::vector<int> inclusive, inclusive_max, inclusive_init, exclusive, exclusive_init, by_key_inclusive,
      by_key_exclusive, by_key_in_place, selected, removed;
  std::vector<affine> affine_exclusive, affine_by_key;
  std::vector<int> sorted, sorted_greater, pairs_keys;
  std::vector<long long> pairs_values, double_pairs_values;
  std::vector<std::uint64_t> double_pairs_key_bits, sorted_u64;
};

// Doubles with -0.0 among them, and 64-bit keys spanning their whole range, from a shard's values.
double double_key(int v, long long index) { return v == 0 && (index & 1) ? -0.0 : v * 0.5; }
std::uint64_t u64_key(int v) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) * 0x9E3779B97F4A7C15ull; }
std::vector<std::uint64_t> bits_of(std::vector<double> const& keys) {
  std::vector<std::uint64_t> bits(keys.size());
  std::memcpy(bits.data(), keys.data(), keys.size() * sizeof(double));
  return bits;
}

template <class Policy, class CompactionPolicy>
void run_calls(Policy const& policy, CompactionPolicy const& compaction_policy, std::vector<int> const& values,
               std::vector<int> const& keys, std::vector<affine> const& maps, std::vector<long long> const& index,
               outputs& out) {
  const std::size_t n = values.size();
  const auto d_values = to_device(values);
  const auto d_keys = to_device(keys);
  const auto d_maps = to_device(maps);
  thrust::device_vector<int> result(n + 1);
  auto poison = [&] { thrust::fill(thrust::cuda::par, result.begin(), result.end(), -12345); };
  // The policy may be a _nosync one on a stream of its own: wait for its work before reading.
  auto append = [&](std::vector<int>& to, thrust::device_vector<int> const& from, std::size_t count, bool poisoned = true) {
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto h = to_host(from);
    if (poisoned) ASSERT_EQ(h.size() > count ? h[count] : -12345, -12345) << "wrote past the shard";
    to.insert(to.end(), h.begin(), h.begin() + static_cast<std::ptrdiff_t>(count));
  };
  poison();
  thrust::inclusive_scan(policy, d_values.begin(), d_values.end(), result.begin());
  append(out.inclusive, result, n);
  poison();
  thrust::inclusive_scan(policy, d_values.begin(), d_values.end(), result.begin(), thrust::maximum<int>{});
  append(out.inclusive_max, result, n);
  poison();
  thrust::inclusive_scan(policy, d_values.begin(), d_values.end(), result.begin(), 1000, thrust::plus<int>{});
  append(out.inclusive_init, result, n);
  poison();
  thrust::exclusive_scan(policy, d_values.begin(), d_values.end(), result.begin());
  append(out.exclusive, result, n);
  poison();
  thrust::exclusive_scan(policy, d_values.begin(), d_values.end(), result.begin(), -7);
  append(out.exclusive_init, result, n);
  {
    thrust::device_vector<affine> maps_result = d_maps;  // in place, non-commutative
    thrust::exclusive_scan(policy, maps_result.begin(), maps_result.end(), maps_result.begin(), affine{3, 5}, compose_affine{});
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto h = to_host(maps_result);
    out.affine_exclusive.insert(out.affine_exclusive.end(), h.begin(), h.end());
    thrust::device_vector<affine> by_key(n);
    thrust::inclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_maps.begin(), by_key.begin(),
                                  thrust::equal_to<int>{}, compose_affine{});
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto hk = to_host(by_key);
    out.affine_by_key.insert(out.affine_by_key.end(), hk.begin(), hk.end());
  }
  poison();
  thrust::inclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), result.begin());
  append(out.by_key_inclusive, result, n);
  poison();
  thrust::exclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), result.begin(), 11,
                                thrust::equal_to<int>{}, thrust::plus<int>{});
  append(out.by_key_exclusive, result, n);
  {
    thrust::device_vector<int> in_place = d_values;
    thrust::exclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), in_place.begin(), in_place.begin(), 4);
    append(out.by_key_in_place, in_place, n, false);
  }
  poison();
  auto end = thrust::copy_if(compaction_policy, d_values.begin(), d_values.end(), result.begin(), is_odd{});
  append(out.selected, result, static_cast<std::size_t>(end - result.begin()));
  thrust::device_vector<int> removing = d_values;
  auto kept = thrust::remove_if(compaction_policy, removing.begin(), removing.end(), is_odd{});
  append(out.removed, removing, static_cast<std::size_t>(kept - removing.begin()), false);
  // Sorts: each rank keeps its shard's size.
  auto collect = [&](auto& to, auto const& from) {
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const auto h = to_host(from);
    to.insert(to.end(), h.begin(), h.end());
  };
  {
    thrust::device_vector<int> sorting = d_values;
    thrust::sort(policy, sorting.begin(), sorting.end());
    collect(out.sorted, sorting);
    sorting = d_values;
    thrust::stable_sort(policy, sorting.begin(), sorting.end(), thrust::greater<int>{});
    collect(out.sorted_greater, sorting);
  }
  {
    std::vector<int> few(n);
    std::vector<double> doubles(n);
    std::vector<std::uint64_t> wide(n);
    for (std::size_t i = 0; i < n; ++i) {
      few[i] = ((values[i] % 16) + 16) % 16;
      doubles[i] = double_key(values[i] % 8, index[i]);
      wide[i] = u64_key(values[i]);
    }
    auto d_few = to_device(few);
    auto d_index = to_device(index);
    thrust::sort_by_key(policy, d_few.begin(), d_few.end(), d_index.begin());
    collect(out.pairs_keys, d_few);
    collect(out.pairs_values, d_index);
    auto d_doubles = to_device(doubles);
    d_index = to_device(index);
    thrust::stable_sort_by_key(policy, d_doubles.begin(), d_doubles.end(), d_index.begin(), thrust::greater<double>{});
    std::vector<double> sorted_doubles;
    collect(sorted_doubles, d_doubles);
    const auto bits = bits_of(sorted_doubles);
    out.double_pairs_key_bits.insert(out.double_pairs_key_bits.end(), bits.begin(), bits.end());
    collect(out.double_pairs_values, d_index);
    auto d_wide = to_device(wide);
    thrust::sort(policy, d_wide.begin(), d_wide.end());
    collect(out.sorted_u64, d_wide);
  }
}

// One rank's shard of each input: [begin, end).
template <class T>
std::vector<T> slice(std::vector<T> const& v, std::size_t begin, std::size_t end) {
  return std::vector<T>(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end));
}

struct inputs {
  std::vector<int> values, keys;
  std::vector<affine> maps;
  std::vector<long long> index;  // each element's position in the whole input
};

inputs make_inputs(std::size_t n, std::uint64_t seed) {
  inputs in;
  in.values.resize(n);
  in.keys.resize(n);
  in.maps.resize(n);
  in.index.resize(n);
  int key = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = splitmix64(seed * 977 + i);
    in.values[i] = static_cast<int>(r % 2001) - 1000;
    if (r % 37 == 0) ++key;  // segments of mean 37, some spanning shards
    in.keys[i] = key;
    in.maps[i] = affine{static_cast<std::uint32_t>(r >> 20) | 1u, static_cast<std::uint32_t>(r >> 40)};
    in.index[i] = static_cast<long long>(i);
  }
  return in;
}

template <class T>
void expect_equal(std::vector<T> const& expected, std::vector<T> const& actual, const char* what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i) ASSERT_TRUE(expected[i] == actual[i]) << what << " differs at " << i;
}

void expect_same_outputs(outputs const& e, outputs const& a) {
  expect_equal(e.inclusive, a.inclusive, "inclusive_scan");
  expect_equal(e.inclusive_max, a.inclusive_max, "inclusive_scan (maximum)");
  expect_equal(e.inclusive_init, a.inclusive_init, "inclusive_scan (init)");
  expect_equal(e.exclusive, a.exclusive, "exclusive_scan");
  expect_equal(e.exclusive_init, a.exclusive_init, "exclusive_scan (init)");
  expect_equal(e.affine_exclusive, a.affine_exclusive, "exclusive_scan (affine maps, in place)");
  expect_equal(e.affine_by_key, a.affine_by_key, "inclusive_scan_by_key (affine maps)");
  expect_equal(e.by_key_inclusive, a.by_key_inclusive, "inclusive_scan_by_key");
  expect_equal(e.by_key_exclusive, a.by_key_exclusive, "exclusive_scan_by_key (init, pred, op)");
  expect_equal(e.by_key_in_place, a.by_key_in_place, "exclusive_scan_by_key (in place)");
  expect_equal(e.selected, a.selected, "copy_if");
  expect_equal(e.removed, a.removed, "remove_if");
  expect_equal(e.sorted, a.sorted, "sort");
  expect_equal(e.sorted_greater, a.sorted_greater, "stable_sort (greater)");
  expect_equal(e.pairs_keys, a.pairs_keys, "sort_by_key (keys)");
  expect_equal(e.pairs_values, a.pairs_values, "sort_by_key (values: input order among equal keys)");
  expect_equal(e.double_pairs_key_bits, a.double_pairs_key_bits, "stable_sort_by_key of doubles, greater (key bits)");
  expect_equal(e.double_pairs_values, a.double_pairs_values, "stable_sort_by_key of doubles, greater (values)");
  expect_equal(e.sorted_u64, a.sorted_u64, "sort of 64-bit keys");
}

class nccl_test : public gpu_test {};

// Where a sort across ranks cuts each rank's sorted shard (host only): equal keys go to the lower ranks'
// first, every rank keeps its shard's size, an empty rank sends and receives nothing.
TEST(nccl_sort_cuts, EqualKeysSplitInRankOrder) {
  // Sorted shards: rank 0 {1, 2, 2}, rank 1 {}, rank 2 {2, 3}; the whole {1, 2, 2, 2, 3} cut at 3 and 3.
  // Per rank and boundary: keys below and not above the key at the boundary's position (2, both times).
  const std::vector<long long> below_and_through = {1, 3, 1, 3, /* rank 1 */ 0, 0, 0, 0, /* rank 2 */ 0, 1, 0, 1};
  const auto cut = fastscan::detail::cuts_of({3, 0, 2}, below_and_through);
  const std::vector<std::vector<long long>> expected = {{0, 3, 3, 3}, {0, 0, 0, 0}, {0, 0, 0, 2}};
  EXPECT_EQ(cut, expected);
  // Two ranks, every key equal: the lower rank's keys fill the lower rank first.
  const auto even = fastscan::detail::cuts_of({2, 4}, {0, 2, /* rank 1 */ 0, 4});
  const std::vector<std::vector<long long>> even_expected = {{0, 2, 2}, {0, 0, 4}};
  EXPECT_EQ(even, even_expected);
}

// Shards [bounds[r], bounds[r + 1]) on `ranks` GPUs, a host thread each; outputs gathered in rank order.
template <class Local>
void run_across(Local const& local, int ranks, std::vector<std::size_t> const& bounds, inputs const& in, outputs& gathered,
                std::vector<fastscan::shard_placement>& placements) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) devices[static_cast<std::size_t>(r)] = r;
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(ranks));
  setenv("NCCL_NVLS_ENABLE", "0", 0);  // NVLink multicast stays off (shared machines)
  ASSERT_EQ(ncclCommInitAll(comms.data(), ranks, devices.data()), ncclSuccess);
  std::vector<outputs> per_rank(static_cast<std::size_t>(ranks));
  placements.assign(static_cast<std::size_t>(ranks), {});
  std::vector<std::string> failures(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      const auto ru = static_cast<std::size_t>(r);
      try {
        cudaSetDevice(r);
        cudaStream_t stream;
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        const auto policy = local.on(stream).across(comms[ru]);
        run_calls(policy, policy.report_to(&placements[ru]), slice(in.values, bounds[ru], bounds[ru + 1]),
                  slice(in.keys, bounds[ru], bounds[ru + 1]), slice(in.maps, bounds[ru], bounds[ru + 1]),
                  slice(in.index, bounds[ru], bounds[ru + 1]), per_rank[ru]);
        cudaStreamDestroy(stream);
      } catch (std::exception const& e) {
        failures[ru] = e.what();
      }
    });
  }
  for (auto& t : threads) t.join();
  for (auto& c : comms) ncclCommDestroy(c);
  for (int r = 0; r < ranks; ++r) ASSERT_EQ(failures[static_cast<std::size_t>(r)], "") << "rank " << r;
  auto concat = [&](auto member) {
    for (auto const& o : per_rank) (gathered.*member).insert((gathered.*member).end(), (o.*member).begin(), (o.*member).end());
  };
  concat(&outputs::inclusive);
  concat(&outputs::inclusive_max);
  concat(&outputs::inclusive_init);
  concat(&outputs::exclusive);
  concat(&outputs::exclusive_init);
  concat(&outputs::affine_exclusive);
  concat(&outputs::affine_by_key);
  concat(&outputs::by_key_inclusive);
  concat(&outputs::by_key_exclusive);
  concat(&outputs::by_key_in_place);
  concat(&outputs::selected);
  concat(&outputs::removed);
  concat(&outputs::sorted);
  concat(&outputs::sorted_greater);
  concat(&outputs::pairs_keys);
  concat(&outputs::pairs_values);
  concat(&outputs::double_pairs_key_bits);
  concat(&outputs::double_pairs_values);
  concat(&outputs::sorted_u64);
}

// Each rank's placement: the kept elements of the ranks below it, and all kept (remove_if's, the last call).
void expect_placements(std::vector<fastscan::shard_placement> const& placements, std::vector<std::size_t> const& bounds,
                       std::vector<int> const& values) {
  long long below = 0, total = 0;
  for (int v : values) total += is_odd{}(v) ? 0 : 1;
  for (std::size_t r = 0; r < placements.size(); ++r) {
    EXPECT_EQ(placements[r].offset, below) << "rank " << r;
    EXPECT_EQ(placements[r].total, total) << "rank " << r;
    for (std::size_t i = bounds[r]; i < bounds[r + 1]; ++i) below += is_odd{}(values[i]) ? 0 : 1;
  }
}

template <class Local>
void check_one_rank(Local const& local) {
  for (std::size_t n : capped({0, 1, 2, 4095, 4096, 4097, 104729, (std::size_t{1} << 20) + 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const inputs in = make_inputs(n, n + 1);
    outputs expected, actual;
    run_calls(thrust::cuda::par, thrust::cuda::par, in.values, in.keys, in.maps, in.index, expected);
    std::vector<fastscan::shard_placement> placements;
    run_across(local, 1, {0, n}, in, actual, placements);
    expect_same_outputs(expected, actual);
    expect_placements(placements, {0, n}, in.values);
  }
}

TEST_F(nccl_test, OneRankEqualsTheWholeCall) {
  check_one_rank(fastscan::matrix);
  check_one_rank(fastscan::matrix_deterministic_nosync);
  check_one_rank(fastscan::blelloch);
}

TEST_F(nccl_test, SeveralRanksEqualTheWholeCall) {
  int devices = 0;
  ASSERT_EQ(cudaGetDeviceCount(&devices), cudaSuccess);
  if (devices < 2) GTEST_SKIP() << "needs two or more GPUs (this machine has " << devices << ")";
  for (int ranks = 2; ranks <= std::min(devices, 4); ++ranks) {
    for (std::size_t n : capped({5, 4097, 1000003, (std::size_t{1} << 22) + 7})) {
      // Uneven shards: an empty one and a one-element one among them, the rest split unevenly.
      std::vector<std::size_t> bounds = {0};
      for (int r = 0; r < ranks; ++r) {
        const std::size_t left = n - bounds.back();
        const std::size_t size = r == ranks - 1 ? left : r == 0 ? std::min<std::size_t>(1, left) : r == 1 ? 0 : left / 3;
        bounds.push_back(bounds.back() + size);
      }
      SCOPED_TRACE("ranks = " + std::to_string(ranks) + ", n = " + std::to_string(n));
      const inputs in = make_inputs(n, 17 * n + static_cast<std::size_t>(ranks));
      outputs expected, actual;
      run_calls(thrust::cuda::par, thrust::cuda::par, in.values, in.keys, in.maps, in.index, expected);
      std::vector<fastscan::shard_placement> placements;
      run_across(fastscan::matrix, ranks, bounds, in, actual, placements);
      expect_same_outputs(expected, actual);
      expect_placements(placements, bounds, in.values);
      // One long segment over every rank.
      inputs one_segment = in;
      std::fill(one_segment.keys.begin(), one_segment.keys.end(), 9);
      outputs expected_one, actual_one;
      run_calls(thrust::cuda::par, thrust::cuda::par, one_segment.values, one_segment.keys, one_segment.maps, one_segment.index,
                expected_one);
      run_across(fastscan::matrix_deterministic, ranks, bounds, one_segment, actual_one, placements);
      expect_same_outputs(expected_one, actual_one);
    }
  }
}

}  // namespace
}  // namespace fastscan_test
