// The block layer alone: each block scan (the matrix scan with its ablations, Blelloch's tree,
// Hillis-Steele), the segmented matrix scan and the radix rank, run in one block of a small kernel
// against a CPU reference: odd thread counts, one item a thread, 16-byte vectors, an 8-byte
// non-commutative type, inclusive and exclusive, with and without a carry from the prefix callback.
#include "common/test_utils.cuh"

#include <fastscan/detail/block/block_radix_rank.cuh>
#include <fastscan/detail/block/block_scan_blelloch.cuh>
#include <fastscan/detail/block/block_scan_hillis_steele.cuh>
#include <fastscan/detail/block/block_scan_matrix.cuh>
#include <fastscan/detail/block/block_segmented_scan_matrix.cuh>

#include <cuda/std/functional>

#include <algorithm>
#include <optional>
#include <vector>

namespace fastscan_test {
namespace {

using fastscan::detail::column_scan;
using fastscan::detail::maybe;
using fastscan::detail::scan_kind;
using fastscan::detail::striped_element;

class block_test : public gpu_test {};

template <class T>
struct device_buffer {
  explicit device_buffer(std::size_t n) : size(n) { EXPECT_EQ(cudaMalloc(&data, n * sizeof(T)), cudaSuccess); }
  ~device_buffer() { cudaFree(data); }
  void upload(std::vector<T> const& h) {
    ASSERT_EQ(cudaMemcpy(data, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  void poison() { ASSERT_EQ(cudaMemset(data, 0xa5, size * sizeof(T)), cudaSuccess); }
  std::vector<T> download() const {
    std::vector<T> h(size);
    EXPECT_EQ(cudaMemcpy(h.data(), data, size * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return h;
  }
  T* data = nullptr;
  std::size_t size;
};

// ---- block scans -------------------------------------------------------------------------------

// One tile through BlockScan in the arrangement the block scans take (striped_element); thread 0
// writes the returned aggregate and the aggregate the prefix callback was given.
template <class BlockScan, int Threads, int Items, int Vector, scan_kind Kind, class T, class Op>
__global__ void scan_one_tile(T const* in, T* out, T* aggregate, T* given_to_callback, maybe<T> carry, Op op) {
  __shared__ typename BlockScan::temp_storage storage;
  T items[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) items[k] = in[striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x))];
  const T total = BlockScan(storage).template scan<Kind>(items, op, [&](T const& tile_aggregate) {
    if (threadIdx.x == 0) *given_to_callback = tile_aggregate;
    return carry;
  });
#pragma unroll
  for (int k = 0; k < Items; ++k) out[striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x))] = items[k];
  if (threadIdx.x == 0) *aggregate = total;
}

template <class BlockScan, int Threads, int Items, int Vector, scan_kind Kind, class T, class Op>
void check_scan(Op op, std::optional<T> carry, std::uint64_t seed) {
  constexpr int tile = Threads * Items;
  const std::vector<T> input = random_vector<T>(tile, seed);
  device_buffer<T> in(tile), out(tile), results(2);
  in.upload(input);
  out.poison();
  results.poison();
  const maybe<T> device_carry = carry ? fastscan::detail::some(*carry) : fastscan::detail::none<T>();
  scan_one_tile<BlockScan, Threads, Items, Vector, Kind><<<1, Threads>>>(in.data, out.data, results.data,
                                                                         results.data + 1, device_carry, op);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<T> actual = out.download();
  const std::vector<T> totals = results.download();

  const std::vector<T> tile_inclusive = reference_inclusive<T, T>(input, op);
  const std::vector<T> expected = Kind == scan_kind::inclusive ? reference_inclusive<T, T>(input, op, carry)
                                  : carry                       ? reference_exclusive<T, T>(input, op, *carry)
                                                                : std::vector<T>{};
  for (int i = 0; i < tile; ++i) {
    if (Kind == scan_kind::exclusive && !carry) {
      if (i == 0) continue;  // unspecified without a carry
      ASSERT_EQ(actual[i], tile_inclusive[i - 1]) << "element " << i;
    } else {
      ASSERT_EQ(actual[i], expected[i]) << "element " << i;
    }
  }
  EXPECT_EQ(totals[0], tile_inclusive.back()) << "the returned aggregate (without the carry)";
  EXPECT_EQ(totals[1], tile_inclusive.back()) << "the aggregate given to the prefix callback";
}

template <class T>
auto operator_for() {
  if constexpr (std::is_same_v<T, affine>) return compose_affine{};
  else if constexpr (std::is_same_v<T, affine64>) return compose_affine64{};
  else return ::cuda::std::plus<T>{};
}

// Every kind, with and without a carry, for one block scan of T.
template <class BlockScan, int Threads, int Items, int Vector, class T>
void check_every_scan() {
  const auto op = operator_for<T>();
  const T carry = random_vector<T>(1, 99)[0];
  check_scan<BlockScan, Threads, Items, Vector, scan_kind::inclusive, T>(op, std::nullopt, 1);
  check_scan<BlockScan, Threads, Items, Vector, scan_kind::inclusive, T>(op, carry, 2);
  check_scan<BlockScan, Threads, Items, Vector, scan_kind::exclusive, T>(op, std::nullopt, 3);
  check_scan<BlockScan, Threads, Items, Vector, scan_kind::exclusive, T>(op, carry, 4);
}

template <class T, int Threads, int Items, bool PadRows = true, column_scan Column = column_scan::warp_matrix,
          int Vector = 1>
using matrix = fastscan::detail::block_scan_matrix<T, Threads, Items, Threads, PadRows, Column, Vector>;

TEST_F(block_test, MatrixScan) {
  check_every_scan<matrix<int, 128, 32, true, column_scan::warp_matrix, 4>, 128, 32, 4, int>();  // the tuned shape
  check_every_scan<matrix<int, 96, 9>, 96, 9, 1, int>();
  check_every_scan<matrix<int, 64, 8, false, column_scan::sequential>, 64, 8, 1, int>();  // the paper's ablations
  check_every_scan<matrix<affine, 128, 16, true, column_scan::warp_matrix, 2>, 128, 16, 2, affine>();
  check_every_scan<matrix<affine, 96, 12, true, column_scan::warp_matrix, 2>, 96, 12, 2, affine>();  // 6 vectors a row
  check_every_scan<matrix<affine, 64, 14, true, column_scan::warp_matrix, 2>, 64, 14, 2, affine>();  // 7 vectors a row
  check_every_scan<matrix<affine, 32, 1>, 32, 1, 1, affine>();
  // 16-byte elements, each moved through the matrix as one 16-byte access
  check_every_scan<matrix<affine64, 128, 8>, 128, 8, 1, affine64>();
  check_every_scan<matrix<affine64, 96, 7>, 96, 7, 1, affine64>();
  // columns of 2, 4 and 8 entries a lane: 16-byte entries rotated, int entries in their places
  check_every_scan<matrix<affine64, 64, 8>, 64, 8, 1, affine64>();
  check_every_scan<matrix<affine64, 256, 4>, 256, 4, 1, affine64>();
  check_every_scan<matrix<int, 256, 8>, 256, 8, 1, int>();
}

// Trivially copyable 16-byte elements (the block tests' affine64 and the (value, head) pairs of 8-byte
// values) go through the matrix as single 16-byte accesses; narrower ones keep the vector rows.
TEST(matrix_layout_test, SixteenByteElementsMoveWhole) {
  using fastscan::detail::segmented_value;
  using fastscan::detail::whole_word_element;
  EXPECT_TRUE(whole_word_element<affine64>);
  EXPECT_TRUE(whole_word_element<segmented_value<std::uint64_t>>);
  EXPECT_FALSE(whole_word_element<affine>);
  EXPECT_FALSE(whole_word_element<affine3>);
}

// The column of row totals: every 16-byte entry has its own slot, within the 128 bytes of its entry,
// and the lanes of one shared-memory access (128 bytes of entries), reading the j-th entries of their
// runs together, meet each bank once. Narrower entries keep their places.
template <class T, int Rows>
void check_column_slots() {
  using column = fastscan::detail::matrix_column<T, Rows, column_scan::warp_matrix>;
  if constexpr (!fastscan::detail::whole_word_element<T>) {
    for (int e = 0; e < Rows; ++e) EXPECT_EQ(column::slot(e), e);
    return;
  }
  constexpr int per_128_bytes = 128 / static_cast<int>(sizeof(T));
  std::vector<int> owner(Rows, -1);
  for (int e = 0; e < Rows; ++e) {
    const int at = column::slot(e);
    ASSERT_TRUE(at >= 0 && at < Rows) << "entry " << e;
    EXPECT_EQ(owner[at], -1) << "entries " << owner[at] << " and " << e << " share slot " << at;
    owner[at] = e;
    EXPECT_EQ(at / per_128_bytes, e / per_128_bytes) << "entry " << e << " left its 128 bytes";
  }
  for (int j = 0; j < column::run; ++j) {
    for (int first = 0; first < 32; first += per_128_bytes) {  // one access: up to 128 bytes of lanes
      std::vector<bool> bank_group(per_128_bytes, false);
      for (int lane = first; lane < first + per_128_bytes && lane < 32; ++lane) {
        const int group = column::slot(lane * column::run + j) % per_128_bytes;
        EXPECT_FALSE(bank_group[group]) << "lane " << lane << ", entry " << j << " of its run";
        bank_group[group] = true;
      }
    }
  }
}

TEST(matrix_column_test, LanesReadingTogetherMeetEachBankOnce) {
  check_column_slots<int, 64>();
  check_column_slots<int, 128>();
  check_column_slots<int, 256>();
  check_column_slots<double, 128>();
  check_column_slots<double, 256>();
  check_column_slots<affine64, 64>();
  check_column_slots<affine64, 128>();
  check_column_slots<affine64, 256>();
}

// Rows of 16-byte vectors are padded to an odd number of vectors, so that eight threads reading eight
// consecutive rows meet eight different bank groups (an even number puts every row in the same place
// modulo 128 bytes when the rows are 128 bytes long).
TEST(matrix_layout_test, VectorRowsSpanAnOddNumberOfVectors) {
  using fastscan::detail::matrix_layout;
  const auto vectors_a_row = [](int stride, int vector) { return stride / vector; };
  EXPECT_EQ((matrix_layout<int, 128, 32, true>::row_stride), 36);  // 8 vectors + 1
  EXPECT_EQ((matrix_layout<double, 96, 12, true>::row_stride), 14);  // 6 vectors + 1
  EXPECT_EQ((matrix_layout<double, 64, 14, true>::row_stride), 18);  // 7 vectors + 2
  EXPECT_EQ((matrix_layout<double, 64, 16, true>::row_stride), 18);  // 8 vectors + 1
  EXPECT_EQ((matrix_layout<float, 64, 28, true>::row_stride), 36);  // 7 vectors + 2
  EXPECT_EQ(vectors_a_row(matrix_layout<short, 64, 24, true>::row_stride, 8) % 2, 1);
  EXPECT_EQ((matrix_layout<int, 96, 9, true>::row_stride), 9);  // scalar rows: an odd number of words
  EXPECT_EQ((matrix_layout<int, 64, 8, false>::row_stride), 8);  // unpadded (the paper's ablation)
}

TEST_F(block_test, BlellochScan) {
  using fastscan::detail::block_scan_blelloch;
  check_every_scan<block_scan_blelloch<int, 256, 8, true>, 256, 8, 1, int>();
  check_every_scan<block_scan_blelloch<int, 128, 8, true, 4>, 128, 8, 4, int>();
  check_every_scan<block_scan_blelloch<int, 64, 4, false>, 64, 4, 1, int>();
  check_every_scan<block_scan_blelloch<affine, 64, 4, true>, 64, 4, 1, affine>();
  check_every_scan<block_scan_blelloch<affine, 32, 1, true>, 32, 1, 1, affine>();
}

TEST_F(block_test, HillisSteeleScan) {
  using fastscan::detail::block_scan_hillis_steele;
  check_every_scan<block_scan_hillis_steele<int, 256, 4>, 256, 4, 1, int>();
  check_every_scan<block_scan_hillis_steele<int, 128, 8, 4>, 128, 8, 4, int>();
  check_every_scan<block_scan_hillis_steele<affine, 96, 3>, 96, 3, 1, affine>();
  check_every_scan<block_scan_hillis_steele<affine, 32, 1>, 32, 1, 1, affine>();
}

// ---- segmented matrix scan ---------------------------------------------------------------------

template <class Scan, int Threads, int Items, int Vector, scan_kind Kind, class T, class Op>
__global__ void segmented_scan_one_tile(T const* in, unsigned char const* heads_in, T* out, T* last_segment,
                                        int* any_head, maybe<fastscan::detail::segmented_value<T>> carry, Op op) {
  __shared__ typename Scan::temp_storage storage;
  T values[Items];
  unsigned heads = 0;
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int e = striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x));
    values[k] = in[e];
    heads |= static_cast<unsigned>(heads_in[e]) << k;
  }
  const auto total = Scan(storage).template scan<Kind>(values, heads, op, [&](auto const&) { return carry; });
#pragma unroll
  for (int k = 0; k < Items; ++k) out[striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x))] = values[k];
  if (threadIdx.x == 0) {
    *last_segment = total.value;
    *any_head = total.head ? 1 : 0;
  }
}

// heads: every `head_every`-th element on average (0: none), and the first element when `first_head`.
template <class Scan, int Threads, int Items, int Vector, scan_kind Kind, class T>
void check_segmented_scan(int head_every, bool first_head, std::optional<T> carry, std::uint64_t seed) {
  constexpr int tile = Threads * Items;
  const auto op = operator_for<T>();
  const std::vector<T> input = random_vector<T>(tile, seed);
  std::vector<unsigned char> heads(tile, 0);
  for (int i = 0; i < tile; ++i)
    heads[i] = head_every > 0 && splitmix64(seed * 7919 + i) % head_every == 0 ? 1 : 0;
  heads[0] = first_head ? 1 : 0;
  device_buffer<T> in(tile), out(tile), last(1);
  device_buffer<unsigned char> flags(tile);
  device_buffer<int> any(1);
  in.upload(input);
  flags.upload(heads);
  out.poison();
  last.poison();
  any.poison();
  using pair_t = fastscan::detail::segmented_value<T>;
  const maybe<pair_t> device_carry =
      carry ? fastscan::detail::some(pair_t{*carry, false}) : fastscan::detail::none<pair_t>();
  segmented_scan_one_tile<Scan, Threads, Items, Vector, Kind><<<1, Threads>>>(in.data, flags.data, out.data, last.data,
                                                                              any.data, device_carry, op);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<T> actual = out.download();

  std::optional<T> running = carry;     // the scan restarting at heads, the carry before the first one
  std::optional<T> tile_segment;        // the same without the carry: the last segment's value
  bool any_head = false;
  for (int i = 0; i < tile; ++i) {
    const std::optional<T> before = running;
    if (heads[i]) {
      running = input[i];
      tile_segment = input[i];
      any_head = true;
    } else {
      running = running ? static_cast<T>(op(*running, input[i])) : input[i];
      tile_segment = tile_segment ? static_cast<T>(op(*tile_segment, input[i])) : input[i];
    }
    if (Kind == scan_kind::inclusive) {
      ASSERT_EQ(actual[i], *running) << "element " << i;
    } else if (!heads[i] && before) {  // at heads, and first without a carry: unspecified
      ASSERT_EQ(actual[i], *before) << "element " << i;
    }
  }
  EXPECT_EQ(last.download()[0], *tile_segment);
  EXPECT_EQ(any.download()[0], any_head ? 1 : 0);
}

template <class T, int Threads, int Items, int Vector>
void check_every_segmented_scan() {
  using scan = fastscan::detail::block_segmented_scan_matrix<T, Threads, Items, Threads, true, column_scan::warp_matrix,
                                                             Vector>;
  const T carry = random_vector<T>(1, 77)[0];
  for (int head_every : {0, 3, 40, 1000}) {
    for (bool first_head : {false, true}) {
      check_segmented_scan<scan, Threads, Items, Vector, scan_kind::inclusive, T>(head_every, first_head, std::nullopt,
                                                                                  head_every + 1);
      check_segmented_scan<scan, Threads, Items, Vector, scan_kind::inclusive, T>(head_every, first_head, carry,
                                                                                  head_every + 2);
      check_segmented_scan<scan, Threads, Items, Vector, scan_kind::exclusive, T>(head_every, first_head, carry,
                                                                                  head_every + 3);
    }
  }
}

TEST_F(block_test, SegmentedMatrixScan) {
  check_every_segmented_scan<int, 128, 32, 4>();
  check_every_segmented_scan<int, 96, 9, 1>();
  check_every_segmented_scan<affine, 128, 16, 2>();
  check_every_segmented_scan<affine, 96, 12, 2>();  // scans by key of 8-byte values: 6 vectors a row
  check_every_segmented_scan<affine, 64, 14, 2>();  // 7 vectors a row
  check_every_segmented_scan<std::uint64_t, 128, 8, 1>();  // (value, head) pairs of 16 bytes: whole accesses
}

// ---- radix rank ----------------------------------------------------------------------------------

template <class Rank, bool FullTile, int Items>
__global__ void rank_one_tile(unsigned char const* digits, int valid, int* places, unsigned* smaller, unsigned* counts) {
  __shared__ typename Rank::temp_storage storage;
  typename Rank::places_t item_places;
  const auto digit_of = [&](int i) { return static_cast<unsigned>(digits[Rank::element(i)]); };
  const unsigned below = Rank(storage).template rank<FullTile>(digit_of, valid, item_places, [&](unsigned count) {
    if (threadIdx.x < fastscan::detail::radix_digits) counts[threadIdx.x] = count;
  });
#pragma unroll
  for (int i = 0; i < Items; ++i)
    if (Rank::element(i) < valid) places[Rank::element(i)] = item_places.get(i);
  if (threadIdx.x < fastscan::detail::radix_digits) smaller[threadIdx.x] = below;
}

template <int Threads, int Items, class DigitScan, bool CountsFirst>
void check_rank(int valid, int distinct_digits, std::uint64_t seed) {
  using rank_t = fastscan::detail::block_radix_rank<Threads, Items, DigitScan, CountsFirst>;
  constexpr int tile = Threads * Items;
  constexpr int digits_count = fastscan::detail::radix_digits;
  std::vector<unsigned char> digits(tile);
  for (int i = 0; i < tile; ++i) digits[i] = static_cast<unsigned char>(splitmix64(seed + i) % distinct_digits * 7);
  device_buffer<unsigned char> d_digits(tile);
  device_buffer<int> places(tile);
  device_buffer<unsigned> smaller(digits_count), counts(digits_count);
  d_digits.upload(digits);
  places.poison();
  smaller.poison();
  counts.poison();
  if (valid == tile) {
    rank_one_tile<rank_t, true, Items><<<1, Threads>>>(d_digits.data, valid, places.data, smaller.data, counts.data);
  } else {
    rank_one_tile<rank_t, false, Items><<<1, Threads>>>(d_digits.data, valid, places.data, smaller.data, counts.data);
  }
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

  // The stable order by digit of the valid elements, and each digit's count and first place.
  std::vector<int> order(valid);
  for (int i = 0; i < valid; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return digits[a] < digits[b]; });
  std::vector<int> expected_places(valid);
  for (int place = 0; place < valid; ++place) expected_places[order[place]] = place;
  std::vector<unsigned> expected_counts(digits_count, 0), expected_smaller(digits_count, 0);
  for (int i = 0; i < valid; ++i) ++expected_counts[digits[i]];
  for (int d = 1; d < digits_count; ++d) expected_smaller[d] = expected_smaller[d - 1] + expected_counts[d - 1];

  const std::vector<int> actual_places = places.download();
  for (int i = 0; i < valid; ++i) ASSERT_EQ(actual_places[i], expected_places[i]) << "element " << i;
  EXPECT_EQ(counts.download(), expected_counts);
  EXPECT_EQ(smaller.download(), expected_smaller);
}

template <int Threads, int Items, class DigitScan>
void check_every_rank() {
  constexpr int tile = Threads * Items;
  for (int valid : {tile, tile - 1, 1, 1000}) {
    for (int distinct : {1, 2, 37}) {
      check_rank<Threads, Items, DigitScan, false>(valid, distinct, valid + distinct);
      check_rank<Threads, Items, DigitScan, true>(valid, distinct, valid * 3 + distinct);
    }
  }
}

TEST_F(block_test, RadixRank) {
  using fastscan::detail::block_scan_blelloch;
  check_every_rank<256, 18, matrix<unsigned, 256, 1>>();
  check_every_rank<512, 18, matrix<unsigned, 512, 1>>();  // more threads than digits
  check_every_rank<256, 32, block_scan_blelloch<unsigned, 256, 1, true>>();
}

}  // namespace
}  // namespace fastscan_test
