// Host-only checks that need no GPU: every overridden Thrust scan, compaction and sort call, in every arity and policy
// spelling, reaches fastscan; algorithms fastscan does not override (thrust::reduce) do not; and the
// policies carry their stream and synchronisation behaviour as thrust::cuda::par does; and host-side
// choices of the kernels (which memory the staged scans take, which passes a radix sort leaves out).
// Empty ranges keep the calls off the device: a nosync policy then makes no CUDA call at all.

#include "common/policies.cuh"

#include <fastscan/detail/agent/agent_radix_sort_histogram.cuh>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/copy.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <thrust/transform_scan.h>

#include <string>
#include <type_traits>

namespace fastscan_test {
namespace {

using fastscan::detail::calls_dispatched;

template <class Policy>
constexpr bool is_fastscan_policy = std::is_base_of_v<
    fastscan::detail::execution_policy<Policy, typename Policy::algorithm>, Policy>&&
    std::is_base_of_v<thrust::cuda_cub::execution_policy<Policy>, Policy>;

using blocking_t = decltype(fastscan::matrix);
using alloc_t = decltype(fastscan::matrix(std::declval<counting_allocator&>()));
static_assert(is_fastscan_policy<std::remove_const_t<blocking_t>>);
static_assert(is_fastscan_policy<decltype(fastscan::matrix.on(cudaStream_t{}))>);
static_assert(is_fastscan_policy<alloc_t>);
static_assert(is_fastscan_policy<decltype(std::declval<alloc_t>().on(cudaStream_t{}))>);
static_assert(is_fastscan_policy<std::remove_const_t<decltype(fastscan::blelloch_nosync)>>);
static_assert(is_fastscan_policy<decltype(fastscan::hillis_steele_nosync.on(cudaStream_t{}))>);

struct nonzero {
  __host__ __device__ bool operator()(int x) const { return x != 0; }
};

// Calls every overridden arity on an empty range and returns how many reached fastscan.
template <class Policy>
unsigned long long scans_reaching_fastscan(Policy policy) {
  thrust::device_ptr<int> p(static_cast<int*>(nullptr));
  const auto before = calls_dispatched();
  auto attempt = [](auto&& call) {
    try {
      call();
    } catch (thrust::system_error const&) {
      // Without a GPU a blocking policy's final stream synchronisation fails; the dispatch counted.
    }
  };
  attempt([&] { thrust::inclusive_scan(policy, p, p, p); });
  attempt([&] { thrust::inclusive_scan(policy, p, p, p, thrust::maximum<int>{}); });
  attempt([&] { thrust::inclusive_scan(policy, p, p, p, 1, thrust::maximum<int>{}); });
  attempt([&] { thrust::exclusive_scan(policy, p, p, p); });
  attempt([&] { thrust::exclusive_scan(policy, p, p, p, 1); });
  attempt([&] { thrust::exclusive_scan(policy, p, p, p, 1, thrust::maximum<int>{}); });
  attempt([&] { thrust::transform_inclusive_scan(policy, p, p, p, thrust::negate<int>{}, thrust::plus<int>{}); });
  attempt([&] { thrust::transform_inclusive_scan(policy, p, p, p, thrust::negate<int>{}, 1, thrust::plus<int>{}); });
  attempt([&] { thrust::transform_exclusive_scan(policy, p, p, p, thrust::negate<int>{}, 1, thrust::plus<int>{}); });
  attempt([&] { thrust::inclusive_scan_by_key(policy, p, p, p, p); });
  attempt([&] { thrust::inclusive_scan_by_key(policy, p, p, p, p, thrust::equal_to<int>{}); });
  attempt([&] { thrust::inclusive_scan_by_key(policy, p, p, p, p, thrust::equal_to<int>{}, thrust::maximum<int>{}); });
  attempt([&] { thrust::exclusive_scan_by_key(policy, p, p, p, p); });
  attempt([&] { thrust::exclusive_scan_by_key(policy, p, p, p, p, 1); });
  attempt([&] { thrust::exclusive_scan_by_key(policy, p, p, p, p, 1, thrust::equal_to<int>{}); });
  attempt([&] {
    thrust::exclusive_scan_by_key(policy, p, p, p, p, 1, thrust::equal_to<int>{}, thrust::maximum<int>{});
  });
  // Backward (reverse iterators over contiguous memory) reaches the same overloads.
  thrust::reverse_iterator<thrust::device_ptr<int>> r(p);
  attempt([&] { thrust::exclusive_scan(policy, r, r, r); });
  attempt([&] { thrust::inclusive_scan_by_key(policy, r, r, r, r); });
  // Stream compaction.
  attempt([&] { thrust::copy_if(policy, p, p, p, nonzero{}); });
  attempt([&] { thrust::copy_if(policy, p, p, p, p, nonzero{}); });
  attempt([&] { thrust::remove_copy_if(policy, p, p, p, nonzero{}); });
  attempt([&] { thrust::remove_copy_if(policy, p, p, p, p, nonzero{}); });
  attempt([&] { thrust::remove_copy(policy, p, p, p, 0); });
  attempt([&] { thrust::remove_if(policy, p, p, nonzero{}); });
  attempt([&] { thrust::remove_if(policy, p, p, p, nonzero{}); });
  attempt([&] { thrust::remove(policy, p, p, 0); });
  attempt([&] { thrust::partition_copy(policy, p, p, p, p, nonzero{}); });
  attempt([&] { thrust::partition_copy(policy, p, p, p, p, p, nonzero{}); });
  attempt([&] { thrust::stable_partition_copy(policy, p, p, p, p, nonzero{}); });
  attempt([&] { thrust::stable_partition_copy(policy, p, p, p, p, p, nonzero{}); });
  attempt([&] { thrust::partition(policy, p, p, nonzero{}); });
  attempt([&] { thrust::partition(policy, p, p, p, nonzero{}); });
  attempt([&] { thrust::stable_partition(policy, p, p, nonzero{}); });
  attempt([&] { thrust::stable_partition(policy, p, p, p, nonzero{}); });
  attempt([&] { thrust::unique_copy(policy, p, p, p); });
  attempt([&] { thrust::unique_copy(policy, p, p, p, thrust::equal_to<int>{}); });
  attempt([&] { thrust::unique(policy, p, p); });
  attempt([&] { thrust::unique(policy, p, p, thrust::equal_to<int>{}); });
  // Radix sorts.
  attempt([&] { thrust::sort(policy, p, p); });
  attempt([&] { thrust::sort(policy, p, p, thrust::less<int>{}); });
  attempt([&] { thrust::sort(policy, p, p, thrust::greater<int>{}); });
  attempt([&] { thrust::stable_sort(policy, p, p); });
  attempt([&] { thrust::stable_sort(policy, p, p, thrust::greater<>{}); });
  attempt([&] { thrust::sort_by_key(policy, p, p, p); });
  attempt([&] { thrust::sort_by_key(policy, p, p, p, thrust::greater<int>{}); });
  attempt([&] { thrust::stable_sort_by_key(policy, p, p, p); });
  attempt([&] { thrust::stable_sort_by_key(policy, p, p, p, ::cuda::std::less<int>{}); });
  return calls_dispatched() - before;
}

constexpr unsigned long long overridden_calls = 47;

template <class Under>
void check_every_spelling() {
  cudaStream_t stream = cudaStreamPerThread;  // valid with or without a GPU; only synchronised
  counting_allocator allocator;
  EXPECT_EQ(scans_reaching_fastscan(Under::blocking), overridden_calls);
  EXPECT_EQ(scans_reaching_fastscan(Under::blocking.on(stream)), overridden_calls);
  EXPECT_EQ(scans_reaching_fastscan(Under::blocking(allocator)), overridden_calls);
  EXPECT_EQ(scans_reaching_fastscan(Under::blocking(allocator).on(stream)), overridden_calls);
  EXPECT_EQ(scans_reaching_fastscan(Under::nosync), overridden_calls);
  EXPECT_EQ(scans_reaching_fastscan(Under::nosync.on(stream)), overridden_calls);
  EXPECT_EQ(scans_reaching_fastscan(Under::nosync(allocator).on(stream)), overridden_calls);
}

template <class Under>
class every_spelling : public ::testing::Test {};
TYPED_TEST_SUITE(every_spelling, single_pass_algorithms, algorithm_names);
TYPED_TEST(every_spelling, CallsReachFastscan) { check_every_spelling<TypeParam>(); }

TEST(Dispatch, NosyncEmptyScanMakesNoCudaCall) {
  thrust::device_ptr<int> p(static_cast<int*>(nullptr));
  EXPECT_NO_THROW(thrust::inclusive_scan(fastscan::matrix_nosync, p, p, p));
  EXPECT_EQ(thrust::exclusive_scan(fastscan::blelloch_nosync.on(cudaStream_t{}), p, p, p), p);
}

TEST(Dispatch, ThrustScanWithCudaParDoesNotReachFastscan) {
  EXPECT_EQ(scans_reaching_fastscan(thrust::cuda::par_nosync), 0u);
}

TEST(Dispatch, ReduceStaysOnThrustBackend) {
  thrust::device_ptr<int> p(static_cast<int*>(nullptr));
  const auto before = calls_dispatched();
  try {
    (void)thrust::reduce(fastscan::matrix, p, p);
  } catch (thrust::system_error const&) {
    // Thrust's backend may need the device even for an empty range; what matters is who ran it.
  }
  EXPECT_EQ(calls_dispatched(), before);
}

TEST(Dispatch, PoliciesCarryStreamAndSynchronisation) {
  cudaStream_t stream = reinterpret_cast<cudaStream_t>(0x1234);
  counting_allocator allocator;
  auto on = fastscan::matrix.on(stream);
  auto alloc_on = fastscan::blelloch(allocator).on(stream);
  auto nosync_on = fastscan::hillis_steele_nosync.on(stream);
  auto plain = fastscan::matrix;
  auto nosync = fastscan::matrix_nosync;
  EXPECT_EQ(thrust::cuda_cub::stream(on), stream);
  EXPECT_EQ(thrust::cuda_cub::stream(alloc_on), stream);
  EXPECT_EQ(thrust::cuda_cub::stream(nosync_on), stream);
  EXPECT_EQ(thrust::cuda_cub::stream(plain), thrust::cuda_cub::default_stream());
  EXPECT_TRUE(thrust::cuda_cub::must_perform_optional_synchronization(plain));
  EXPECT_TRUE(thrust::cuda_cub::must_perform_optional_synchronization(on));
  EXPECT_TRUE(thrust::cuda_cub::must_perform_optional_synchronization(alloc_on));
  EXPECT_FALSE(thrust::cuda_cub::must_perform_optional_synchronization(nosync));
  EXPECT_FALSE(thrust::cuda_cub::must_perform_optional_synchronization(nosync_on));
}

// Error messages name the policy as it was spelled (a reversed range fails before any CUDA call).
template <class Policy>
std::string negative_range_message(Policy policy) {
  thrust::device_ptr<int> p(reinterpret_cast<int*>(0x1000));
  try {
    thrust::inclusive_scan(policy, p + 8, p, p);
  } catch (thrust::system_error const& error) {
    return error.what();
  }
  return "no error";
}

TEST(Dispatch, MessagesSpellThePolicy) {
  cudaStream_t stream = reinterpret_cast<cudaStream_t>(0x1234);
  counting_allocator allocator;
  const auto starts_with = [](std::string const& message, std::string const& prefix) {
    return message.rfind(prefix, 0) == 0;
  };
  const std::string suffix = " inclusive_scan: last precedes first";
  EXPECT_TRUE(starts_with(negative_range_message(fastscan::matrix), "fastscan::matrix" + suffix));
  EXPECT_TRUE(starts_with(negative_range_message(fastscan::matrix_nosync.on(stream)), "fastscan::matrix_nosync.on(stream)" + suffix));
  EXPECT_TRUE(starts_with(negative_range_message(fastscan::blelloch(allocator).on(stream)),
                          "fastscan::blelloch(allocator).on(stream)" + suffix));
  EXPECT_TRUE(starts_with(negative_range_message(fastscan::hillis_steele_deterministic_nosync(allocator)),
                          "fastscan::hillis_steele_deterministic_nosync(allocator)" + suffix));
  EXPECT_TRUE(starts_with(negative_range_message(fastscan::matrix_deterministic), "fastscan::matrix_deterministic" + suffix));
}

// Which single-pass calls of 2^25 elements and more take the staged 4-byte tiles (dispatch_single_pass.cuh):
// 4-byte accumulators only, input and output contiguous memory of the accumulator, both aligned to 16
// bytes; every other call keeps the tuning it had (and does not even instantiate the staged kernel).
TEST(Dispatch, LargeFourByteScansStageOnlyAlignedContiguousMemory) {
  namespace fd = fastscan::detail;
  using matrix = fastscan::matrix_algorithm;
  using staged_int = matrix::large_tuning<int>;
  using large_double = matrix::large_tuning<double>;
  static_assert(matrix::has_large_tuning<int> && matrix::has_large_tuning<float> && matrix::has_large_tuning<double>);
  static_assert(!matrix::has_large_tuning<std::int16_t> && !matrix::has_large_tuning<affine3>);
  static_assert(staged_int::staged && staged_int::min_blocks_per_sm == 11 && staged_int::tile_items == 128 * 32);
  static_assert(!large_double::staged && large_double::tile_items == 224 * 24);
  static_assert(!matrix::tuning<int>::staged && !matrix::by_key_tuning<int>::staged);
  static_assert(fastscan::matrix_deterministic_algorithm::large_tuning<int>::staged);
  static_assert(!fastscan::blelloch_algorithm::has_large_tuning<int>);
  // Which iterators may take it at all (compile time).
  static_assert(fd::tuning_may_take<staged_int, int, int*, int*>());
  static_assert(fd::tuning_may_take<staged_int, int, const int*, int*>());
  static_assert(fd::tuning_may_take<staged_int, int, thrust::device_ptr<int>, thrust::device_ptr<int>>());
  static_assert(!fd::tuning_may_take<staged_int, int, fd::backward_pointer<int>, fd::backward_pointer<int>>());
  static_assert(!fd::tuning_may_take<staged_int, int, thrust::counting_iterator<int>, int*>());
  static_assert(!fd::tuning_may_take<staged_int, long long, int*, long long*>());
  static_assert(fd::tuning_may_take<large_double, double, fd::backward_pointer<double>, double*>());
  // Which calls take it (alignment, at run time; only addresses are compared, nothing is read).
  alignas(16) static int storage[16];
  EXPECT_TRUE((fd::tuning_takes<staged_int, int>(storage, storage)));
  EXPECT_TRUE((fd::tuning_takes<staged_int, int>(storage + 4, storage + 8)));
  EXPECT_FALSE((fd::tuning_takes<staged_int, int>(storage + 1, storage)));
  EXPECT_FALSE((fd::tuning_takes<staged_int, int>(storage, storage + 3)));
  EXPECT_TRUE((fd::tuning_takes<large_double, double>(reinterpret_cast<double*>(storage) + 1,
                                                     reinterpret_cast<double*>(storage))));
}

// Which passes a radix sort leaves out (agent_radix_sort_histogram.cuh), from those in which every key
// has one digit: of a run of such consecutive passes an even number, of an odd number all but the first
// (which moves the keys to the buffer the run must end in). Named cases, then every mask of 1 to 8 passes.
TEST(Dispatch, RadixSortLeavesOutRunsOfOneDigitPasses) {
  using fastscan::detail::radix_left_out_passes;
  EXPECT_EQ(radix_left_out_passes(0b0000, 4), 0b0000u);
  EXPECT_EQ(radix_left_out_passes(0b1111, 4), 0b1111u);  // all keys equal
  EXPECT_EQ(radix_left_out_passes(0b1110, 4), 0b1100u);  // keys below 2^8
  EXPECT_EQ(radix_left_out_passes(0b1100, 4), 0b1100u);  // keys below 2^16
  EXPECT_EQ(radix_left_out_passes(0b1000, 4), 0b0000u);  // keys below 2^24
  EXPECT_EQ(radix_left_out_passes(0b0011, 4), 0b0011u);  // multiples of 2^16: the first launch too
  EXPECT_EQ(radix_left_out_passes(0b1011, 4), 0b0011u);  // two runs
  EXPECT_EQ(radix_left_out_passes(0xF0, 8), 0xF0u);      // 64-bit keys below 2^32
  EXPECT_EQ(radix_left_out_passes(0xE0, 8), 0xC0u);      // below 2^40
  EXPECT_EQ(radix_left_out_passes(0b1, 1), 0b0u);        // 8-bit keys with values: the one pass runs
  for (int passes = 1; passes <= 8; ++passes) {
    for (unsigned long long one_digit = 0; one_digit < (1ull << passes); ++one_digit) {
      const unsigned long long left_out = radix_left_out_passes(one_digit, passes);
      SCOPED_TRACE("passes " + std::to_string(passes) + ", one digit " + std::to_string(one_digit));
      EXPECT_EQ(left_out & ~one_digit, 0u);  // only passes that leave the order as it is
      int ran_in_run = 0, run = 0;
      for (int p = 0; p <= passes; ++p) {
        const bool in_run = p < passes && ((one_digit >> p) & 1u) != 0;
        if (in_run) {
          ++run;
          if (((left_out >> p) & 1u) == 0) {
            ++ran_in_run;
            EXPECT_EQ(run, 1) << "only a run's first pass runs (pass " << p << ")";
          }
        } else {
          EXPECT_EQ(ran_in_run, run % 2) << "an odd run moves the keys once (run ending before pass " << p << ")";
          ran_in_run = 0;
          run = 0;
        }
      }
    }
  }
}

}  // namespace
}  // namespace fastscan_test
