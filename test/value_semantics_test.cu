// What function objects are given and how outputs are written, as under thrust::cuda::par, through
// every policy family: predicates and key predicates get loaded values of the iterators' value types
// (a numeric class type with only a conversion to bool, whose device_reference would not convert);
// predicates taking `const T&` or `T` both work; an element type whose operator= copies only into an
// object already constructed comes through compaction, scans and the by-key reductions intact.

#include "common/policies.cuh"

#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/unique.h>

namespace fastscan_test {
namespace {

template <class Under>
class value_semantics_test : public gpu_test {};
using algorithms = policy_families;
TYPED_TEST_SUITE(value_semantics_test, algorithms, algorithm_names);

// A number held in a class: user-written copy operations, arithmetic, and no conversion but to bool.
// A predicate written for it (`b ? x : y`, `!x`) compiles only if it gets the value, not a
// thrust::device_reference to it.
class boxed {
 public:
  __host__ __device__ boxed() : value_(0), check_(0) {}
  __host__ __device__ boxed(int v) : value_(v), check_(~v) {}  // NOLINT: implicit, as numbers are
  __host__ __device__ boxed(boxed const& other) : value_(other.value_), check_(~other.value_) {}
  __host__ __device__ boxed& operator=(boxed const& other) {
    value_ = other.value_;
    check_ = ~other.value_;
    return *this;
  }
  __host__ __device__ explicit operator bool() const { return value_ != 0; }
  __host__ __device__ friend boxed operator+(boxed const& a, boxed const& b) { return boxed(a.value_ + b.value_); }
  __host__ __device__ friend bool operator==(boxed const& a, boxed const& b) { return a.value_ == b.value_; }
  friend std::ostream& operator<<(std::ostream& os, boxed const& b) { return os << "boxed{" << b.value_ << "}"; }

 private:
  int value_;
  int check_;
};

// Thrust's own head-flag predicate from its scan_by_key tests: a key that converts to true starts a
// segment. Not const, templated on the argument type, taking const references.
struct head_flag_predicate {
  template <class T>
  __host__ __device__ bool operator()(const T&, const T& b) {
    return b ? false : true;
  }
};

struct truth {  // thrust::identity for a stencil, by const reference
  __host__ __device__ bool operator()(boxed const& b) const { return static_cast<bool>(b); }
};
struct truth_by_value {
  __host__ __device__ bool operator()(boxed b) const { return static_cast<bool>(b); }
};
struct equal_by_value {
  __host__ __device__ bool operator()(boxed a, boxed b) const { return a == b; }
};

// Like Thrust's object_with_non_trivial_ctor: operator= copies only into an object a constructor
// made (its `constructed` word set). Assigning into raw storage loses the value.
struct assign_needs_object {
  static constexpr int made = 0x5EED;
  int field;
  int constructed;
  __host__ __device__ assign_needs_object() : field(0), constructed(made) {}
  __host__ __device__ assign_needs_object(int f) : field(f), constructed(made) {}  // NOLINT
  assign_needs_object(assign_needs_object const&) = default;
  __host__ __device__ assign_needs_object& operator=(assign_needs_object const& other) {
    if (constructed == made) field = other.field;
    return *this;
  }
  __host__ __device__ friend bool operator==(assign_needs_object const& a, assign_needs_object const& b) {
    return a.field == b.field;
  }
  friend std::ostream& operator<<(std::ostream& os, assign_needs_object const& o) { return os << o.field; }
};

struct plus_objects {
  __host__ __device__ assign_needs_object operator()(assign_needs_object const& a, assign_needs_object const& b) const {
    return assign_needs_object(a.field + b.field);
  }
};
struct odd_object {
  __host__ __device__ bool operator()(assign_needs_object const& o) const { return (o.field & 1) != 0; }
};
struct same_object_quarter {
  __host__ __device__ bool operator()(assign_needs_object const& a, assign_needs_object const& b) const {
    return (a.field >> 2) == (b.field >> 2);
  }
};

template <class T>
std::vector<T> from_ints(std::vector<int> const& v) {
  return std::vector<T>(v.begin(), v.end());
}

// The first `count` elements of a device vector, copied as bytes (both class types here are bitwise
// copyable in fact, though not in name).
template <class T>
std::vector<T> read(thrust::device_vector<T> const& d, std::size_t count) {
  auto all = to_host(d);
  all.resize(count);
  return all;
}

std::vector<std::size_t> semantics_sizes() { return capped({1, 7, 1000, 4097, 40961, 100003}); }

// Runs `call(policy)` under thrust::cuda::par and the policy, each on its own copy of the inputs made by
// `make`, and compares what `result(state, end)` reads back.
template <class Under, class Make, class Call, class Read>
void expect_same(Make&& make, Call&& call, Read&& read_back) {
  auto expected_state = make();
  auto actual_state = make();
  const auto expected_end = call(thrust::cuda::par, expected_state);
  const auto actual_end = call(Under::blocking, actual_state);
  const auto expected = read_back(expected_state, expected_end);
  const auto actual = read_back(actual_state, actual_end);
  ASSERT_EQ(expected.size(), actual.size());
  ASSERT_TRUE(all_equal(expected, actual));
}

// Thrust's remove.cu, partition.cu and copy.cu stencil tests over a numeric class type.
TYPED_TEST(value_semantics_test, ClassTypeStencilsGetValues) {
  for (std::size_t n : semantics_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto data = from_ints<boxed>(random_vector<std::int32_t>(n, 5100 + n));
    std::vector<boxed> stencil(n);
    for (std::size_t i = 0; i < n; ++i) stencil[i] = boxed(static_cast<int>(splitmix64(5200 + i) % 2));
    const auto d_stencil = to_device(stencil);
    const auto make = [&] { return to_device(data); };
    const auto kept = [](thrust::device_vector<boxed> const& v, auto end) {
      return read(v, static_cast<std::size_t>(end - v.begin()));
    };
    const auto whole = [&](thrust::device_vector<boxed> const& v, auto) { return read(v, n); };
    expect_same<TypeParam>(make, [&](auto policy, auto& v) {
      return thrust::remove_if(policy, v.begin(), v.end(), d_stencil.begin(), truth{});
    }, kept);
    expect_same<TypeParam>(make, [&](auto policy, auto& v) {
      return thrust::stable_partition(policy, v.begin(), v.end(), d_stencil.begin(), truth_by_value{});
    }, whole);
    expect_same<TypeParam>(make, [&](auto policy, auto& v) {
      return thrust::partition(policy, v.begin(), v.end(), d_stencil.begin(), truth{});
    }, whole);
    const auto d_data = to_device(data);
    const auto make_out = [&] { return thrust::device_vector<boxed>(n, boxed(-7)); };
    expect_same<TypeParam>(make_out, [&](auto policy, auto& out) {
      return thrust::remove_copy_if(policy, d_data.begin(), d_data.end(), d_stencil.begin(), out.begin(), truth{});
    }, kept);
    expect_same<TypeParam>(make_out, [&](auto policy, auto& out) {
      return thrust::copy_if(policy, d_data.begin(), d_data.end(), d_stencil.begin(), out.begin(), truth_by_value{});
    }, kept);
    expect_same<TypeParam>(make_out, [&](auto policy, auto& out) {
      auto rejected = thrust::device_vector<boxed>(n, boxed(-9));
      const auto ends = thrust::stable_partition_copy(policy, d_data.begin(), d_data.end(), d_stencil.begin(),
                                                      out.begin(), rejected.begin(), truth{});
      auto selected = read(out, static_cast<std::size_t>(ends.first - out.begin()));
      const auto rest = read(rejected, static_cast<std::size_t>(ends.second - rejected.begin()));
      selected.insert(selected.end(), rest.begin(), rest.end());
      out = to_device(selected);
      return out.end();
    }, kept);
    // Equality functions taking their arguments by value.
    expect_same<TypeParam>(make_out, [&](auto policy, auto& out) {
      return thrust::unique_copy(policy, d_stencil.begin(), d_stencil.end(), out.begin(), equal_by_value{});
    }, kept);
  }
}

// Thrust's scan_by_key.inclusive.cu / exclusive.cu TestScanByKeyHeadFlags, and the same keys through
// reduce_by_key and unique_by_key: the key predicate gets key values.
TYPED_TEST(value_semantics_test, ClassTypeKeysGetValues) {
  {
    const auto keys = to_device(std::vector<boxed>{0, 1, 0, 0, 1, 1, 0});
    const auto values = to_device(std::vector<boxed>{1, 2, 3, 4, 5, 6, 7});
    thrust::device_vector<boxed> out(7, boxed(0));
    thrust::inclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), values.begin(), out.begin(),
                                  head_flag_predicate(), thrust::plus<boxed>());
    ASSERT_TRUE(all_equal(std::vector<boxed>{1, 2, 5, 9, 5, 6, 13}, read(out, 7)));
    thrust::exclusive_scan_by_key(TypeParam::blocking, keys.begin(), keys.end(), values.begin(), out.begin(), boxed(10),
                                  head_flag_predicate(), thrust::plus<boxed>());
    ASSERT_TRUE(all_equal(std::vector<boxed>{10, 10, 12, 15, 10, 10, 16}, read(out, 7)));
  }
  for (std::size_t n : semantics_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<boxed> keys(n);
    for (std::size_t i = 0; i < n; ++i) keys[i] = boxed(splitmix64(5300 + i) % 5 == 0 ? 1 : 0);
    const auto values = from_ints<boxed>(random_vector<std::int32_t>(n, 5400 + n));
    const auto d_keys = to_device(keys);
    const auto d_values = to_device(values);
    const auto make_out = [&] { return thrust::device_vector<boxed>(n, boxed(-7)); };
    const auto whole = [&](thrust::device_vector<boxed> const& v, auto) { return read(v, n); };
    expect_same<TypeParam>(make_out, [&](auto policy, auto& out) {
      return thrust::inclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), out.begin(),
                                           head_flag_predicate());
    }, whole);
    expect_same<TypeParam>(make_out, [&](auto policy, auto& out) {
      return thrust::exclusive_scan_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), out.begin(),
                                           boxed(3), head_flag_predicate());
    }, whole);
    const auto make_pair_out = [&] {
      return std::make_pair(thrust::device_vector<boxed>(n, boxed(-7)), thrust::device_vector<boxed>(n, boxed(-7)));
    };
    const auto both_kept = [](auto const& outs, auto ends) {
      auto k = read(outs.first, static_cast<std::size_t>(ends.first - outs.first.begin()));
      const auto v = read(outs.second, static_cast<std::size_t>(ends.second - outs.second.begin()));
      k.insert(k.end(), v.begin(), v.end());
      return k;
    };
    expect_same<TypeParam>(make_pair_out, [&](auto policy, auto& outs) {
      return thrust::reduce_by_key(policy, d_keys.begin(), d_keys.end(), d_values.begin(), outs.first.begin(),
                                   outs.second.begin(), head_flag_predicate());
    }, both_kept);
    expect_same<TypeParam>(make_pair_out, [&](auto policy, auto& outs) {
      return thrust::unique_by_key_copy(policy, d_keys.begin(), d_keys.end(), d_values.begin(), outs.first.begin(),
                                        outs.second.begin(), head_flag_predicate());
    }, both_kept);
    expect_same<TypeParam>(make_pair_out, [&](auto policy, auto& outs) {
      return thrust::unique_by_key_copy(policy, d_keys.begin(), d_keys.end(), d_values.begin(), outs.first.begin(),
                                        outs.second.begin(), equal_by_value{});
    }, both_kept);
  }
}

// Thrust's copy.cu TestCopyIfNonTrivial, and the same type through every overridden family, at sizes
// that stage many items per tile in shared memory. Outputs are constructed (device_vector), as there.
// Checked against the CPU: thrust::cuda::par's own scans assign into raw storage and lose values.
TYPED_TEST(value_semantics_test, AssignmentNeedsAnObject) {
  using object = assign_needs_object;
  for (std::size_t n : semantics_sizes()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<int> fields(n);
    for (std::size_t i = 0; i < n; ++i) fields[i] = static_cast<int>(splitmix64(5500 + i) % 1000);
    const auto d_in = to_device(from_ints<object>(fields));
    const auto odd = [](int f) { return (f & 1) != 0; };
    const auto same_quarter = [](int a, int b) { return (a >> 2) == (b >> 2); };
    const auto expect_fields = [](std::vector<int> const& reference, thrust::device_vector<object> const& out,
                                  std::ptrdiff_t written, int line = __builtin_LINE()) {
      SCOPED_TRACE("checked at line " + std::to_string(line));
      ASSERT_EQ(written, static_cast<std::ptrdiff_t>(reference.size()));
      ASSERT_TRUE(all_equal(from_ints<object>(reference), read(out, reference.size())));
    };
    std::vector<int> selected, rejected, heads, sums, exclusive, segmented, run_keys, run_sums, unique_values;
    int running = 0;
    for (std::size_t i = 0; i < n; ++i) {
      (odd(fields[i]) ? selected : rejected).push_back(fields[i]);
      const bool head = i == 0 || !same_quarter(fields[i - 1], fields[i]);
      if (head) {
        heads.push_back(fields[i]);
        run_keys.push_back(fields[i]);
        run_sums.push_back(0);
      }
      run_keys.back() = fields[i];
      run_sums.back() += fields[i];
      segmented.push_back(run_sums.back());
      exclusive.push_back(5 + running);
      running += fields[i];
      sums.push_back(running);
    }
    thrust::device_vector<object> out(n), second(n);
    expect_fields(selected, out,
                  thrust::copy_if(TypeParam::blocking, d_in.begin(), d_in.end(), out.begin(), odd_object{}) - out.begin());
    expect_fields(rejected, out,
                  thrust::remove_copy_if(TypeParam::blocking, d_in.begin(), d_in.end(), out.begin(), odd_object{}) -
                      out.begin());
    const auto ends = thrust::partition_copy(TypeParam::blocking, d_in.begin(), d_in.end(), out.begin(), second.begin(),
                                             odd_object{});
    expect_fields(selected, out, ends.first - out.begin());
    expect_fields(rejected, second, ends.second - second.begin());
    expect_fields(heads, out,
                  thrust::unique_copy(TypeParam::blocking, d_in.begin(), d_in.end(), out.begin(), same_object_quarter{}) -
                      out.begin());
    {
      // From the host: device_vector's own copy constructor assigns into raw storage for this type.
      auto in_place = to_device(from_ints<object>(fields));
      const auto end = thrust::stable_partition(TypeParam::blocking, in_place.begin(), in_place.end(), odd_object{});
      std::vector<int> partitioned = selected;
      partitioned.insert(partitioned.end(), rejected.begin(), rejected.end());
      ASSERT_EQ(end - in_place.begin(), static_cast<std::ptrdiff_t>(selected.size()));
      expect_fields(partitioned, in_place, static_cast<std::ptrdiff_t>(n));
    }
    thrust::inclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), out.begin(), plus_objects{});
    expect_fields(sums, out, static_cast<std::ptrdiff_t>(n));
    thrust::exclusive_scan(TypeParam::blocking, d_in.begin(), d_in.end(), out.begin(), object(5), plus_objects{});
    expect_fields(exclusive, out, static_cast<std::ptrdiff_t>(n));
    thrust::inclusive_scan_by_key(TypeParam::blocking, d_in.begin(), d_in.end(), d_in.begin(), out.begin(),
                                  same_object_quarter{}, plus_objects{});
    expect_fields(segmented, out, static_cast<std::ptrdiff_t>(n));
    const auto reduced = thrust::reduce_by_key(TypeParam::blocking, d_in.begin(), d_in.end(), d_in.begin(), out.begin(),
                                               second.begin(), same_object_quarter{}, plus_objects{});
    expect_fields(run_keys, out, reduced.first - out.begin());
    expect_fields(run_sums, second, reduced.second - second.begin());
    const auto uniques = thrust::unique_by_key_copy(TypeParam::blocking, d_in.begin(), d_in.end(), d_in.begin(),
                                                    out.begin(), second.begin(), same_object_quarter{});
    expect_fields(heads, out, uniques.first - out.begin());
    expect_fields(heads, second, uniques.second - second.begin());
  }
}

}  // namespace
}  // namespace fastscan_test
