#pragma once
// Moving one tile between global memory and a block's registers (or its shared memory: staged tiles),
// in the arrangement the block scans expect (striped_element in config.cuh). Shared by every agent.
//
// Two paths: element by element through any iterator (coalesced, since a warp's items k cover
// contiguous spans), and 16-byte vectors for memory of the element type itself, aligned to 16 bytes:
// contiguous, or a backward view (backward.cuh) read and written in descending order; a zip of two
// contiguous arrays loads a chunk of each (zip_of_two). The dispatch
// layer chooses at run time (tile_access, planned in dispatch/tile_access_plan.cuh); only full tiles
// use vectors. The partial last tile clamps its loads to the last element, so no identity is needed to
// fill it: positions past the end only feed results that are never stored (a scan's output at i
// depends on 0..i only).

#include <fastscan/detail/agent/tile_draw.cuh>
#include <fastscan/detail/backward.cuh>
#include <fastscan/detail/config.cuh>
#include <fastscan/detail/uninitialized.cuh>
#include <fastscan/detail/warp/warp_shuffle.cuh>

#include <thrust/detail/raw_pointer_cast.h>
#include <thrust/iterator/iterator_traits.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/type_traits/is_contiguous_iterator.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fastscan::detail {

// True when `It` is contiguous memory of exactly T (a raw or device pointer, a vector iterator).
template <class It, class T>
constexpr bool contiguous_of() {
  if constexpr (std::is_pointer_v<It> || thrust::is_contiguous_iterator_v<It>) {
    return std::is_same_v<std::remove_cv_t<thrust::detail::it_value_t<It>>, T>;
  } else {
    return false;
  }
}
template <class It, class T>
constexpr bool is_contiguous_of = contiguous_of<It, T>();

template <class It>
struct is_backward_view : std::false_type {};
template <class U>
struct is_backward_view<backward_pointer<U>> : std::true_type {
  using element = std::remove_cv_t<U>;
};
template <class It, class T>
constexpr bool backward_of() {
  if constexpr (is_backward_view<It>::value) return std::is_same_v<typename is_backward_view<It>::element, T>;
  else return false;
}
template <class It, class T>
constexpr bool is_backward_of = backward_of<It, T>();

// The element type of vector memory (void for other iterators).
template <class It>
constexpr auto key_type_probe() {
  if constexpr (std::is_pointer_v<It> || thrust::is_contiguous_iterator_v<It>) {
    return static_cast<std::remove_cv_t<thrust::detail::it_value_t<It>>*>(nullptr);
  } else if constexpr (is_backward_view<It>::value) {
    return static_cast<typename is_backward_view<It>::element*>(nullptr);
  } else {
    return static_cast<void*>(nullptr);
  }
}
template <class It>
using key_type_of = std::remove_pointer_t<decltype(key_type_probe<It>())>;

// Memory that 16-byte vectors can serve: contiguous ascending, or a backward view (descending).
template <class It, class T>
constexpr bool is_vector_memory_of = is_contiguous_of<It, T> || is_backward_of<It, T>;

template <class It>
struct is_zip_iterator : std::false_type {};
template <class Iterators>
struct is_zip_iterator<thrust::zip_iterator<Iterators>> : std::true_type {};

// A zip of two contiguous memories whose items are tuples of their elements (unique_by_key's (key,
// value) items): its tiles move each component's chunks as accesses of that component's width.
template <class It>
struct zip_of_two {
  static constexpr bool value = false;
};
template <class A, class B>
struct zip_of_two<thrust::zip_iterator<::cuda::std::tuple<A, B>>> {
  using first = key_type_of<A>;
  using second = key_type_of<B>;
  static constexpr bool value = is_contiguous_of<A, first> && is_contiguous_of<B, second>;
};

// Component C's array of a zip of two contiguous memories, as a raw pointer.
template <int Component, class It>
__host__ __device__ auto zip_array(It const& input) {
  return thrust::raw_pointer_cast(&*::cuda::std::get<Component>(input.get_iterator_tuple()));
}

// A zip of two contiguous memories whose items are T.
template <class It, class T>
constexpr bool zip_of_two_arrays_of() {
  if constexpr (zip_of_two<It>::value)
    return std::is_same_v<T, ::cuda::std::tuple<typename zip_of_two<It>::first, typename zip_of_two<It>::second>>;
  else return false;
}
template <class It, class T>
constexpr bool is_zip_of_two_arrays_of = zip_of_two_arrays_of<It, T>();

template <class It, class T, int Vector>
constexpr bool zip_vector_memory_of() {
  if constexpr (is_zip_of_two_arrays_of<It, T>) {
    using first = typename zip_of_two<It>::first;
    using second = typename zip_of_two<It>::second;
    return chunk_movable<first, Vector> && chunk_movable<second, Vector> && std::is_default_constructible_v<first> &&
           std::is_default_constructible_v<second>;
  } else {
    return false;
  }
}
template <class It, class T, int Vector>
constexpr bool is_zip_vector_memory_of = zip_vector_memory_of<It, T, Vector>();

// The lowest address of elements [first, first + count) of vector memory.
template <class T, class It>
__host__ __device__ const T* lowest_address(It it, offset_t first, int count) {
  if constexpr (is_backward_of<It, T>) return it.last - first - (count - 1);
  else return thrust::raw_pointer_cast(&*it) + first;
}

// How a launch moves its full tiles (the host decides per call, dispatch/tile_access_plan.cuh):
//   elements                      element by element through the iterator;
//   vectors                       16-byte vectors (vector memory, aligned);
//   prefetched_vectors            vectors, and before a block draws its tile (single-pass drivers), its
//                                 thread 0 starts the tile the block would get if tiles went by blockIdx on
//                                 its way into L2 (prefetch_full): few blocks draw exactly that tile, but
//                                 the one that does started about as early, so each tile's DRAM read
//                                 begins before its block's draw returns instead of after it;
//   prefetched_streaming_vectors  the same, loaded and stored evict-first (ld.global.cs / st.global.cs),
//                                 for calls whose data exceeds the L2 cache and is touched once.
// Measured gains and where each is used: bench/PERFORMANCE.md.
enum class tile_access : unsigned char { elements, vectors, prefetched_vectors, prefetched_streaming_vectors };

__host__ __device__ constexpr bool moves_vectors(tile_access access) { return access != tile_access::elements; }
__host__ __device__ constexpr bool prefetches(tile_access access) {
  return access == tile_access::prefetched_vectors || access == tile_access::prefetched_streaming_vectors;
}
__host__ __device__ constexpr bool streams(tile_access access) {
  return access == tile_access::prefetched_streaming_vectors;
}

// Called by one thread: starts the bytes [first, first + bytes) on their way into L2 (their 16-byte
// aligned interior: one bulk prefetch, which holds no registers and which nothing waits for). Only a
// hint: nothing happens before sm_90 (no bulk copies).
__device__ inline void prefetch_to_l2([[maybe_unused]] const void* first, [[maybe_unused]] std::size_t bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(first) + 15) & ~std::uintptr_t{15};
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(first) + bytes) & ~std::uintptr_t{15};
  if (end <= begin) return;
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(begin), "r"(static_cast<unsigned>(end - begin))
               : "memory");
#endif
}

// Called by each thread: 16 bytes from global to shared memory without passing through registers (an
// asynchronous copy, bypassing L1; Streaming: evict-first in L2), completed by wait_for_async_copies().
// Before sm_80 (no asynchronous copies) an ordinary load and store.
template <bool Streaming>
__device__ __forceinline__ void copy_async_16(void* shared_target, const void* global_source) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned target = static_cast<unsigned>(__cvta_generic_to_shared(shared_target));
  if constexpr (Streaming) {
    unsigned long long policy;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("cp.async.cg.shared.global.L2::cache_hint [%0], [%1], 16, %2;" ::"r"(target), "l"(global_source),
                 "l"(policy)
                 : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(target), "l"(global_source) : "memory");
  }
#else
  *static_cast<uint4*>(shared_target) = *static_cast<const uint4*>(global_source);
#endif
}
__device__ __forceinline__ void wait_for_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory");
#endif
}

template <int Threads, int ItemsPerThread, int Vector>
struct tile_io {
  static_assert(ItemsPerThread % Vector == 0, "a thread's items must be whole vectors");
  static constexpr int tile_items = Threads * ItemsPerThread;
  static constexpr int vector = Vector;

  __device__ static int element(int k) { return striped_element<Threads, Vector>(k, static_cast<int>(threadIdx.x)); }

  // The input index of this thread's chunk j of the full tile at tile_base (its element(j * Vector)).
  __device__ static offset_t chunk_first(offset_t tile_base, int j) {
    return tile_base + static_cast<offset_t>(j * Threads + threadIdx.x) * Vector;
  }

  template <bool FullTile, class InputIt, class T>
  __device__ static void load(InputIt input, offset_t tile_base, int valid, T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      int e = element(k);
      if (!FullTile && e >= valid) e = valid - 1;
      items[k] = input[tile_base + e];
    }
  }

  template <bool FullTile, class OutputIt, class T>
  __device__ static void store(OutputIt output, offset_t tile_base, int valid, T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int e = element(k);
      if (FullTile || e < valid) output[tile_base + e] = items[k];
    }
  }

  // A full tile, as `access` says (the host checked that vectors are possible where it asks for them).
  // One kernel serves every access, so aligned and misaligned calls share an instantiation.
  template <class InputIt, class T>
  __device__ static void load_full(InputIt input, offset_t tile_base, T (&items)[ItemsPerThread], tile_access access) {
    if constexpr (Vector > 1 && is_vector_memory_of<InputIt, T>) {
      if (streams(access)) return load_vectors<true>(input, tile_base, items);
      if (moves_vectors(access)) return load_vectors<false>(input, tile_base, items);
    } else if constexpr (Vector > 1 && is_zip_vector_memory_of<InputIt, T, Vector>) {
      if (streams(access)) return load_zip_vectors<true>(input, tile_base, items);
      if (moves_vectors(access)) return load_zip_vectors<false>(input, tile_base, items);
    }
    load<true>(input, tile_base, tile_items, items);
  }

  template <class OutputIt, class T>
  __device__ static void store_full(OutputIt output, offset_t tile_base, T (&items)[ItemsPerThread], tile_access access) {
    if constexpr (Vector > 1 && is_vector_memory_of<OutputIt, T>) {
      if (streams(access)) return store_vectors<true>(output, tile_base, items);
      if (moves_vectors(access)) return store_vectors<false>(output, tile_base, items);
    }
    store<true>(output, tile_base, tile_items, items);
  }

  // A drawn tile (tile_draw.cuh): full ones as `access` says, the input's last one element by element.
  template <class InputIt, class T>
  __device__ static void load_tile(InputIt input, tile_span const& tile, T (&items)[ItemsPerThread], tile_access access) {
    if (tile.full()) load_full(input, tile.base, items, access);
    else load<false>(input, tile.base, tile.valid, items);
  }

  // The item before each of this thread's vectors, for comparisons with a predecessor (run heads): the
  // last item of the same row's vector in the lane below, shuffled; lane 0 reads its own, all its reads
  // issued together (FirstOnly, for a zip whose items are compared by their first components: only the
  // first component). Called by all 32 lanes of a warp. Entries of vectors at or past `valid`, or
  // starting at the input's first element, are left as they are.
  template <bool FirstOnly = false, class InputIt, class T>
  __device__ static void predecessors(InputIt input, offset_t tile_base, int valid, T const (&items)[ItemsPerThread],
                                      T (&before)[ItemsPerThread / Vector]) {
    constexpr bool first_of_zip = FirstOnly && is_zip_iterator<InputIt>::value;
    const bool lane0 = threadIdx.x % 32 == 0;
    if (lane0) {
#pragma unroll
      for (int j = 0; j < ItemsPerThread / Vector; ++j) {
        const int e = element(j * Vector);
        if (e < valid && tile_base + e > 0) {
          if constexpr (first_of_zip)
            ::cuda::std::get<0>(before[j]) = ::cuda::std::get<0>(input.get_iterator_tuple())[tile_base + e - 1];
          else
            before[j] = input[tile_base + e - 1];
        }
      }
    }
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      if constexpr (first_of_zip) {
        const auto from_lower_lane =
            shuffle_any<shuffle_from::lower_lane>(::cuda::std::get<0>(items[j * Vector + Vector - 1]), 1);
        if (!lane0) ::cuda::std::get<0>(before[j]) = from_lower_lane;
      } else {
        const T from_lower_lane = shuffle_any<shuffle_from::lower_lane>(items[j * Vector + Vector - 1], 1);
        if (!lane0) before[j] = from_lower_lane;
      }
    }
  }

  // Bit k set where item k starts a run: the input's first item, and every item for which
  // equal(previous, item) fails, the previous item in registers inside a vector, else `before` (from
  // predecessors()). Items at or past `valid` get no bit.
  template <class T, class EqualOp>
  __device__ static unsigned run_heads(offset_t tile_base, int valid, T const (&items)[ItemsPerThread],
                                       T const (&before)[ItemsPerThread / Vector], EqualOp const& equal) {
    unsigned bits = 0;
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int e = element(k);
      const T& previous = k % Vector != 0 ? items[k - 1] : before[k / Vector];
      const bool head = e < valid && (tile_base + e == 0 || !static_cast<bool>(equal(previous, items[k])));
      bits |= static_cast<unsigned>(head) << k;
    }
    return bits;
  }

  // A tile staged in shared memory instead of registers (block scans that take one: scan_staged), the
  // thread's items in the same striped arrangement. stage_vectors: a full tile of contiguous memory,
  // aligned to 16 bytes, its 16-byte vectors copied asynchronously to vector_slot(chunk) (16-byte aligned
  // shared memory; chunk j * Threads + thread is element chunk * Vector on); the caller completes the
  // copies (wait_for_async_copies) and synchronizes the block. stage_elements: any iterator, element e
  // to element_slot(e) (a partial tile clamps its reads as load does).
  template <bool Streaming, class T, class VectorSlot>
  __device__ static void stage_vectors(const T* input, offset_t tile_base, VectorSlot&& vector_slot) {
    static_assert(Vector * sizeof(T) == 16, "staged tiles move 16-byte vectors");
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      const int chunk = j * Threads + static_cast<int>(threadIdx.x);
      copy_async_16<Streaming>(vector_slot(chunk), input + tile_base + static_cast<offset_t>(chunk) * Vector);
    }
  }

  template <bool FullTile, class InputIt, class ElementSlot>
  __device__ static void stage_elements(InputIt input, offset_t tile_base, int valid, ElementSlot&& element_slot) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int e = element(k);
      auto* slot = element_slot(e);
      const std::remove_pointer_t<decltype(slot)> value = input[tile_base + (FullTile || e < valid ? e : valid - 1)];
      construct_in(*slot, value);
    }
  }

  // A tile (its first `valid` elements from tile_base) of `input` into shared memory: 16-byte vectors
  // where the tile is full, of contiguous memory of T and the access plan moves vectors (evict-first
  // where it streams), element by element otherwise. The caller completes the copies
  // (wait_for_async_copies) and synchronizes the block.
  template <class T, class InputIt, class VectorSlot, class ElementSlot>
  __device__ static void stage_tile(InputIt input, offset_t tile_base, int valid, tile_access access,
                                    VectorSlot&& vector_slot, ElementSlot&& element_slot) {
    constexpr int tile_items = Threads * ItemsPerThread;
    if constexpr (is_contiguous_of<InputIt, T> && Vector * sizeof(T) == 16) {
      if (valid == tile_items && moves_vectors(access)) {
        const T* raw = thrust::raw_pointer_cast(&*input);
        if (streams(access)) stage_vectors<true>(raw, tile_base, vector_slot);
        else stage_vectors<false>(raw, tile_base, vector_slot);
        return;
      }
    }
    if (valid == tile_items) stage_elements<true>(input, tile_base, tile_items, element_slot);
    else stage_elements<false>(input, tile_base, valid, element_slot);
  }

  // The results of a staged tile (its first `valid` elements) to `output`, as stage_tile took the tile:
  // 16-byte vectors where it is full, of contiguous memory of T and the plan moves vectors.
  template <class T, class OutputIt, class VectorSlot, class ElementSlot>
  __device__ static void unstage_tile(OutputIt output, offset_t tile_base, int valid, tile_access access,
                                      VectorSlot&& vector_slot, ElementSlot&& element_slot) {
    constexpr int tile_items = Threads * ItemsPerThread;
    if constexpr (is_contiguous_of<OutputIt, T> && Vector * sizeof(T) == 16) {
      if (valid == tile_items && moves_vectors(access)) {
        T* raw = thrust::raw_pointer_cast(&*output);
        if (streams(access)) unstage_vectors<true>(raw, tile_base, vector_slot);
        else unstage_vectors<false>(raw, tile_base, vector_slot);
        return;
      }
    }
    if (valid == tile_items) unstage_elements<true>(output, tile_base, tile_items, element_slot);
    else unstage_elements<false>(output, tile_base, valid, element_slot);
  }

  // The results of a staged tile: unstage_vectors to contiguous memory aligned to 16 bytes (a full
  // tile; Streaming: evict-first), unstage_elements through any iterator (the first `valid` elements).
  template <bool Streaming, class T, class VectorSlot>
  __device__ static void unstage_vectors(T* output, offset_t tile_base, VectorSlot&& vector_slot) {
    static_assert(Vector * sizeof(T) == 16, "staged tiles move 16-byte vectors");
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      const int chunk = j * Threads + static_cast<int>(threadIdx.x);
      const uint4 raw = *reinterpret_cast<const uint4*>(vector_slot(chunk));
      store_word<Streaming>(reinterpret_cast<uint4*>(output + tile_base + static_cast<offset_t>(chunk) * Vector), raw);
    }
  }

  template <bool FullTile, class OutputIt, class ElementSlot>
  __device__ static void unstage_elements(OutputIt output, offset_t tile_base, int valid, ElementSlot&& element_slot) {
#pragma unroll
    for (int k = 0; k < ItemsPerThread; ++k) {
      const int e = element(k);
      if (FullTile || e < valid) output[tile_base + e] = *element_slot(e);
    }
  }

  // Bytes [0, Bytes) from `source` (global, 16-byte aligned) to `target` (shared, 16-byte aligned) by
  // 16-byte asynchronous copies, consecutive threads taking consecutive copies.
  template <bool Streaming, std::size_t Bytes>
  __device__ static void stage_bytes(const void* source, void* target) {
    constexpr int copies = static_cast<int>(Bytes / 16);
    const char* from = static_cast<const char*>(source);
    char* to = static_cast<char*>(target);
#pragma unroll
    for (int round = 0; round < (copies + Threads - 1) / Threads; ++round) {
      const int c = round * Threads + static_cast<int>(threadIdx.x);
      if (copies % Threads == 0 || c < copies) copy_async_16<Streaming>(to + 16 * c, from + 16 * c);
    }
  }

  // A tile (its first `valid` elements from tile_base) of `input` into a tile-sized shared array in the
  // same order (shared[e] is element tile_base + e): a full tile of contiguous memory of T, aligned to 16
  // bytes, where the plan moves vectors, as 16-byte asynchronous copies of its bytes (consecutive
  // threads, consecutive copies); element by element otherwise. The caller completes the copies
  // (wait_for_async_copies) and synchronizes the block.
  template <class T, class InputIt>
  __device__ static void stage_tile_in_order(InputIt input, offset_t tile_base, int valid, tile_access access,
                                             T* shared) {
    constexpr int tile_items = Threads * ItemsPerThread;
    if constexpr (is_contiguous_of<InputIt, T> && tile_items * sizeof(T) % 16 == 0) {
      if (valid == tile_items && moves_vectors(access)) {
        const T* raw = thrust::raw_pointer_cast(&*input) + tile_base;
        if (streams(access)) stage_bytes<true, tile_items * sizeof(T)>(raw, shared);
        else stage_bytes<false, tile_items * sizeof(T)>(raw, shared);
        return;
      }
    }
    const auto element_slot = [&](int e) { return shared + e; };
    if (valid == tile_items) stage_elements<true>(input, tile_base, tile_items, element_slot);
    else stage_elements<false>(input, tile_base, valid, element_slot);
  }

  // Called by one thread: starts the full tile at tile_base of vector memory, or of both arrays of a zip
  // of two (is_zip_vector_memory_of), on its way into L2. Partial tiles and other iterators skip it.
  template <class T, class InputIt>
  __device__ static void prefetch_full(InputIt input, offset_t tile_base, offset_t n) {
    if constexpr (is_vector_memory_of<InputIt, T>) {
      if (tile_base + tile_items <= n)
        prefetch_to_l2(lowest_address<T>(input, tile_base, tile_items), tile_items * sizeof(T));
    } else {
      prefetch_zip_array<0, T>(input, tile_base, n);
      prefetch_zip_array<1, T>(input, tile_base, n);
    }
  }

  // The same for one array of a zip of two (is_zip_vector_memory_of; others skip it): Component 0 alone
  // for a tile that load_zip_firsts and load_zip_seconds_where read.
  template <int Component, class T, class InputIt>
  __device__ static void prefetch_zip_array(InputIt input, offset_t tile_base, offset_t n) {
    if constexpr (is_zip_vector_memory_of<InputIt, T, Vector>) {
      const auto* array = zip_array<Component>(input);
      if (tile_base + tile_items <= n) prefetch_to_l2(array + tile_base, tile_items * sizeof(*array));
    }
  }

  // A full tile of vector memory, its chunks aligned (chunk_alignment): one access per chunk (several
  // 16-byte ones for chunks wider than 16 bytes), all issued before the first is used (Streaming:
  // evict-first). A backward view's chunk holds its elements in descending order.
  template <bool Streaming, class InputIt, class T>
  __device__ static void load_vectors(InputIt input, offset_t tile_base, T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      const offset_t first = chunk_first(tile_base, j);
      if constexpr (is_backward_of<InputIt, T>) {
        T reversed[Vector];
        load_chunk<Streaming>(lowest_address<T>(input, first, Vector), reversed);
#pragma unroll
        for (int i = 0; i < Vector; ++i) items[j * Vector + i] = reversed[Vector - 1 - i];
      } else {
        load_chunk<Streaming>(lowest_address<T>(input, first, Vector), &items[j * Vector]);
      }
    }
  }

  // A full tile of a zip of two contiguous memories (is_zip_vector_memory_of), each component's chunks
  // aligned: one access per component chunk, the items built from them.
  template <bool Streaming, class InputIt, class T>
  __device__ static void load_zip_vectors(InputIt input, offset_t tile_base, T (&items)[ItemsPerThread]) {
    using first_t = typename zip_of_two<InputIt>::first;
    using second_t = typename zip_of_two<InputIt>::second;
    const first_t* firsts = zip_array<0>(input);
    const second_t* seconds = zip_array<1>(input);
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      const offset_t first = chunk_first(tile_base, j);
      first_t a[Vector];
      second_t b[Vector];
      load_chunk<Streaming>(firsts + first, a);
      load_chunk<Streaming>(seconds + first, b);
#pragma unroll
      for (int i = 0; i < Vector; ++i) items[j * Vector + i] = T(a[i], b[i]);
    }
  }

  // The first components of a full tile of a zip (is_zip_vector_memory_of): one access per chunk. The
  // second components stay as they are until load_zip_seconds_where.
  template <bool Streaming, class InputIt, class T>
  __device__ static void load_zip_firsts(InputIt input, offset_t tile_base, T (&items)[ItemsPerThread]) {
    using first_t = typename zip_of_two<InputIt>::first;
    const first_t* firsts = zip_array<0>(input);
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      first_t a[Vector];
      load_chunk<Streaming>(firsts + chunk_first(tile_base, j), a);
#pragma unroll
      for (int i = 0; i < Vector; ++i) ::cuda::std::get<0>(items[j * Vector + i]) = a[i];
    }
  }

  // The second components of the same tile's chunks that hold an item whose bit is set in `items_mask`
  // (bit k for item k); the others are not read.
  template <bool Streaming, class InputIt, class T>
  __device__ static void load_zip_seconds_where(InputIt input, offset_t tile_base, unsigned items_mask,
                                                T (&items)[ItemsPerThread]) {
    using second_t = typename zip_of_two<InputIt>::second;
    const second_t* seconds = zip_array<1>(input);
    constexpr unsigned chunk_mask = Vector == 32 ? ~0u : (1u << Vector) - 1u;
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      if (((items_mask >> (j * Vector)) & chunk_mask) == 0) continue;
      second_t b[Vector];
      load_chunk<Streaming>(seconds + chunk_first(tile_base, j), b);
#pragma unroll
      for (int i = 0; i < Vector; ++i) ::cuda::std::get<1>(items[j * Vector + i]) = b[i];
    }
  }

  // Vector consecutive elements from `address`, aligned to chunk_alignment, to chunk[0, Vector): one
  // access per chunk word.
  template <bool Streaming, class T>
  __device__ static void load_chunk(const T* address, T* chunk) {
    using word = chunk_word<T, Vector>;
    const word* words = reinterpret_cast<const word*>(address);
    word raw[chunk_words<T, Vector>];
#pragma unroll
    for (int w = 0; w < chunk_words<T, Vector>; ++w) {
      if constexpr (Streaming) raw[w] = __ldcs(words + w);
      else raw[w] = words[w];
    }
    std::memcpy(chunk, raw, sizeof(raw));
  }

  // Chunk j of this thread from a tile-sized array in shared memory, at its place in the tile: one
  // access per chunk word, so a warp's accesses are consecutive (no bank conflicts); element by element
  // where the chunk is no movable size. `tile` is aligned to chunk_alignment. Chunks of two 16-byte
  // words: eight lanes' chunks span 256 bytes, so reading every chunk's first word together would meet
  // each bank twice; lanes 4-7 of every eight read their second word first.
  template <class T>
  __device__ static void load_chunk_from_shared(T const* tile, int j, T (&items)[Vector]) {
    T const* chunk = tile + (j * Threads + static_cast<int>(threadIdx.x)) * Vector;
    if constexpr (chunk_movable<T, Vector> && chunk_bytes<T, Vector> == 32) {
      const uint4* words = reinterpret_cast<const uint4*>(chunk);
      const bool second_first = (threadIdx.x >> 2) & 1u;
      const uint4 read_first = words[second_first ? 1 : 0];
      const uint4 read_second = words[second_first ? 0 : 1];
      uint4 raw[2];
      raw[0] = second_first ? read_second : read_first;
      raw[1] = second_first ? read_first : read_second;
      std::memcpy(items, raw, sizeof(raw));
    } else if constexpr (chunk_movable<T, Vector>) {
      load_chunk<false>(chunk, items);
    } else {
#pragma unroll
      for (int i = 0; i < Vector; ++i) items[i] = chunk[i];
    }
  }

  // One word to global memory (Streaming: evict-first), through the cache-operator intrinsics (st.global.wb
  // is the default store): a plain store of a word assembled from 8-byte elements was split by the
  // compiler into two 8-byte stores, half a sector a lane.
  template <bool Streaming, class Word>
  __device__ static void store_word(Word* address, Word const& value) {
    if constexpr (Streaming) __stcs(address, value);
    else __stwb(address, value);
  }

  // chunk[0, Vector) to Vector consecutive elements at `address`, aligned to chunk_alignment: one access
  // per chunk word.
  template <bool Streaming, class T>
  __device__ static void store_chunk(T* address, T const* chunk) {
    using word = chunk_word<T, Vector>;
    word raw[chunk_words<T, Vector>];
    std::memcpy(raw, chunk, sizeof(raw));
    word* words = reinterpret_cast<word*>(address);
#pragma unroll
    for (int w = 0; w < chunk_words<T, Vector>; ++w) store_word<Streaming>(words + w, raw[w]);
  }

  template <bool Streaming, class OutputIt, class T>
  __device__ static void store_vectors(OutputIt output, offset_t tile_base, T (&items)[ItemsPerThread]) {
#pragma unroll
    for (int j = 0; j < ItemsPerThread / Vector; ++j) {
      const offset_t first = chunk_first(tile_base, j);
      T* address = const_cast<T*>(lowest_address<T>(output, first, Vector));
      if constexpr (is_backward_of<OutputIt, T>) {
        T reversed[Vector];
#pragma unroll
        for (int i = 0; i < Vector; ++i) reversed[Vector - 1 - i] = items[j * Vector + i];
        store_chunk<Streaming>(address, reversed);
      } else {
        store_chunk<Streaming>(address, &items[j * Vector]);
      }
    }
  }
};

}  // namespace fastscan::detail
