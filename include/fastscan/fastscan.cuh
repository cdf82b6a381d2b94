#pragma once
// fastscan: hand-written GPU scans behind Thrust's interface. Swap the execution policy:
//
//   thrust::exclusive_scan(fastscan::matrix, first, last, out);          // was thrust::cuda::par
//   thrust::inclusive_scan(fastscan::blelloch.on(stream), first, last, out, op);
//
// Scans run fastscan's kernels; every other Thrust algorithm runs on Thrust's CUDA backend.

#include <fastscan/detail/thrust/scan.cuh>
#include <fastscan/detail/thrust/scan_by_key.cuh>
#include <fastscan/execution_policy.cuh>

#include <thrust/scan.h>
#include <thrust/transform_scan.h>
