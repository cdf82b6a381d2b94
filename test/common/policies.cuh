#pragma once
// The block algorithms as test parameters, and every way a user can spell a policy.

#include "block_algorithms.cuh"
#include "common/test_utils.cuh"

#include <thrust/device_allocator.h>

#include <atomic>
#include <string>
#include <tuple>

namespace fastscan_test {

// One block algorithm under test, in one flavour: its algorithm type and its blocking and nosync
// policies (the types of fastscan::matrix, fastscan::matrix_nosync, ...).
template <class Algorithm>
struct algorithm_under_test {
  using algorithm = Algorithm;
  static constexpr fastscan::detail::blocking_policy<Algorithm> blocking{};
  static constexpr fastscan::detail::nosync_policy<Algorithm> nosync{};
  template <class T>
  static constexpr std::size_t tile = Algorithm::template tuning<T>::tile_items;
  template <class T>
  static constexpr std::size_t by_key_tile = Algorithm::template by_key_tuning<T>::tile_items;
  template <class T>
  static constexpr std::size_t select_tile = fastscan::detail::select_tuning<Algorithm, T>::tile_items;
  // "matrix", "blelloch_deterministic", ...: the policy's name without the namespace.
  static std::string name() { return std::string(Algorithm::name).substr(std::string("fastscan::").size()); }
};

// A block algorithm's three drivers, as test/CMakeLists.txt's block_algorithms lists them.
template <class SinglePass, class Deterministic, class MultiPass>
struct block_algorithm {
  using single_pass = algorithm_under_test<SinglePass>;
  using deterministic = algorithm_under_test<Deterministic>;
  using multi_pass = algorithm_under_test<MultiPass>;
};

// Every block algorithm, from the one list in test/CMakeLists.txt (block_algorithms.cuh is generated
// from it): the suites' type lists below, and one program per algorithm and flavour for the scan suites.
using block_algorithms = std::tuple<FASTSCAN_TEST_BLOCK_ALGORITHMS>;

template <class Tuple>
struct type_lists;
template <class... Algorithms>
struct type_lists<std::tuple<Algorithms...>> {
  using single_pass = ::testing::Types<typename Algorithms::single_pass...>;
  using deterministic = ::testing::Types<typename Algorithms::deterministic...>;
  // Every driver that promises the same bits on every run.
  using reproducible = ::testing::Types<typename Algorithms::deterministic..., typename Algorithms::multi_pass...>;
  // Every policy family: each algorithm's single pass, and the deterministic single pass through the
  // first algorithm's.
  using families = ::testing::Types<typename Algorithms::single_pass...,
                                    typename std::tuple_element_t<0, std::tuple<Algorithms...>>::deterministic>;
};
using single_pass_algorithms = type_lists<block_algorithms>::single_pass;
using deterministic_algorithms = type_lists<block_algorithms>::deterministic;
using reproducible_algorithms = type_lists<block_algorithms>::reproducible;
#ifdef FASTSCAN_TEST_FIRST_FAMILY_ONLY
// The compile against a newer CCCL (test/CMakeLists.txt): what CCCL can break is the same in every family.
using policy_families = ::testing::Types<typename std::tuple_element_t<0, block_algorithms>::single_pass>;
#else
using policy_families = type_lists<block_algorithms>::families;
#endif

// Names for the tests that single one algorithm out.
using matrix_under_test = algorithm_under_test<fastscan::matrix_algorithm>;
using blelloch_under_test = algorithm_under_test<fastscan::blelloch_algorithm>;
using hillis_steele_under_test = algorithm_under_test<fastscan::hillis_steele_algorithm>;
using matrix_deterministic_under_test = algorithm_under_test<fastscan::matrix_deterministic_algorithm>;

// Names tests after the algorithm rather than its long type.
struct algorithm_names {
  template <class Under>
  static std::string GetName(int) {
    return Under::name();
  }
};

// A device allocator that counts what passes through it, to prove `policy(alloc)` uses it.
struct counting_allocator : thrust::device_allocator<char> {
  using base = thrust::device_allocator<char>;
  static inline std::atomic<long> allocations{0};
  static inline std::atomic<long> live{0};

  pointer allocate(size_type n) {
    ++allocations;
    ++live;
    return base::allocate(n);
  }
  void deallocate(pointer p, size_type n) {
    --live;
    base::deallocate(p, n);
  }
};

// The six spellings of a policy: plain, .on(stream), (alloc), (alloc).on(stream), nosync,
// nosync.on(stream). `flavour` picks one, so a size sweep covers all of them in turn.
// The call is followed by a device-wide synchronisation so nosync results can be read.
template <class Under, class Call>
void with_policy_flavour(int flavour, cudaStream_t stream, Call&& call) {
  counting_allocator allocator;
  switch (flavour % 6) {
    case 0: call(Under::blocking); break;
    case 1: call(Under::blocking.on(stream)); break;
    case 2: call(Under::blocking(allocator)); break;
    case 3: call(Under::blocking(allocator).on(stream)); break;
    case 4: call(Under::nosync); break;
    default: call(Under::nosync.on(stream)); break;
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

// A stream for the duration of one test.
class scoped_stream {
 public:
  scoped_stream() { EXPECT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess); }
  ~scoped_stream() { cudaStreamDestroy(stream_); }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_{};
};

}  // namespace fastscan_test
