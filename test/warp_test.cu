// The warp layer alone: the warp scan and the shuffles of values of any type, in several warps of one
// block at once, against a CPU reference.
#include "common/test_utils.cuh"

#include <fastscan/detail/warp/warp_scan.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

#include <cuda/std/functional>

#include <vector>

namespace fastscan_test {
namespace {

using fastscan::detail::shuffle_from;

class warp_test : public gpu_test {};

constexpr int warps = 4;
constexpr int threads = warps * 32;

// A 12-byte type: shuffled as three words.
struct triple {
  std::uint32_t x, y, z;
  friend __host__ __device__ bool operator==(triple const& l, triple const& r) {
    return l.x == r.x && l.y == r.y && l.z == r.z;
  }
};
inline std::ostream& operator<<(std::ostream& os, triple const& t) { return os << "{" << t.x << "," << t.y << "," << t.z << "}"; }

template <class T>
std::vector<T> random_items(std::size_t n, std::uint64_t seed) {
  if constexpr (std::is_same_v<T, triple>) {
    const std::vector<std::uint32_t> words = random_vector<std::uint32_t>(3 * n, seed);
    std::vector<T> items(n);
    for (std::size_t i = 0; i < n; ++i) items[i] = triple{words[3 * i], words[3 * i + 1], words[3 * i + 2]};
    return items;
  } else {
    return random_vector<T>(n, seed);
  }
}

template <class T>
std::vector<T> download(T const* data, std::size_t n) {
  std::vector<T> h(n);
  EXPECT_EQ(cudaMemcpy(h.data(), data, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

template <class T, class Op>
__global__ void warp_scans(T const* in, T* out, T* lane_values, Op op) {
  __shared__ typename fastscan::detail::warp_scan<T>::temp_storage storage[warps];
  const int warp = static_cast<int>(threadIdx.x / 32);
  fastscan::detail::warp_scan<T> scan(storage[warp]);
  out[threadIdx.x] = scan.inclusive_scan(in[threadIdx.x], op);
  __syncwarp();
  lane_values[threadIdx.x] = scan.lane_value(static_cast<int>(threadIdx.x % 32));
}

template <class T, class Op>
void check_warp_scan(Op op) {
  const std::vector<T> input = random_vector<T>(threads, 11);
  T *in = nullptr, *out = nullptr, *lanes = nullptr;
  ASSERT_EQ(cudaMalloc(&in, threads * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&out, threads * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&lanes, threads * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(in, input.data(), threads * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(out, 0xa5, threads * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMemset(lanes, 0xa5, threads * sizeof(T)), cudaSuccess);
  warp_scans<<<1, threads>>>(in, out, lanes, op);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<T> actual = download(out, threads);
  const std::vector<T> actual_lanes = download(lanes, threads);
  for (int w = 0; w < warps; ++w) {
    const std::vector<T> warp_input(input.begin() + w * 32, input.begin() + (w + 1) * 32);
    const std::vector<T> expected = reference_inclusive<T, T>(warp_input, op);
    for (int lane = 0; lane < 32; ++lane) {
      ASSERT_EQ(actual[w * 32 + lane], expected[lane]) << "warp " << w << " lane " << lane;
      ASSERT_EQ(actual_lanes[w * 32 + lane], expected[lane]) << "lane_value, warp " << w << " lane " << lane;
    }
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(lanes);
}

TEST_F(warp_test, InclusiveScan) {
  check_warp_scan<int>(::cuda::std::plus<int>{});
  check_warp_scan<affine>(compose_affine{});
  check_warp_scan<affine3>(compose_affine3{});
}

template <shuffle_from From, class T>
__global__ void shuffles(T const* in, T* out, int arg) {
  out[threadIdx.x] = fastscan::detail::shuffle_any<From>(in[threadIdx.x], arg);
}

// Each lane's result against the lane it names; lanes whose source is outside the warp keep their own
// value (as __shfl_up_sync and __shfl_down_sync leave them).
template <shuffle_from From, class T>
void check_shuffle(int arg) {
  const std::vector<T> input = random_items<T>(threads, 5 + arg);
  T *in = nullptr, *out = nullptr;
  ASSERT_EQ(cudaMalloc(&in, threads * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&out, threads * sizeof(T)), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(in, input.data(), threads * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  ASSERT_EQ(cudaMemset(out, 0xa5, threads * sizeof(T)), cudaSuccess);
  shuffles<From><<<1, threads>>>(in, out, arg);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<T> actual = download(out, threads);
  for (int t = 0; t < threads; ++t) {
    const int lane = t % 32;
    int source = From == shuffle_from::higher_lane ? lane + arg : From == shuffle_from::lower_lane ? lane - arg : arg;
    if (source < 0 || source >= 32) source = lane;
    ASSERT_EQ(actual[t], input[t - lane + source]) << "thread " << t;
  }
  cudaFree(in);
  cudaFree(out);
}

template <class T>
void check_every_shuffle() {
  for (int arg : {1, 5, 31}) {
    check_shuffle<shuffle_from::lower_lane, T>(arg);
    check_shuffle<shuffle_from::higher_lane, T>(arg);
    check_shuffle<shuffle_from::lane, T>(arg);
  }
}

TEST_F(warp_test, ShufflesOfAnyType) {
  check_every_shuffle<std::int8_t>();
  check_every_shuffle<double>();
  check_every_shuffle<triple>();
  check_every_shuffle<affine3>();
}

}  // namespace
}  // namespace fastscan_test
