#pragma once
// fastscan's internals use a few Thrust and libcu++ details (thrust::detail::it_value_t,
// temporary_array, allocator_aware_execution_policy, cuda::std::__accumulator_t) that CCCL may change
// between major versions. They were written against CCCL 3.0 (CUDA 13.0): outside CCCL 3.x, stop with
// a message rather than with errors deep inside Thrust.

#include <cuda/std/version>

#if !defined(FASTSCAN_IGNORE_CCCL_VERSION)
#  if !defined(CCCL_VERSION) || CCCL_VERSION < 3000000 || CCCL_VERSION >= 4000000
#    error "fastscan needs CCCL 3.x (the Thrust and CUB of CUDA 13; tested with CCCL 3.0.1). Use a CUDA 13 toolkit, or define FASTSCAN_IGNORE_CCCL_VERSION to try this one anyway."
#  endif
#endif
