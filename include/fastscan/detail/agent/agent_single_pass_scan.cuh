#pragma once
// One thread block's work in a single-pass scan: draw a tile number (launch order), load the tile,
// scan it with the block algorithm whose prefix callback is the decoupled look-back, store it. Every
// element is read once and written once (2n traffic). In-place calls are safe: a tile reads only its
// own input before writing its own output.
//
// agent_single_pass_scan serves every block algorithm and, over (head, value) pairs with the
// segmented operator, the scans by key of blelloch and hillis_steele. agent_single_pass_segmented_scan
// is the matrix scan by key: the paper's segmented block kernel (Fig. 5) for tiles holding a head, the
// plain block scan for tiles inside one segment, both behind the same look-back over pairs.

#include <fastscan/detail/agent/deterministic_lookback.cuh>
#include <fastscan/detail/agent/single_pass_lookback.cuh>
#include <fastscan/detail/agent/tile_io.cuh>
#include <fastscan/detail/segmented.cuh>

#include <thrust/iterator/iterator_traits.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <type_traits>

namespace fastscan::detail {

template <class Tuning, class AccT>
struct agent_single_pass_scan {
  static constexpr int tile_items = Tuning::tile_items;
  using block_scan = typename Tuning::block_scan;
  using io = tile_io<Tuning::threads, Tuning::items_per_thread, Tuning::vector>;

  struct temp_storage {
    typename block_scan::temp_storage scan;
    offset_t tile;
  };

  // The block's tile (tile_draw.cuh), its launch-order guess prefetched where `access` says.
  template <class InputIt>
  __device__ static tile_span draw(temp_storage& storage, InputIt input, offset_t n, tile_state<AccT> const& state,
                                   tile_access access) {
    return locate_tile(draw_tile(storage.tile, state, access, [&](offset_t guess) {
      io::template prefetch_full<AccT>(input, guess * tile_items, n);
    }), n, tile_items);
  }

  // access: how full tiles move (the host checked that input and output allow it).
  template <scan_kind Kind, class InputIt, class OutputIt, class Op>
  __device__ static void consume_tile(temp_storage& storage, InputIt input, OutputIt output, offset_t n, Op op,
                                      maybe<AccT> init, tile_state<AccT> const& state, tile_access access) {
    const tile_span tile = draw(storage, input, n, state, access);
    const single_pass_prefix_for<Tuning, AccT, Op> prefix{state, tile.index, !tile.last, op, init};
    AccT items[Tuning::items_per_thread];
    if (tile.valid == tile_items) {
      io::load_full(input, tile.base, items, access);
      block_scan(storage.scan).template scan<Kind>(items, op, prefix);
      io::store_full(output, tile.base, items, access);
    } else {
      io::template load<false>(input, tile.base, tile.valid, items);
      block_scan(storage.scan).template scan<Kind>(items, op, prefix);
      io::template store<false>(output, tile.base, tile.valid, items);
    }
  }
};

// The same scan with the tile staged in shared memory (Tuning::staged: block scans that take a staged
// tile, the matrix scan's scan_staged): a full tile of aligned contiguous memory lands there by
// asynchronous copies, other tiles element by element, and the results leave from there. The tile never
// occupies registers, so a block holds few and more blocks fit an SM: more of the input is on its way
// from DRAM while blocks wait in the look-back.
template <class Tuning, class AccT>
struct agent_staged_single_pass_scan {
  using block_scan = typename Tuning::block_scan;
  using io = tile_io<Tuning::threads, Tuning::items_per_thread, Tuning::vector>;
  static_assert(block_scan::stages_vectors && Tuning::vector * sizeof(AccT) == 16,
                "a staged tile moves 16-byte vectors of the matrix's vector rows");

  using registers_agent = agent_single_pass_scan<Tuning, AccT>;
  using temp_storage = typename registers_agent::temp_storage;

  template <scan_kind Kind, class InputIt, class OutputIt, class Op>
  __device__ static void consume_tile(temp_storage& storage, InputIt input, OutputIt output, offset_t n, Op op,
                                      maybe<AccT> init, tile_state<AccT> const& state, tile_access access) {
    const tile_span tile = registers_agent::draw(storage, input, n, state, access);
    const single_pass_prefix_for<Tuning, AccT, Op> prefix{state, tile.index, !tile.last, op, init};
    block_scan scan(storage.scan);
    const auto vector_slot = [&](int chunk) { return scan.staged_vector(chunk); };
    const auto element_slot = [&](int e) { return scan.staged_element(e); };
    io::template stage_tile<AccT>(input, tile.base, tile.valid, access, vector_slot, element_slot);
    wait_for_async_copies();
    __syncthreads();
    scan.template scan_staged<Kind>(op, prefix);
    io::template unstage_tile<AccT>(output, tile.base, tile.valid, access, vector_slot, element_slot);
  }
};

// The single-pass scan's agent for a tuning: staged tiles where the tuning asks for them.
template <class Tuning, class AccT>
using single_pass_scan_agent = std::conditional_t<Tuning::staged, agent_staged_single_pass_scan<Tuning, AccT>,
                                                  agent_single_pass_scan<Tuning, AccT>>;

template <class Tuning, class AccT>
struct agent_single_pass_segmented_scan {
  static constexpr int items_per_thread = Tuning::items_per_thread;
  static constexpr int tile_items = Tuning::tile_items;
  using pair_t = segmented_value<AccT>;
  using block_scan = typename Tuning::block_scan;
  using block_segmented_scan = typename Tuning::block_segmented_scan;
  using io = tile_io<Tuning::threads, items_per_thread, Tuning::vector>;

  struct temp_storage {
    union {
      typename block_scan::temp_storage plain;
      typename block_segmented_scan::temp_storage segmented;
    } scan;
    offset_t tile;
  };

  // The plain block scan's callback for a tile inside one segment: its aggregate as a head-free pair.
  template <class PairPrefix>
  struct value_prefix {
    PairPrefix const& pairs;
    __device__ maybe<AccT> operator()(AccT const& aggregate) const {
      const maybe<pair_t> carry = pairs(pair_t{aggregate, false});
      return maybe<AccT>{carry.value.value, carry.valid};
    }
  };

  // Keys and values of a full tile in chunks (both contiguous and aligned: 16-byte vectors of values,
  // the same elements' keys in chunks of their own width); the key before each chunk's first element
  // is one more (cached) load. (Taking it from
  // the previous lane by shuffle measured 6-15% slower for exclusive scans by key.)
  template <scan_kind Kind, class Element>
  __device__ static void load_vectors(Element const& element, offset_t tile_base, AccT (&values)[items_per_thread],
                                      unsigned& heads) {
    using key_t = key_type_of<decltype(element.keys)>;
    key_t keys[items_per_thread];
    io::template load_vectors<false>(element.keys, tile_base, keys);
    io::template load_vectors<false>(element.values, tile_base, values);
#pragma unroll
    for (int k = 0; k < items_per_thread; ++k) {
      const offset_t i = tile_base + io::element(k);
      const bool head = k % Tuning::vector == 0
                            ? i == 0 || !element.pred(*lowest_address<key_t>(element.keys, i - 1, 1), keys[k])
                            : !element.pred(keys[k - 1], keys[k]);
      heads |= static_cast<unsigned>(head) << k;
    }
    // Heads first, then the values they change: the value loads need not complete before the keys'.
    if constexpr (Kind == scan_kind::exclusive) {
#pragma unroll
      for (int k = 0; k < items_per_thread; ++k)
        if ((heads >> k) & 1u) values[k] = static_cast<AccT>(element.op(element.init, values[k]));
    }
  }

  // Whether keys, values and results can be vectors at all (their types); the host checks alignment.
  template <class Element, class Output>
  __host__ __device__ static constexpr bool vectors_possible() {
    using keys_t = decltype(Element::keys);
    using key_t = key_type_of<keys_t>;
    if constexpr (std::is_void_v<key_t>) {  // keys from a fancy iterator
      return false;
    } else {
      return Tuning::vector > 1 && is_vector_memory_of<keys_t, key_t> && chunk_movable<key_t, Tuning::vector> &&
             is_vector_memory_of<decltype(Element::values), AccT> && is_vector_memory_of<decltype(Output::output), AccT>;
    }
  }

  // A scan by key: `element` gives element i as a (head, value) pair (by_key_element), `output` writes
  // scanned pairs (by_key_output). access: whether full tiles move chunks of keys, values and results, and whether keys and values are prefetched (never streaming: dispatch_single_pass.cuh).
  template <scan_kind Kind, class Element, class Output, class Op>
  __device__ static void consume_tile(temp_storage& storage, Element const& element, Output const& output, offset_t n,
                                      Op op, tile_state<pair_t> const& state, tile_access access) {
    constexpr bool types_allow_vectors = vectors_possible<Element, Output>();
    const tile_span tile = locate_tile(draw_tile(storage.tile, state, access, [&](offset_t guess) {
      if constexpr (types_allow_vectors) {
        using key_t = key_type_of<decltype(element.keys)>;
        io::template prefetch_full<key_t>(element.keys, guess * tile_items, n);
        io::template prefetch_full<AccT>(element.values, guess * tile_items, n);
      }
    }), n, tile_items);
    const offset_t tile_base = tile.base;
    const int valid = tile.valid;
    using pair_prefix_t = single_pass_prefix_for<Tuning, pair_t, segmented_op<Op>>;
    const pair_prefix_t prefix{state, tile.index, !tile.last, segmented_op<Op>{op}, none<pair_t>()};
    AccT values[items_per_thread];
    unsigned heads = 0;  // bit k: item k starts a segment
    const bool vectorized = types_allow_vectors && moves_vectors(access) && valid == tile_items;
    if (vectorized) {
      if constexpr (types_allow_vectors) load_vectors<Kind>(element, tile_base, values, heads);
    } else {
      heads = load_by_key_elements<io, false>(element, tile_base, valid, values);
    }
    if (__syncthreads_or(heads != 0)) {
      block_segmented_scan(storage.scan.segmented).template scan<Kind>(values, heads, op, prefix);
    } else {
      // Wholly inside one segment: the faster unsegmented scan gives the same values.
      block_scan(storage.scan.plain).template scan<Kind>(values, op, value_prefix<pair_prefix_t>{prefix});
    }
    if (vectorized) {
      if constexpr (types_allow_vectors) {
        // An exclusive scan by key writes the init at every head.
        if constexpr (Kind == scan_kind::exclusive) {
#pragma unroll
          for (int k = 0; k < items_per_thread; ++k)
            if ((heads >> k) & 1u) values[k] = element.init;
        }
        io::template store_vectors<false>(output.output, tile_base, values);
      }
    } else {
#pragma unroll
      for (int k = 0; k < items_per_thread; ++k) {
        const int e = io::element(k);
        if (e < valid) output.write(tile_base + e, values[k], ((heads >> k) & 1u) != 0);
      }
    }
  }
};

}  // namespace fastscan::detail
