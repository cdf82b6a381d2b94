#pragma once
// fastscan across the GPUs of a host, on NCCL (optional: the rest of fastscan does not need NCCL).
//
//   ncclComm_t comm;  // one rank per GPU: one process each, or ncclCommInitAll and a host thread each
//   thrust::inclusive_scan(fastscan::matrix.on(stream).across(comm), shard.begin(), shard.end(), out.begin());
//
// Each rank passes its own shard; the result is the algorithm's over the concatenation of all shards
// in rank order, each rank receiving its part. Taken across ranks: inclusive_scan, exclusive_scan (every
// arity, any associative operator), inclusive_scan_by_key and exclusive_scan_by_key (segments may span
// shards), copy_if, remove_copy_if, remove_if, partition and stable_partition (the kept elements stay on
// their rank; .report_to(&placement) tells each rank its offset in the whole result and the total), and
// sort, stable_sort, sort_by_key and stable_sort_by_key of integer, float or double keys in the default
// order, thrust::less or thrust::greater, on contiguous memory (stable; each rank keeps its shard's size:
// the sorted whole, cut where the input was cut).
// Every rank must make the same calls in the same order, as with any NCCL collective. Each call but the
// sorts waits for the exchange of one small record per rank; a sort exchanges one count per boundary
// and key bit, then its keys and values once. Values, keys and initial values are exchanged as
// bytes: trivially copyable types. With a _deterministic local policy the result has the same bits on
// every run (the lower ranks' totals are folded in rank order).

#include <fastscan/detail/distributed/compaction.cuh>
#include <fastscan/detail/distributed/distributed_policy.cuh>
#include <fastscan/detail/distributed/scan.cuh>
#include <fastscan/detail/distributed/scan_by_key.cuh>
#include <fastscan/detail/distributed/sort.cuh>
#include <fastscan/fastscan.cuh>
