#pragma once
// The three algorithms as test parameters, and every way a user can spell a policy.

#include "common/test_utils.cuh"

#include <thrust/device_allocator.h>

#include <atomic>

namespace fastscan_test {

template <class Algorithm, auto const& Blocking, auto const& Nosync>
struct algorithm_under_test {
  static constexpr auto const& blocking = Blocking;
  static constexpr auto const& nosync = Nosync;
  using algorithm = Algorithm;
  template <class T>
  static constexpr std::size_t tile = Algorithm::template tuning<T>::tile_items;
  template <class T>
  static constexpr std::size_t select_tile = fastscan::detail::select_tuning<Algorithm, T>::tile_items;
};

using matrix_under_test = algorithm_under_test<fastscan::detail::matrix_single_pass, fastscan::matrix, fastscan::matrix_nosync>;
using blelloch_under_test = algorithm_under_test<fastscan::detail::blelloch_single_pass, fastscan::blelloch, fastscan::blelloch_nosync>;
using hillis_steele_under_test =
    algorithm_under_test<fastscan::detail::hillis_steele_single_pass, fastscan::hillis_steele, fastscan::hillis_steele_nosync>;

using matrix_deterministic_under_test =
    algorithm_under_test<fastscan::detail::matrix_deterministic, fastscan::matrix_deterministic,
                         fastscan::matrix_deterministic_nosync>;
using blelloch_deterministic_under_test =
    algorithm_under_test<fastscan::detail::blelloch_deterministic, fastscan::blelloch_deterministic,
                         fastscan::blelloch_deterministic_nosync>;
using hillis_steele_deterministic_under_test =
    algorithm_under_test<fastscan::detail::hillis_steele_deterministic, fastscan::hillis_steele_deterministic,
                         fastscan::hillis_steele_deterministic_nosync>;

// Names tests after the algorithm rather than its long type.
struct algorithm_names {
  template <class Under>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<Under, matrix_under_test>) return "matrix";
    else if constexpr (std::is_same_v<Under, blelloch_under_test>) return "blelloch";
    else if constexpr (std::is_same_v<Under, hillis_steele_under_test>) return "hillis_steele";
    else if constexpr (std::is_same_v<Under, matrix_deterministic_under_test>) return "matrix_deterministic";
    else if constexpr (std::is_same_v<Under, blelloch_deterministic_under_test>) return "blelloch_deterministic";
    else return "hillis_steele_deterministic";
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
