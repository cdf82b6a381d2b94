#pragma once
// User function objects (scan operators, key predicates) as Thrust and CUB hold them: by value, called
// through a non-const object, so an operator() that is not const, or that updates state of its own,
// works as it does under thrust::cuda::par. Each thread calls its own copy. Wrapped once, at the
// Thrust boundary; the library's code may then call it from const member functions.

#include <cuda/std/utility>

namespace fastscan::detail {

template <class F>
struct callable {
  mutable F function;

#pragma nv_exec_check_disable
  template <class... Args>
  __host__ __device__ decltype(auto) operator()(Args&&... args) const {
    return function(::cuda::std::forward<Args>(args)...);
  }
};

template <class F>
callable<F> make_callable(F const& function) {
  return callable<F>{function};
}

}  // namespace fastscan::detail
