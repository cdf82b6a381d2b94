#pragma once
// Temporary storage planning, shared by every driver: a dispatch runs twice, first over a measuring
// arena that only adds up the sizes (CUB's two-phase idiom), then over one allocation of that size.

#include <fastscan/detail/config.cuh>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace fastscan::detail {

// Carves temporary buffers out of one allocation. A measuring arena only adds up the sizes.
class temp_arena {
 public:
  static temp_arena measure() { return temp_arena(nullptr, true, capture::unknown); }
  // The real pass after `plan` measured it: it also takes plan's answer to stream_captured.
  static temp_arena over(void* base, temp_arena const& plan) { return temp_arena(base, false, plan.capture_); }

  bool measuring() const { return measuring_; }
  std::size_t bytes_used() const { return used_; }

  template <class T>
  T* allocate(std::size_t count) {
    constexpr std::size_t alignment = 256;
    const std::size_t offset = (used_ + alignment - 1) / alignment * alignment;
    used_ = offset + count * sizeof(T);
    return measuring() ? nullptr : reinterpret_cast<T*>(base_ + offset);
  }

  // Whether the call's stream is being captured into a graph, asked of the runtime once per call
  // (a call's host time matters at small n).
  cudaError_t stream_captured(cudaStream_t stream, bool& captured) {
    if (capture_ == capture::unknown) {
      cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
      FASTSCAN_CUDA_TRY(cudaStreamIsCapturing(stream, &status));
      capture_ = status != cudaStreamCaptureStatusNone ? capture::yes : capture::no;
    }
    captured = capture_ == capture::yes;
    return cudaSuccess;
  }

 private:
  enum class capture : unsigned char { unknown, no, yes };
  temp_arena(void* base, bool measuring, capture known)
      : base_(static_cast<unsigned char*>(base)), measuring_(measuring), capture_(known) {}

  unsigned char* base_;
  bool measuring_;
  capture capture_;
  std::size_t used_ = 0;
};

}  // namespace fastscan::detail
