// The memory-pool controls of <fastscan/memory.cuh>: the release threshold reaches the pool, follows the
// largest allocation unless fixed, releasing hands cached memory back, and the device's own pool serves
// the calls when asked to.

#include "common/policies.cuh"

#include <fastscan/memory.cuh>

#include <thrust/sort.h>

#include <algorithm>

namespace fastscan_test {
namespace {

std::uint64_t pool_attribute(cudaMemPool_t pool, cudaMemPoolAttr attribute) {
  std::uint64_t value = 0;
  EXPECT_EQ(cudaMemPoolGetAttribute(pool, attribute, &value), cudaSuccess);
  return value;
}

// Something that takes a lot of temporary storage through a fastscan policy: Thrust's own sort.
void sort_through_fastscan(std::size_t n) {
  auto keys = to_device(random_vector<std::uint32_t>(n, 42));
  thrust::sort(fastscan::matrix, keys.begin(), keys.end());
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

class memory_test : public gpu_test {
 protected:
  void TearDown() override {
    fastscan::use_device_pool(false);
    fastscan::reset_pool_release_threshold();
  }
};

constexpr std::uint64_t mib = std::uint64_t{1} << 20;

// A sort of 2^27 uint32 keys takes a 512 MiB second buffer and more: above the default 256 MiB.
TEST_F(memory_test, LargestAllocationStaysReservedUnlessFixed) {
  ASSERT_EQ(fastscan::reset_pool_release_threshold(), cudaSuccess);
  cudaMemPool_t pool{};
  ASSERT_EQ(fastscan::current_pool(&pool), cudaSuccess);
  EXPECT_EQ(pool_attribute(pool, cudaMemPoolAttrReleaseThreshold), 256 * mib);
  sort_through_fastscan(std::size_t{1} << 27);  // ends with a synchronisation: the pool trims there
  EXPECT_GT(pool_attribute(pool, cudaMemPoolAttrReleaseThreshold), 512 * mib);
  EXPECT_GT(pool_attribute(pool, cudaMemPoolAttrReservedMemCurrent), 512 * mib);

  // A fixed threshold holds against larger allocations, and the pool trims down to it.
  ASSERT_EQ(fastscan::set_pool_release_threshold(64 * mib), cudaSuccess);
  sort_through_fastscan(std::size_t{1} << 27);
  EXPECT_EQ(pool_attribute(pool, cudaMemPoolAttrReleaseThreshold), 64 * mib);
  EXPECT_LE(pool_attribute(pool, cudaMemPoolAttrReservedMemCurrent),
            std::max(64 * mib, pool_attribute(pool, cudaMemPoolAttrUsedMemCurrent)) + 32 * mib);

  ASSERT_EQ(fastscan::reset_pool_release_threshold(), cudaSuccess);
  EXPECT_EQ(pool_attribute(pool, cudaMemPoolAttrReleaseThreshold), 256 * mib);
}

TEST_F(memory_test, ReleaseThresholdReachesThePool) {
  ASSERT_EQ(fastscan::set_pool_release_threshold(std::uint64_t{48} << 20), cudaSuccess);
  cudaMemPool_t pool{};
  ASSERT_EQ(fastscan::current_pool(&pool), cudaSuccess);
  EXPECT_EQ(pool_attribute(pool, cudaMemPoolAttrReleaseThreshold), std::uint64_t{48} << 20);
}

TEST_F(memory_test, ReleaseHandsCachedMemoryBack) {
  ASSERT_EQ(fastscan::set_pool_release_threshold(std::uint64_t{1} << 30), cudaSuccess);
  sort_through_fastscan(std::size_t{1} << 24);  // tens of MiB of temporary storage, freed, kept cached
  cudaMemPool_t pool{};
  ASSERT_EQ(fastscan::current_pool(&pool), cudaSuccess);
  const auto reserved = pool_attribute(pool, cudaMemPoolAttrReservedMemCurrent);
  const auto used = pool_attribute(pool, cudaMemPoolAttrUsedMemCurrent);
  EXPECT_GT(reserved, used + (std::uint64_t{16} << 20));
  ASSERT_EQ(fastscan::release_pool_memory(), cudaSuccess);
  EXPECT_LT(pool_attribute(pool, cudaMemPoolAttrReservedMemCurrent), reserved);
  EXPECT_GE(pool_attribute(pool, cudaMemPoolAttrReservedMemCurrent), pool_attribute(pool, cudaMemPoolAttrUsedMemCurrent));
}

TEST_F(memory_test, DevicePoolServesWhenAsked) {
  int device = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  cudaMemPool_t device_pool{};
  ASSERT_EQ(cudaDeviceGetMemPool(&device_pool, device), cudaSuccess);
  std::uint64_t zero = 0;
  ASSERT_EQ(cudaMemPoolSetAttribute(device_pool, cudaMemPoolAttrUsedMemHigh, &zero), cudaSuccess);
  ASSERT_EQ(fastscan::use_device_pool(true), cudaSuccess);
  cudaMemPool_t pool{};
  ASSERT_EQ(fastscan::current_pool(&pool), cudaSuccess);
  EXPECT_EQ(pool, device_pool);
  sort_through_fastscan(std::size_t{1} << 22);
  EXPECT_GT(pool_attribute(device_pool, cudaMemPoolAttrUsedMemHigh), std::uint64_t{1} << 20);
  // And scans still work from it.
  const auto input = random_vector<int>(100003, 43);
  auto d_in = to_device(input);
  auto d_out = poisoned_device_vector<int>(input.size());
  thrust::inclusive_scan(fastscan::matrix_multi_pass, d_in.begin(), d_in.end(), d_out.begin());  // takes storage
  ASSERT_TRUE(all_equal(reference_inclusive<int, int>(input, thrust::plus<>{}), to_host(d_out)));
  ASSERT_EQ(fastscan::use_device_pool(false), cudaSuccess);
  ASSERT_EQ(fastscan::current_pool(&pool), cudaSuccess);
  EXPECT_NE(pool, device_pool);
}

}  // namespace
}  // namespace fastscan_test
