#pragma once
// Where the single-pass driver keeps its tile statuses, so that a call is one kernel launch with no
// initialisation before it.
//
// Each stream (told apart by cudaStreamGetId, which never reuses an id) owns a buffer of tile slots
// (agent/single_pass_lookback.cuh), zeroed once when allocated. Every call on the stream takes the next
// tag, and its kernel counts a status only when it carries that tag, so whatever earlier calls left
// behind (finished, or failed half-way) reads as "not yet published". Calls on one stream run in
// order, so they never share the buffer at the same time; calls on different streams use different
// buffers. The buffer's first slot is a tile counter that only grows: a call's blocks draw tickets from
// it, and the host knows which ticket is the call's first because it adds up the tiles of the calls it
// launched on that stream. The buffer's lock is held from taking the tag to the launch, so host threads
// sharing a stream cannot launch in another order than they took tags and tickets.
//
// The buffer grows (stream-ordered: a new zeroed buffer, the old one freed after the calls before it)
// and is zeroed again once every 2^30 calls, when the tags run out. A stream that is being captured
// into a graph cannot use it (a replay would repeat the tag): dispatch then takes the slots from the
// call's temporary storage and zeroes them with a memset node. At most max_streams_per_device buffers
// are kept; beyond that the least recently used idle one is freed (cudaFree, which waits for the device).

#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/device_pool.cuh>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace fastscan::detail {

struct tile_state_buffer {
  std::mutex mutex;                       // held from taking a tag to the launch
  tile_slot* slots = nullptr;             // capacity + 1 slots
  offset_t capacity = 0;                  // in tiles
  unsigned long long tickets_issued = 0;  // the counter's value when the next call's first block draws
  std::uint32_t last_tag = 0;
  std::uint64_t last_use = 0;

  ~tile_state_buffer() {
    if (slots != nullptr) cudaFree(slots);  // waits for the device; errors at process exit are moot
  }
};

// One call's hold on its stream's buffer: the tile state for its kernel, and the lock until the launch.
class tile_state_lease {
 public:
  tile_slot* slots = nullptr;
  unsigned long long first_ticket = 0;
  std::uint32_t tag = 0;

  // After a successful launch: the kernel will draw this many tickets.
  void commit(offset_t tiles) { buffer_->tickets_issued += static_cast<unsigned long long>(tiles); }

 private:
  friend cudaError_t lease_tile_state(cudaStream_t, offset_t, tile_state_lease&);
  std::shared_ptr<tile_state_buffer> buffer_;
  std::unique_lock<std::mutex> lock_;
};

inline constexpr std::size_t max_streams_per_device = 64;

// The buffer of `stream` on the current device, created on first use.
inline cudaError_t stream_tile_state_buffer(cudaStream_t stream, std::shared_ptr<tile_state_buffer>& buffer) {
  int device = 0;
  FASTSCAN_CUDA_TRY(cudaGetDevice(&device));
  unsigned long long stream_id = 0;
  FASTSCAN_CUDA_TRY(cudaStreamGetId(stream, &stream_id));
  using key_t = std::pair<int, unsigned long long>;
  static std::mutex mutex;
  static auto* buffers = new std::map<key_t, std::shared_ptr<tile_state_buffer>>();  // never destroyed
  static std::uint64_t uses = 0;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = buffers->find({device, stream_id});
  if (found == buffers->end()) {
    const auto on_device = std::count_if(buffers->begin(), buffers->end(),
                                         [&](auto const& entry) { return entry.first.first == device; });
    if (static_cast<std::size_t>(on_device) >= max_streams_per_device) {
      auto oldest = buffers->end();
      for (auto it = buffers->begin(); it != buffers->end(); ++it) {
        if (it->first.first == device && it->second.use_count() == 1 &&
            (oldest == buffers->end() || it->second->last_use < oldest->second->last_use))
          oldest = it;
      }
      if (oldest != buffers->end()) buffers->erase(oldest);
    }
    found = buffers->emplace(key_t{device, stream_id}, std::make_shared<tile_state_buffer>()).first;
  }
  found->second->last_use = ++uses;
  buffer = found->second;
  return cudaSuccess;
}

// Takes `stream`'s buffer for a call of `tiles` tiles: grows or re-zeroes it where needed (on the stream),
// and hands out the call's tag and first ticket. The lease keeps the buffer locked until it is dropped.
inline cudaError_t lease_tile_state(cudaStream_t stream, offset_t tiles, tile_state_lease& lease) {
  FASTSCAN_CUDA_TRY(stream_tile_state_buffer(stream, lease.buffer_));
  tile_state_buffer& buffer = *lease.buffer_;
  lease.lock_ = std::unique_lock<std::mutex>(buffer.mutex);
  if (buffer.capacity < tiles) {
    const offset_t capacity = std::max<offset_t>({tiles, 2 * buffer.capacity, 4096});
    const std::size_t bytes = static_cast<std::size_t>(capacity + 1) * sizeof(tile_slot);
    void* slots = nullptr;
    FASTSCAN_CUDA_TRY(allocate_from_current_pool(&slots, bytes, stream));
    const cudaError_t zeroed = cudaMemsetAsync(slots, 0, bytes, stream);
    if (zeroed != cudaSuccess) {
      cudaFreeAsync(slots, stream);
      return zeroed;
    }
    if (buffer.slots != nullptr) FASTSCAN_CUDA_TRY(cudaFreeAsync(buffer.slots, stream));
    buffer.slots = static_cast<tile_slot*>(slots);
    buffer.capacity = capacity;
    buffer.tickets_issued = 0;
  } else if (buffer.last_tag == max_tile_state_tag) {
    FASTSCAN_CUDA_TRY(cudaMemsetAsync(buffer.slots, 0,
                                      static_cast<std::size_t>(buffer.capacity + 1) * sizeof(tile_slot), stream));
    buffer.last_tag = 0;
    buffer.tickets_issued = 0;
  }
  lease.slots = buffer.slots;
  lease.first_ticket = buffer.tickets_issued;
  lease.tag = ++buffer.last_tag;
  return cudaSuccess;
}

}  // namespace fastscan::detail
