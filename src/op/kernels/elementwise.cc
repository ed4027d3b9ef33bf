// Elementwise kernels: broadcasting binary arithmetic and comparisons, unary math, clip, relu and
// bias_add.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "broadcast.h"
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
  ForEachBroadcastRun(plan,
                      [&](int64_t io, int64_t ia, int64_t ib, int64_t n, int64_t sa, int64_t sb) {
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
T CheckedDivide(T a, T b) {
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
T Pow(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(a, b);
  } else {
    return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
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
      const int64_t n = out.size();
      for (int64_t i = 0; i < n; ++i) po[i] = f(pi[i]);
      return out;
    };
    if constexpr (kFloatOnly) {
      return {DispatchFloat(x[0].dtype(), op, run)};
    } else {
      return {DispatchNumeric(x[0].dtype(), op, run)};
    }
  });
}

// `v` converted to T, saturating at T's range (a clip bound such as 1e30 on int8).
template <typename T>
T Saturate(double v) {
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

}  // namespace

#define RELAYPASS_ARITH(Name, op_name, expr)                                  \
  Arrays Name(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) { \
    return Arithmetic(in, out_type, op_name, [](auto tag) {                   \
      using T = typename decltype(tag)::type;                                 \
      return [](T a, T b) -> T { return static_cast<T>(expr); };              \
    });                                                                       \
  }

RELAYPASS_ARITH(Add, "add", a + b)
RELAYPASS_ARITH(Subtract, "subtract", a - b)
RELAYPASS_ARITH(Multiply, "multiply", a* b)
RELAYPASS_ARITH(Divide, "divide", CheckedDivide<T>(a, b))
RELAYPASS_ARITH(Maximum, "maximum", std::max(a, b))
RELAYPASS_ARITH(Minimum, "minimum", std::min(a, b))
RELAYPASS_ARITH(Power, "power", Pow<T>(a, b))
#undef RELAYPASS_ARITH

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

RELAYPASS_UNARY(Negative, "negative", false, -x)
RELAYPASS_UNARY(Relu, "nn.relu", false, std::max(x, T(0)))
RELAYPASS_UNARY(Sqrt, "sqrt", true, std::sqrt(x))
RELAYPASS_UNARY(Rsqrt, "rsqrt", true, T(1) / std::sqrt(x))
RELAYPASS_UNARY(Exp, "exp", true, std::exp(x))
RELAYPASS_UNARY(Log, "log", true, std::log(x))
RELAYPASS_UNARY(Tanh, "tanh", true, std::tanh(x))
RELAYPASS_UNARY(Sigmoid, "sigmoid", true, T(1) / (T(1) + std::exp(-x)))
// `x > 0 ? x : -x` rather than std::abs: also right for unsigned types, with no sign test on them.
RELAYPASS_UNARY(Abs, "abs", false, x > T(0) ? x : T(-x))
RELAYPASS_UNARY(Floor, "floor", false, std::floor(x))
RELAYPASS_UNARY(Ceil, "ceil", false, std::ceil(x))
// TVM lowers round to llvm.nearbyint: halves go to the even neighbour.
RELAYPASS_UNARY(Round, "round", false, std::nearbyint(x))
RELAYPASS_UNARY(Trunc, "trunc", false, std::trunc(x))
RELAYPASS_UNARY(Sin, "sin", true, std::sin(x))
RELAYPASS_UNARY(Cos, "cos", true, std::cos(x))
RELAYPASS_UNARY(Erf, "erf", true, std::erf(x))
#undef RELAYPASS_UNARY

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
    if (bias.size() != channels) {
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
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const int64_t base = (o * channels + c) * inner;
          const T b = pb[c];
          for (int64_t i = 0; i < inner; ++i) po[base + i] = static_cast<T>(pd[base + i] + b);
        }
      }
      return out;
    })};
  });
}

}  // namespace relaypass::op::kernels
