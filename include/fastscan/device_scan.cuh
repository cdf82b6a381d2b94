#pragma once
// fastscan's scans with CUB's calling convention, for code that calls cub::DeviceScan directly:
//
//   std::size_t temp_bytes = 0;
//   fastscan::device_scan<fastscan::matrix_algorithm>::exclusive_sum(nullptr, temp_bytes, in, out, n, stream);
//   cudaMalloc(&temp, temp_bytes);
//   fastscan::device_scan<fastscan::matrix_algorithm>::exclusive_sum(temp, temp_bytes, in, out, n, stream);
//
// As with CUB: a null d_temp_storage only sets temp_storage_bytes (never 0, so the second call's
// pointer is not null either); calls are asynchronous on `stream` and return a cudaError_t; nothing
// throws. Accumulator types follow cub::DeviceScan (the op's result on the init and the input's value
// type; sums in the input's value type). Each function runs the same dispatch as the Thrust policies
// of the same algorithm: no second implementation. The single-pass algorithms keep their tile statuses
// in fastscan's per-stream buffer (README, Design), so their temporary storage is tiny.

#include <fastscan/detail/callable.cuh>
#include <fastscan/detail/dispatch/dispatch_scan.cuh>
#include <fastscan/detail/dispatch/dispatch_scan_by_key.cuh>
#include <fastscan/execution_policy.cuh>

#include <thrust/functional.h>
#include <thrust/iterator/iterator_traits.h>

#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cstddef>

namespace fastscan {

// Algorithm: one of the policies' algorithms, by name (execution_policy.cuh): matrix_algorithm,
// blelloch_algorithm, hillis_steele_algorithm and their _deterministic_algorithm flavours.
template <class Algorithm>
struct device_scan {
  template <class InputIt, class OutputIt>
  static cudaError_t exclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                   OutputIt d_out, detail::offset_t num_items, cudaStream_t stream = nullptr) {
    using value_t = thrust::detail::it_value_t<InputIt>;
    return exclusive_scan(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{}, value_t{}, num_items,
                          stream);
  }

  template <class InputIt, class OutputIt, class ScanOp, class InitT>
  static cudaError_t exclusive_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                    OutputIt d_out, ScanOp scan_op, InitT init_value, detail::offset_t num_items,
                                    cudaStream_t stream = nullptr) {
    return scan_with_init<detail::scan_kind::exclusive>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op,
                                                        init_value, num_items, stream);
  }

  template <class InputIt, class OutputIt>
  static cudaError_t inclusive_sum(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                   OutputIt d_out, detail::offset_t num_items, cudaStream_t stream = nullptr) {
    return inclusive_scan(d_temp_storage, temp_storage_bytes, d_in, d_out, ::cuda::std::plus<>{}, num_items, stream);
  }

  template <class InputIt, class OutputIt, class ScanOp>
  static cudaError_t inclusive_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                    OutputIt d_out, ScanOp scan_op, detail::offset_t num_items,
                                    cudaStream_t stream = nullptr) {
    using value_t = thrust::detail::it_value_t<InputIt>;
    using acc_t = ::cuda::std::__accumulator_t<ScanOp, value_t, value_t>;
    return scan<detail::scan_kind::inclusive, acc_t>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op,
                                                     detail::none<acc_t>(), num_items, stream);
  }

  // cub::DeviceScan::InclusiveScanInit: the init combined before the first element.
  template <class InputIt, class OutputIt, class ScanOp, class InitT>
  static cudaError_t inclusive_scan_init(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                         OutputIt d_out, ScanOp scan_op, InitT init_value, detail::offset_t num_items,
                                         cudaStream_t stream = nullptr) {
    return scan_with_init<detail::scan_kind::inclusive>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op,
                                                        init_value, num_items, stream);
  }

  template <class KeysIt, class ValuesIt, class OutputIt, class EqualityOp = ::cuda::std::equal_to<>>
  static cudaError_t exclusive_sum_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysIt d_keys_in,
                                          ValuesIt d_values_in, OutputIt d_values_out, detail::offset_t num_items,
                                          EqualityOp equality_op = {}, cudaStream_t stream = nullptr) {
    using value_t = thrust::detail::it_value_t<ValuesIt>;
    return exclusive_scan_by_key(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                 ::cuda::std::plus<>{}, value_t{}, num_items, equality_op, stream);
  }

  template <class KeysIt, class ValuesIt, class OutputIt, class ScanOp, class InitT,
            class EqualityOp = ::cuda::std::equal_to<>>
  static cudaError_t exclusive_scan_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysIt d_keys_in,
                                           ValuesIt d_values_in, OutputIt d_values_out, ScanOp scan_op,
                                           InitT init_value, detail::offset_t num_items, EqualityOp equality_op = {},
                                           cudaStream_t stream = nullptr) {
    using acc_t = ::cuda::std::__accumulator_t<ScanOp, thrust::detail::it_value_t<ValuesIt>, InitT>;
    return scan_by_key<detail::scan_kind::exclusive, acc_t>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                            d_values_in, d_values_out, scan_op,
                                                            static_cast<acc_t>(init_value), num_items, equality_op,
                                                            stream);
  }

  template <class KeysIt, class ValuesIt, class OutputIt, class EqualityOp = ::cuda::std::equal_to<>>
  static cudaError_t inclusive_sum_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysIt d_keys_in,
                                          ValuesIt d_values_in, OutputIt d_values_out, detail::offset_t num_items,
                                          EqualityOp equality_op = {}, cudaStream_t stream = nullptr) {
    return inclusive_scan_by_key(d_temp_storage, temp_storage_bytes, d_keys_in, d_values_in, d_values_out,
                                 ::cuda::std::plus<>{}, num_items, equality_op, stream);
  }

  template <class KeysIt, class ValuesIt, class OutputIt, class ScanOp, class EqualityOp = ::cuda::std::equal_to<>>
  static cudaError_t inclusive_scan_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysIt d_keys_in,
                                           ValuesIt d_values_in, OutputIt d_values_out, ScanOp scan_op,
                                           detail::offset_t num_items, EqualityOp equality_op = {},
                                           cudaStream_t stream = nullptr) {
    using value_t = thrust::detail::it_value_t<ValuesIt>;
    using acc_t = ::cuda::std::__accumulator_t<ScanOp, value_t, value_t>;
    return scan_by_key<detail::scan_kind::inclusive, acc_t>(d_temp_storage, temp_storage_bytes, d_keys_in,
                                                            d_values_in, d_values_out, scan_op, acc_t{}, num_items,
                                                            equality_op, stream);
  }

 private:
  // CUB's two phases around one dispatch: measure, or check the caller's storage and launch.
  template <class Dispatch>
  static cudaError_t two_phase(void* d_temp_storage, std::size_t& temp_storage_bytes, detail::offset_t num_items,
                               Dispatch&& dispatch) {
    if (num_items < 0) return cudaErrorInvalidValue;
    detail::temp_arena plan = detail::temp_arena::measure();
    if (num_items > 0) FASTSCAN_CUDA_TRY(dispatch(plan));
    const std::size_t needed = plan.bytes_used() > 0 ? plan.bytes_used() : 1;
    if (d_temp_storage == nullptr) {
      temp_storage_bytes = needed;
      return cudaSuccess;
    }
    if (temp_storage_bytes < needed) return cudaErrorInvalidValue;
    if (num_items == 0) return cudaSuccess;
    detail::temp_arena arena = detail::temp_arena::over(d_temp_storage, plan);
    return dispatch(arena);
  }

  // A scan with an init, accumulating as CUB does in decay(op(init, value)).
  template <detail::scan_kind Kind, class InputIt, class OutputIt, class ScanOp, class InitT>
  static cudaError_t scan_with_init(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in,
                                    OutputIt d_out, ScanOp scan_op, InitT init_value, detail::offset_t num_items,
                                    cudaStream_t stream) {
    using acc_t = ::cuda::std::__accumulator_t<ScanOp, thrust::detail::it_value_t<InputIt>, InitT>;
    return scan<Kind, acc_t>(d_temp_storage, temp_storage_bytes, d_in, d_out, scan_op, detail::some<acc_t>(init_value),
                             num_items, stream);
  }

  template <detail::scan_kind Kind, class AccT, class InputIt, class OutputIt, class ScanOp>
  static cudaError_t scan(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                          ScanOp scan_op, detail::maybe<AccT> init, detail::offset_t num_items, cudaStream_t stream) {
    auto input = detail::native_iterator(d_in);
    auto output = detail::native_iterator(d_out);
    const auto op = detail::make_callable(scan_op);
    return two_phase(d_temp_storage, temp_storage_bytes, num_items, [&](detail::temp_arena& arena) {
      return detail::dispatch_scan<Algorithm, Kind, AccT>(arena, input, output, num_items, op, init, stream);
    });
  }

  template <detail::scan_kind Kind, class AccT, class KeysIt, class ValuesIt, class OutputIt, class ScanOp,
            class EqualityOp>
  static cudaError_t scan_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeysIt d_keys_in,
                                 ValuesIt d_values_in, OutputIt d_values_out, ScanOp scan_op, AccT init,
                                 detail::offset_t num_items, EqualityOp equality_op, cudaStream_t stream) {
    auto keys = detail::native_iterator(d_keys_in);
    auto values = detail::native_iterator(d_values_in);
    auto output = detail::native_iterator(d_values_out);
    const auto op = detail::make_callable(scan_op);
    const auto pred = detail::make_callable(equality_op);
    return two_phase(d_temp_storage, temp_storage_bytes, num_items, [&](detail::temp_arena& arena) {
      return detail::dispatch_scan_by_key<Algorithm, Kind, AccT>(arena, keys, values, output, num_items, pred, op,
                                                                 init, stream);
    });
  }
};

}  // namespace fastscan
