// fastscan::device_scan, the CUB-shaped entry point: every function against cub::DeviceScan's
// counterpart on the same input, exactly, at every size edge; CUB's two-phase contract (a null pointer
// only sizes the storage, never zero bytes; too little storage is an error, not a write); and the
// other algorithms through the same entry.

#include "common/policies.cuh"

#include <fastscan/device_scan.cuh>

#include <cub/device/device_scan.cuh>

#include <cuda/std/functional>

#include <functional>

namespace fastscan_test {
namespace {

using matrix_scan = fastscan::device_scan<fastscan::matrix_algorithm>;

// Runs a CUB-shaped call twice (size query, then with storage) and returns its status.
template <class Call>
cudaError_t two_phase(Call&& call) {
  std::size_t bytes = 0;
  cudaError_t status = call(nullptr, bytes);
  if (status != cudaSuccess) return status;
  if (bytes == 0) return cudaErrorUnknown;  // CUB's contract: the second call's pointer must not be null
  thrust::device_vector<unsigned char> storage(bytes);
  status = call(thrust::raw_pointer_cast(storage.data()), bytes);
  if (status != cudaSuccess) return status;
  return cudaDeviceSynchronize();
}

struct maximum_op {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// Keys in runs of 1..40, so that segments cross tiles and some tiles hold no head.
std::vector<int> run_keys(std::size_t n, std::uint64_t seed) {
  std::vector<int> keys(n);
  int key = 0;
  for (std::size_t i = 0; i < n;) {
    const std::size_t run = 1 + splitmix64(seed + i) % 40;
    for (std::size_t j = 0; j < run && i < n; ++j, ++i) keys[i] = key;
    ++key;
  }
  return keys;
}

class device_scan_test : public gpu_test {};

TEST_F(device_scan_test, MatrixMatchesCubExactly) {
  for (std::size_t n : edge_sizes(matrix_under_test::tile<int>)) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto input = random_vector<int>(n, 500 + n);
    auto d_in = to_device(input);
    auto d_keys = to_device(run_keys(n, 600 + n));
    const int* in = thrust::raw_pointer_cast(d_in.data());
    const int* keys = thrust::raw_pointer_cast(d_keys.data());
    const auto items = static_cast<long long>(n);
    auto ours = poisoned_device_vector<int>(n);
    auto theirs = poisoned_device_vector<int>(n);
    int* o = thrust::raw_pointer_cast(ours.data());
    int* t = thrust::raw_pointer_cast(theirs.data());
    const auto compare = [&](const char* what, auto&& fastscan_call, auto&& cub_call) {
      SCOPED_TRACE(what);
      ASSERT_EQ(cudaMemset(o, 0xA5, n * sizeof(int)), cudaSuccess);
      ASSERT_EQ(cudaMemset(t, 0x5A, n * sizeof(int)), cudaSuccess);
      ASSERT_EQ(two_phase(fastscan_call), cudaSuccess);
      ASSERT_EQ(two_phase(cub_call), cudaSuccess);
      ASSERT_TRUE(all_equal(to_host(theirs), to_host(ours)));
    };
    compare("exclusive_sum",
            [&](void* s, std::size_t& b) { return matrix_scan::exclusive_sum(s, b, in, o, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(s, b, in, t, items); });
    compare("exclusive_scan",
            [&](void* s, std::size_t& b) { return matrix_scan::exclusive_scan(s, b, in, o, maximum_op{}, -7, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::ExclusiveScan(s, b, in, t, maximum_op{}, -7, items); });
    compare("inclusive_sum",
            [&](void* s, std::size_t& b) { return matrix_scan::inclusive_sum(s, b, in, o, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::InclusiveSum(s, b, in, t, items); });
    compare("inclusive_scan",
            [&](void* s, std::size_t& b) { return matrix_scan::inclusive_scan(s, b, in, o, maximum_op{}, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::InclusiveScan(s, b, in, t, maximum_op{}, items); });
    compare("inclusive_scan_init",
            [&](void* s, std::size_t& b) { return matrix_scan::inclusive_scan_init(s, b, in, o, cuda::std::plus<>{}, 11, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::InclusiveScanInit(s, b, in, t, cuda::std::plus<>{}, 11, items); });
    compare("exclusive_sum_by_key",
            [&](void* s, std::size_t& b) { return matrix_scan::exclusive_sum_by_key(s, b, keys, in, o, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::ExclusiveSumByKey(s, b, keys, in, t, items); });
    compare("exclusive_scan_by_key",
            [&](void* s, std::size_t& b) {
              return matrix_scan::exclusive_scan_by_key(s, b, keys, in, o, cuda::std::plus<>{}, 3, items);
            },
            [&](void* s, std::size_t& b) {
              return cub::DeviceScan::ExclusiveScanByKey(s, b, keys, in, t, cuda::std::plus<>{}, 3, items);
            });
    compare("inclusive_sum_by_key",
            [&](void* s, std::size_t& b) { return matrix_scan::inclusive_sum_by_key(s, b, keys, in, o, items); },
            [&](void* s, std::size_t& b) { return cub::DeviceScan::InclusiveSumByKey(s, b, keys, in, t, items); });
    compare("inclusive_scan_by_key",
            [&](void* s, std::size_t& b) {
              return matrix_scan::inclusive_scan_by_key(s, b, keys, in, o, maximum_op{}, items);
            },
            [&](void* s, std::size_t& b) {
              return cub::DeviceScan::InclusiveScanByKey(s, b, keys, in, t, maximum_op{}, items);
            });
  }
}

// The other algorithms (and the deterministic driver, which does need temporary storage) through the
// same entry.
template <class Algorithm>
void check_sums_against_cub(std::size_t tile) {
  using scan = fastscan::device_scan<Algorithm>;
  for (std::size_t n : capped({1, tile - 1, tile + 1, 33 * tile + 5, 1000003})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto d_in = to_device(random_vector<int>(n, 700 + n));
    auto d_keys = to_device(run_keys(n, 800 + n));
    const int* in = thrust::raw_pointer_cast(d_in.data());
    const int* keys = thrust::raw_pointer_cast(d_keys.data());
    auto ours = poisoned_device_vector<int>(n);
    auto theirs = poisoned_device_vector<int>(n);
    int* o = thrust::raw_pointer_cast(ours.data());
    int* t = thrust::raw_pointer_cast(theirs.data());
    ASSERT_EQ(two_phase([&](void* s, std::size_t& b) { return scan::exclusive_sum(s, b, in, o, n); }), cudaSuccess);
    ASSERT_EQ(two_phase([&](void* s, std::size_t& b) { return cub::DeviceScan::ExclusiveSum(s, b, in, t, n); }), cudaSuccess);
    ASSERT_TRUE(all_equal(to_host(theirs), to_host(ours)));
    ASSERT_EQ(two_phase([&](void* s, std::size_t& b) { return scan::inclusive_sum_by_key(s, b, keys, in, o, n); }),
              cudaSuccess);
    ASSERT_EQ(two_phase([&](void* s, std::size_t& b) { return cub::DeviceScan::InclusiveSumByKey(s, b, keys, in, t, n); }),
              cudaSuccess);
    ASSERT_TRUE(all_equal(to_host(theirs), to_host(ours)));
  }
}

TEST_F(device_scan_test, OtherAlgorithmsMatchCub) {
  check_sums_against_cub<fastscan::blelloch_algorithm>(blelloch_under_test::tile<int>);
  check_sums_against_cub<fastscan::hillis_steele_algorithm>(hillis_steele_under_test::tile<int>);
  check_sums_against_cub<fastscan::matrix_deterministic_algorithm>(matrix_deterministic_under_test::tile<int>);
  check_sums_against_cub<fastscan::matrix_multi_pass_algorithm>(matrix_deterministic_under_test::tile<int>);
}

TEST_F(device_scan_test, TwoPhaseContract) {
  const std::size_t n = 1 << 20;
  auto d_in = to_device(random_vector<int>(n, 900));
  auto out = poisoned_device_vector<int>(n);
  const auto before = to_host(out);
  const int* in = thrust::raw_pointer_cast(d_in.data());
  int* o = thrust::raw_pointer_cast(out.data());
  using deterministic = fastscan::device_scan<fastscan::matrix_multi_pass_algorithm>;
  std::size_t bytes = 0;
  ASSERT_EQ(deterministic::exclusive_sum(nullptr, bytes, in, o, n), cudaSuccess);
  EXPECT_GT(bytes, 1u);  // the reduce-then-scan driver keeps tile totals in it
  std::size_t single_pass_bytes = 0;
  ASSERT_EQ(matrix_scan::exclusive_sum(nullptr, single_pass_bytes, in, o, n), cudaSuccess);
  EXPECT_GE(single_pass_bytes, 1u);  // never zero, so the second call's pointer is not null
  // Too little storage: an error, and nothing written.
  thrust::device_vector<unsigned char> storage(bytes);
  std::size_t short_bytes = bytes - 1;
  EXPECT_EQ(deterministic::exclusive_sum(thrust::raw_pointer_cast(storage.data()), short_bytes, in, o, n),
            cudaErrorInvalidValue);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_TRUE(all_equal(before, to_host(out)));
  // Zero items: success, nothing written.
  EXPECT_EQ(deterministic::exclusive_sum(thrust::raw_pointer_cast(storage.data()), bytes, in, o, 0), cudaSuccess);
  EXPECT_TRUE(all_equal(before, to_host(out)));
}

}  // namespace
}  // namespace fastscan_test
