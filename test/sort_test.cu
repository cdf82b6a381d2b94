// Radix sort (sort, stable_sort, sort_by_key, stable_sort_by_key) through every policy family and every
// spelling of a policy, against a CPU stable sort (thrust::cuda::par bit for bit for floating-point
// keys: common/sort_checks.cuh): every size edge of
// the tile, keys already sorted, reversed, all equal and few distinct, ascending and descending,
// stability by payload, the portion loop of very large inputs, several streams at once, the pairs'
// block storage sent to global memory, and the calls that fall back to Thrust (other comparators). Key
// and value types: sort_types_test.cu.
//
// The families' sort kernels differ only in the block scan of the digit counts (radix_sort_tuning:
// the family's block_scans), at 256 threads (keys alone of up to 4 bytes, float and double keys, pairs
// wider than 8 bytes), 384 (64-bit integer keys alone, and on devices of fast memory 12-byte pairs, where
// the family's scan takes 384 threads) and 512 (pairs of at most 8 bytes): every family sorts uint32
// keys, uint32 pairs, uint64 keys, uint32 keys with uint64 values and 8-bit keys with values (the counted
// pass, whose ranking takes the family's scan too); the other key and value types run on the matrix
// family's policies alone.

#include "common/sort_checks.cuh"

#include <fastscan/detail/dispatch/dispatch_radix_sort.cuh>

#include <thrust/functional.h>

namespace fastscan_test {
namespace {

template <class Under>
class sort_test : public gpu_test {};
using algorithms = policy_families;
TYPED_TEST_SUITE(sort_test, algorithms, algorithm_names);

template <class Under, class Key, class Value = fastscan::detail::keys_only,
          fastscan::detail::memory_class Memory = fastscan::detail::memory_class::any>
constexpr std::size_t sort_tile =
    fastscan::detail::radix_sort_tuning<typename Under::algorithm, Key, Value, Memory>::tile_items;

// Whether the family is the matrix one (its single-pass and deterministic policies share the sort's
// kernels): the tests of every key and value type run on it.
template <class Under>
constexpr bool every_width = std::is_same_v<typename Under::algorithm::block_scans, fastscan::matrix_algorithm::block_scans>;

template <class Under>
std::vector<std::size_t> sort_sizes() {
  const std::size_t tile = sort_tile<Under, std::uint32_t>;
  const std::size_t pair_tile = sort_tile<Under, std::uint32_t, std::uint32_t>;
  // 256 and 512: the digits and the threads of a pairs block (block_radix_rank.cuh). 2 to 4 tiles: the
  // look-back's batched reads reaching tile 0 (radix_sort_tuning::lookback_batch).
  return capped({0, 1, 2, 31, 255, 256, 257, 511, 512, 513, pair_tile - 1, pair_tile, pair_tile + 1, 2 * pair_tile + 1,
                 3 * pair_tile + 1, tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile + 1, 104729, (std::size_t{1} << 20) - 1, (std::size_t{1} << 20) + 1,
                 3 * (std::size_t{1} << 21) + 1, (std::size_t{1} << 24) + 3});
}

// Keys in `distinct` values (0: every bit pattern).
std::vector<std::uint32_t> keys_with(std::size_t n, std::uint64_t seed, std::uint32_t distinct) {
  auto v = random_vector<std::uint32_t>(n, seed);
  if (distinct != 0)
    for (auto& x : v) x = (x % distinct) * 0x9E3779B1u;  // spread over the digits, not only the lowest
  return v;
}

TYPED_TEST(sort_test, SortsKeysAtEverySize) {
  scoped_stream stream;
  int flavour = 0;
  for (std::size_t n : sort_sizes<TypeParam>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = keys_with(n, 4100 + n, 0);
    with_policy_flavour<TypeParam>(flavour++, stream.get(), [&](auto policy) {
      expect_sorted_like_par(keys, policy, thrust::less<std::uint32_t>{}, sort_call::sort);
    });
    with_policy_flavour<TypeParam>(flavour++, stream.get(), [&](auto policy) {
      expect_sorted_like_par(keys, policy, thrust::greater<std::uint32_t>{}, sort_call::stable_sort);
    });
  }
}

// Under both memory classes' shapes (radix_sort_tuning: pairs of at most 8 bytes differ), whatever this
// device's memory, with the tile edges of each.
TYPED_TEST(sort_test, SortsPairsStablyAtEverySize) {
  using fastscan::detail::memory_class;
  scoped_stream stream;
  int flavour = 0;
  const std::size_t fast_tile = sort_tile<TypeParam, std::uint32_t, std::uint32_t, memory_class::fast>;
  auto sizes = sort_sizes<TypeParam>();
  for (std::size_t n : capped({fast_tile - 1, fast_tile, fast_tile + 1, 2 * fast_tile + 1, 3 * fast_tile + 1}))
    sizes.push_back(n);
  under_each_memory_class([&] {
    for (std::size_t n : sizes) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto keys = keys_with(n, 4200 + n, 1000);  // repeated keys: stability shows in the payload
      with_policy_flavour<TypeParam>(flavour++, stream.get(), [&](auto policy) {
        expect_sorted_by_key_like_par<std::uint32_t>(keys, policy, thrust::less<>{}, sort_call::sort);
      });
      with_policy_flavour<TypeParam>(flavour++, stream.get(), [&](auto policy) {
        expect_sorted_by_key_like_par<std::uint32_t>(keys, policy, thrust::greater<std::uint32_t>{},
                                                     sort_call::stable_sort);
      });
    }
  });
}

TYPED_TEST(sort_test, SortedReversedEqualAndFewDistinctKeys) {
  const std::size_t n = capped({(std::size_t{1} << 20) + 7}).empty() ? 100003 : (std::size_t{1} << 20) + 7;
  std::vector<std::vector<std::uint32_t>> inputs;
  inputs.push_back(keys_with(n, 4300, 0));
  std::sort(inputs.back().begin(), inputs.back().end());                              // already sorted
  inputs.push_back(std::vector<std::uint32_t>(inputs.back().rbegin(), inputs.back().rend()));  // reversed
  inputs.push_back(std::vector<std::uint32_t>(n, 0xC0FFEEu));                         // all equal
  inputs.push_back(keys_with(n, 4301, 2));                                            // two values
  inputs.push_back(keys_with(n, 4302, 17));                                           // few distinct
  inputs.push_back(keys_with(n, 4303, 5));
  std::sort(inputs.back().begin(), inputs.back().end());  // few distinct, sorted: tiles of one digit in every pass
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE("input pattern " + std::to_string(i));
    expect_sorted_by_key_like_par<std::uint32_t>(inputs[i], TypeParam::blocking, thrust::less<>{}, sort_call::sort);
    expect_sorted_by_key_like_par<std::uint32_t>(inputs[i], TypeParam::nosync, thrust::greater<>{}, sort_call::sort);
    expect_sorted_like_par(inputs[i], TypeParam::blocking, thrust::less<>{}, sort_call::stable_sort);
  }
}

TYPED_TEST(sort_test, SixtyFourBitAndFloatKeys) {
  if constexpr (every_width<TypeParam>) {
    for (std::size_t n : capped({0, 1, 1000, 104729, (std::size_t{1} << 20) + 1})) {
      SCOPED_TRACE("n = " + std::to_string(n));
      auto wide = random_vector<std::uint64_t>(n, 4400 + n);
      expect_sorted_like_par(wide, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
      for (std::size_t i = 0; i < n; i += 3) wide[i] &= 0xFFull;  // shared upper digits
      expect_sorted_by_key_like_par<std::uint64_t>(wide, TypeParam::blocking, thrust::greater<>{}, sort_call::sort);
      const auto reals = random_vector<float>(n, 4500 + n);
      expect_sorted_by_key_like_par<std::uint32_t>(reals, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
    }
  } else {
    GTEST_SKIP() << "the matrix family sorts every key type";
  }
}

// Float and 64-bit keys alone rank with their counts first (radix_sort_tuning::counts_first): every
// size edge of their tiles, and few distinct keys (warps whose keys share one digit). 64-bit integer
// keys run blocks of 384 threads, more than digits (radix_sort_tuning::wide_keys_alone), double keys
// 256; 3 tiles + 1: the look-back's batched reads reaching tile 0.
TYPED_TEST(sort_test, CountsFirstKeysAtEverySize) {
  const std::size_t float_tile = sort_tile<TypeParam, float>;
  const std::size_t wide_tile = sort_tile<TypeParam, std::uint64_t>;
  const std::size_t double_tile = sort_tile<TypeParam, double>;
  static_assert(fastscan::detail::radix_sort_tuning<typename TypeParam::algorithm, float, fastscan::detail::keys_only>::counts_first);
  static_assert(fastscan::detail::radix_sort_tuning<typename TypeParam::algorithm, std::uint64_t, fastscan::detail::keys_only>::counts_first);
  for (std::size_t n : capped({1, 31, 257, float_tile - 1, float_tile, float_tile + 1, 2 * float_tile + 1, wide_tile - 1,
                               wide_tile, wide_tile + 1, 2 * wide_tile + 1, 3 * wide_tile + 1, double_tile - 1, double_tile,
                               double_tile + 1, 3 * double_tile + 1, 104729, (std::size_t{1} << 20) + 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto wide = random_vector<std::uint64_t>(n, 4460 + n);
    expect_sorted_like_par(wide, TypeParam::nosync, thrust::greater<std::uint64_t>{}, sort_call::stable_sort);
    for (auto& x : wide) x = (x % 5) << 40;                                             // five values
    expect_sorted_like_par(wide, TypeParam::blocking, thrust::less<std::uint64_t>{}, sort_call::sort);
    if constexpr (every_width<TypeParam>) {
      auto reals = random_vector<float>(n, 4450 + n);
      expect_sorted_like_par(reals, TypeParam::blocking, thrust::less<float>{}, sort_call::sort);
      auto wide_reals = random_vector<double>(n, 4470 + n);
      expect_sorted_like_par(wide_reals, TypeParam::blocking, thrust::less<double>{}, sort_call::sort);
      for (auto& x : reals) x = static_cast<float>(static_cast<int>((x + 1.0f) * 1000.0f) % 3);  // three values
      expect_sorted_like_par(reals, TypeParam::nosync, thrust::greater<float>{}, sort_call::sort);
    }
  }
}

// Pairs of more than 8 bytes run their own tile (radix_sort_tuning: 256 x 28; with 8-byte keys and
// values the block's storage exceeds 48 KiB and lives in dynamic shared memory; on devices of fast memory
// 4-byte keys with 8-byte values 384 x 18 and 8-byte keys with 4-byte values 384 x 16, where the family's
// digit scan takes 384 threads, checked under both memory classes whatever this device's): every size
// edge of them, 64-bit keys with 32-bit values and 32-bit keys with 64-bit values, repeated keys
// (stability shows in the values), and 3 tiles + 1.
TYPED_TEST(sort_test, WidePairsAtEverySize) {
  using fastscan::detail::memory_class;
  const std::size_t tile = sort_tile<TypeParam, std::uint64_t, std::uint32_t>;
  const std::size_t fast_tile = sort_tile<TypeParam, std::uint32_t, std::uint64_t, memory_class::fast>;
  const std::size_t fast_wide_keys_tile = sort_tile<TypeParam, std::uint64_t, std::uint32_t, memory_class::fast>;
  static_assert(sort_tile<TypeParam, std::uint64_t, std::uint32_t> == sort_tile<TypeParam, std::uint32_t, std::uint64_t>);
  static_assert(sort_tile<TypeParam, std::uint64_t, std::uint64_t> == sort_tile<TypeParam, std::uint32_t, std::uint64_t>);
  for (std::size_t n : capped({1, 257, tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile + 1, fast_tile - 1, fast_tile,
                               fast_tile + 1, 3 * fast_tile + 1, fast_wide_keys_tile - 1, fast_wide_keys_tile,
                               fast_wide_keys_tile + 1, 3 * fast_wide_keys_tile + 1, 104729, (std::size_t{1} << 20) + 1})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    if constexpr (every_width<TypeParam>) {
      auto wide = random_vector<std::uint64_t>(n, 4480 + n);
      for (std::size_t i = 0; i < n; i += 2) wide[i] = wide[i] % 1000 * 0x9E3779B97F4A7C15ull;  // repeats
      under_each_memory_class([&] {
        expect_sorted_by_key_like_par<std::uint32_t>(wide, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
      });
      expect_sorted_by_key_like_par<std::uint64_t>(wide, TypeParam::nosync, thrust::greater<>{}, sort_call::stable_sort);
    }
    const auto narrow = keys_with(n, 4490 + n, 1000);
    under_each_memory_class([&] {
      expect_sorted_by_key_like_par<std::uint64_t>(narrow, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
    });
  }
}

// The onesweep pass of pairs keeps more than 48 KiB a block (66-114 KiB: dynamic shared memory,
// kernels/block_storage.cuh): the same sorts, uint32 pairs and uint64 pairs, with that storage sent to
// global memory instead, as a device with less shared memory would have it, over 3 tiles + 1 and a prime.
TYPED_TEST(sort_test, PairsWithBlockStorageInGlobalMemory) {
  using fastscan::detail::dynamic_shared_limit_for_tests;
  struct restore_limit {
    ~restore_limit() { dynamic_shared_limit_for_tests() = 0; }
  } restore;
  const std::size_t tile = sort_tile<TypeParam, std::uint32_t, std::uint32_t>;
  for (int storage_in_global = 0; storage_in_global < 2; ++storage_in_global) {
    SCOPED_TRACE(storage_in_global ? "block storage in global memory" : "block storage where the device puts it");
    dynamic_shared_limit_for_tests() = storage_in_global ? 1 : 0;
    for (std::size_t n : capped({tile + 1, 3 * tile + 1, 104729})) {
      SCOPED_TRACE("n = " + std::to_string(n));
      const auto keys = keys_with(n, 4600 + n, 1000);
      expect_sorted_by_key_like_par<std::uint32_t>(keys, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
      auto wide = random_vector<std::uint64_t>(n, 4610 + n);
      for (std::size_t i = 0; i < n; i += 2) wide[i] = wide[i] % 1000 * 0x9E3779B97F4A7C15ull;  // repeats
      expect_sorted_by_key_like_par<std::uint64_t>(wide, TypeParam::nosync, thrust::greater<>{}, sort_call::stable_sort);
    }
  }
}

// 8-bit keys with values take the counted pass (agent_radix_sort_counted.cuh): its tile (by the value's
// width) and the 8 tiles of a counting block at every edge, keys random, skewed to few digits and all
// one digit, signed and unsigned, ascending and descending, values of 4 and 8 bytes (and, at fewer sizes,
// of 1 and 2: the copy back's other vector counts).
template <class Under, class Key, class Value>
void check_counted_pass(cudaStream_t stream, int& flavour, bool every_edge = true) {
  using tuning = fastscan::detail::radix_counted_tuning<typename Under::algorithm, Value>;
  const std::size_t tile = tuning::tile_items;
  const std::size_t group = tile * tuning::tiles_per_count_block;
  const auto sizes = every_edge ? capped({2, 3, tile - 1, tile, tile + 1, 2 * tile + 1, group - 1, group, group + 1,
                                          group + tile + 5, 104729, (std::size_t{1} << 20) + 1,
                                          3 * (std::size_t{1} << 21) + 1})
                                : capped({3, tile + 1, group + tile + 5, 104729});
  for (std::size_t n : sizes) {
    for (int layout = 0; layout < 3; ++layout) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", layout " + std::to_string(layout) + ", key of " +
                   (std::is_signed_v<Key> ? "signed" : "unsigned") + " byte, value of " + std::to_string(sizeof(Value)) +
                   " bytes");
      std::vector<Key> keys(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = splitmix64(4520 + 131 * n + i + layout);
        const auto byte = static_cast<std::uint8_t>(layout == 0 ? r : layout == 1 ? (r % 10 < 8 ? 0x80 : r % 7) : 0x3c);
        std::memcpy(&keys[i], &byte, 1);
      }
      with_policy_flavour<Under>(flavour++, stream, [&](auto policy) {
        expect_sorted_by_key_like_par<Value>(keys, policy, thrust::less<Key>{}, sort_call::sort);
      });
      expect_sorted_by_key_like_par<Value>(keys, Under::nosync, thrust::greater<Key>{}, sort_call::stable_sort);
    }
  }
}

// The counted pass reads keys in 16-byte loads where they are 16-byte aligned and one at a time
// elsewhere, and its straight writes address the caller's values from the second buffer, which where it
// does not lie a whole number of values away must take the copy back for every value: keys at every
// offset from a 16-byte boundary with aligned values at an odd element, and values of 4 bytes aligned to
// 1 at every byte offset; the bytes around both ranges checked untouched.
struct byte_quad {
  std::uint8_t bytes[4];
};
static_assert(alignof(byte_quad) == 1 && sizeof(byte_quad) == 4);

struct counted_pass_placement {
  std::size_t key_offset;    // bytes from a 16-byte boundary
  std::size_t value_offset;  // bytes from a 16-byte boundary
};

template <class Under, class Value>
void check_counted_pass_placed(std::initializer_list<counted_pass_placement> placements) {
  static_assert(sizeof(Value) == 4);
  const std::size_t guard = 64;
  for (std::size_t n : capped({104729, (std::size_t{1} << 20) + 1})) {
    const auto random = random_vector<std::uint32_t>(n, 4560 + n);
    std::vector<std::uint8_t> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint8_t>(random[i] >> 13);
    const auto order = cpu_stable_order(keys, std::less<>{});
    for (const auto [key_offset, value_offset] : placements) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", keys at byte offset " + std::to_string(key_offset) +
                   ", values of alignment " + std::to_string(alignof(Value)) + " at byte offset " +
                   std::to_string(value_offset));
      std::vector<std::uint8_t> key_bytes(n + 2 * guard);
      std::vector<std::uint8_t> value_bytes(4 * n + 2 * guard);
      for (std::size_t i = 0; i < key_bytes.size(); ++i) key_bytes[i] = static_cast<std::uint8_t>(0xA5 ^ i);
      for (std::size_t i = 0; i < value_bytes.size(); ++i) value_bytes[i] = static_cast<std::uint8_t>(0x5A ^ (i * 7));
      std::copy(keys.begin(), keys.end(), key_bytes.begin() + static_cast<std::ptrdiff_t>(guard + key_offset));
      for (std::size_t i = 0; i < n; ++i) {  // each value its index: stability shows
        const auto index = static_cast<std::uint32_t>(i);
        std::memcpy(&value_bytes[guard + value_offset + 4 * i], &index, 4);
      }
      auto device_keys = to_device(key_bytes);
      auto device_values = to_device(value_bytes);
      const auto first = device_keys.begin() + static_cast<std::ptrdiff_t>(guard + key_offset);
      const thrust::device_ptr<Value> values(
          reinterpret_cast<Value*>(thrust::raw_pointer_cast(device_values.data()) + guard + value_offset));
      thrust::sort_by_key(Under::blocking, first, first + static_cast<std::ptrdiff_t>(n), values);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      std::vector<std::uint8_t> expected_keys(key_bytes);
      std::vector<std::uint8_t> expected_values(value_bytes);
      for (std::size_t i = 0; i < n; ++i) {
        expected_keys[guard + key_offset + i] = keys[order[i]];
        const auto index = static_cast<std::uint32_t>(order[i]);
        std::memcpy(&expected_values[guard + value_offset + 4 * i], &index, 4);
      }
      const auto actual_keys = to_host(device_keys);
      const auto actual_values = to_host(device_values);
      ASSERT_TRUE(same_bits(expected_keys, actual_keys)) << "key bytes: first difference at " << first_difference(expected_keys, actual_keys);
      ASSERT_TRUE(same_bits(expected_values, actual_values))
          << "value bytes: first difference at " << first_difference(expected_values, actual_values);
    }
  }
}

template <class Under>
void check_counted_pass_offsets() {
  check_counted_pass_placed<Under, std::uint32_t>({{0, 4}, {1, 4}, {7, 4}, {15, 4}});
  check_counted_pass_placed<Under, byte_quad>({{0, 0}, {0, 1}, {0, 2}, {0, 3}});
}

TYPED_TEST(sort_test, OneByteKeysWithValuesByCounting) {
  scoped_stream stream;
  int flavour = 0;
  check_counted_pass<TypeParam, std::uint8_t, std::uint32_t>(stream.get(), flavour);
  check_counted_pass<TypeParam, std::int8_t, std::uint64_t>(stream.get(), flavour);
  check_counted_pass<TypeParam, std::uint8_t, std::uint16_t>(stream.get(), flavour, false);
  check_counted_pass<TypeParam, std::int8_t, std::uint8_t>(stream.get(), flavour, false);
  check_counted_pass_offsets<TypeParam>();
}

// Past the tuning's size the pass writes values straight to the caller's buffer where the tiles it writes
// over are consumed (agent_radix_sort_counted.cuh), and the fill copies back only the rest: that path on
// small inputs, aligned and not, with no lag (the most straight runs, each tile waiting for every tile
// before it) and a lag of 3.
TYPED_TEST(sort_test, OneByteKeysWithValuesWrittenStraight) {
  struct restore_lag {
    ~restore_lag() { fastscan::detail::radix_counted_lag_for_tests() = -1; }
  } restore;
  scoped_stream stream;
  int flavour = 0;
  for (fastscan::detail::offset_t lag : {0, 3}) {
    SCOPED_TRACE("lag " + std::to_string(lag));
    fastscan::detail::radix_counted_lag_for_tests() = lag;
    check_counted_pass<TypeParam, std::uint8_t, std::uint32_t>(stream.get(), flavour, lag == 0);
    check_counted_pass<TypeParam, std::int8_t, std::uint64_t>(stream.get(), flavour, false);
    check_counted_pass<TypeParam, std::uint8_t, std::uint16_t>(stream.get(), flavour, false);
    check_counted_pass_offsets<TypeParam>();
  }
}

// Passes in which every key has the same digit (keys of a small range, in any byte) may be left out:
// of a run of such passes an even number is, of an odd number all but the first (radix_left_out_passes,
// agent_radix_sort_histogram.cuh). Runs of 1 to 4 passes at the start, the middle and the end, two
// runs, 64-bit keys (runs of 3 and 4), signed and float keys (their ordered bits), a single pass of
// 8-bit keys with values, and the portion loop (each portion's launch has a tile counter of its own); with
// values (stability shows in the payload) and without.
TYPED_TEST(sort_test, PassesWhoseKeysShareADigit) {
  struct restore_portion {
    ~restore_portion() { fastscan::detail::radix_sort_portion_items_for_tests() = 0; }
  } restore;
  const std::size_t tile = sort_tile<TypeParam, std::uint32_t>;
  const std::size_t pair_tile = sort_tile<TypeParam, std::uint32_t, std::uint32_t>;
  const std::uint32_t masks[][2] = {  // key = (random & mask) | set: the bytes outside mask are one digit
      {0x000000FFu, 0},            // passes 1-3: the first runs, two left out
      {0x0000FFFFu, 0},            // passes 2-3: both left out
      {0x00FFFFFFu, 0},            // pass 3: runs
      {0xFFFF00FFu, 0x00004200u},  // pass 1, between ranked passes
      {0xFF00FF00u, 0x00370011u},  // passes 0 and 2: both run
      {0xFFFFFF00u, 0x00000005u},  // pass 0, the first
      {0xFFFF0000u, 0x0000BEEFu},  // passes 0-1: left out, the first launch's counter
      {0, 0xC0FFEEu}};             // every pass: all left out
  scoped_stream stream;
  int flavour = 0;
  for (std::size_t portion : {std::size_t{0}, 3 * tile}) {
    fastscan::detail::radix_sort_portion_items_for_tests() = portion;
    const auto sizes = portion == 0 ? capped({2, 257, pair_tile + 1, 3 * tile + 1, 104729, (std::size_t{1} << 20) + 1})
                                    : capped({3 * tile + 1, 104729});
    for (std::size_t n : sizes) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", portion " + std::to_string(portion));
      const auto random = keys_with(n, 5100 + n, 0);
      for (auto const& mask : masks) {
        SCOPED_TRACE("mask " + std::to_string(mask[0]));
        std::vector<std::uint32_t> keys(n);
        for (std::size_t i = 0; i < n; ++i) keys[i] = (random[i] & mask[0]) | mask[1];
        with_policy_flavour<TypeParam>(flavour++, stream.get(), [&](auto policy) {
          expect_sorted_by_key_like_par<std::uint32_t>(keys, policy, thrust::less<>{}, sort_call::sort);
        });
        expect_sorted_like_par(keys, TypeParam::nosync, thrust::greater<>{}, sort_call::stable_sort);
      }
      if constexpr (every_width<TypeParam>) {
        std::vector<std::uint64_t> wide(n);
        std::vector<std::int32_t> small(n);
        std::vector<float> reals(n);
        std::vector<std::uint8_t> bytes(n, 0x5A);
        for (std::size_t i = 0; i < n; ++i) {
          wide[i] = random[i];                       // below 2^32: passes 4-7
          small[i] = static_cast<std::int32_t>(random[i] % 50000);  // non-negative: the sign byte is one digit
          reals[i] = 1.0f + static_cast<float>(random[i] >> 9) * 0x1.0p-23f;  // [1, 2): the exponent's byte
        }
        expect_sorted_like_par(wide, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
        expect_sorted_by_key_like_par<std::uint32_t>(wide, TypeParam::nosync, thrust::greater<>{}, sort_call::sort);
        for (auto& x : wide) x |= (x & 0xFF) << 32;  // below 2^40: passes 5-7
        expect_sorted_by_key_like_par<std::uint64_t>(wide, TypeParam::blocking, thrust::less<>{}, sort_call::stable_sort);
        expect_sorted_by_key_like_par<std::uint32_t>(small, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
        expect_sorted_like_par(small, TypeParam::nosync, thrust::greater<>{}, sort_call::sort);
        expect_sorted_by_key_like_par<std::uint32_t>(reals, TypeParam::blocking, thrust::greater<>{}, sort_call::sort);
        expect_sorted_by_key_like_par<std::uint64_t>(bytes, TypeParam::nosync, thrust::less<>{}, sort_call::stable_sort);
      }
    }
  }
}

// Inputs larger than one portion run one launch per portion and pass; a small portion (set for the
// test) runs that loop at a size the test can afford.
TYPED_TEST(sort_test, PortionsOfALargeInput) {
  struct restore_portion {
    ~restore_portion() { fastscan::detail::radix_sort_portion_items_for_tests() = 0; }
  } restore;
  fastscan::detail::radix_sort_portion_items_for_tests() = 3 * sort_tile<TypeParam, std::uint32_t>;
  for (std::size_t n : capped({3 * sort_tile<TypeParam, std::uint32_t> + 1, 104729, (std::size_t{1} << 20) + 5})) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = keys_with(n, 4600 + n, 0);
    expect_sorted_like_par(keys, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
    expect_sorted_by_key_like_par<std::uint32_t>(keys_with(n, 4700 + n, 300), TypeParam::blocking, thrust::greater<>{},
                                                 sort_call::stable_sort);
    // Three distinct keys: after the first pass nearly every tile, a portion's last among them, has one digit.
    expect_sorted_by_key_like_par<std::uint32_t>(keys_with(n, 4750 + n, 3), TypeParam::blocking, thrust::greater<>{},
                                                 sort_call::stable_sort);
    if constexpr (every_width<TypeParam>) {
      // One pass of 8-bit keys with values: the values travel, the keys are written from the digits' starts.
      std::vector<std::uint8_t> bytes(n);
      std::vector<std::int8_t> signed_bytes(n);
      for (std::size_t i = 0; i < n; ++i) {
        bytes[i] = static_cast<std::uint8_t>(keys[i] >> 24);
        signed_bytes[i] = static_cast<std::int8_t>(keys[i] >> 16);
      }
      expect_sorted_by_key_like_par<std::uint32_t>(bytes, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
      expect_sorted_by_key_like_par<std::uint64_t>(signed_bytes, TypeParam::nosync, thrust::greater<>{}, sort_call::stable_sort);
    }
  }
}

// Four streams, each sorting its own keys with its own policy at once; every result checked.
TYPED_TEST(sort_test, SeveralStreamsAtOnce) {
  constexpr int streams = 4;
  const std::size_t n = capped({(std::size_t{1} << 20) + 3}).empty() ? 100003 : (std::size_t{1} << 20) + 3;
  std::vector<scoped_stream> s(streams);
  std::vector<std::vector<std::uint32_t>> inputs;
  std::vector<thrust::device_vector<std::uint32_t>> keys, values;
  for (int i = 0; i < streams; ++i) inputs.push_back(keys_with(n, 4800 + i, i == 0 ? 0 : 100 * i));
  for (int round = 0; round < 3; ++round) {
    keys.clear();
    values.clear();
    for (int i = 0; i < streams; ++i) {
      keys.push_back(to_device(inputs[i]));
      values.push_back(to_device(positions_as<std::uint32_t>(n)));
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < streams; ++i)
      thrust::sort_by_key(TypeParam::nosync.on(s[i].get()), keys[i].begin(), keys[i].end(), values[i].begin());
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int i = 0; i < streams; ++i) {
      const auto order = cpu_stable_order(inputs[i], std::less<>{});
      const auto k = to_host(keys[i]);
      const auto v = to_host(values[i]);
      for (std::size_t j = 0; j < n; ++j) {
        ASSERT_EQ(k[j], inputs[i][order[j]]) << "stream " << i << " at " << j;
        ASSERT_EQ(v[j], order[j]) << "stream " << i << " at " << j;
      }
    }
  }
}

// Comparators other than less and greater run Thrust's own sort through the policy: same answers.
struct by_low_byte {
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const { return (a & 0xFF) < (b & 0xFF); }
};

TYPED_TEST(sort_test, OtherComparatorsFallBackToThrust) {
  const auto keys = keys_with(100003, 4900, 0);
  const auto before = fastscan::detail::calls_dispatched();
  expect_sorted_by_key_like_par<std::uint32_t>(keys, TypeParam::blocking, by_low_byte{}, sort_call::stable_sort);
  expect_sorted_like_par(keys, TypeParam::blocking, by_low_byte{}, sort_call::stable_sort);
  EXPECT_EQ(fastscan::detail::calls_dispatched(), before);  // Thrust's merge sort, not fastscan's
  expect_sorted_like_par(keys, TypeParam::blocking, thrust::less<>{}, sort_call::sort);
  EXPECT_GT(fastscan::detail::calls_dispatched(), before);
}

// A very large sort: 2^28 + 3 keys (the benchmark's largest size), checked in full.
TYPED_TEST(sort_test, VeryLargeInput) {
  const auto sizes = capped({(std::size_t{1} << 28) + 3});
  if (sizes.empty()) GTEST_SKIP() << "FASTSCAN_TEST_MAX_N is below 2^28 + 3";
  if constexpr (!std::is_same_v<TypeParam, matrix_under_test>) GTEST_SKIP() << "the matrix family covers this size";
  const std::size_t n = sizes.front();
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<std::uint32_t>(splitmix64(5000 + i));
  auto d = to_device(keys);
  thrust::sort(TypeParam::blocking, d.begin(), d.end());
  std::sort(keys.begin(), keys.end());
  const auto sorted = to_host(d);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], keys[i]) << "at " << i;
}

// 8-bit keys with values past the size at which the pass writes values straight to the caller's buffer
// (radix_counted_shape::straight_writes_min_l2s times this device's L2), with the tuning's own lag: keys
// uniform (about half the values go straight) and skewed to few digits, ascending and descending, every
// key and value checked against a counting sort (values: the items' input positions).
TYPED_TEST(sort_test, OneByteKeysWithValuesPastTheStraightWritesSize) {
  if constexpr (!std::is_same_v<TypeParam, matrix_under_test>) GTEST_SKIP() << "the matrix family covers this size";
  using tuning = fastscan::detail::radix_counted_tuning<typename TypeParam::algorithm, std::uint32_t>;
  int device = 0, l2_bytes = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device), cudaSuccess);
  const std::size_t straight_min = tuning::straight_writes_min_l2s * static_cast<std::size_t>(l2_bytes) / 4;
  const auto sizes = capped({straight_min + 3 * tuning::tile_items + 5});
  if (sizes.empty()) GTEST_SKIP() << "FASTSCAN_TEST_MAX_N is below " << straight_min;
  const std::size_t n = sizes.front();
  for (int layout = 0; layout < 2; ++layout) {
    for (bool descending : {false, true}) {
      SCOPED_TRACE("n = " + std::to_string(n) + (layout == 0 ? ", uniform keys" : ", keys skewed to few digits") +
                   (descending ? ", descending" : ", ascending"));
      std::vector<std::uint8_t> keys(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = splitmix64(5100 + i + layout);
        keys[i] = static_cast<std::uint8_t>(layout == 0 ? r : (r % 10 < 7 ? 0x80 : r % 13));
      }
      std::vector<std::uint32_t> positions(n);
      for (std::size_t i = 0; i < n; ++i) positions[i] = static_cast<std::uint32_t>(i);
      // A stable counting sort: each key's first place in the output, then the items in input order.
      std::vector<std::size_t> next(257, 0);
      for (std::uint8_t key : keys) ++next[(descending ? 255 - key : key) + 1];
      for (int d = 0; d < 256; ++d) next[d + 1] += next[d];
      std::vector<std::uint8_t> expected_keys(n);
      std::vector<std::uint32_t> expected_values(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t place = next[descending ? 255 - keys[i] : keys[i]]++;
        expected_keys[place] = keys[i];
        expected_values[place] = static_cast<std::uint32_t>(i);
      }
      auto device_keys = to_device(keys);
      auto device_values = to_device(positions);
      if (descending)
        thrust::sort_by_key(TypeParam::blocking, device_keys.begin(), device_keys.end(), device_values.begin(),
                            thrust::greater<std::uint8_t>{});
      else
        thrust::sort_by_key(TypeParam::blocking, device_keys.begin(), device_keys.end(), device_values.begin());
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      const auto actual_keys = to_host(device_keys);
      const auto actual_values = to_host(device_values);
      ASSERT_TRUE(same_bits(expected_keys, actual_keys)) << "keys: first difference at " << first_difference(expected_keys, actual_keys);
      ASSERT_TRUE(same_bits(expected_values, actual_values))
          << "values: first difference at " << first_difference(expected_values, actual_values);
    }
  }
}

// The memory class picks the shape of pairs of at most 8 bytes, and of 12-byte pairs where the family's
// digit scan takes 384 threads (a host-side choice; no GPU needed).
TEST(RadixSortTunings, ChosenByTheMemoryClass) {
  using fastscan::detail::device_facts;
  using fastscan::detail::memory_class;
  using fastscan::detail::radix_sort_tuning;
  using matrix = fastscan::detail::matrix_drivers::single_pass;
  const device_facts h100 = h100_facts();
  const device_facts h200 = h200_facts();
  using fast_pairs = radix_sort_tuning<matrix, std::uint32_t, std::uint32_t, memory_class::fast>;
  using pairs = radix_sort_tuning<matrix, std::uint32_t, std::uint32_t>;
  static_assert(fast_pairs::has_fast_memory_shape && fast_pairs::tile_items < pairs::tile_items);
  static_assert(fast_pairs::lookback_batch == 2 && pairs::lookback_batch == 1);
  using fast_wide_values = radix_sort_tuning<matrix, std::uint32_t, std::uint64_t, memory_class::fast>;
  using wide_values = radix_sort_tuning<matrix, std::uint32_t, std::uint64_t>;
  static_assert(fast_wide_values::has_fast_memory_shape && fast_wide_values::threads == 384 &&
                wide_values::threads == 256 && fast_wide_values::lookback_batch == 1);
  static_assert(!radix_sort_tuning<fastscan::detail::blelloch_drivers::single_pass, std::uint32_t, std::uint64_t,
                                   memory_class::fast>::has_fast_memory_shape);  // its digit scan takes powers of two
  using fast_wide_keys = radix_sort_tuning<matrix, std::uint64_t, std::uint32_t, memory_class::fast>;
  using wide_keys = radix_sort_tuning<matrix, std::uint64_t, std::uint32_t>;
  static_assert(fast_wide_keys::has_fast_memory_shape && fast_wide_keys::threads == 384 &&
                fast_wide_keys::tile_items == 384 * 16 && wide_keys::tile_items == 256 * 28);
  static_assert(radix_sort_tuning<matrix, double, float, memory_class::fast>::tile_items == 384 * 16);
  static_assert(!radix_sort_tuning<matrix, std::uint64_t, std::uint64_t>::has_fast_memory_shape);
  static_assert(!radix_sort_tuning<matrix, std::uint32_t, fastscan::detail::keys_only>::has_fast_memory_shape);
  EXPECT_TRUE(fast_pairs::suits(h200));
  EXPECT_FALSE(fast_pairs::suits(h100));
  EXPECT_TRUE(pairs::suits(h100) && pairs::suits(h200));
  EXPECT_TRUE(fast_wide_values::suits(h200));
  EXPECT_FALSE(fast_wide_values::suits(h100));
  EXPECT_TRUE(fast_wide_keys::suits(h200));
  EXPECT_FALSE(fast_wide_keys::suits(h100));
}

}  // namespace
}  // namespace fastscan_test
