// Drop-in compatibility from device code: a kernel that calls a Thrust algorithm through a fastscan
// policy answers as one calling it through thrust::cuda::par, which runs Thrust's sequential algorithm
// in the calling thread (CCCL 3 has no dynamic parallelism). Every overridden entry point, in every
// arity, from one device thread; outputs and returned lengths compared byte by byte with par's.
#include "compat_common.cuh"

namespace fastscan_test {

template <class Under>
class compat_device_calls : public gpu_test {};
TYPED_TEST_SUITE(compat_device_calls, policy_families, algorithm_names);

namespace {

using namespace compat;

struct is_odd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};
struct residue_less {  // not a radix sort's comparator: Thrust's merge sort, unstable order of equal residues
  __host__ __device__ bool operator()(int a, int b) const { return (a & 63) < (b & 63); }
};

// Each call writes its own slot of `out` (2n items: a partition's two outputs, a by-key call's keys and
// values) and the lengths its returned iterators give (two a call). In-place calls first copy their input
// into the slot.
struct device_calls {
  static constexpr int calls = 55;
  const int* values;
  const int* keys;
  const affine* maps;
  int* out;
  affine* maps_out;
  long long* lengths;
  long long n;

  __device__ int* slot(int call) const { return out + 2 * n * call; }
  __device__ int* copy_into(int call, const int* from) const {
    for (long long i = 0; i < n; ++i) slot(call)[i] = from[i];
    return slot(call);
  }
  __device__ void record(int call, int* end, int* begin = nullptr) const {
    lengths[2 * call] = end - (begin ? begin : slot(call));
  }
  __device__ void record(int call, affine* end, affine* begin) const { lengths[2 * call] = end - begin; }
  template <class Pair>
  __device__ void record_pair(int call, Pair ends) const {
    lengths[2 * call] = ends.first - slot(call);
    lengths[2 * call + 1] = ends.second - (slot(call) + n);
  }

  template <class Policy>
  __device__ void operator()(Policy const& policy) const {
    const int* v = values;
    const int* v_end = values + n;
    const int* k = keys;
    const int* k_end = keys + n;
    using thrust::equal_to;
    using thrust::greater;
    using thrust::maximum;
    using thrust::plus;
    // Scans.
    record(0, thrust::inclusive_scan(policy, v, v_end, slot(0)));
    record(1, thrust::inclusive_scan(policy, v, v_end, slot(1), maximum<int>{}));
    record(2, thrust::inclusive_scan(policy, v, v_end, slot(2), 5, nonconst_plus{}));
    record(3, thrust::exclusive_scan(policy, v, v_end, slot(3)));
    record(4, thrust::exclusive_scan(policy, v, v_end, slot(4), -7));
    record(5, thrust::exclusive_scan(policy, v, v_end, slot(5), 1, maximum<int>{}));
    record(6, thrust::transform_inclusive_scan(policy, v, v_end, slot(6), negate_int{}, plus<int>{}));
    record(7, thrust::transform_inclusive_scan(policy, v, v_end, slot(7), negate_int{}, 3, plus<int>{}));
    record(8, thrust::transform_exclusive_scan(policy, v, v_end, slot(8), negate_int{}, 3, plus<int>{}));
    int* s = copy_into(9, v);
    record(9, thrust::inclusive_scan(policy, s, s + n, s));
    // Scans by key.
    record(10, thrust::inclusive_scan_by_key(policy, k, k_end, v, slot(10)));
    record(11, thrust::inclusive_scan_by_key(policy, k, k_end, v, slot(11), equal_to<int>{}));
    record(12, thrust::inclusive_scan_by_key(policy, k, k_end, v, slot(12), equal_to<int>{}, maximum<int>{}));
    record(13, thrust::exclusive_scan_by_key(policy, k, k_end, v, slot(13)));
    record(14, thrust::exclusive_scan_by_key(policy, k, k_end, v, slot(14), 2));
    record(15, thrust::exclusive_scan_by_key(policy, k, k_end, v, slot(15), 2, nonconst_equal{}));
    record(16, thrust::exclusive_scan_by_key(policy, k, k_end, v, slot(16), 2, equal_to<int>{}, maximum<int>{}));
    // Compaction into other arrays.
    record(17, thrust::copy_if(policy, v, v_end, slot(17), is_odd{}));
    record(18, thrust::copy_if(policy, v, v_end, k, slot(18), is_odd{}));
    record(19, thrust::remove_copy_if(policy, v, v_end, slot(19), is_odd{}));
    record(20, thrust::remove_copy_if(policy, v, v_end, k, slot(20), is_odd{}));
    record(21, thrust::remove_copy(policy, k, k_end, slot(21), 5));
    record_pair(22, thrust::partition_copy(policy, v, v_end, slot(22), slot(22) + n, is_odd{}));
    record_pair(23, thrust::partition_copy(policy, v, v_end, k, slot(23), slot(23) + n, is_odd{}));
    record_pair(24, thrust::stable_partition_copy(policy, v, v_end, slot(24), slot(24) + n, is_odd{}));
    record_pair(25, thrust::stable_partition_copy(policy, v, v_end, k, slot(25), slot(25) + n, is_odd{}));
    record(26, thrust::unique_copy(policy, k, k_end, slot(26)));
    record(27, thrust::unique_copy(policy, k, k_end, slot(27), nonconst_equal{}));
    record_pair(28, thrust::unique_by_key_copy(policy, k, k_end, v, slot(28), slot(28) + n));
    record_pair(29, thrust::unique_by_key_copy(policy, k, k_end, v, slot(29), slot(29) + n, equal_to<int>{}));
    record_pair(30, thrust::reduce_by_key(policy, k, k_end, v, slot(30), slot(30) + n));
    record_pair(31, thrust::reduce_by_key(policy, k, k_end, v, slot(31), slot(31) + n, equal_to<int>{}));
    record_pair(32, thrust::reduce_by_key(policy, k, k_end, v, slot(32), slot(32) + n, equal_to<int>{}, maximum<int>{}));
    // Compaction in place.
    s = copy_into(33, v);
    record(33, thrust::remove_if(policy, s, s + n, is_odd{}));
    s = copy_into(34, v);
    record(34, thrust::remove_if(policy, s, s + n, k, is_odd{}));
    s = copy_into(35, k);
    record(35, thrust::remove(policy, s, s + n, 5));
    s = copy_into(36, v);
    record(36, thrust::partition(policy, s, s + n, is_odd{}));
    s = copy_into(37, v);
    record(37, thrust::partition(policy, s, s + n, k, is_odd{}));
    s = copy_into(38, v);
    record(38, thrust::stable_partition(policy, s, s + n, is_odd{}));
    s = copy_into(39, v);
    record(39, thrust::stable_partition(policy, s, s + n, k, is_odd{}));
    s = copy_into(40, k);
    record(40, thrust::unique(policy, s, s + n));
    s = copy_into(41, k);
    record(41, thrust::unique(policy, s, s + n, nonconst_equal{}));
    s = copy_into(42, k);
    for (long long i = 0; i < n; ++i) s[n + i] = v[i];
    record_pair(42, thrust::unique_by_key(policy, s, s + n, s + n));
    s = copy_into(43, k);
    for (long long i = 0; i < n; ++i) s[n + i] = v[i];
    record_pair(43, thrust::unique_by_key(policy, s, s + n, s + n, equal_to<int>{}));
    // Sorts: radix-sortable calls, and a comparator Thrust merge-sorts.
    s = copy_into(44, v);
    thrust::sort(policy, s, s + n);
    s = copy_into(45, v);
    thrust::sort(policy, s, s + n, greater<int>{});
    s = copy_into(46, v);
    thrust::sort(policy, s, s + n, residue_less{});
    s = copy_into(47, v);
    thrust::stable_sort(policy, s, s + n);
    s = copy_into(48, v);
    thrust::stable_sort(policy, s, s + n, greater<int>{});
    for (int call = 49; call < 53; ++call) {
      s = copy_into(call, k);
      for (long long i = 0; i < n; ++i) s[n + i] = v[i];
    }
    thrust::sort_by_key(policy, slot(49), slot(49) + n, slot(49) + n);
    thrust::sort_by_key(policy, slot(50), slot(50) + n, slot(50) + n, greater<int>{});
    thrust::stable_sort_by_key(policy, slot(51), slot(51) + n, slot(51) + n);
    thrust::stable_sort_by_key(policy, slot(52), slot(52) + n, slot(52) + n, greater<int>{});
    // A user type under a non-commutative operator.
    record(53, thrust::inclusive_scan(policy, maps, maps + n, maps_out, masked_compose{0xfffffu}), maps_out);
    record(54,
           thrust::exclusive_scan_by_key(policy, k, k_end, maps, maps_out + n, affine{1u, 0u}, equal_to<int>{},
                                         masked_compose{0xfffffu}),
           maps_out + n);
  }
};

template <class Policy>
__global__ void call_from_device(Policy policy, device_calls calls) {
  calls(policy);
}

// The outputs of every call, run by one device thread through `policy`.
struct device_results {
  thrust::device_vector<int> out;
  thrust::device_vector<affine> maps_out;
  thrust::device_vector<long long> lengths;
};

template <class Policy>
device_results run_from_device(Policy const& policy, thrust::device_vector<int> const& values,
                               thrust::device_vector<int> const& keys, thrust::device_vector<affine> const& maps,
                               std::size_t n) {
  device_results r{poisoned_device_vector<int>(2 * n * device_calls::calls), poisoned_device_vector<affine>(2 * n),
                   poisoned_device_vector<long long>(2 * device_calls::calls)};
  const device_calls calls{thrust::raw_pointer_cast(values.data()), thrust::raw_pointer_cast(keys.data()),
                           thrust::raw_pointer_cast(maps.data()),   thrust::raw_pointer_cast(r.out.data()),
                           thrust::raw_pointer_cast(r.maps_out.data()), thrust::raw_pointer_cast(r.lengths.data()),
                           static_cast<long long>(n)};
  call_from_device<<<1, 1>>>(policy, calls);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  return r;
}

}  // namespace

TYPED_TEST(compat_device_calls, EveryEntryPointAnswersAsParallelPolicy) {
  scoped_stream stream;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{37}, std::size_t{1031}}) {
    SCOPED_TRACE(n);
    const auto values = compat_input<int>(n, 71);
    const auto keys = compat_keys<int>(n, 72);
    const auto maps = compat_input<affine>(n, 73);
    const device_results expected = run_from_device(thrust::cuda::par, values, keys, maps, n);
    const device_results blocking = run_from_device(TypeParam::blocking, values, keys, maps, n);
    const device_results on_stream = run_from_device(TypeParam::nosync.on(stream.get()), values, keys, maps, n);
    for (device_results const* actual : {&blocking, &on_stream}) {
      EXPECT_TRUE(same_bytes(expected.out, actual->out));
      EXPECT_TRUE(same_bytes(expected.maps_out, actual->maps_out));
      EXPECT_TRUE(same_bytes(expected.lengths, actual->lengths));
    }
    // The reference did the work: every call wrote the first item of its slot (0xA5 bytes: the poison).
    if (n >= 37) {
      const std::vector<int> out = to_host(expected.out);
      int poison;
      std::memset(&poison, 0xA5, sizeof poison);
      for (int call = 0; call < device_calls::calls - 2; ++call)
        EXPECT_NE(out[2 * n * call], poison) << "call " << call << " wrote nothing";
    }
  }
}

}  // namespace fastscan_test
