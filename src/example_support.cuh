#pragma once
// What every example program shares: a clear message and ctest's "skipped" exit code (77) when there is
// no usable GPU, and a check that prints what it compared.

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace example {

inline constexpr int skipped = 77;

// False, after saying why, when no GPU and driver can run CUDA code here.
inline bool gpu_usable(const char* program) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "%s: no usable GPU (%s); this example needs an NVIDIA GPU and its driver.\n", program,
                 status != cudaSuccess ? cudaGetErrorString(status) : "no CUDA device found");
    return false;
  }
  return true;
}

// Prints the outcome of one comparison; returns whether it held.
inline bool check(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "MISMATCH");
  return ok;
}

}  // namespace example
