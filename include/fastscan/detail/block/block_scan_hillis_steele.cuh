#pragma once
// Step-efficient scan of Hillis and Steele ("Data Parallel Algorithms", CACM 1986) in the
// double-buffered form of Harris et al., GPU Gems 3 ch. 39, Algorithm 2: log2(tile) steps, each
// combining every element with the one `offset` before it. O(n log n) work: the baseline.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class T, int Threads, int ItemsPerThread, int Vector = 1>
class block_scan_hillis_steele {
 public:
  static constexpr int tile_items = Threads * ItemsPerThread;
  static_assert(Threads % 32 == 0, "threads per block must be a multiple of the warp size");

  struct temp_storage {
    uninitialized_array<T, tile_items> buffer[2];
    uninitialized<T> aggregate;
    uninitialized<T> block_prefix;
    bool has_block_prefix;
  };

  __device__ explicit block_scan_hillis_steele(temp_storage& storage) : s_(storage) {}

  // Same contract as block_scan_matrix::scan.
  template <scan_kind Kind, class Op, class PrefixOp>
  __device__ T scan(T (&items)[ItemsPerThread], Op op, PrefixOp&& prefix_op) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) construct_in(s_.buffer[0][striped_element<Threads, Vector>(k, threadIdx.x)], items[k]);

    int in = 0;
    for (int offset = 1; offset < tile_items; offset *= 2) {
      __syncthreads();
#pragma unroll
      for (int k = 0; k < ItemsPerThread; ++k) {
        const int element = k * Threads + threadIdx.x;
        T value = s_.buffer[in][element];
        if (element >= offset) value = op(s_.buffer[in][element - offset], value);
        construct_in(s_.buffer[1 - in][element], value);
      }
      in = 1 - in;
    }
    __syncthreads();

    if (threadIdx.x < 32) {
      const T aggregate = s_.buffer[in][tile_items - 1];
      const maybe<T> block_prefix = prefix_op(aggregate);
      if (threadIdx.x == 0) {
        construct_in(s_.aggregate.get(), aggregate);
        s_.has_block_prefix = block_prefix.valid;
        if (block_prefix.valid) construct_in(s_.block_prefix.get(), block_prefix.value);
      }
    }
    __syncthreads();

    const bool has_block_prefix = s_.has_block_prefix;
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int element = striped_element<Threads, Vector>(k, threadIdx.x);
      // The inclusive result one position back is this element's exclusive result.
      const int source = Kind == scan_kind::inclusive ? element : element - 1;
      maybe<T> result = source >= 0 ? some<T>(s_.buffer[in][source]) : none<T>();
      if (has_block_prefix) {
        const T block_prefix = s_.block_prefix.get();
        result = some<T>(result.valid ? op(block_prefix, result.value) : block_prefix);
      }
      if (result.valid) items[k] = result.value;
    }
    return s_.aggregate.get();
  }

 private:
  temp_storage& s_;
};

}  // namespace fastscan::detail
