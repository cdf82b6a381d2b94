#pragma once
// The lanes of a warp whose small label (a radix digit) equals this lane's, for stable ranking: one vote
// per label bit, each lane keeping the voters that agree with its own bit. All 32 lanes must call it.

namespace fastscan::detail {

// Lanes whose bit `bit_mask` of `label` is as this lane's: the vote of the lanes that have it set,
// inverted on the lanes that have it clear. In PTX because nvcc builds the inversion from a shift and a
// sign extension and the vote's predicate from a shift, a mask and a compare (seven instructions a bit
// against three: ptxas turns this form into one R2P for seven bits' predicates, a vote and a predicated
// NOT each). Measured: bench/PERFORMANCE.md, radix sort.
__device__ __forceinline__ unsigned lanes_agreeing_on_bit(unsigned label, unsigned bit_mask) {
  unsigned lanes;
  asm volatile(
      "{\n\t"
      ".reg .pred set;\n\t"
      "and.b32 %0, %1, %2;\n\t"
      "setp.ne.u32 set, %0, 0;\n\t"
      "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
      "@!set not.b32 %0, %0;\n\t"
      "}"
      : "=r"(lanes)
      : "r"(label), "r"(bit_mask));
  return lanes;
}

// The lanes among `candidates` whose low LabelBits bits of `label` equal this lane's.
template <int LabelBits>
__device__ __forceinline__ unsigned lanes_with_same_label(unsigned label, unsigned candidates) {
  unsigned lanes = candidates;
#pragma unroll
  for (int bit = 0; bit < LabelBits; ++bit) lanes &= lanes_agreeing_on_bit(label, 1u << bit);
  return lanes;
}

}  // namespace fastscan::detail
