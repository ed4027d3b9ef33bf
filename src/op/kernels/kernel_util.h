// Helpers shared by the CPU kernels: dtype dispatch, half-precision promotion, casts, strides and
// attribute decoding.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::op::kernels {

using ir::DataType;
using ir::NDArray;
using ir::Shape;
using Arrays = std::vector<NDArray>;

[[noreturn]] void Fail(const std::string& message);

// The least number of elements a kernel hands to one thread of support::ParallelFor: below it,
// waking a thread costs more than the work (about 20 us of elementwise work on float32).
inline constexpr int64_t kParallelGrain = 32768;

// Integer arithmetic wraps around on overflow, as TVM's generated code and numpy do. Signed
// overflow is undefined in C++, so integers are computed in an unsigned type at least as wide as
// unsigned int (narrower ones would be promoted to int, where a product can overflow again).
// Element functions are always inlined: the elementwise programs' loops are compiled once per
// instruction set (program_isa/), and an out-of-line copy made with AVX-512 allowed could be the
// one the linker keeps for every caller.
#define RELAYPASS_ELEMENT_INLINE inline __attribute__((always_inline))

template <typename T>
using WrapUnsigned =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <typename T>
constexpr bool kWraps = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T>
RELAYPASS_ELEMENT_INLINE T WrapAdd(T a, T b) {
  if constexpr (kWraps<T>) {
    return static_cast<T>(static_cast<WrapUnsigned<T>>(a) + static_cast<WrapUnsigned<T>>(b));
  } else {
    return static_cast<T>(a + b);
  }
}

template <typename T>
RELAYPASS_ELEMENT_INLINE T WrapSub(T a, T b) {
  if constexpr (kWraps<T>) {
    return static_cast<T>(static_cast<WrapUnsigned<T>>(a) - static_cast<WrapUnsigned<T>>(b));
  } else {
    return static_cast<T>(a - b);
  }
}

// -a: integers wrap (two's complement); a float's sign flips, zeros included (-0.0 for 0.0, as
// TVM's topi.negative, where 0 - a would give +0.0).
template <typename T>
RELAYPASS_ELEMENT_INLINE T WrapNeg(T a) {
  if constexpr (kWraps<T>) {
    return WrapSub<T>(T(0), a);
  } else {
    return static_cast<T>(-a);
  }
}

template <typename T>
RELAYPASS_ELEMENT_INLINE T WrapMul(T a, T b) {
  if constexpr (kWraps<T>) {
    return static_cast<T>(static_cast<WrapUnsigned<T>>(a) * static_cast<WrapUnsigned<T>>(b));
  } else {
    return static_cast<T>(a * b);
  }
}

template <typename T>
struct TypeTag {
  using type = T;
};

// Calls f(TypeTag<T>{}) with the C++ element type of `dtype` (bool is `bool`); `op` names the
// caller in the error for other dtypes.
template <typename F>
decltype(auto) DispatchNumeric(DataType dtype, const char* op, F&& f) {
  if (dtype.lanes() == 1) {
    switch (dtype.code()) {
      case DataType::Code::kFloat:
        if (dtype.bits() == 32) return f(TypeTag<float>{});
        if (dtype.bits() == 64) return f(TypeTag<double>{});
        break;
      case DataType::Code::kInt:
        if (dtype.bits() == 8) return f(TypeTag<int8_t>{});
        if (dtype.bits() == 16) return f(TypeTag<int16_t>{});
        if (dtype.bits() == 32) return f(TypeTag<int32_t>{});
        if (dtype.bits() == 64) return f(TypeTag<int64_t>{});
        break;
      case DataType::Code::kUInt:
        if (dtype.bits() == 8) return f(TypeTag<uint8_t>{});
        if (dtype.bits() == 16) return f(TypeTag<uint16_t>{});
        if (dtype.bits() == 32) return f(TypeTag<uint32_t>{});
        if (dtype.bits() == 64) return f(TypeTag<uint64_t>{});
        break;
      case DataType::Code::kBool:
        return f(TypeTag<bool>{});
      default:
        break;
    }
  }
  Fail(std::string(op) + ": unsupported dtype " + dtype.ToString());
}

// As DispatchNumeric, for float32 and float64 only.
template <typename F>
decltype(auto) DispatchFloat(DataType dtype, const char* op, F&& f) {
  if (dtype == DataType::Float(32)) return f(TypeTag<float>{});
  if (dtype == DataType::Float(64)) return f(TypeTag<double>{});
  Fail(std::string(op) + ": unsupported dtype " + dtype.ToString() +
       " (defined for float16, float32 and float64)");
}

// float16 and bfloat16: computed by widening to float32.
bool IsHalf(DataType dtype);
// Every element converted to `dtype` (any pair of supported dtypes, half precision included;
// float to bool is `!= 0`). Returns `x` itself when the dtype already matches.
NDArray CastArray(const NDArray& x, DataType dtype);

// A copy of `x` with another shape of the same number of elements.
NDArray Reshaped(const NDArray& x, const Shape& shape);

// Runs `impl` with half-precision inputs widened to float32, then rounds each float32 result
// back: to the dtype `out_type` gives for it when known, else to the first half input's dtype.
// Without half inputs it just calls impl(inputs).
Arrays PromoteHalf(const Arrays& inputs, const ir::Type& out_type,
                   const std::function<Arrays(const Arrays&)>& impl);

// Row-major strides of `shape` in elements.
Shape Strides(const Shape& shape);
int64_t NumElements(const Shape& shape);
std::string ShapeString(const Shape& shape);

// `axis` in [-ndim, ndim) normalised to [0, ndim).
int NormalizeAxis(int64_t axis, int ndim, const std::string& what);
void CheckInputs(const Arrays& inputs, size_t n, const char* op);

// The attrs of a call to an op with an attrs schema (error if null).
const ir::AttrsNode& AttrsOf(const ir::Attrs& attrs, const char* op);
// 2D padding as (top, left, bottom, right) from 1, 2 or 4 values.
std::vector<int64_t> Padding4(const std::vector<int64_t>& padding, const char* op);
// The dtype named by a DType attr; `fallback` for "" (void).
DataType DTypeAttr(const ir::AttrsNode& attrs, const std::string& name, DataType fallback);

// Fills `out`: out[i0, i1, ...] = data[source[0][i0], source[1][i1], ...], or `fill` (one
// element of data's dtype) where any axis's source is -1. Every source entry is in
// [-1, data extent). `out` is allocated by the caller before the tables, so a size that cannot be
// had fails before they are built (their lengths are its extents).
// (nn.pad, nn.mirror_pad and nn.dilate build their tables and share this loop.)
NDArray GatherAxes(const NDArray& data, NDArray out,
                   const std::vector<std::vector<int64_t>>& source, const void* fill);

}  // namespace relaypass::op::kernels
