// Elementwise kernels: broadcasting binary arithmetic and comparisons, unary math, clip, relu and
// bias_add.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

#include "broadcast.h"
#include "element_ops.h"
#include "erf_float32.h"
#include "kernel_util.h"
#include "kernels.h"

namespace relaypass::op::kernels {

namespace {

// out[i] = f(a[i], b[i]) over the broadcast of a and b; the output has dtype `out_dtype` whose C++
// type is R.
template <typename T, typename R, typename F>
NDArray BroadcastBinary(const NDArray& a, const NDArray& b, DataType out_dtype, const char* op,
                        F f) {
  BroadcastPlan plan = PlanBroadcast(a.shape(), b.shape(), op);
  NDArray out = NDArray::Uninitialized(plan.out_shape, out_dtype);
  if (out.size() == 0) return out;
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  R* po = out.mutable_data<R>();
  ForEachBroadcastRunParallel(
      plan, [&](int64_t io, int64_t ia, int64_t ib, int64_t n, int64_t sa, int64_t sb) {
        R* o = po + io;
        const T* x = pa + ia;
        const T* y = pb + ib;
        if (sa == 1 && sb == 1) {
          for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
        } else if (sa == 1 && sb == 0) {
          const T yv = *y;
          for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], yv);
        } else if (sa == 0 && sb == 1) {
          const T xv = *x;
          for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
        } else {
          for (int64_t i = 0; i < n; ++i) o[i] = f(x[i * sa], y[i * sb]);
        }
      });
  return out;
}

void CheckSameDType(const Arrays& in, const char* op) {
  if (in[0].dtype() != in[1].dtype()) {
    Fail(std::string(op) + ": operand dtypes differ (" + in[0].dtype().ToString() + " and " +
         in[1].dtype().ToString() + ")");
  }
}

// A binary op with the operands' dtype as result dtype; `make_f(tag)` returns the functor for T.
template <typename MakeF>
Arrays Arithmetic(const Arrays& in, const ir::Type& out_type, const char* op, MakeF make_f) {
  CheckInputs(in, 2, op);
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    CheckSameDType(x, op);
    return {DispatchNumeric(x[0].dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return BroadcastBinary<T, T>(x[0], x[1], x[0].dtype(), op, make_f(tag));
    })};
  });
}

template <typename Cmp>
Arrays Compare(const Arrays& in, const char* op, Cmp cmp) {
  CheckInputs(in, 2, op);
  Arrays x = in;
  for (NDArray& a : x) {
    if (IsHalf(a.dtype())) a = CastArray(a, DataType::Float32());
  }
  CheckSameDType(x, op);
  return {DispatchNumeric(x[0].dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return BroadcastBinary<T, bool>(x[0], x[1], DataType::Bool(), op, cmp);
  })};
}

template <typename T>
T Pow(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    return a || !b;
  } else {
    // Exactly, wrapping around as NumPy's integer power does (a cast of std::pow's double was
    // undefined once the result left T's range). A negative exponent truncates 1 / a^-b.
    if constexpr (std::is_signed_v<T>) {
      if (b < 0) return a == T(1) ? T(1) : a == T(-1) ? (b % 2 ? T(-1) : T(1)) : T(0);
    }
    T result = T(1), base = a;
    for (auto e = static_cast<std::make_unsigned_t<T>>(b); e; e >>= 1) {
      if (e & 1) result = WrapMul(result, base);
      base = WrapMul(base, base);
    }
    return result;
  }
}

// out[i] = f(x[i]) with the input dtype; `dispatch` picks the dtypes it is defined for.
template <bool kFloatOnly, typename MakeF>
Arrays Unary(const Arrays& in, const ir::Type& out_type, const char* op, MakeF make_f) {
  CheckInputs(in, 1, op);
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    auto run = [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto f = make_f(tag);
      NDArray out = NDArray::Uninitialized(x[0].shape(), x[0].dtype());
      const T* pi = x[0].data<T>();
      T* po = out.mutable_data<T>();
      support::ParallelFor(out.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) po[i] = f(pi[i]);
      });
      return out;
    };
    if constexpr (kFloatOnly) {
      return {DispatchFloat(x[0].dtype(), op, run)};
    } else {
      return {DispatchNumeric(x[0].dtype(), op, run)};
    }
  });
}

template <typename T>
T SignOf(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x;
  } else if constexpr (std::is_unsigned_v<T>) {
    return x > T(0) ? T(1) : T(0);
  } else {
    return x > T(0) ? T(1) : (x < T(0) ? T(-1) : T(0));
  }
}

template <typename T>
T FloorMod(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a - std::floor(a / b) * b;
  } else if constexpr (std::is_same_v<T, bool>) {
    Fail("floor_mod: not defined for bool");
  } else {
    if (b == T(0)) Fail("floor_mod: integer division by zero");
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      const T r = static_cast<T>(a % b);
      return (r != T(0) && ((r < T(0)) != (b < T(0)))) ? static_cast<T>(r + b) : r;
    } else {
      return static_cast<T>(a % b);
    }
  }
}

template <typename T>
T TruncMod(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(a, b);
  } else if constexpr (std::is_same_v<T, bool>) {
    Fail("mod: not defined for bool");
  } else {
    if (b == T(0)) Fail("mod: integer division by zero");
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
    }
    return static_cast<T>(a % b);
  }
}

// Integers' floor division (NumPy's //), floats' floor(a / b): TVM's floordiv.
template <typename T>
T FloorDivide(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::floor(a / b);
  } else if constexpr (std::is_same_v<T, bool>) {
    Fail("floor_divide: not defined for bool");
  } else {
    if (b == T(0)) Fail("floor_divide: integer division by zero");
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return WrapSub<T>(T(0), a);  // INT_MIN // -1 wraps, as in two's complement
      const T q = static_cast<T>(a / b);
      return (a % b != T(0) && ((a < T(0)) != (b < T(0)))) ? static_cast<T>(q - 1) : q;
    } else {
      return static_cast<T>(a / b);
    }
  }
}

// Bitwise operators: integer and bool types only, as TVM's.
template <typename T, typename F>
T Bitwise(T a, T b, const char* op, F f) {
  if constexpr (std::is_floating_point_v<T>) {
    Fail(std::string(op) + ": defined for integer and bool types only");
  } else if constexpr (std::is_same_v<T, bool>) {
    return f(static_cast<unsigned>(a), static_cast<unsigned>(b)) != 0;
  } else {
    return static_cast<T>(f(a, b));
  }
}

template <typename T>
T BitwiseNot(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    Fail("bitwise_not: defined for integer and bool types only");
  } else if constexpr (std::is_same_v<T, bool>) {
    return !x;
  } else {
    return static_cast<T>(~x);
  }
}

}  // namespace

#define RELAYPASS_ARITH(Name, op_name, expr)                                  \
  Arrays Name(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) { \
    return Arithmetic(in, out_type, op_name, [](auto tag) {                   \
      using T = typename decltype(tag)::type;                                 \
      return [](T a, T b) -> T { return static_cast<T>(expr); };              \
    });                                                                       \
  }

RELAYPASS_ARITH(Add, "add", WrapAdd<T>(a, b))
RELAYPASS_ARITH(Subtract, "subtract", WrapSub<T>(a, b))
RELAYPASS_ARITH(Multiply, "multiply", WrapMul<T>(a, b))
RELAYPASS_ARITH(Divide, "divide", CheckedDivide<T>(a, b))
RELAYPASS_ARITH(Maximum, "maximum", std::max(a, b))
RELAYPASS_ARITH(Minimum, "minimum", std::min(a, b))
RELAYPASS_ARITH(PowerOfEach, "power", Pow<T>(a, b))
RELAYPASS_ARITH(FloorModK, "floor_mod", FloorMod<T>(a, b))
RELAYPASS_ARITH(TruncModK, "mod", TruncMod<T>(a, b))
RELAYPASS_ARITH(RightShift, "right_shift", Shift<T>(a, b, true))
RELAYPASS_ARITH(LeftShift, "left_shift", Shift<T>(a, b, false))
RELAYPASS_ARITH(TruncModOp, "trunc_mod", TruncMod<T>(a, b))
RELAYPASS_ARITH(FloorDivideOp, "floor_divide", FloorDivide<T>(a, b))
RELAYPASS_ARITH(BitwiseAnd, "bitwise_and", Bitwise(a, b, "bitwise_and", std::bit_and<>()))
RELAYPASS_ARITH(BitwiseOr, "bitwise_or", Bitwise(a, b, "bitwise_or", std::bit_or<>()))
RELAYPASS_ARITH(BitwiseXor, "bitwise_xor", Bitwise(a, b, "bitwise_xor", std::bit_xor<>()))
#undef RELAYPASS_ARITH

// The exponent 2 of a float power as x * x: how ONNX exports a square (layer norm's variance in
// BERT: Pow(x - mean, 2)), and what TVM's LLVM codegen makes of pow(x, 2.0); the same value as
// powf's, correctly rounded, at a multiply's cost instead of a powf call per element.
Arrays Power(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  if (in.size() == 2 && in[1].size() == 1 && in[1].ndim() <= in[0].ndim() &&
      in[0].dtype() == in[1].dtype() &&
      ((in[0].dtype() == DataType::Float32() && in[1].data<float>()[0] == 2.0f) ||
       (in[0].dtype() == DataType::Float(64) && in[1].data<double>()[0] == 2.0))) {
    return Multiply({in[0], in[0]}, attrs, out_type);
  }
  return PowerOfEach(in, attrs, out_type);
}

#define RELAYPASS_LOGICAL(Name, op_name, expr)                                            \
  Arrays Name(const Arrays& in, const ir::Attrs&, const ir::Type&) {                      \
    CheckInputs(in, 2, op_name);                                                          \
    CheckSameDType(in, op_name);                                                          \
    if (!in[0].dtype().is_bool()) Fail(std::string(op_name) + ": defined for bool only"); \
    return {BroadcastBinary<bool, bool>(in[0], in[1], DataType::Bool(), op_name,          \
                                        [](bool a, bool b) -> bool { return expr; })};    \
  }

RELAYPASS_LOGICAL(LogicalAnd, "logical_and", a&& b)
RELAYPASS_LOGICAL(LogicalOr, "logical_or", a || b)
RELAYPASS_LOGICAL(LogicalXor, "logical_xor", a != b)
#undef RELAYPASS_LOGICAL

Arrays LogicalNot(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 1, "logical_not");
  if (!in[0].dtype().is_bool()) Fail("logical_not: defined for bool only");
  NDArray out = NDArray::Uninitialized(in[0].shape(), DataType::Bool());
  const bool* pi = in[0].data<bool>();
  bool* po = out.mutable_data<bool>();
  for (int64_t i = 0; i < out.size(); ++i) po[i] = !pi[i];
  return {out};
}

namespace {
// A bool test of each element (isnan, isinf, isfinite); integers are finite numbers.
template <typename Test>
Arrays ElementTest(const Arrays& in, const char* op, Test test) {
  CheckInputs(in, 1, op);
  NDArray x = IsHalf(in[0].dtype()) ? CastArray(in[0], DataType::Float32()) : in[0];
  NDArray out = NDArray::Uninitialized(x.shape(), DataType::Bool());
  bool* po = out.mutable_data<bool>();
  DispatchNumeric(x.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pi = x.data<T>();
    for (int64_t i = 0; i < out.size(); ++i) po[i] = test(static_cast<double>(pi[i]));
  });
  return {out};
}
}  // namespace

Arrays IsNan(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  return ElementTest(in, "isnan", [](double v) { return std::isnan(v); });
}
Arrays IsInf(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  return ElementTest(in, "isinf", [](double v) { return std::isinf(v); });
}
Arrays IsFinite(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  return ElementTest(in, "isfinite", [](double v) { return std::isfinite(v); });
}

// where(condition, x, y): the three broadcast together; x and y share a dtype.
Arrays Where(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 3, "where");
  const NDArray cond = CastArray(in[0], DataType::Bool());
  const NDArray& x = in[1];
  const NDArray& y = in[2];
  if (x.dtype() != y.dtype()) Fail("where: x and y dtypes differ");
  BroadcastPlan xy = PlanBroadcast(x.shape(), y.shape(), "where");
  BroadcastPlan all = PlanBroadcast(cond.shape(), xy.out_shape, "where");
  const Shape& shape = all.out_shape;
  NDArray out = NDArray::Uninitialized(shape, x.dtype());
  const int nd = static_cast<int>(shape.size());
  auto strides_for = [&](const Shape& s) {
    Shape st(nd, 0);
    const Shape own = Strides(s);
    const int off = nd - static_cast<int>(s.size());
    for (int i = 0; i < static_cast<int>(s.size()); ++i) st[off + i] = s[i] == 1 ? 0 : own[i];
    return st;
  };
  const Shape sc = strides_for(cond.shape()), sx = strides_for(x.shape()),
              sy = strides_for(y.shape());
  const size_t eb = x.dtype().bytes();
  const bool* pc = cond.data<bool>();
  const auto* px = static_cast<const uint8_t*>(x.raw_data());
  const auto* py = static_cast<const uint8_t*>(y.raw_data());
  auto* po = static_cast<uint8_t*>(out.mutable_raw_data());
  std::vector<int64_t> idx(nd, 0);
  for (int64_t o = 0; o < out.size(); ++o) {
    int64_t ic = 0, ix = 0, iy = 0;
    for (int d = 0; d < nd; ++d) {
      ic += idx[d] * sc[d];
      ix += idx[d] * sx[d];
      iy += idx[d] * sy[d];
    }
    std::memcpy(po + o * eb, pc[ic] ? px + ix * eb : py + iy * eb, eb);
    for (int d = nd - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return {out};
}

// full(fill_value, shape, dtype), zeros and ones (InitOpAttrs).
Arrays Full(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const ir::AttrsNode& a = AttrsOf(attrs, "full");
  NDArray fill;
  if (in.empty()) {
    fill = NDArray::Scalar<double>(0, DataType::Float(64));
  } else {
    CheckInputs(in, 1, "full");
    if (in[0].size() != 1) Fail("full: fill_value must be a scalar");
    fill = in[0];
  }
  const DataType dtype = DTypeAttr(a, "dtype", fill.dtype());
  const NDArray value = CastArray(fill, dtype);
  NDArray out = NDArray::Uninitialized(a.get_ints("shape"), dtype);
  const size_t eb = dtype.bytes();
  auto* po = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t i = 0; i < out.size(); ++i) std::memcpy(po + i * eb, value.raw_data(), eb);
  return {out};
}
// full_like(data, fill_value): fill_value (a scalar) cast to data's dtype, in data's shape.
Arrays FullLike(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 2, "full_like");
  if (in[1].size() != 1) Fail("full_like: fill_value must be a scalar");
  const NDArray value = CastArray(in[1], in[0].dtype());
  NDArray out = NDArray::Uninitialized(in[0].shape(), in[0].dtype());
  const size_t eb = in[0].dtype().bytes();
  auto* po = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t i = 0; i < out.size(); ++i) std::memcpy(po + i * eb, value.raw_data(), eb);
  return {out};
}
Arrays Zeros(const Arrays& in, const ir::Attrs& attrs, const ir::Type& t) {
  if (!in.empty()) Fail("zeros takes no inputs");
  return Full({NDArray::Scalar<double>(0, DataType::Float(64))}, attrs, t);
}
Arrays Ones(const Arrays& in, const ir::Attrs& attrs, const ir::Type& t) {
  if (!in.empty()) Fail("ones takes no inputs");
  return Full({NDArray::Scalar<double>(1, DataType::Float(64))}, attrs, t);
}

#define RELAYPASS_COMPARE(Name, op_name, expr)                                \
  Arrays Name(const Arrays& in, const ir::Attrs&, const ir::Type&) {          \
    return Compare(in, op_name, [](auto a, auto b) -> bool { return expr; }); \
  }

RELAYPASS_COMPARE(Less, "less", a < b)
RELAYPASS_COMPARE(Greater, "greater", a > b)
RELAYPASS_COMPARE(Equal, "equal", a == b)
RELAYPASS_COMPARE(NotEqual, "not_equal", a != b)
RELAYPASS_COMPARE(LessEqual, "less_equal", a <= b)
RELAYPASS_COMPARE(GreaterEqual, "greater_equal", a >= b)
#undef RELAYPASS_COMPARE

#define RELAYPASS_UNARY(Name, op_name, float_only, expr)                      \
  Arrays Name(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) { \
    return Unary<float_only>(in, out_type, op_name, [](auto tag) {            \
      using T = typename decltype(tag)::type;                                 \
      return [](T x) -> T { return static_cast<T>(expr); };                   \
    });                                                                       \
  }

RELAYPASS_UNARY(Negative, "negative", false, WrapNeg<T>(x))
RELAYPASS_UNARY(Relu, "nn.relu", false, std::max(x, T(0)))
RELAYPASS_UNARY(Sqrt, "sqrt", true, std::sqrt(x))
RELAYPASS_UNARY(Rsqrt, "rsqrt", true, T(1) / std::sqrt(x))
RELAYPASS_UNARY(Exp, "exp", true, std::exp(x))
RELAYPASS_UNARY(Log, "log", true, std::log(x))
RELAYPASS_UNARY(Tanh, "tanh", true, std::tanh(x))
RELAYPASS_UNARY(Sigmoid, "sigmoid", true, T(1) / (T(1) + std::exp(-x)))
// `x > 0 ? x : -x` rather than std::abs: also right for unsigned types, with no sign test on them.
RELAYPASS_UNARY(Abs, "abs", false, x > T(0) ? x : WrapSub<T>(T(0), x))
RELAYPASS_UNARY(Floor, "floor", false, std::floor(x))
RELAYPASS_UNARY(Ceil, "ceil", false, std::ceil(x))
// TVM lowers round to llvm.round (tir.round on the llvm target): halves go away from zero.
RELAYPASS_UNARY(Round, "round", false, RoundHalfAwayFromZero<T>(x))
RELAYPASS_UNARY(Trunc, "trunc", false, std::trunc(x))
RELAYPASS_UNARY(Sin, "sin", true, std::sin(x))
RELAYPASS_UNARY(Cos, "cos", true, std::cos(x))
RELAYPASS_UNARY(ErfOfEach, "erf", true, std::erf(x))
RELAYPASS_UNARY(Tan, "tan", true, std::tan(x))
RELAYPASS_UNARY(Sinh, "sinh", true, std::sinh(x))
RELAYPASS_UNARY(Cosh, "cosh", true, std::cosh(x))
RELAYPASS_UNARY(Asin, "asin", true, std::asin(x))
RELAYPASS_UNARY(Acos, "acos", true, std::acos(x))
RELAYPASS_UNARY(Atan, "atan", true, std::atan(x))
RELAYPASS_UNARY(Asinh, "asinh", true, std::asinh(x))
RELAYPASS_UNARY(Acosh, "acosh", true, std::acosh(x))
RELAYPASS_UNARY(Atanh, "atanh", true, std::atanh(x))
RELAYPASS_UNARY(Sign, "sign", false, SignOf(x))
RELAYPASS_UNARY(ZerosLike, "zeros_like", false, T(0))
RELAYPASS_UNARY(OnesLike, "ones_like", false, T(1))
RELAYPASS_UNARY(Log2, "log2", true, std::log2(x))
RELAYPASS_UNARY(Log10, "log10", true, std::log10(x))
RELAYPASS_UNARY(BitwiseNotOp, "bitwise_not", false, BitwiseNot(x))
#undef RELAYPASS_UNARY

// float32 erf in vector registers (erf_float32.h), within 2 ulp of erff; other dtypes (float16
// widened to float32 included) call std::erf per element.
Arrays Erf(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  if (in.size() != 1 || in[0].dtype() != DataType::Float32()) return ErfOfEach(in, attrs, out_type);
  NDArray out = NDArray::Uninitialized(in[0].shape(), in[0].dtype());
  const float* x = in[0].data<float>();
  float* y = out.mutable_data<float>();
  support::ParallelFor(out.size(), kParallelGrain, [&](int64_t begin, int64_t end) {
    ErfFloat32(x + begin, y + begin, end - begin);
  });
  return {out};
}

// A copy of the input in a buffer of its own, any dtype.
Arrays Copy(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 1, "copy");
  return {in[0].Copy()};
}

Arrays LeakyRelu(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const double alpha = AttrsOf(attrs, "nn.leaky_relu").get_double("alpha");
  return Unary<true>(in, out_type, "nn.leaky_relu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T a = static_cast<T>(alpha);
    return [a](T x) -> T { return x < T(0) ? a * x : x; };
  });
}

Arrays Clip(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const ir::AttrsNode& a = AttrsOf(attrs, "clip");
  const double a_min = a.get_double("a_min");
  const double a_max = a.get_double("a_max");
  return Unary<false>(in, out_type, "clip", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T lo = Saturate<T>(a_min), hi = Saturate<T>(a_max);
    return [lo, hi](T x) -> T { return std::max(std::min(x, hi), lo); };
  });
}

Arrays BiasAdd(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 2, "nn.bias_add");
  const int64_t axis_attr = AttrsOf(attrs, "nn.bias_add").get_int("axis");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const NDArray& bias = x[1];
    CheckSameDType(x, "nn.bias_add");
    const int axis = NormalizeAxis(axis_attr, data.ndim(), "nn.bias_add: axis");
    const int64_t channels = data.shape()[axis];
    // One bias value broadcasts over every channel, as TVM's add(data, expand_dims(bias)) does.
    const bool one_bias = bias.size() == 1;
    if (bias.size() != channels && !one_bias) {
      Fail("nn.bias_add: bias " + ShapeString(bias.shape()) + " does not match axis " +
           std::to_string(axis) + " of data " + ShapeString(data.shape()));
    }
    int64_t outer = 1, inner = 1;
    for (int i = 0; i < axis; ++i) outer *= data.shape()[i];
    for (int i = axis + 1; i < data.ndim(); ++i) inner *= data.shape()[i];
    return {DispatchNumeric(data.dtype(), "nn.bias_add", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
      const T* pd = data.data<T>();
      const T* pb = bias.data<T>();
      T* po = out.mutable_data<T>();
      const int64_t rows_per_grain =
          std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(inner, 1));
      support::ParallelFor(outer * channels, rows_per_grain, [&](int64_t begin, int64_t end) {
        for (int64_t row = begin; row < end; ++row) {
          const int64_t base = row * inner;
          const T b = pb[one_bias ? 0 : row % channels];
          for (int64_t i = 0; i < inner; ++i) po[base + i] = static_cast<T>(pd[base + i] + b);
        }
      });
      return out;
    })};
  });
}

}  // namespace relaypass::op::kernels
