#pragma once
// Work-efficient tree scan: Blelloch's up-sweep/down-sweep as Harris, Sengupta and Owens give it in
// "Parallel Prefix Sum (Scan) with CUDA" (GPU Gems 3, ch. 39), with their conflict-free offsets
// (one padding word every 32 elements, and one more every 1024), over the whole tile in shared
// memory with several elements per thread.
//
// Harris clears the root to the identity before the down-sweep. Thrust's scans have no identity,
// so instead the nodes on the tree's leftmost path are treated as "no prefix": where the parent is
// leftmost, the right child's prefix is simply the left sibling's sum.

#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class T, int Threads, int ItemsPerThread, bool ConflictFreeOffsets, int Vector = 1>
class block_scan_blelloch {
 public:
  static constexpr int tile_items = Threads * ItemsPerThread;
  static_assert(tile_items >= 2 && (tile_items & (tile_items - 1)) == 0, "the tree needs a power-of-two tile");
  static_assert(Threads % 32 == 0, "threads per block must be a multiple of the warp size");

  __host__ __device__ static constexpr int padded(int i) {
    return ConflictFreeOffsets ? i + (i >> 5) + (i >> 10) : i;
  }

  struct temp_storage {
    uninitialized_array<T, padded(tile_items - 1) + 1> tree;
    uninitialized<T> aggregate;
    uninitialized<T> block_prefix;
    bool has_block_prefix;
  };

  __device__ explicit block_scan_blelloch(temp_storage& storage) : s_(storage) {}

  // Same contract as block_scan_matrix::scan.
  template <scan_kind Kind, class Op, class PrefixOp>
  __device__ T scan(T (&items)[ItemsPerThread], Op op, PrefixOp&& prefix_op) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) construct_in(s_.tree[padded(striped_element<Threads, Vector>(k, threadIdx.x))], items[k]);

    // Up-sweep: after it, each right child holds the sum of its subtree; the root holds the tile's.
    int stride = 1;
    for (int active = tile_items / 2; active > 0; active /= 2) {
      __syncthreads();
      for (int pair = threadIdx.x; pair < active; pair += Threads) {
        const int left = padded(stride * (2 * pair + 1) - 1);
        const int right = padded(stride * (2 * pair + 2) - 1);
        construct_in(s_.tree[right], static_cast<T>(op(s_.tree[left], s_.tree[right])));
      }
      stride *= 2;
    }
    __syncthreads();

    if (threadIdx.x < 32) {
      const T aggregate = s_.tree[padded(tile_items - 1)];
      const maybe<T> block_prefix = prefix_op(aggregate);
      if (threadIdx.x == 0) {
        construct_in(s_.aggregate.get(), aggregate);
        s_.has_block_prefix = block_prefix.valid;
        if (block_prefix.valid) construct_in(s_.block_prefix.get(), block_prefix.value);
      }
    }

    // Down-sweep: each node receives the exclusive prefix of its subtree.
    for (int active = 1; active < tile_items; active *= 2) {
      stride /= 2;
      __syncthreads();
      for (int pair = threadIdx.x; pair < active; pair += Threads) {
        const int left = padded(stride * (2 * pair + 1) - 1);
        const int right = padded(stride * (2 * pair + 2) - 1);
        const T left_sum = s_.tree[left];
        if (pair == 0) {
          construct_in(s_.tree[right], left_sum);  // leftmost parent: no prefix to pass on
        } else {
          const T parent_prefix = s_.tree[right];
          construct_in(s_.tree[left], parent_prefix);
          construct_in(s_.tree[right], static_cast<T>(op(parent_prefix, left_sum)));
        }
      }
    }
    __syncthreads();

    const bool has_block_prefix = s_.has_block_prefix;
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int element = striped_element<Threads, Vector>(k, threadIdx.x);
      maybe<T> prefix = element > 0 ? some<T>(s_.tree[padded(element)]) : none<T>();
      if (has_block_prefix) {
        const T block_prefix = s_.block_prefix.get();
        prefix = some<T>(prefix.valid ? op(block_prefix, prefix.value) : block_prefix);
      }
      if constexpr (Kind == scan_kind::inclusive) {
        if (prefix.valid) items[k] = op(prefix.value, items[k]);
      } else {
        if (prefix.valid) items[k] = prefix.value;
      }
    }
    return s_.aggregate.get();
  }

 private:
  temp_storage& s_;
};

}  // namespace fastscan::detail
