#pragma once
// Compaction across ranks: every rank compacts its own shard locally (the selected elements stay on
// their rank, in order), then the ranks' counts are gathered so that each rank learns where its part
// lies in the whole result, reported through policy.across(comm).report_to(&placement).

#include <fastscan/detail/distributed/exchange.cuh>

#include <thrust/copy.h>
#include <thrust/partition.h>
#include <thrust/remove.h>

#include <vector>

namespace fastscan::detail {

// Gathers every rank's count of kept elements; reports this rank's offset and the total.
template <class Local>
void report_placement(distributed_policy<Local> const& policy, long long kept, const char* call) {
  const rank_layout layout = layout_of(policy, call);
  const std::vector<long long> all = gather_counts(policy, layout, kept, call);
  shard_placement placement;
  for (int k = 0; k < layout.ranks; ++k) {
    if (k < layout.rank) placement.offset += all[static_cast<std::size_t>(k)];
    placement.total += all[static_cast<std::size_t>(k)];
  }
  if (policy.report) *policy.report = placement;
}

// A local compaction's end, after reporting how many it kept from `begin`.
template <class Local, class It>
It reported(distributed_policy<Local> const& policy, It begin, It end, const char* call) {
  report_placement(policy, static_cast<long long>(thrust::distance(begin, end)), call);
  return end;
}

template <class Local, class InputIt, class OutputIt, class Pred>
OutputIt copy_if(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result, Pred pred) {
  return reported(policy, result, thrust::copy_if(policy.local, first, last, result, pred), "copy_if");
}

template <class Local, class InputIt, class StencilIt, class OutputIt, class Pred>
OutputIt copy_if(distributed_policy<Local>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result, Pred pred) {
  return reported(policy, result, thrust::copy_if(policy.local, first, last, stencil, result, pred), "copy_if");
}

template <class Local, class InputIt, class OutputIt, class Pred>
OutputIt remove_copy_if(distributed_policy<Local>& policy, InputIt first, InputIt last, OutputIt result, Pred pred) {
  return reported(policy, result, thrust::remove_copy_if(policy.local, first, last, result, pred), "remove_copy_if");
}

template <class Local, class InputIt, class StencilIt, class OutputIt, class Pred>
OutputIt remove_copy_if(distributed_policy<Local>& policy, InputIt first, InputIt last, StencilIt stencil, OutputIt result,
                        Pred pred) {
  return reported(policy, result, thrust::remove_copy_if(policy.local, first, last, stencil, result, pred), "remove_copy_if");
}

template <class Local, class It, class Pred>
It remove_if(distributed_policy<Local>& policy, It first, It last, Pred pred) {
  return reported(policy, first, thrust::remove_if(policy.local, first, last, pred), "remove_if");
}

template <class Local, class It, class StencilIt, class Pred>
It remove_if(distributed_policy<Local>& policy, It first, It last, StencilIt stencil, Pred pred) {
  return reported(policy, first, thrust::remove_if(policy.local, first, last, stencil, pred), "remove_if");
}

template <class Local, class It, class Pred>
It partition(distributed_policy<Local>& policy, It first, It last, Pred pred) {
  return reported(policy, first, thrust::partition(policy.local, first, last, pred), "partition");
}

template <class Local, class It, class StencilIt, class Pred>
It partition(distributed_policy<Local>& policy, It first, It last, StencilIt stencil, Pred pred) {
  return reported(policy, first, thrust::partition(policy.local, first, last, stencil, pred), "partition");
}

template <class Local, class It, class Pred>
It stable_partition(distributed_policy<Local>& policy, It first, It last, Pred pred) {
  return reported(policy, first, thrust::stable_partition(policy.local, first, last, pred), "stable_partition");
}

template <class Local, class It, class StencilIt, class Pred>
It stable_partition(distributed_policy<Local>& policy, It first, It last, StencilIt stencil, Pred pred) {
  return reported(policy, first, thrust::stable_partition(policy.local, first, last, stencil, pred), "stable_partition");
}

}  // namespace fastscan::detail
