#pragma once
// What every family's tuning shares: the multi-block strategies a tuning names, and the shape helpers
// that derive threads and items per thread from the element type. A tuning struct names its block
// algorithm and strategy and derives its tile (threads * items per thread), never sets it on its own.
// Why each family's shapes are what they are, with the measurements: bench/PERFORMANCE.md, "Tuning choices".

#include <fastscan/detail/config.cuh>

#include <cstddef>

namespace fastscan::detail {

// What the host-side choices of a tuning may depend on, per device (dispatch/device_facts.cuh queries
// them once per device).
struct device_facts {
  int sms = 0;
  int compute_major = 0;
  std::size_t l2_bytes = 0;
  std::size_t shared_per_block_opt_in = 0;  // the most dynamic shared memory a block may opt in to
  double memory_bytes_per_second = 0;        // the device memory's peak (0: not known)
};

// Device memory classes a tuning may choose by: `fast` serves each SM more than 30 GB/s at peak (the
// H200: 4.9 TB/s over 132 SMs, 37 GB/s; the H100: 3.35 TB/s, 25 GB/s). There a persistent block's own
// chain of tile hand-offs, not the memory, can set a pass's rate (bench/PERFORMANCE.md).
enum class memory_class { any, fast };

inline bool has_memory_class(device_facts const& device, memory_class memory) {
  return memory == memory_class::any || (device.sms > 0 && device.memory_bytes_per_second / device.sms > 30e9);
}

// How tiles are stitched together across the grid.
enum class multi_block {
  single_pass,          // decoupled look-back: one launch, each element read and written once (2n traffic)
  single_pass_deterministic,  // the same launch and traffic, each tile's prefix combined in a shape fixed
                              // by its index alone (agent/deterministic_lookback.cuh): the same bits every run
  reduce_then_scan,     // reduce each tile, scan the totals recursively, scan each tile from its prefix (3n
                        // traffic); deterministic: the same combination order on every run
  scan_then_propagate,  // scan each tile, scan the totals recursively, add each prefix to its tile (4n traffic)
};

// Whether the strategy is one launch over the tiles with a look-back (the single-pass drivers).
constexpr bool is_single_pass(multi_block strategy) {
  return strategy == multi_block::single_pass || strategy == multi_block::single_pass_deterministic;
}

// How scans by key run.
enum class segmented_strategy {
  pair_scan,               // the algorithm's own driver over (head, value) pairs with the segmented operator
  segmented_block_kernel,  // the matrix paper's segmented block scan (4.2, Fig. 5): in one pass with the
                           // single-pass driver; with reduce-then-scan, the paper's own driver (4.2.2): one
                           // pass recording (r_b, f_b, s_b) per tile, the records scanned, each tile's first
                           // s_b elements fixed up
};

// Elements a thread holds together: a 16-byte vector where it divides the thread's items, else 1.
template <class T, int ItemsPerThread>
constexpr int vector_for() {
  constexpr int vector = elements_per_vector<T>();
  return ItemsPerThread % vector == 0 ? vector : 1;
}

// Items per thread for element type T: `nominal` for 4-byte types, fewer for wider types, rounded
// down to a power of two so the tile is one too.
template <class T>
constexpr int scaled_items_per_thread(int nominal) {
  int items = nominal * 4 / static_cast<int>(sizeof(T));
  if (items > nominal) items = nominal;
  if (items < 1) items = 1;
  int power = 1;
  while (power * 2 <= items) power *= 2;
  return power;
}

// Threads per block for element type T: `nominal`, halved (down to one warp) while a tile would take
// more bytes than `tile_bytes`, the algorithm's nominal tile of 4-byte elements. Items per thread
// shrink with the element first; once they are down to one, large elements shrink the block, so its
// shared memory stays that of the nominal tile up to a few hundred bytes an element (beyond that,
// kernels/block_storage.cuh places a block's storage elsewhere).
template <class T>
constexpr int scaled_threads(int nominal, int items_per_thread, long long tile_bytes) {
  int threads = nominal;
  while (threads > 32 && static_cast<long long>(threads) * items_per_thread * static_cast<long long>(sizeof(T)) > tile_bytes)
    threads /= 2;
  return threads;
}

// Items per thread of `thread_bytes` bytes: at least one element and at most 32 (a thread's flags fill
// one word), whole 16-byte vectors where the element allows them.
template <class T, int ThreadBytes = 128>
constexpr int matrix_items_per_thread() {
  int items = ThreadBytes / static_cast<int>(sizeof(T));
  items = items < 1 ? 1 : items > 32 ? 32 : items;
  const int vector = elements_per_vector<T>();
  return items >= vector ? items / vector * vector : items;
}

}  // namespace fastscan::detail
