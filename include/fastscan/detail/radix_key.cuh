#pragma once
// Radix sort keys as unsigned bits whose order is the keys' order (the bit twiddling CUB uses, so a
// fastscan sort orders keys exactly as Thrust's CUDA backend, which runs CUB's radix sort):
//   unsigned integers (and bool): as they are;
//   signed integers:              the sign bit flipped;
//   float, double:                all bits flipped for negative numbers, the sign bit for the others,
//                                 and -0.0 taken as +0.0 (CUB treats the two zeros as equal keys, so they
//                                 keep their input order); NaNs fall where their bits put them (positive
//                                 NaNs after +inf, negative ones before -inf), as in CUB;
//   descending (thrust::greater): the ordered bits inverted.
// Keys travel between passes as their original bits. A pass turns each key into its ordered bits once,
// as it loads it, takes every digit from those and turns them back as it stores the key. The -0.0 rule
// cannot be part of that round trip (it maps two keys to one), so ordered() keeps -0.0 apart and
// digit_of_ordered() merges it with +0.0.

#include <cstdint>
#include <type_traits>

namespace fastscan::detail {

inline constexpr int radix_bits = 8;
inline constexpr int radix_digits = 1 << radix_bits;

// Whether the calling thread of a block of Threads holds digit threadIdx.x: threads 0..255 hold one
// digit each (its count, scan and look-back); a block with more threads has the others rank items only.
template <int Threads>
__device__ inline bool thread_holds_digit() {
  return Threads == radix_digits || threadIdx.x < static_cast<unsigned>(radix_digits);
}

template <class Key>
constexpr bool is_radix_sortable_key =
    (std::is_integral_v<Key> || std::is_same_v<Key, float> || std::is_same_v<Key, double>) && sizeof(Key) <= 8;

template <int Bytes>
struct unsigned_of_size;
template <>
struct unsigned_of_size<1> { using type = std::uint8_t; };
template <>
struct unsigned_of_size<2> { using type = std::uint16_t; };
template <>
struct unsigned_of_size<4> { using type = std::uint32_t; };
template <>
struct unsigned_of_size<8> { using type = std::uint64_t; };

template <class Key, bool Descending>
struct radix_key {
  static_assert(is_radix_sortable_key<Key>, "radix sort keys are integers, float or double");
  using bits_t = typename unsigned_of_size<sizeof(Key)>::type;
  static constexpr int passes = static_cast<int>(sizeof(Key)) * 8 / radix_bits;
  static constexpr bits_t sign_bit = static_cast<bits_t>(bits_t{1} << (sizeof(Key) * 8 - 1));

  // The ordered bits of a key's original bits (invertible: from_ordered undoes it).
  __host__ __device__ static bits_t ordered(bits_t bits) {
    bits_t result = bits;
    if constexpr (std::is_floating_point_v<Key>) {
      result = static_cast<bits_t>(bits ^ ((bits & sign_bit) ? static_cast<bits_t>(~bits_t{0}) : sign_bit));
    } else if constexpr (std::is_signed_v<Key>) {
      result = static_cast<bits_t>(bits ^ sign_bit);
    }
    if constexpr (Descending) result = static_cast<bits_t>(~result);
    return result;
  }

  __host__ __device__ static bits_t from_ordered(bits_t ordered_bits) {
    bits_t result = ordered_bits;
    if constexpr (Descending) result = static_cast<bits_t>(~result);
    if constexpr (std::is_floating_point_v<Key>) {
      // Non-negative keys have the top bit set here, negative ones had every bit flipped.
      result = static_cast<bits_t>(result ^ ((result & sign_bit) ? sign_bit : static_cast<bits_t>(~bits_t{0})));
    } else if constexpr (std::is_signed_v<Key>) {
      result = static_cast<bits_t>(result ^ sign_bit);
    }
    return result;
  }

  // Digit `pass` (0: the least significant) of a key's ordered bits.
  __host__ __device__ static unsigned digit_of_ordered(bits_t ordered_bits, int pass) {
    if constexpr (std::is_floating_point_v<Key>) {
      // -0.0 counts as +0.0.
      constexpr bits_t minus_zero = Descending ? static_cast<bits_t>(~(sign_bit - 1)) : static_cast<bits_t>(sign_bit - 1);
      constexpr bits_t plus_zero = Descending ? static_cast<bits_t>(~sign_bit) : sign_bit;
      if (ordered_bits == minus_zero) ordered_bits = plus_zero;
    }
    return static_cast<unsigned>(ordered_bits >> (pass * radix_bits)) & (radix_digits - 1u);
  }

  // Digit `pass` of a key's original bits.
  __host__ __device__ static unsigned digit(bits_t bits, int pass) { return digit_of_ordered(ordered(bits), pass); }
};

}  // namespace fastscan::detail
