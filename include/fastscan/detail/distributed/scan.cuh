#pragma once
// Scans across ranks: each rank reduces its shard in order (one read of it, dispatch_reduce.cuh), the
// shards' totals are gathered, each rank folds the totals of the ranks below it in rank
// order (onto the initial value, if any) and scans its shard from that carry: one read of the shard
// more than the local scan, and one wait for the exchange. Any associative operator, commutative or not.

#include <fastscan/detail/distributed/exchange.cuh>

#include <cuda/std/iterator>
#include <thrust/scan.h>

#include <cuda/std/functional>

namespace fastscan::detail {

template <class T>
struct scan_record {
  T total;
  long long count;
};

// The carry into `rank`: init (if has_init), then every lower non-empty rank's total, in rank order.
template <class T, class Op>
__global__ void fold_scan_records(scan_record<T> const* records, int rank, Op op, T init, int has_init, carry<T>* result) {
  follow_previous_grid();
  T value = init;
  int present = has_init;
  for (int k = 0; k < rank; ++k) {
    if (records[k].count == 0) continue;
    value = present ? static_cast<T>(op(value, records[k].total)) : records[k].total;
    present = 1;
  }
  result->value = value;
  result->present = present;
}

template <class T, class Local, class InputIt, class Op>
carry<T> carry_into_rank(distributed_policy<Local> const& policy, InputIt first, InputIt last, Op op, T const* init,
                         const char* call) {
  static_assert(exchangeable<T>, "a distributed scan's values travel as bytes: trivially copyable, default-constructible");
  const rank_layout layout = layout_of(policy, call);
  const long long n = shard_length(policy, first, last, call);
  if (layout.ranks == 1) return carry<T>{init ? *init : T{}, init ? 1 : 0};  // nothing below: the local scan alone
  const cudaStream_t stream = stream_of(policy);
  record_buffer<scan_record<T>> records(policy, static_cast<std::size_t>(layout.ranks) + 1, call);
  record_buffer<carry<T>> result(policy, 1, call);
  scan_record<T>* mine = records.get() + layout.ranks;
  Local local = policy.local;
  reduce_in_order(local, first, last, op, &mine->total, call);
  to_device(policy, n, &mine->count, call);
  all_gather(policy, mine, records.get(), call);
  throw_if_failed(launch_kernel(fold_scan_records<T, Op>, 1, 1, 0, stream, records.get(), layout.rank, op, init ? *init : T{},
                                init ? 1 : 0, result.get()),
                  policy, call, "folding the lower ranks' totals");
  return to_host(policy, result.get(), call);
}

template <class Local, class InputIt, class OutputIt, class Op>
OutputIt inclusive_scan(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result, Op op) {
  using T = ::cuda::std::iter_value_t<InputIt>;
  const carry<T> c = carry_into_rank<T>(policy, first, last, op, nullptr, "inclusive_scan");
  if (c.present) return thrust::inclusive_scan(policy.local, first, last, result, c.value, op);
  return thrust::inclusive_scan(policy.local, first, last, result, op);
}

template <class Local, class InputIt, class OutputIt>
OutputIt inclusive_scan(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result) {
  return fastscan::detail::inclusive_scan(policy, first, last, result, ::cuda::std::plus<>{});
}

template <class Local, class InputIt, class OutputIt, class T, class Op>
OutputIt inclusive_scan(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result, T init, Op op) {
  const carry<T> c = carry_into_rank<T>(policy, first, last, op, &init, "inclusive_scan");
  return thrust::inclusive_scan(policy.local, first, last, result, c.value, op);
}

template <class Local, class InputIt, class OutputIt, class T, class Op>
OutputIt exclusive_scan(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result, T init, Op op) {
  const carry<T> c = carry_into_rank<T>(policy, first, last, op, &init, "exclusive_scan");
  return thrust::exclusive_scan(policy.local, first, last, result, c.value, op);
}

template <class Local, class InputIt, class OutputIt, class T>
OutputIt exclusive_scan(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result, T init) {
  return fastscan::detail::exclusive_scan(policy, first, last, result, init, ::cuda::std::plus<>{});
}

template <class Local, class InputIt, class OutputIt>
OutputIt exclusive_scan(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result) {
  using T = ::cuda::std::iter_value_t<InputIt>;
  return fastscan::detail::exclusive_scan(policy, first, last, result, T{}, ::cuda::std::plus<>{});
}

}  // namespace fastscan::detail
