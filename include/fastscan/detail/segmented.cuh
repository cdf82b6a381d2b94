#pragma once
// Segmented scans as scans of (head flag, value) pairs under the segmented operator
//   (f1, v1) . (f2, v2) = (f1 | f2, f2 ? v2 : v1 op v2),
// which is associative whenever op is (Schwartz 1980; Sengupta et al. 2007), and not commutative.
// Every block algorithm and multi-block driver then scans segments unchanged: flags travel beside
// the values through shared memory, and a tile's total is (any head in it, its last segment's value).
//
// Scan-by-key maps onto this: head_i = (i == 0) || !pred(key[i-1], key[i]) (Thrust's definition),
// computed while loading; an exclusive scan folds the init into each segment's head value and writes
// the init itself at every head.

#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>

namespace fastscan::detail {

template <class T>
struct segmented_value {
  T value;
  bool head;  // true when a segment starts inside the span this value covers
};

// The flag follows the value at once: what follows it is padding (a double and its flag fit the
// look-back's 12-byte packed status).
template <class T>
inline constexpr std::size_t value_bytes<segmented_value<T>> = sizeof(T) + 1;

template <class Op>
struct segmented_op {
  Op op;

  template <class T>
  __host__ __device__ segmented_value<T> operator()(segmented_value<T> const& left,
                                                    segmented_value<T> const& right) const {
    return segmented_value<T>{right.head ? right.value : static_cast<T>(op(left.value, right.value)),
                              left.head || right.head};
  }
};

// reduce_by_key's pairs: the number of segment heads in a span and the value of its last segment, under
//   (c1, v1) . (c2, v2) = (c1 + c2, c2 ? v2 : v1 op v2):
// the segmented operator with a count in place of the flag, so that the scan numbers the segments too
// (associative whenever op is; Blelloch's reduce-by-key, as CUB's ReduceBySegmentOp does it).
//
// The member of the stricter alignment comes first, so that padding only trails: a 64-bit count with a
// 4-byte value, or a double with a 32-bit count, take 12 bytes of the 16, which the look-back's packed
// status holds in one word.
template <class T, class Count, bool ValueFirst = (alignof(T) > alignof(Count))>
struct counted_segment {
  Count heads;
  T value;
  counted_segment() = default;
  __host__ __device__ counted_segment(Count heads_, T const& value_) : heads(heads_), value(value_) {}
};
template <class T, class Count>
struct counted_segment<T, Count, true> {
  T value;
  Count heads;
  counted_segment() = default;
  __host__ __device__ counted_segment(Count heads_, T const& value_) : value(value_), heads(heads_) {}
};

template <class T, class Count, bool ValueFirst>
inline constexpr std::size_t value_bytes<counted_segment<T, Count, ValueFirst>> =
    ValueFirst ? (sizeof(T) + alignof(Count) - 1) / alignof(Count) * alignof(Count) + sizeof(Count)
               : (sizeof(Count) + alignof(T) - 1) / alignof(T) * alignof(T) + sizeof(T);

template <class Op>
struct counted_segment_op {
  Op op;

  template <class T, class Count, bool ValueFirst>
  __host__ __device__ counted_segment<T, Count, ValueFirst> operator()(
      counted_segment<T, Count, ValueFirst> const& left, counted_segment<T, Count, ValueFirst> const& right) const {
    return counted_segment<T, Count, ValueFirst>{
        static_cast<Count>(left.heads + right.heads),
        right.heads != 0 ? right.value : static_cast<T>(op(left.value, right.value))};
  }
};

// A tile whose total holds a head ignores everything before it: op(anything, total) == total, so in a
// single-pass scan it publishes its total as its inclusive prefix at once, and look-backs stop there.
template <class Op, class T>
__device__ bool absorbs_prefix(segmented_op<Op> const&, segmented_value<T> const& total) {
  return total.head;
}

// Element i of a scan by key, as a (head, value) pair. For an exclusive scan the head's value is
// op(init, v): each segment's running value then starts from the init.
template <scan_kind Kind, class AccT, class KeysIt, class ValuesIt, class Pred, class Op>
struct by_key_element {
  KeysIt keys;
  ValuesIt values;
  Pred pred;
  Op op;
  AccT init;

  // The predicate gets loaded keys, never references into the keys' memory.
  __host__ __device__ bool head(offset_t i) const {
    if (i == 0) return true;
    const element_value_t<KeysIt> previous = keys[i - 1];
    const element_value_t<KeysIt> current = keys[i];
    return !pred(previous, current);
  }

  __host__ __device__ segmented_value<AccT> operator()(offset_t i) const {
    const bool is_head = head(i);
    AccT value = values[i];
    if (Kind == scan_kind::exclusive && is_head) value = static_cast<AccT>(op(init, value));
    return segmented_value<AccT>{value, is_head};
  }
};

// A tile's elements from a by_key_element, element by element in the arrangement of tile_io `Io`:
// values[k] and head bit k of the returned word for item k. Unless FullTile, positions past `valid`
// repeat the last element (their results are never stored).
template <class Io, bool FullTile, class Element, class AccT, int Items>
__device__ unsigned load_by_key_elements(Element const& element, offset_t tile_base, int valid, AccT (&values)[Items]) {
  unsigned heads = 0;
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    int e = Io::element(k);
    if (!FullTile && e >= valid) e = valid - 1;
    const segmented_value<AccT> item = element(tile_base + e);
    values[k] = item.value;
    heads |= static_cast<unsigned>(item.head) << k;
  }
  return heads;
}

// Writes the value half of a scanned pair to the user's output; an exclusive scan writes the init at
// every head. `output[i] = pair` (the pair's flag is not element i's own head after a pair scan, so the
// head is looked up again) and write(i, value, head).
template <scan_kind Kind, class AccT, class OutputIt, class Element>
struct by_key_output {
  OutputIt output;
  Element element;  // for head(i)

  struct proxy {
    by_key_output const& self;
    offset_t i;
    __device__ void operator=(segmented_value<AccT> const& scanned) const {
      if (Kind == scan_kind::exclusive && self.element.head(i)) self.output[i] = self.element.init;
      else self.output[i] = scanned.value;
    }
  };

  __device__ proxy operator[](offset_t i) const { return proxy{*this, i}; }

  // Element i's scanned value from a caller that knows whether element i itself starts a segment (the
  // matrix segmented kernels hold the heads): no second look at the keys.
  __device__ void write(offset_t i, AccT const& scanned, bool head) const {
    if (Kind == scan_kind::exclusive && head) output[i] = element.init;
    else output[i] = scanned;
  }
};

}  // namespace fastscan::detail
