#pragma once
// Temporary storage planning, shared by every driver: a dispatch runs twice, first over a measuring
// arena that only adds up the sizes (CUB's two-phase idiom), then over one allocation of that size.

#include <cstddef>

namespace fastscan::detail {

// Carves temporary buffers out of one allocation. A measuring arena only adds up the sizes.
class temp_arena {
 public:
  static temp_arena measure() { return temp_arena(nullptr, true); }
  static temp_arena over(void* base) { return temp_arena(base, false); }

  bool measuring() const { return measuring_; }
  std::size_t bytes_used() const { return used_; }

  template <class T>
  T* allocate(std::size_t count) {
    constexpr std::size_t alignment = 256;
    const std::size_t offset = (used_ + alignment - 1) / alignment * alignment;
    used_ = offset + count * sizeof(T);
    return measuring() ? nullptr : reinterpret_cast<T*>(base_ + offset);
  }

 private:
  temp_arena(void* base, bool measuring) : base_(static_cast<unsigned char*>(base)), measuring_(measuring) {}

  unsigned char* base_;
  bool measuring_;
  std::size_t used_ = 0;
};

}  // namespace fastscan::detail
