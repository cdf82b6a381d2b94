#pragma once
// What the scan-by-key suite checks with (scan_by_key_suite.cuh). Segment layouts cover the
// single segment, one element per segment, random lengths of several means, the matrix paper's best
// case (heads at tile starts) and worst case (heads at each tile's last element, so a tile's first
// segment is all but one element), and segments spanning many tiles.

#include "common/policies.cuh"

#include <thrust/iterator/reverse_iterator.h>

namespace fastscan_test {

enum class layout { single, singletons, mean_1, mean_3, mean_32, mean_1000, mean_100000, tile_starts, tile_ends, spanning };
const layout all_layouts[] = {layout::single,    layout::singletons,  layout::mean_1,     layout::mean_3,
                              layout::mean_32,   layout::mean_1000,   layout::mean_100000, layout::tile_starts,
                              layout::tile_ends, layout::spanning};

inline const char* name_of(layout l) {
  const char* names[] = {"single", "singletons", "mean_1", "mean_3", "mean_32", "mean_1000", "mean_100000",
                         "tile_starts", "tile_ends", "spanning"};
  return names[static_cast<int>(l)];
}

// Keys whose runs of equal adjacent values form the layout's segments.
template <class K = int>
std::vector<K> segment_keys(layout l, std::size_t n, std::size_t tile, std::uint64_t seed) {
  std::vector<K> keys(n);
  auto random_lengths = [&](double mean) {  // lengths uniform in [1, 2 mean - 1]
    std::size_t i = 0, segment = 0;
    while (i < n) {
      const std::size_t span = static_cast<std::size_t>(2 * mean - 1);
      std::size_t length = 1 + (span > 1 ? splitmix64(seed + segment) % span : 0);
      for (std::size_t j = 0; j < length && i < n; ++j) keys[i++] = static_cast<K>(segment % 1000);
      ++segment;
    }
  };
  switch (l) {
    case layout::single: std::fill(keys.begin(), keys.end(), K(7)); break;
    case layout::singletons: for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<K>(i % 1000); break;
    case layout::mean_1: random_lengths(1.5); break;
    case layout::mean_3: random_lengths(3); break;
    case layout::mean_32: random_lengths(32); break;
    case layout::mean_1000: random_lengths(1000); break;
    case layout::mean_100000: random_lengths(100000); break;
    case layout::tile_starts: for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<K>((i / tile) % 1000); break;
    case layout::tile_ends: for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<K>(((i + 1) / tile) % 1000); break;
    case layout::spanning: for (std::size_t i = 0; i < n; ++i) keys[i] = static_cast<K>((i / (10 * tile + 3)) % 1000); break;
  }
  return keys;
}

template <class AccT, class Out, class K, class V, class Pred, class Op>
std::vector<Out> reference_inclusive_by_key(std::vector<K> const& keys, std::vector<V> const& values, Pred pred, Op op) {
  std::vector<Out> out(values.size());
  AccT acc{};
  for (std::size_t i = 0; i < values.size(); ++i) {
    acc = (i == 0 || !pred(keys[i - 1], keys[i])) ? static_cast<AccT>(values[i]) : static_cast<AccT>(op(acc, values[i]));
    out[i] = static_cast<Out>(acc);
  }
  return out;
}

template <class AccT, class Out, class K, class V, class Pred, class Op>
std::vector<Out> reference_exclusive_by_key(std::vector<K> const& keys, std::vector<V> const& values, AccT init,
                                            Pred pred, Op op) {
  std::vector<Out> out(values.size());
  AccT acc = init;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i == 0 || !pred(keys[i - 1], keys[i])) acc = init;
    out[i] = static_cast<Out>(acc);
    acc = static_cast<AccT>(op(acc, values[i]));
  }
  return out;
}

template <class T>
std::vector<T> reversed(std::vector<T> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

struct near_equal {  // float keys belong together when within 0.5 of each other
  __host__ __device__ bool operator()(float a, float b) const { return (a > b ? a - b : b - a) < 0.5f; }
};

// For each size (and the layout given, or one rotating with the size): random values, keys of the
// layout (of type K), poisoned output, call(policy, keys, values, out) through the next policy flavour,
// and an exact check against reference(keys, values). Backward: the same on reverse iterators, checked
// against the reversed forward reference of the reversed data.
template <class Under, class V, class Out, class Call, class Reference, class K = int>
void sweep_by_key(std::vector<std::size_t> const& sizes, std::vector<layout> const& layouts, std::uint64_t seed,
                  bool backward, Call call, Reference reference) {
  scoped_stream stream;
  int round = 0;
  for (std::size_t n : sizes) {
    for (layout l : layouts) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", layout " + name_of(l) + (backward ? ", backward" : "") +
                   ", policy flavour " + std::to_string(round % 6));
      const auto keys = segment_keys<K>(l, n, Under::template tile<V>, seed + n);
      const auto values = random_vector<V>(n, seed + 2 * n + 1);
      auto d_keys = to_device(keys);
      auto d_values = to_device(values);
      auto d_out = poisoned_device_vector<Out>(n);
      with_policy_flavour<Under>(round++, stream.get(), [&](auto policy) {
        if (backward) call(policy, d_keys.rbegin(), d_keys.rend(), d_values.rbegin(), d_out.rbegin());
        else call(policy, d_keys.begin(), d_keys.end(), d_values.begin(), d_out.begin());
      });
      const auto expected = backward ? reversed(reference(reversed(keys), reversed(values))) : reference(keys, values);
      ASSERT_TRUE(all_equal(expected, to_host(d_out)));
    }
  }
}

inline std::vector<std::size_t> by_key_sizes(std::size_t tile) {
  // 37 * tile and 2^20: multiples of 16 elements, so backward views take the 16-byte vector path too.
  return capped({1, 2, tile - 1, tile, tile + 1, 3 * tile + 5, 37 * tile, 104729, std::size_t{1} << 20,
                 (std::size_t{1} << 20) + 1});
}

auto inclusive_plus = [](auto policy, auto k0, auto k1, auto v, auto r) {
  return thrust::inclusive_scan_by_key(policy, k0, k1, v, r);
};
auto exclusive_init = [](auto policy, auto k0, auto k1, auto v, auto r) {
  return thrust::exclusive_scan_by_key(policy, k0, k1, v, r, -3);
};

}  // namespace fastscan_test
