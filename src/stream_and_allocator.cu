// Policies on streams, with an allocator, without synchronisation, and the memory-pool controls.
#include <fastscan/fastscan.cuh>

#include <thrust/device_allocator.h>
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <vector>

#include "example_support.cuh"

int main() {
  if (!example::gpu_usable("fastscan_stream_and_allocator")) return example::skipped;
  try {
    const int n = 3'000'000;
    thrust::device_vector<long long> values(n);
    thrust::sequence(values.begin(), values.end());
    std::vector<thrust::device_vector<long long>> results(4, thrust::device_vector<long long>(n));
    std::vector<cudaStream_t> streams(4);
    for (auto& s : streams) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);

    // Four scans at once, one per stream; _nosync returns without waiting.
    thrust::device_allocator<char> alloc;
    for (int i = 0; i < 4; ++i) {
      cudaStream_t stream = streams[i];
      if (i % 2 == 0) thrust::inclusive_scan(fastscan::matrix_nosync.on(stream), values.begin(), values.end(), results[i].begin());
      else thrust::inclusive_scan(fastscan::matrix_deterministic_nosync(alloc).on(stream), values.begin(), values.end(), results[i].begin());
    }
    for (cudaStream_t stream : streams) cudaStreamSynchronize(stream);

    bool ok = true;
    const long long last = static_cast<long long>(n) * (n - 1) / 2;
    for (int i = 0; i < 4; ++i) ok &= example::check(results[i].back() == last, i % 2 ? "deterministic, allocator, stream" : "nosync, stream");

    // Temporary storage of policies without an allocator comes from fastscan's pool.
    fastscan::set_pool_release_threshold(64 << 20);  // keep at most 64 MiB cached between calls, fixed
    fastscan::reset_pool_release_threshold();        // back to the default: 256 MiB or the largest call's
    fastscan::release_pool_memory();                 // hand cached memory back to the driver now
    ok &= example::check(fastscan::use_device_pool(false) == cudaSuccess, "pool controls");
    for (cudaStream_t stream : streams) cudaStreamDestroy(stream);
    return ok ? 0 : 1;
  } catch (std::exception const& error) {
    std::fprintf(stderr, "fastscan_stream_and_allocator failed: %s\n", error.what());
    return 1;
  }
}
