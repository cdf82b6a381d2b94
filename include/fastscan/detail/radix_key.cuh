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
// Keys travel between passes as their original bits; only digits are taken from the ordered bits.

#include <cstdint>
#include <type_traits>

namespace fastscan::detail {

inline constexpr int radix_bits = 8;
inline constexpr int radix_digits = 1 << radix_bits;

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

  __host__ __device__ static bits_t ordered(bits_t bits) {
    bits_t result = bits;
    if constexpr (std::is_floating_point_v<Key>) {
      result = static_cast<bits_t>(bits ^ ((bits & sign_bit) ? static_cast<bits_t>(~bits_t{0}) : sign_bit));
      // -0.0 (all bits flipped: sign_bit - 1) counts as +0.0 (sign_bit).
      if (result == static_cast<bits_t>(sign_bit - 1)) result = sign_bit;
    } else if constexpr (std::is_signed_v<Key>) {
      result = static_cast<bits_t>(bits ^ sign_bit);
    }
    if constexpr (Descending) result = static_cast<bits_t>(~result);
    return result;
  }

  // Digit `pass` (0: the least significant) of a key's original bits.
  __host__ __device__ static unsigned digit(bits_t bits, int pass) {
    return static_cast<unsigned>(ordered(bits) >> (pass * radix_bits)) & (radix_digits - 1u);
  }
};

}  // namespace fastscan::detail
