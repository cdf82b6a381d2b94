#pragma once
// Sorts across ranks: sort, stable_sort, sort_by_key and stable_sort_by_key with the orders fastscan
// radix-sorts (the default, thrust::less, thrust::greater) on contiguous memory. Each rank sorts its
// shard with the local policy. The ranks then find where the whole sorted sequence is cut at the
// shards' own boundaries: for each boundary the key at that position is found bit by bit, one
// all-reduce of counts a bit, on the device; equal keys are split in rank order, which keeps the sort
// stable. Every rank sends every other the run of its sorted keys (and values) that lands there, in one
// NCCL all-to-all, and merges the sorted runs it received pairwise (Thrust's merge, stable: the runs
// arrive in rank order, and a merge takes the earlier run's keys first among equal ones). Each rank ends
// with as many elements as it gave: the sorted whole, cut where the input was cut.

#include <fastscan/detail/distributed/exchange.cuh>
#include <fastscan/detail/radix_key.cuh>
#include <fastscan/detail/thrust/sort.cuh>

#include <thrust/copy.h>
#include <thrust/merge.h>
#include <thrust/detail/temporary_array.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace fastscan::detail {

// The bits a sort of Key in this order compares, as an unsigned number (radix_key.cuh, -0.0 as +0.0).
template <class Key, bool Descending>
struct compared_bits {
  using radix = radix_key<Key, Descending>;
  using bits_t = typename radix::bits_t;
  __host__ __device__ static bits_t of(Key const& key) {
    bits_t bits;
    std::memcpy(&bits, &key, sizeof(Key));
    const bits_t ordered = radix::ordered(bits);
    if constexpr (std::is_floating_point_v<Key>) {
      if (ordered == radix::ordered(radix::sign_bit)) return radix::ordered(bits_t{0});
    }
    return ordered;
  }
};

// How many of sorted[0, n) compare below `bound` (or, with or_equal, not above it).
template <class Bits, class Key>
__device__ long long count_below(Key const* sorted, long long n, typename Bits::bits_t bound, bool or_equal) {
  long long low = 0, high = n;
  while (low < high) {
    const long long middle = low + (high - low) / 2;
    const auto bits = Bits::of(sorted[middle]);
    if (bits < bound || (or_equal && bits == bound)) low = middle + 1;
    else high = middle;
  }
  return low;
}

// One boundary's search for the key at global position `target` of the sorted whole: the largest
// `prefix` with fewer than or exactly `target` keys below it, built from the top bit down.
template <class Bits>
struct boundary_search {
  typename Bits::bits_t prefix;
  typename Bits::bits_t candidate;
  long long target;
};

// Round `bit` of every boundary's search (thread j: boundary j): takes the previous round's candidate
// where the ranks' summed count allows it, then counts this rank's keys below the next candidate. With
// bit < 0, the last update, then this rank's keys below and not above each boundary's key.
template <class Bits, class Key>
__global__ void boundary_search_round(boundary_search<Bits>* searches, long long* counts, int boundaries, int bit,
                                      bool first_round, Key const* sorted, long long n, long long* below_and_through) {
  follow_previous_grid();
  const int j = static_cast<int>(threadIdx.x);
  if (j >= boundaries) return;
  boundary_search<Bits> s = searches[j];
  if (!first_round && counts[j] <= s.target) s.prefix = s.candidate;
  if (bit >= 0) {
    s.candidate = static_cast<typename Bits::bits_t>(s.prefix | (typename Bits::bits_t{1} << bit));
    counts[j] = count_below<Bits>(sorted, n, s.candidate, false);
  } else {
    below_and_through[2 * j] = count_below<Bits>(sorted, n, s.prefix, false);
    below_and_through[2 * j + 1] = count_below<Bits>(sorted, n, s.prefix, true);
  }
  searches[j] = s;
}

// Where the sorted whole's cuts fall in each rank's sorted shard: cut[s][d] is the first element of rank
// s's shard that goes to rank d (cut[s][0] = 0, cut[s][ranks] = its size). From each rank's counts of
// keys below and not above each boundary's key, equal keys going to the lower ranks' first.
inline std::vector<std::vector<long long>> cuts_of(std::vector<long long> const& sizes,
                                                   std::vector<long long> const& below_and_through) {
  const std::size_t ranks = sizes.size();
  const std::size_t boundaries = ranks - 1;
  std::vector<std::vector<long long>> cut(ranks, std::vector<long long>(ranks + 1, 0));
  long long target = 0;
  for (std::size_t j = 0; j < boundaries; ++j) {
    target += sizes[j];
    long long below = 0;
    for (std::size_t s = 0; s < ranks; ++s) below += below_and_through[(s * boundaries + j) * 2];
    long long remaining = target - below;
    for (std::size_t s = 0; s < ranks; ++s) {
      const long long first = below_and_through[(s * boundaries + j) * 2];
      const long long equal = below_and_through[(s * boundaries + j) * 2 + 1] - first;
      const long long take = remaining < equal ? (remaining > 0 ? remaining : 0) : equal;
      remaining -= take;
      cut[s][j + 1] = first + take;
    }
  }
  for (std::size_t s = 0; s < ranks; ++s) cut[s][ranks] = sizes[s];
  return cut;
}

// Where the run from each rank s starts in what this rank receives (rank order), and the end.
inline std::vector<long long> runs_received(std::vector<std::vector<long long>> const& cut, std::size_t me) {
  std::vector<long long> at(cut.size() + 1, 0);
  for (std::size_t s = 0; s < cut.size(); ++s) at[s + 1] = at[s] + (cut[s][me + 1] - cut[s][me]);
  return at;
}

// Sends run [cut[me][d], cut[me][d + 1]) of `sorted` to each rank d and receives rank s's run for this
// rank into `received` at receive_at[s] (one NCCL group; this rank's own run copied on the stream).
template <class Local, class T>
void exchange_runs(distributed_policy<Local> const& policy, rank_layout layout, T const* sorted, T* received,
                   std::vector<std::vector<long long>> const& cut, std::vector<long long> const& receive_at,
                   const char* call) {
  const cudaStream_t stream = stream_of(policy);
  const auto me = static_cast<std::size_t>(layout.rank);
  throw_if_failed(ncclGroupStart(), call, "ncclGroupStart");
  for (std::size_t d = 0; d < cut.size(); ++d) {
    const long long send = cut[me][d + 1] - cut[me][d];
    const long long receive = receive_at[d + 1] - receive_at[d];
    if (d == me) continue;
    if (send > 0)
      throw_if_failed(ncclSend(sorted + cut[me][d], static_cast<std::size_t>(send) * sizeof(T), ncclUint8, static_cast<int>(d),
                               policy.comm, stream),
                      call, "ncclSend of a run of the sorted shard");
    if (receive > 0)
      throw_if_failed(ncclRecv(received + receive_at[d], static_cast<std::size_t>(receive) * sizeof(T), ncclUint8,
                               static_cast<int>(d), policy.comm, stream),
                      call, "ncclRecv of another rank's run");
  }
  throw_if_failed(ncclGroupEnd(), call, "ncclGroupEnd");
  const long long own = cut[me][me + 1] - cut[me][me];
  if (own > 0)
    throw_if_failed(cudaMemcpyAsync(received + receive_at[me], sorted + cut[me][me], static_cast<std::size_t>(own) * sizeof(T),
                                    cudaMemcpyDeviceToDevice, stream),
                    policy, call, "copying the rank's own run");
}

// The cuts of every rank's sorted shard (cuts_of), found by the boundary searches.
template <class Bits, class Local, class Key>
std::vector<std::vector<long long>> find_cuts(distributed_policy<Local> const& policy, rank_layout layout,
                                              std::vector<long long> const& sizes, Key const* sorted, long long n,
                                              const char* call) {
  const cudaStream_t stream = stream_of(policy);
  const int boundaries = layout.ranks - 1;
  const auto b = static_cast<std::size_t>(boundaries);
  std::vector<boundary_search<Bits>> searches(b);
  for (std::size_t j = 0; j < b; ++j) searches[j] = {0, 0, (j > 0 ? searches[j - 1].target : 0) + sizes[j]};
  record_buffer<boundary_search<Bits>> d_searches(policy, b, call);
  record_buffer<long long> counts(policy, b, call);
  record_buffer<long long> found(policy, 2 * b * (b + 2), call);  // every rank's, then this rank's
  long long* mine = found.get() + 2 * b * static_cast<std::size_t>(layout.ranks);
  throw_if_failed(cudaMemcpyAsync(d_searches.get(), searches.data(), b * sizeof(searches[0]), cudaMemcpyHostToDevice, stream),
                  policy, call, "writing the boundary searches");
  for (int bit = static_cast<int>(sizeof(Key)) * 8 - 1; bit >= -1; --bit) {
    const bool first_round = bit == static_cast<int>(sizeof(Key)) * 8 - 1;
    throw_if_failed(launch_kernel(boundary_search_round<Bits, Key>, 1, 32 * ((boundaries + 31) / 32), 0, stream,
                                  d_searches.get(), counts.get(), boundaries, bit, first_round, sorted, n, mine),
                    policy, call, "searching the shard boundaries' keys");
    if (bit >= 0)
      throw_if_failed(ncclAllReduce(counts.get(), counts.get(), b, ncclInt64, ncclSum, policy.comm, stream), call,
                      "ncclAllReduce of the boundary searches' counts");
  }
  throw_if_failed(ncclAllGather(mine, found.get(), 2 * b, ncclInt64, policy.comm, stream), call,
                  "ncclAllGather of the boundaries' positions");
  std::vector<long long> below_and_through(2 * b * static_cast<std::size_t>(layout.ranks));
  throw_if_failed(cudaMemcpyAsync(below_and_through.data(), found.get(), below_and_through.size() * sizeof(long long),
                                  cudaMemcpyDeviceToHost, stream),
                  policy, call, "copying the boundaries' positions to the host");
  throw_if_failed(cudaStreamSynchronize(stream), policy, call, "waiting for the boundary searches");
  return cuts_of(sizes, below_and_through);
}

// The order of the sort, for Thrust's merge: by compared_bits.
template <class Bits>
struct compared_less {
  template <class Key>
  __host__ __device__ bool operator()(Key const& a, Key const& b) const {
    return Bits::of(a) < Bits::of(b);
  }
};

// Merges the sorted runs [at[k], at[k + 1]) of (scratch_keys, scratch_values) into one sorted
// sequence in (keys, values), pairwise, level by level, the earlier run first among equal keys. The
// levels alternate between the two buffers; with an even number of them the runs are copied to (keys,
// values) first, so that the last level ends there.
template <class Less, class Local, class Key, class Value>
void merge_runs(Local& local, std::vector<long long> at, Key* keys, Value* values, Key* scratch_keys, Value* scratch_values,
                Less less) {
  constexpr bool with_values = !std::is_same_v<Value, keys_only>;
  at.erase(std::unique(at.begin(), at.end()), at.end());  // empty runs dropped
  int levels = 0;
  for (std::size_t runs = at.size() - 1; runs > 1; runs = (runs + 1) / 2) ++levels;
  Key* from_keys = scratch_keys;
  Value* from_values = scratch_values;
  Key* to_keys = keys;
  Value* to_values = values;
  if (levels % 2 == 0) {
    thrust::copy(local, scratch_keys, scratch_keys + at.back(), keys);
    if constexpr (with_values) thrust::copy(local, scratch_values, scratch_values + at.back(), values);
    std::swap(from_keys, to_keys);
    std::swap(from_values, to_values);
  }
  while (at.size() > 2) {
    std::vector<long long> next = {0};
    for (std::size_t k = 0; k + 1 < at.size(); k += 2) {
      if (k + 2 < at.size()) {
        if constexpr (with_values)
          thrust::merge_by_key(local, from_keys + at[k], from_keys + at[k + 1], from_keys + at[k + 1], from_keys + at[k + 2],
                               from_values + at[k], from_values + at[k + 1], to_keys + at[k], to_values + at[k], less);
        else
          thrust::merge(local, from_keys + at[k], from_keys + at[k + 1], from_keys + at[k + 1], from_keys + at[k + 2],
                        to_keys + at[k], less);
        next.push_back(at[k + 2]);
      } else {  // an odd run out
        thrust::copy(local, from_keys + at[k], from_keys + at[k + 1], to_keys + at[k]);
        if constexpr (with_values) thrust::copy(local, from_values + at[k], from_values + at[k + 1], to_values + at[k]);
        next.push_back(at[k + 1]);
      }
    }
    std::swap(from_keys, to_keys);
    std::swap(from_values, to_values);
    at = std::move(next);
  }
}

// The sort across ranks of [keys_first, keys_last) and, unless ValuesIt is keys_only*, the values.
template <radix_order Order, class Local, class KeysIt, class ValuesIt>
void sort_across(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first,
                 const char* call) {
  using key_t = thrust::detail::it_value_t<KeysIt>;
  constexpr bool descending = Order == radix_order::descending;
  constexpr bool with_values = !std::is_same_v<ValuesIt, keys_only*>;
  static_assert(!with_values || exchangeable<thrust::detail::it_value_t<ValuesIt>>,
                "a sort across(comm) sends its values as bytes: trivially copyable, default-constructible types");
  static_assert(Order != radix_order::none,
                "fastscan sorts across(comm) radix-sortable keys (integers, float, double) in the default order, "
                "thrust::less or thrust::greater");
  static_assert(thrust::is_contiguous_iterator_v<KeysIt> && (!with_values || thrust::is_contiguous_iterator_v<ValuesIt>),
                "fastscan sorts across(comm) contiguous memory (device_vector, device_ptr or raw pointers)");
  using comparator = std::conditional_t<descending, ::cuda::std::greater<key_t>, ::cuda::std::less<key_t>>;
  const long long n = shard_length(policy, keys_first, keys_last, call);
  Local local = policy.local;
  auto sort_locally = [&](auto keys, auto values) {
    if constexpr (with_values) thrust::stable_sort_by_key(local, keys, keys + n, values, comparator{});
    else thrust::stable_sort(local, keys, keys + n, comparator{});
  };
  const rank_layout layout = layout_of(policy, call);
  key_t* keys = thrust::raw_pointer_cast(&*keys_first);
  auto values = [&] {
    if constexpr (with_values) return thrust::raw_pointer_cast(&*values_first);
    else return static_cast<keys_only*>(nullptr);
  }();
  if (n > 0) sort_locally(keys, values);
  if (layout.ranks == 1) return;
  const std::vector<long long> sizes = gather_counts(policy, layout, n, call);
  using bits = compared_bits<key_t, descending>;
  const auto cut = find_cuts<bits>(policy, layout, sizes, static_cast<key_t const*>(keys), n, call);
  const std::vector<long long> receive_at = runs_received(cut, static_cast<std::size_t>(layout.rank));
  // The runs arrive in scratch storage; the merges end in the caller's range, which the sends have read
  // by then (the same stream).
  thrust::detail::temporary_array<key_t, Local> received_keys(local, static_cast<std::size_t>(n));
  key_t* scratch_keys = thrust::raw_pointer_cast(received_keys.data());
  exchange_runs(policy, layout, static_cast<key_t const*>(keys), scratch_keys, cut, receive_at, call);
  if constexpr (with_values) {
    using value_t = thrust::detail::it_value_t<ValuesIt>;
    thrust::detail::temporary_array<value_t, Local> received_values(local, static_cast<std::size_t>(n));
    value_t* scratch_values = thrust::raw_pointer_cast(received_values.data());
    exchange_runs(policy, layout, static_cast<value_t const*>(values), scratch_values, cut, receive_at, call);
    merge_runs(local, receive_at, keys, values, scratch_keys, scratch_values, compared_less<bits>{});
  } else {
    merge_runs(local, receive_at, keys, static_cast<keys_only*>(nullptr), scratch_keys, static_cast<keys_only*>(nullptr),
               compared_less<bits>{});
  }
}

template <class Local, class It, class Compare>
void sort(distributed_policy<Local>& policy, It first, It last, Compare) {
  sort_across<radix_order_for<thrust::detail::it_value_t<It>, Compare>()>(policy, first, last, static_cast<keys_only*>(nullptr),
                                                                           "sort");
}

template <class Local, class It>
void sort(distributed_policy<Local>& policy, It first, It last) {
  sort_across<radix_order::ascending>(policy, first, last, static_cast<keys_only*>(nullptr), "sort");
}

template <class Local, class It, class Compare>
void stable_sort(distributed_policy<Local>& policy, It first, It last, Compare) {
  sort_across<radix_order_for<thrust::detail::it_value_t<It>, Compare>()>(policy, first, last, static_cast<keys_only*>(nullptr),
                                                                           "stable_sort");
}

template <class Local, class It>
void stable_sort(distributed_policy<Local>& policy, It first, It last) {
  sort_across<radix_order::ascending>(policy, first, last, static_cast<keys_only*>(nullptr), "stable_sort");
}

template <class Local, class KeysIt, class ValuesIt, class Compare>
void sort_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, Compare) {
  sort_across<radix_order_by_key<thrust::detail::it_value_t<KeysIt>, thrust::detail::it_value_t<ValuesIt>, Compare>()>(
      policy, keys_first, keys_last, values_first, "sort_by_key");
}

template <class Local, class KeysIt, class ValuesIt>
void sort_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first) {
  sort_across<radix_order::ascending>(policy, keys_first, keys_last, values_first, "sort_by_key");
}

template <class Local, class KeysIt, class ValuesIt, class Compare>
void stable_sort_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first, Compare) {
  sort_across<radix_order_by_key<thrust::detail::it_value_t<KeysIt>, thrust::detail::it_value_t<ValuesIt>, Compare>()>(
      policy, keys_first, keys_last, values_first, "stable_sort_by_key");
}

template <class Local, class KeysIt, class ValuesIt>
void stable_sort_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values_first) {
  sort_across<radix_order::ascending>(policy, keys_first, keys_last, values_first, "stable_sort_by_key");
}

}  // namespace fastscan::detail
