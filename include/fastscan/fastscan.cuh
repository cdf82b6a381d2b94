#pragma once
// fastscan: hand-written GPU scans behind Thrust's interface. Swap the execution policy:
//
//   thrust::exclusive_scan(fastscan::matrix, first, last, out);          // was thrust::cuda::par
//   thrust::inclusive_scan(fastscan::blelloch.on(stream), first, last, out, op);
//
// Scans and stream compaction (copy_if, remove_copy_if) run fastscan's kernels; every other Thrust
// algorithm runs on Thrust's CUDA backend. This header brings the policies and Thrust's scan, copy and
// remove headers; include Thrust's own headers for its other algorithms and containers
// (<thrust/reduce.h>, <thrust/device_vector.h>, ...), as with thrust::cuda::par. Also here:
// device_scan (CUB's calling convention), the memory-pool controls and the version macros.

#include <fastscan/detail/cccl_check.cuh>
#include <fastscan/detail/thrust/copy_if.cuh>
#include <fastscan/detail/thrust/scan.cuh>
#include <fastscan/detail/thrust/scan_by_key.cuh>
#include <fastscan/device_scan.cuh>
#include <fastscan/execution_policy.cuh>
#include <fastscan/memory.cuh>
#include <fastscan/version.cuh>

#include <thrust/copy.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/transform_scan.h>
