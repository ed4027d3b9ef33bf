// What one element of an elementwise op computes, where more than one kernel needs it: the ops'
// own kernels (elementwise.cc, kernel_util.cc's CastArray) and the fused elementwise programs
// (elementwise_program.cc), so that fusing ops changes no bit of a result.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernel_util.h"

namespace relaypass::op::kernels {

template <typename T>
RELAYPASS_ELEMENT_INLINE T CheckedDivide(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a / b;
  } else {
    if (b == T(0)) Fail("divide: integer division by zero");
    if constexpr (std::is_signed_v<T>) {
      if (a == std::numeric_limits<T>::min() && b == T(-1))
        return a;  // wraps, as in two's complement
    }
    return static_cast<T>(a / b);  // truncating, as TVM's integer division
  }
}

template <typename T>
RELAYPASS_ELEMENT_INLINE T Shift(T a, T b, bool right) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bool>) {
    Fail("shift: defined for integer types only");
  } else {
    if (b < T(0) || static_cast<uint64_t>(b) >= sizeof(T) * 8) return T(0);
    return right ? static_cast<T>(a >> b) : static_cast<T>(a << b);
  }
}

// `v` converted to T, saturating at T's range (a clip bound such as 1e30 on int8).
template <typename T>
RELAYPASS_ELEMENT_INLINE T Saturate(double v) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else {
    const double lo = static_cast<double>(std::numeric_limits<T>::lowest());
    const double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (v <= lo) return std::numeric_limits<T>::lowest();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }
}

// std::round (halves away from zero: TVM's round on the llvm target), as loops can vectorize it:
// x - trunc(x) is exact, so the comparison with 0.5 decides as roundf does (infinities and NaN
// come back as they are: their difference is NaN, and trunc keeps them; a step of 0 carries x's
// sign, so -0.3 gives -0 as roundf does).
template <typename T>
RELAYPASS_ELEMENT_INLINE T RoundHalfAwayFromZero(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    const T t = std::trunc(x);
    const T step = static_cast<T>(std::fabs(x - t) >= T(0.5));  // 0 or 1, without a branch
    return t + std::copysign(step, x);
  } else {
    return x;  // integers are whole already
  }
}

// std::max and std::min's results (NaN operands included), always inlined.
template <typename T>
RELAYPASS_ELEMENT_INLINE T Max(T a, T b) {
  return a < b ? b : a;
}
template <typename T>
RELAYPASS_ELEMENT_INLINE T Min(T a, T b) {
  return b < a ? b : a;
}

template <typename To, typename From>
RELAYPASS_ELEMENT_INLINE To Convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace relaypass::op::kernels
