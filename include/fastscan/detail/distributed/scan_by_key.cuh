#pragma once
// Scans by key across ranks: a segment may run over shard borders, and over whole shards. Each rank
// publishes its first and last keys, whether its shard is one segment, and the total of its trailing
// segment (the values after its last segment head, reduced in order). A rank whose first key continues
// the previous non-empty rank's last segment folds those trailing totals backwards, in rank order,
// while the segment continues, and scans its leading segment (up to its first head) from that carry;
// the rest of its shard, which starts at a head, is an ordinary local scan by key.

#include <fastscan/detail/distributed/exchange.cuh>

#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/find.h>
#include <thrust/iterator/counting_iterator.h>
#include <cuda/std/iterator>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/scan.h>

#include <cuda/std/functional>

namespace fastscan::detail {

template <class K, class V>
struct by_key_record {
  K first_key;
  K last_key;
  V trailing_total;
  long long count;
  int single_segment;
};

// Whether element i (i >= 1) of a shard heads a segment.
template <class KeysIt, class Pred>
struct head_at {
  KeysIt keys;
  Pred pred;
  __device__ bool operator()(long long i) const { return !pred(keys[i - 1], keys[i]); }
};

// The carry into `rank`'s leading segment: the trailing totals of the lower ranks the segment runs
// through, nearest last; with exclusive, init folded in front.
template <class K, class V, class Pred, class Op>
__global__ void fold_by_key_records(by_key_record<K, V> const* records, int rank, Pred pred, Op op, V init, int exclusive,
                                    carry<V>* result) {
  follow_previous_grid();
  V value{};
  int present = 0;
  if (records[rank].count > 0) {
    K next_first = records[rank].first_key;
    for (int k = rank - 1; k >= 0; --k) {
      if (records[k].count == 0) continue;
      if (!pred(records[k].last_key, next_first)) break;
      value = present ? static_cast<V>(op(records[k].trailing_total, value)) : records[k].trailing_total;
      present = 1;
      if (!records[k].single_segment) break;
      next_first = records[k].first_key;
    }
  }
  if (present && exclusive) value = static_cast<V>(op(init, value));
  result->value = value;
  result->present = present;
}

template <class V>
struct leading_segment {
  long long length = 0;  // elements before the shard's first head after its first element
  carry<V> from_below{};
};

template <class V, class Local, class KeysIt, class ValuesIt, class Pred, class Op>
leading_segment<V> leading_segment_of(distributed_policy<Local> const& policy, KeysIt keys, long long n, ValuesIt values,
                                      Pred pred, Op op, V const* exclusive_init, const char* call) {
  using K = ::cuda::std::iter_value_t<KeysIt>;
  static_assert(exchangeable<K> && exchangeable<V>,
                "a distributed scan by key's keys and values travel as bytes: trivially copyable, default-constructible");
  const rank_layout layout = layout_of(policy, call);
  const cudaStream_t stream = stream_of(policy);
  record_buffer<by_key_record<K, V>> records(policy, static_cast<std::size_t>(layout.ranks) + 1, call);
  record_buffer<carry<V>> result(policy, 1, call);
  by_key_record<K, V>* mine = records.get() + layout.ranks;
  leading_segment<V> lead;
  lead.length = n;
  int single_segment = 1;
  if (n > 0) {
    const head_at<KeysIt, Pred> heads{keys, pred};
    const thrust::counting_iterator<long long> second(1), end(n);
    const auto first_head = thrust::find_if(policy.local, second, end, heads);
    lead.length = first_head == end ? n : *first_head;
    const auto last_head = thrust::find_if(policy.local, thrust::make_reverse_iterator(end),
                                           thrust::make_reverse_iterator(second), heads);
    const long long trailing_start = last_head == thrust::make_reverse_iterator(second) ? 0 : *last_head;
    single_segment = trailing_start == 0 ? 1 : 0;
    thrust::inclusive_scan(policy.local, values + trailing_start, values + n,
                           last_value_sink<V>(&mine->trailing_total, n - trailing_start - 1), op);
    thrust::copy(policy.local, keys, keys + 1, thrust::device_pointer_cast(&mine->first_key));
    thrust::copy(policy.local, keys + (n - 1), keys + n, thrust::device_pointer_cast(&mine->last_key));
  }
  to_device(policy, n, &mine->count, call);
  to_device(policy, single_segment, &mine->single_segment, call);
  all_gather(policy, mine, records.get(), call);
  throw_if_failed(launch_kernel(fold_by_key_records<K, V, Pred, Op>, 1, 1, 0, stream, records.get(), layout.rank, pred, op,
                                exclusive_init ? *exclusive_init : V{}, exclusive_init ? 1 : 0, result.get()),
                  policy, call, "folding the lower ranks' trailing segments");
  lead.from_below = to_host(policy, result.get(), call);
  return lead;
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt, class Pred, class Op>
OutputIt inclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result, Pred pred, Op op) {
  using V = ::cuda::std::iter_value_t<ValuesIt>;
  const long long n = shard_length(policy, keys_first, keys_last, "inclusive_scan_by_key");
  const auto lead = leading_segment_of<V>(policy, keys_first, n, values, pred, op, nullptr, "inclusive_scan_by_key");
  if (!lead.from_below.present) return thrust::inclusive_scan_by_key(policy.local, keys_first, keys_last, values, result, pred, op);
  thrust::inclusive_scan(policy.local, values, values + lead.length, result, lead.from_below.value, op);
  if (lead.length < n)
    thrust::inclusive_scan_by_key(policy.local, keys_first + lead.length, keys_last, values + lead.length,
                                  result + lead.length, pred, op);
  return result + n;
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt, class Pred>
OutputIt inclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result, Pred pred) {
  return fastscan::detail::inclusive_scan_by_key(policy, keys_first, keys_last, values, result, pred, ::cuda::std::plus<>{});
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt>
OutputIt inclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result) {
  return fastscan::detail::inclusive_scan_by_key(policy, keys_first, keys_last, values, result, ::cuda::std::equal_to<>{},
                                                 ::cuda::std::plus<>{});
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt, class T, class Pred, class Op>
OutputIt exclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result, T init, Pred pred, Op op) {
  const long long n = shard_length(policy, keys_first, keys_last, "exclusive_scan_by_key");
  const auto lead = leading_segment_of<T>(policy, keys_first, n, values, pred, op, &init, "exclusive_scan_by_key");
  if (!lead.from_below.present)
    return thrust::exclusive_scan_by_key(policy.local, keys_first, keys_last, values, result, init, pred, op);
  thrust::exclusive_scan(policy.local, values, values + lead.length, result, lead.from_below.value, op);
  if (lead.length < n)
    thrust::exclusive_scan_by_key(policy.local, keys_first + lead.length, keys_last, values + lead.length,
                                  result + lead.length, init, pred, op);
  return result + n;
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt, class T, class Pred>
OutputIt exclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result, T init, Pred pred) {
  return fastscan::detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init, pred,
                                                 ::cuda::std::plus<>{});
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt, class T>
OutputIt exclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result, T init) {
  return fastscan::detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, init,
                                                 ::cuda::std::equal_to<>{}, ::cuda::std::plus<>{});
}

template <class Local, class KeysIt, class ValuesIt, class OutputIt>
OutputIt exclusive_scan_by_key(distributed_policy<Local>& policy, KeysIt keys_first, KeysIt keys_last, ValuesIt values,
                               OutputIt result) {
  using V = ::cuda::std::iter_value_t<ValuesIt>;
  return fastscan::detail::exclusive_scan_by_key(policy, keys_first, keys_last, values, result, V{},
                                                 ::cuda::std::equal_to<>{}, ::cuda::std::plus<>{});
}

}  // namespace fastscan::detail
