// The instruction loops of the elementwise programs, included once per instruction set by
// program_isa/loops_*.cc with RELAYPASS_PROGRAM_LOOPS naming the entry point. Each loop is one
// op, as its kernel computes an element (../element_ops.h); no loop holds two float operations
// that a compiler could contract, so every variant computes the same bits.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>

#include "../element_ops.h"
#include "../elementwise_program_internal.h"
#include "../kernel_util.h"

namespace relaypass::op::program {

namespace {

using kernels::Fail;
using kernels::TypeTag;
using Opcode = ElementwiseProgram::Opcode;
using Instruction = ElementwiseProgram::Instruction;
using ir::DataType;

// Calls f(TypeTag<T>{}) for the dtypes the programs run on.
template <typename F>
void DispatchProgramType(DataType dtype, F&& f) {
  if (dtype == DataType::Float32()) return f(TypeTag<float>{});
  if (dtype == DataType::Int(8)) return f(TypeTag<int8_t>{});
  if (dtype == DataType::UInt(8)) return f(TypeTag<uint8_t>{});
  if (dtype == DataType::Int(16)) return f(TypeTag<int16_t>{});
  if (dtype == DataType::Int(32)) return f(TypeTag<int32_t>{});
  if (dtype == DataType::Int(64)) return f(TypeTag<int64_t>{});
  Fail("elementwise program: unsupported dtype " + dtype.ToString());
}

template <typename T, typename F>
void BinaryLoop(T* out, const Slot& a, const Slot& b, int64_t n, F f) {
  const T* x = static_cast<const T*>(a.data);
  const T* y = static_cast<const T*>(b.data);
  if (a.scalar && b.scalar) {
    out[0] = f(x[0], y[0]);
  } else if (b.scalar) {
    const T yv = y[0];
    for (int64_t i = 0; i < n; ++i) out[i] = f(x[i], yv);
  } else if (a.scalar) {
    const T xv = x[0];
    for (int64_t i = 0; i < n; ++i) out[i] = f(xv, y[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = f(x[i], y[i]);
  }
}

template <typename T, typename F>
void UnaryLoop(T* out, const Slot& a, int64_t n, F f) {
  const T* x = static_cast<const T*>(a.data);
  for (int64_t i = 0; i < n; ++i) out[i] = f(x[i]);
}

// Each opcode as the op's own kernel computes an element (elementwise.cc).
template <typename T>
void RunBinary(Opcode op, T* out, const Slot& a, const Slot& b, int64_t n) {
  using namespace kernels;
  switch (op) {
    case Opcode::kAdd:
      return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return WrapAdd<T>(x, y); });
    case Opcode::kSubtract:
      return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return WrapSub<T>(x, y); });
    case Opcode::kMultiply:
      return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return WrapMul<T>(x, y); });
    case Opcode::kDivide:
      return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return CheckedDivide<T>(x, y); });
    case Opcode::kMaximum:
      return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return Max<T>(x, y); });
    case Opcode::kMinimum:
      return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return Min<T>(x, y); });
    case Opcode::kRightShift:
    case Opcode::kLeftShift:
      if constexpr (std::is_integral_v<T>) {
        if (op == Opcode::kRightShift) {
          return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return Shift<T>(x, y, true); });
        }
        return BinaryLoop<T>(out, a, b, n, [](T x, T y) { return Shift<T>(x, y, false); });
      }
      break;
    default:
      break;
  }
  Fail("elementwise program: opcode is not binary on this dtype");
}

template <typename T>
void RunUnary(const Instruction& in, T* out, const Slot& a, int64_t n) {
  using namespace kernels;
  switch (in.op) {
    case Opcode::kNegative:
      return UnaryLoop<T>(out, a, n, [](T x) { return WrapNeg<T>(x); });
    case Opcode::kRelu:
      return UnaryLoop<T>(out, a, n, [](T x) { return Max<T>(x, T(0)); });
    case Opcode::kRound:
      if constexpr (std::is_floating_point_v<T>) {
        return UnaryLoop<T>(out, a, n, [](T x) { return RoundHalfAwayFromZero<T>(x); });
      }
      break;
    case Opcode::kClip: {
      const T lo = Saturate<T>(in.lo), hi = Saturate<T>(in.hi);
      return UnaryLoop<T>(out, a, n, [lo, hi](T x) { return Max<T>(Min<T>(x, hi), lo); });
    }
    default:
      break;
  }
  Fail("elementwise program: opcode is not unary on this dtype");
}

void RunCast(const Instruction& in, void* out, const Slot& a, int64_t n) {
  DispatchProgramType(in.dtype, [&](auto from) {
    using From = typename decltype(from)::type;
    DispatchProgramType(in.out_dtype, [&](auto to) {
      using To = typename decltype(to)::type;
      const From* x = static_cast<const From*>(a.data);
      To* o = static_cast<To*>(out);
      for (int64_t i = 0; i < n; ++i) o[i] = kernels::Convert<To>(x[i]);
    });
  });
}

// The steps of kFixedPointMultiply, each as its own op's kernel computes it.
RELAYPASS_ELEMENT_INLINE int32_t FixedPoint(int32_t x, int64_t left, int64_t multiplier,
                                            int64_t addend, int64_t right) {
  int64_t v = kernels::Shift<int64_t>(static_cast<int64_t>(x), left, false);
  v = kernels::WrapAdd<int64_t>(kernels::WrapMul<int64_t>(v, multiplier), addend);
  return kernels::Convert<int32_t>(kernels::Shift<int64_t>(v, right, true));
}

void RunFixedPointMultiply(int32_t* out, const Slot* args, int64_t n) {
  const auto* x = static_cast<const int32_t*>(args[0].data);
  const auto* m = static_cast<const int64_t*>(args[1].data);
  const auto* r = static_cast<const int64_t*>(args[2].data);
  const auto* s = static_cast<const int64_t*>(args[3].data);
  const auto* l = static_cast<const int64_t*>(args[4].data);
  const bool constants =
      args[1].scalar && args[2].scalar && args[3].scalar && (l == nullptr || args[4].scalar);
  if (constants && !args[0].scalar) {
    // One multiplier for the piece (a per-channel or per-tensor requantize): one vector loop.
    const int64_t mv = m[0], rv = r[0], sv = s[0], lv = l ? l[0] : 0;
    for (int64_t i = 0; i < n; ++i) out[i] = FixedPoint(x[i], lv, mv, rv, sv);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    auto at = [i](const Slot& slot, const int64_t* p) { return p[slot.scalar ? 0 : i]; };
    const int32_t xv = x[args[0].scalar ? 0 : i];
    out[i] = FixedPoint(xv, l ? at(args[4], l) : 0, at(args[1], m), at(args[2], r), at(args[3], s));
  }
}

}  // namespace

void RELAYPASS_PROGRAM_LOOPS(const Instruction& in, void* out, const Slot* args, int64_t n) {
  const Slot& a = args[0];
  const Slot b = IsBinary(in.op) ? args[1] : Slot{a.data, true};
  if (in.op == Opcode::kCast) return RunCast(in, out, a, n);
  if (in.op == Opcode::kFixedPointMultiply) {
    return RunFixedPointMultiply(static_cast<int32_t*>(out), args, n);
  }
  DispatchProgramType(in.dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (IsBinary(in.op)) {
      RunBinary<T>(in.op, static_cast<T*>(out), a, b, n);
    } else {
      RunUnary<T>(in, static_cast<T*>(out), a, n);
    }
  });
}

}  // namespace relaypass::op::program
