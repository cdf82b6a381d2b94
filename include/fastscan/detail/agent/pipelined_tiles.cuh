#pragma once
// What the pipelined single pass (agent_pipelined_scan.cuh) moves and scans: one type a kind of scan,
// each giving
//   value_type               what the scan folds and the look-back carries;
//   rows                     the warp's matrix scan of a segment (warp_vector_rows.cuh and its segmented
//                            flavour);
//   stage                    one tile's shared memory;
//   input_bytes_per_item     what the size rule counts;
//   aligned()                (host) whether the call's memory suits the bulk copies;
//   prepare(stage)           by thread 0 before the pass, once a stage: what the stage holds before its
//                            first tile;
//   copy(stage, tile, valid, full)
//                            by the producer thread: the tile's bulk copies on barrier `full`, having
//                            written by itself what they cannot move;
//   segment<Kind>(stage, tile, segment)
//                            a warp_vector_rows row source over one scan warp's segment of the stage;
//   store<Kind, Partial>(tile, segment, items, source, local)
//                            the segment's scanned rows to the output;
//   absorbs_carry(before)    whether a segment whose tile's segments before it fold to `before` has a
//                            result independent of the tile's carry (it then does not wait for it).
//   reduces_into_stage       whether the reduce warps fold a segment by
//                            reduce_segment<Kind>(stage, tile, segment, items, op), which may leave what
//                            it found in the stage for the segment's scan warp (that warp then reads
//                            the segment only after the tile's reduction).
//   parks                    whether an inclusive scan's warp may park a segment's rows, scanned up to the
//                            tile's carry, in the stage and store them once the carry is known:
//                            park(stage, segment, local), then
//                            store_parked<Partial>(stage, tile, segment, items, carry, open), which
//                            folds the carry into the segment's first `open` elements.
// pipelined_plain_tiles: a scan of arithmetic T between 16-byte aligned memories, forward or backward
// (input and output point one past the range's last element: tile t is the t-th tile going down from
// the end, held at its stage's end so that its whole vectors stay aligned).
// pipelined_by_key_tiles: a forward scan by key of arithmetic values V with arithmetic keys K, as
// (head, value) pairs under the segmented operator; each stage holds the tile's values, its keys, and the
// key before the tile; a segment after a head in its tile needs no carry.
// pipelined_select_tiles: stream compaction of arithmetic T by a predicate of the item (copy_if,
// remove_copy_if, remove_if): an exclusive sum of the items' selection flags, counted in Count, the
// predicate evaluated once an item by the reduce warps, which leave the flags in the stage; each
// selected item stored at its sum (in place is safe: a tile's items land at or before their own places,
// after every earlier tile's copy has landed, which its carry depends on), and the total handed to the
// host by the thread of the last item (agent/selected_count.cuh).
// pipelined_unique_by_key_tiles: unique_by_key of (key, value) items from two arrays (arithmetic keys K,
// values V of which two or more fill a 16-byte vector), compaction by the run heads of the keys (item i where i == 0
// or !equal(item i-1, item i), the equality reading keys alone), into outputs apart from the inputs:
// the keys always come into the stage with the key before the tile, the values only where the stage's
// previous tile kept more than a quarter of its items; otherwise the scan warps read the values of the
// tile's heads from the input. A row of heads whose place suits whole rows of the outputs is stored as
// one access to each.

#include <fastscan/detail/agent/selected_count.cuh>
#include <fastscan/detail/agent/stage_ring.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/segmented.cuh>
#include <fastscan/detail/warp/warp_by_key_rows.cuh>
#include <fastscan/detail/warp/warp_segmented_vector_rows.cuh>
#include <fastscan/detail/warp/warp_vector_rows.cuh>

#include <cuda/std/tuple>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace fastscan::detail {

// The tile's elements that whole 16-byte vectors hold, as bytes for the bulk copy.
template <class T>
__device__ __forceinline__ unsigned whole_vector_bytes(int valid) {
  return static_cast<unsigned>(valid * sizeof(T)) / 16 * 16;
}

// A row of Vector elements (8 or 16 bytes) as one store to `out`, aligned to the row's size.
template <class T, int Vector>
__device__ __forceinline__ void store_row_bits(T* out, T const (&row)[Vector]) {
  if constexpr (sizeof(row) == 16) {
    uint4 bits;
    std::memcpy(&bits, row, sizeof(bits));
    *reinterpret_cast<uint4*>(out) = bits;
  } else {
    static_assert(sizeof(row) == 8, "rows of 8 or 16 bytes");
    uint2 bits;
    std::memcpy(&bits, row, sizeof(bits));
    *reinterpret_cast<uint2*>(out) = bits;
  }
}

// A row of Vector elements as one 16-byte store to `out` (vector index `at`, negative going backward),
// taken from its end where Reversed.
template <bool Reversed, class T, int Vector>
__device__ __forceinline__ void store_row_vector(T* out, int at, T const (&row)[Vector]) {
  static_assert(Vector * sizeof(T) == 16, "rows are 16-byte vectors");
  uint4 bits;
  if constexpr (!Reversed) {
    std::memcpy(&bits, row, sizeof(bits));
  } else {
    T reversed[Vector];
#pragma unroll
    for (int j = 0; j < Vector; ++j) reversed[j] = row[Vector - 1 - j];
    std::memcpy(&bits, reversed, sizeof(bits));
  }
  reinterpret_cast<uint4*>(out)[at] = bits;
}

// A tile's keys in a stage's keys[lead + tile_items], with the key before the tile at keys[lead - 1]
// past the first tile: the keys' bulk copy starts 16 bytes early. By the producer thread: the
// constructor writes the elements beyond whole vectors itself; the caller expects bulk_bytes() on the
// stage's barrier, then issues bulk_copy.
template <class K>
struct keys_with_lead {
  static constexpr int lead = 16 / static_cast<int>(sizeof(K));
  K* stage_keys;  // lead + tile_items slots
  const K* keys;
  int first;      // the first slot the bulk copy fills
  unsigned bytes;

  __device__ keys_with_lead(K* stage_keys_, const K* keys_, offset_t tile, offset_t base, int valid) : stage_keys(stage_keys_) {
    const unsigned whole = whole_vector_bytes<K>(valid);
    for (int e = static_cast<int>(whole / sizeof(K)); e < valid; ++e) stage_keys[lead + e] = keys_[base + e];
    const int before = tile > 0 ? lead : 0;
    first = lead - before;
    keys = keys_ + base - before;
    bytes = whole + static_cast<unsigned>(before * sizeof(K));
  }
  __device__ unsigned bulk_bytes() const { return bytes; }
  __device__ void bulk_copy(std::uint64_t* full) const {
    if (bytes > 0) bulk_copy_to_shared(stage_keys + first, keys, bytes, full);
  }
};

template <class Tuning, class T, bool Backward>
struct pipelined_plain_tiles {
  using value_type = T;
  using rows = warp_vector_rows<T, Tuning::vector, Tuning::rounds>;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int segment_items = Tuning::segment_items;
  static constexpr std::size_t input_bytes_per_item = sizeof(T);
  struct stage {
    alignas(128) T items[tile_items];
  };

  static constexpr bool reduces_into_stage = false;
  static constexpr bool parks = false;
  __device__ static bool absorbs_carry(maybe<T> const&) { return false; }
  __device__ static void prepare(stage&) {}

  const T* input;  // going Backward, one past the last element of each
  T* output;

  bool aligned() const {
    return reinterpret_cast<std::uintptr_t>(input) % 16 == 0 && reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
  }

  __device__ void copy(stage& s, offset_t tile, int valid, std::uint64_t* full) const {
    const offset_t base = tile * tile_items;
    const unsigned bytes = whole_vector_bytes<T>(valid);
    const int whole = static_cast<int>(bytes / sizeof(T));
    // A last tile's elements beyond its whole vectors, by this thread (before the arrival publishes them):
    // after them going forward, before them in memory (its first elements) going backward.
    if constexpr (!Backward) {
      for (int e = whole; e < valid; ++e) s.items[e] = input[base + e];
    } else {
      const T* tile_first = input - base - valid;
      for (int e = 0; e < valid - whole; ++e) s.items[tile_items - valid + e] = tile_first[e];
    }
    barrier_arrive_expecting(full, bytes);
    if (bytes > 0) {
      if constexpr (!Backward) bulk_copy_to_shared(s.items, input + base, bytes, full);
      else bulk_copy_to_shared(s.items + (tile_items - whole), input - base - whole, bytes, full);
    }
  }

  // Going backward a segment starts one past its first element (the stage's end side).
  template <scan_kind Kind>
  __device__ vector_rows_source<T, Tuning::vector, Backward> segment(stage const& s, offset_t, int segment) const {
    return {Backward ? s.items + tile_items - segment * segment_items : s.items + segment * segment_items};
  }

  template <scan_kind Kind, bool Partial, class Source, class Local>
  __device__ __forceinline__ void store(offset_t tile, int segment, int items, Source const&, Local const& local) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    T* out = Backward ? output - tile * tile_items - segment * segment_items
                      : output + tile * tile_items + segment * segment_items;
#pragma unroll
    for (int r = 0; r < Tuning::rounds; ++r) {
      if constexpr (!Partial) {
        store_row_vector<Backward>(out, Backward ? -(r * 32 + lane) - 1 : r * 32 + lane, local.rows[r]);
      } else {
#pragma unroll
        for (int j = 0; j < Tuning::vector; ++j) {
          const int e = (r * 32 + lane) * Tuning::vector + j;
          if (e < items) {
            if constexpr (!Backward) out[e] = local.rows[r][j];
            else out[-1 - e] = local.rows[r][j];
          }
        }
      }
    }
  }
};

template <class Tuning, class K, class V, class Pred, class Op>
struct pipelined_by_key_tiles {
  using value_type = segmented_value<V>;
  using rows = warp_segmented_vector_rows<V, Tuning::vector, Tuning::rounds>;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int segment_items = Tuning::segment_items;
  static constexpr std::size_t input_bytes_per_item = sizeof(K) + sizeof(V);
  static constexpr int key_lead = keys_with_lead<K>::lead;
  struct stage {
    alignas(128) V values[tile_items];
    alignas(16) K keys[key_lead + tile_items];  // keys[key_lead - 1]: the key before the tile
  };

  static constexpr bool reduces_into_stage = false;
  static constexpr bool parks = true;
  __device__ static bool absorbs_carry(maybe<value_type> const& before) { return before.valid && before.value.head; }
  __device__ static void prepare(stage&) {}

  const K* keys;
  const V* values;
  V* output;
  Pred pred;
  Op op;
  V init;  // exclusive scans only

  bool aligned() const {
    return reinterpret_cast<std::uintptr_t>(keys) % 16 == 0 && reinterpret_cast<std::uintptr_t>(values) % 16 == 0 &&
           reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
  }

  __device__ void copy(stage& s, offset_t tile, int valid, std::uint64_t* full) const {
    const offset_t base = tile * tile_items;
    const unsigned value_bytes = whole_vector_bytes<V>(valid);
    for (int e = static_cast<int>(value_bytes / sizeof(V)); e < valid; ++e) s.values[e] = values[base + e];
    const keys_with_lead<K> tile_keys{s.keys, keys, tile, base, valid};
    barrier_arrive_expecting(full, value_bytes + tile_keys.bulk_bytes());
    if (value_bytes > 0) bulk_copy_to_shared(s.values, values + base, value_bytes, full);
    tile_keys.bulk_copy(full);
  }

  template <scan_kind Kind>
  using source = by_key_rows_source<Kind, V, K, Tuning::vector, Tuning::rounds, Pred, Op>;

  // The segment's rows back where they came from in the stage's values (the reduce warps are done with
  // them once the tile's aggregate is out).
  __device__ __forceinline__ void park(stage& s, int segment, typename rows::local_scan const& local) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    V* parked = s.values + segment * segment_items;
#pragma unroll
    for (int r = 0; r < Tuning::rounds; ++r) store_row_vector<false>(parked, r * 32 + lane, local.rows[r]);
  }

  template <bool Partial>
  __device__ __forceinline__ void store_parked(stage const& s, offset_t tile, int segment, int items,
                                               maybe<value_type> const& carry, int open) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const uint4* parked = reinterpret_cast<const uint4*>(s.values + segment * segment_items);
    V* out = output + tile * tile_items + segment * segment_items;
#pragma unroll
    for (int r = 0; r < Tuning::rounds; ++r) {
      const uint4 bits = parked[r * 32 + lane];
      V row[Tuning::vector];
      std::memcpy(row, &bits, sizeof(bits));
#pragma unroll
      for (int j = 0; j < Tuning::vector; ++j)
        if (carry.valid && (r * 32 + lane) * Tuning::vector + j < open) row[j] = static_cast<V>(op(carry.value.value, row[j]));
      store_row<Partial>(out, r * 32 + lane, items, row);
    }
  }

  template <scan_kind Kind>
  __device__ source<Kind> segment(stage const& s, offset_t tile, int segment) const {
    return source<Kind>{s.values + segment * segment_items, s.keys + key_lead + segment * segment_items,
                        tile == 0 && segment == 0, pred, op, init};
  }

  // An exclusive scan writes the init at every head (the scanned pair there holds what came before it).
  template <scan_kind Kind, bool Partial>
  __device__ __forceinline__ void store(offset_t tile, int segment, int items, source<Kind> const&,
                                        typename rows::local_scan const& local) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    V* out = output + tile * tile_items + segment * segment_items;
#pragma unroll
    for (int r = 0; r < Tuning::rounds; ++r) {
      V row[Tuning::vector];
#pragma unroll
      for (int j = 0; j < Tuning::vector; ++j)
        row[j] = Kind == scan_kind::exclusive && ((local.heads >> (r * Tuning::vector + j)) & 1u) ? init : local.rows[r][j];
      store_row<Partial>(out, r * 32 + lane, items, row);
    }
  }

 private:
  // Row `at` of a segment's results at out: one vector, or in a partial segment its first `items` elements.
  template <bool Partial>
  __device__ __forceinline__ static void store_row(V* out, int at, int items, V const (&row)[Tuning::vector]) {
    if constexpr (!Partial) {
      store_row_vector<false>(out, at, row);
    } else {
#pragma unroll
      for (int j = 0; j < Tuning::vector; ++j)
        if (at * Tuning::vector + j < items) out[at * Tuning::vector + j] = row[j];
    }
  }
};

template <class Tuning, class T, class Count, class Pred>
struct pipelined_select_tiles {
  static constexpr int vector = Tuning::vector, rounds = Tuning::rounds;
  using value_type = Count;
  using rows = warp_vector_rows<Count, vector, rounds>;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int segment_items = Tuning::segment_items;
  static constexpr std::size_t input_bytes_per_item = sizeof(T);
  static constexpr bool reduces_into_stage = true;
  static constexpr bool parks = false;
  static_assert(rounds * vector == 32, "a lane's flags make one word");
  // A lane's flag word: bit r * vector + j flags item j of its row in round r.
  struct stage {
    alignas(128) T items[tile_items];
    unsigned flags[Tuning::scan_warps][32];
  };

  __device__ static bool absorbs_carry(maybe<Count> const&) { return false; }
  __device__ static void prepare(stage&) {}

  const T* input;
  T* output;
  Pred pred;
  offset_t n;
  host_selected_count* total;
  unsigned ticket;

  // The stores are single items: only the input's bulk copies need alignment.
  bool aligned() const { return reinterpret_cast<std::uintptr_t>(input) % 16 == 0; }

  __device__ void copy(stage& s, offset_t tile, int valid, std::uint64_t* full) const {
    const offset_t base = tile * tile_items;
    const unsigned bytes = whole_vector_bytes<T>(valid);
    for (int e = static_cast<int>(bytes / sizeof(T)); e < valid; ++e) s.items[e] = input[base + e];
    barrier_arrive_expecting(full, bytes);
    if (bytes > 0) bulk_copy_to_shared(s.items, input + base, bytes, full);
  }

  // By a reduce warp: the predicate, once an item; the segment's flag words left in the stage (none past
  // its items) for its scan warp; the count.
  template <scan_kind Kind, class Op>
  __device__ maybe<Count> reduce_segment(stage& s, offset_t, int segment, int items, Op const&) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    vector_rows_source<T, vector, false> items_of_segment{s.items + segment * segment_items};
    unsigned word = 0;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      T row[vector];
      items_of_segment.load_row(r, lane, row);
#pragma unroll
      for (int j = 0; j < vector; ++j) {
        const bool flag = (r * 32 + lane) * vector + j < items && static_cast<bool>(pred(row[j]));
        word |= static_cast<unsigned>(flag) << (r * vector + j);
      }
    }
    s.flags[segment][lane] = word;
    return some<Count>(static_cast<Count>(__reduce_add_sync(0xffffffffu, static_cast<unsigned>(__popc(word)))));
  }

  // Rows of flags from the lane's word; the items stay in the source's registers for the store, as the
  // stage is freed before the carry is known.
  struct source {
    vector_rows_source<T, vector, false> segment;
    unsigned selected;
    T items[rounds][vector];

    __device__ __forceinline__ void load_row(int r, int lane, Count (&row)[vector]) {
      segment.load_row(r, lane, items[r]);
#pragma unroll
      for (int j = 0; j < vector; ++j) row[j] = static_cast<Count>((selected >> (r * vector + j)) & 1u);
    }
  };

  template <scan_kind Kind>
  __device__ source segment(stage const& s, offset_t, int segment) const {
    return source{{s.items + segment * segment_items}, s.flags[segment][threadIdx.x % 32]};
  }

  // local: the exclusive sums of the flags, the carry applied (the pass starts from 0).
  template <scan_kind Kind, bool Partial>
  __device__ __forceinline__ void store(offset_t tile, int segment, int items, source const& src,
                                        typename rows::local_scan const& local) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const bool holds_last = tile * tile_items + segment * segment_items + items == n;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
#pragma unroll
      for (int j = 0; j < vector; ++j) {
        const bool selected = (src.selected >> (r * vector + j)) & 1u;
        if (selected) output[local.rows[r][j]] = src.items[r][j];
        if (holds_last && (r * 32 + lane) * vector + j == items - 1)
          publish_selected_count(total, ticket, static_cast<offset_t>(local.rows[r][j]) + selected);
      }
    }
  }
};

template <class Tuning, class K, class V, class Count, class Equal>
struct pipelined_unique_by_key_tiles {
  static constexpr int vector = Tuning::vector, rounds = Tuning::rounds;
  using value_type = Count;
  using rows = warp_vector_rows<Count, vector, rounds>;
  using item_type = ::cuda::std::tuple<K, V>;
  static constexpr int tile_items = Tuning::tile_items;
  static constexpr int segment_items = Tuning::segment_items;
  static constexpr std::size_t input_bytes_per_item = sizeof(K) + sizeof(V);
  static constexpr bool reduces_into_stage = true;
  static constexpr bool parks = false;
  static constexpr int key_lead = keys_with_lead<K>::lead;
  static_assert(vector * sizeof(V) == 16 && rounds * vector <= 32, "rows of values are 16-byte vectors; a lane's flags one word");
  // flags: a lane's flag word (bit r * vector + j: item j of its row in round r); heads: each segment's
  // count, which the producer reads when the stage comes round again.
  struct stage {
    alignas(128) V values[tile_items];
    alignas(16) K keys[key_lead + tile_items];  // keys[key_lead - 1]: the key before the tile
    unsigned flags[Tuning::scan_warps][32];
    Count heads[Tuning::scan_warps];
    bool values_copied;
  };

  __device__ static bool absorbs_carry(maybe<Count> const&) { return false; }
  // The first tiles take their values along (as after a dense tile).
  __device__ static void prepare(stage& s) {
    for (int i = 0; i < Tuning::scan_warps; ++i) s.heads[i] = static_cast<Count>(segment_items);
  }

  const K* keys;
  const V* values;
  K* keys_output;
  V* values_output;
  Equal equal;
  offset_t n;
  host_selected_count* total;
  unsigned ticket;
  bool rows_aligned;  // the outputs take whole rows at places that are multiples of `vector`

  // The inputs' bulk copies need alignment; the stores are single items where rows are not aligned.
  bool aligned() const {
    return reinterpret_cast<std::uintptr_t>(keys) % 16 == 0 && reinterpret_cast<std::uintptr_t>(values) % 16 == 0;
  }
  static bool rows_fit(const K* keys_output, const V* values_output) {
    return reinterpret_cast<std::uintptr_t>(keys_output) % (vector * sizeof(K)) == 0 &&
           reinterpret_cast<std::uintptr_t>(values_output) % 16 == 0;
  }

  __device__ void copy(stage& s, offset_t tile, int valid, std::uint64_t* full) const {
    const offset_t base = tile * tile_items;
    Count heads_before = 0;  // the stage's previous tile's
    for (int i = 0; i < Tuning::scan_warps; ++i) heads_before += s.heads[i];
    const bool take_values = 4 * static_cast<long long>(heads_before) > tile_items;
    s.values_copied = take_values;
    const unsigned value_bytes = take_values ? whole_vector_bytes<V>(valid) : 0u;
    if (take_values)
      for (int e = static_cast<int>(value_bytes / sizeof(V)); e < valid; ++e) s.values[e] = values[base + e];
    const keys_with_lead<K> tile_keys{s.keys, keys, tile, base, valid};
    barrier_arrive_expecting(full, value_bytes + tile_keys.bulk_bytes());
    if (value_bytes > 0) bulk_copy_to_shared(s.values, values + base, value_bytes, full);
    tile_keys.bulk_copy(full);
  }

  // By a reduce warp: the heads' flag words left in the stage for the segment's scan warp (none past its
  // items), the segment's count.
  template <scan_kind Kind, class Op>
  __device__ maybe<Count> reduce_segment(stage& s, offset_t tile, int segment, int items, Op const&) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const int first = segment * segment_items;
    unsigned word = 0;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      // Each key read once: the row's keys and the one before the row. Reads past the items stay inside the
      // stage and their comparisons are skipped; guarding them measured more instructions, not fewer loads.
      K before = s.keys[key_lead + first + (r * 32 + lane) * vector - 1];
#pragma unroll
      for (int j = 0; j < vector; ++j) {
        const int i = (r * 32 + lane) * vector + j, e = first + i;
        const K key = s.keys[key_lead + e];
        const bool head = i < items && ((tile == 0 && e == 0) ||
                                        !static_cast<bool>(equal(item_type{before, V{}}, item_type{key, V{}})));
        word |= static_cast<unsigned>(head) << (r * vector + j);
        before = key;
      }
    }
    s.flags[segment][lane] = word;
    const Count count = static_cast<Count>(__reduce_add_sync(0xffffffffu, static_cast<unsigned>(__popc(word))));
    if (lane == 0) s.heads[segment] = count;
    return some<Count>(count);
  }

  // Rows of flags from the lane's word; the heads' keys and values taken into registers for the store
  // (the values from the stage where they came with the tile, else from the input), as the stage is
  // freed before the carry is known.
  struct source {
    K const* segment_keys;
    V const* segment_values;  // in the stage or in the input
    unsigned selected;
    K keys[rounds][vector];
    V values[rounds][vector];

    __device__ __forceinline__ void load_row(int r, int lane, Count (&row)[vector]) {
#pragma unroll
      for (int j = 0; j < vector; ++j) {
        const int i = (r * 32 + lane) * vector + j;
        const bool head = (selected >> (r * vector + j)) & 1u;
        row[j] = static_cast<Count>(head);
        if (head) {
          keys[r][j] = segment_keys[i];
          values[r][j] = segment_values[i];
        }
      }
    }
  };

  template <scan_kind Kind>
  __device__ source segment(stage const& s, offset_t tile, int segment) const {
    const int first = segment * segment_items;
    return source{s.keys + key_lead + first, s.values_copied ? s.values + first : values + tile * tile_items + first,
                  s.flags[segment][threadIdx.x % 32], {}, {}};
  }

  // local: the exclusive sums of the flags, the carry applied (the pass starts from 0).
  template <scan_kind Kind, bool Partial>
  __device__ __forceinline__ void store(offset_t tile, int segment, int items, source const& src,
                                        typename rows::local_scan const& local) const {
    const int lane = static_cast<int>(threadIdx.x % 32);
    const bool holds_last = tile * tile_items + segment * segment_items + items == n;
    constexpr unsigned row_mask = (1u << vector) - 1;
#pragma unroll
    for (int r = 0; r < rounds; ++r) {
      // A row of heads at a place of whole rows: one store each of its keys and its values.
      if (rows_aligned && ((src.selected >> (r * vector)) & row_mask) == row_mask && local.rows[r][0] % vector == 0) {
        store_row_bits(keys_output + local.rows[r][0], src.keys[r]);
        store_row_bits(values_output + local.rows[r][0], src.values[r]);
        const int row_first = (r * 32 + lane) * vector;
        if (holds_last && (items - 1) / vector == r * 32 + lane)
          publish_selected_count(total, ticket, static_cast<offset_t>(local.rows[r][0]) + (items - row_first));
        continue;
      }
#pragma unroll
      for (int j = 0; j < vector; ++j) {
        const bool selected = (src.selected >> (r * vector + j)) & 1u;
        if (selected) {
          keys_output[local.rows[r][j]] = src.keys[r][j];
          values_output[local.rows[r][j]] = src.values[r][j];
        }
        if (holds_last && (r * 32 + lane) * vector + j == items - 1)
          publish_selected_count(total, ticket, static_cast<offset_t>(local.rows[r][j]) + selected);
      }
    }
  }
};

}  // namespace fastscan::detail
