// fast_exp, fast_tanh, fast_erf and nn.fast_softmax: the float32 approximations of TVM v0.13's TOPI
// (fast_exp_float32, fast_tanh_float and fast_erf_float_expr in include/tvm/topi/elemwise.h and
// src/tir/op/op.cc; _compute_softmax with fast_exp in python/tvm/topi/nn/softmax.py).
#include "fast_math.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernel_util.h"

namespace relaypass::op::kernels {

float FastExpFloat32(float in) {
  // exp(x) = 2^n * exp(f), n = floor(x * log2(e) + 1/2), f = x - n * ln(2); exp(f) by a degree-7
  // polynomial. x is clamped to the float32 range first.
  const float x = std::max(std::min(in, 88.3762626647950f), -88.3762626647949f);
  const float n = std::floor(x * 1.44269504088896341f + 0.5f);
  const float f = x - n * 0.6931471805599453f;
  const float y = (((((1.9875691500E-4f * f + 1.3981999507E-3f) * f + 8.3334519073E-3f) * f +
                     4.1665795894E-2f) *
                        f +
                    1.6666665459E-1f) *
                       f +
                   5.0000001201E-1f) *
                      f * f +
                  f + 1.0f;
  const auto bits = static_cast<uint32_t>(static_cast<int32_t>(n + 127.0f)) << 23;
  const float two_n = std::bit_cast<float>(bits);
  return std::max(two_n * y, in);
}

float FastTanhFloat32(float in) {
  // Eigen's rational approximation on [-9, 9].
  const float x = std::max(-9.0f, std::min(9.0f, in));
  const float x2 = x * x;
  float p = x2 * -2.76076847742355e-16f + 2.00018790482477e-13f;
  p = x2 * p + -8.60467152213735e-11f;
  p = x2 * p + 5.12229709037114e-08f;
  p = x2 * p + 1.48572235717979e-05f;
  p = x2 * p + 6.37261928875436e-04f;
  p = x2 * p + 4.89352455891786e-03f;
  p = x * p;
  float q = x2 * 1.19825839466702e-06f + 1.18534705686654e-04f;
  q = x2 * q + 2.26843463243900e-03f;
  q = x2 * q + 4.89352518554385e-03f;
  return p / q;
}

float FastErfFloat32(float in) {
  // Eigen's rational approximation on [-4, 4].
  const float x = std::max(std::min(in, 4.0f), -4.0f);
  const float x2 = x * x;
  float p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
  p = x2 * p + -2.10102402082508e-06f;
  p = x2 * p + -5.69250639462346e-05f;
  p = x2 * p + -7.34990630326855e-04f;
  p = x2 * p + -2.95459980854025e-03f;
  p = x2 * p + -1.60960333262415e-02f;
  p = x * p;
  float q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
  q = x2 * q + -1.68282697438203e-03f;
  q = x2 * q + -7.37332916720468e-03f;
  q = x2 * q + -1.42647390514189e-02f;
  return p / q;
}

namespace {

// out[i] = fast(x[i]) for float32 inputs (and float16 ones when `fast_half`, computed widened),
// exact(x[i]) otherwise, as TOPI picks its implementation by the input dtype.
template <typename Fast, typename Exact>
Arrays Map(const Arrays& in, const ir::Type& out_type, const char* op, bool fast_half, Fast fast,
           Exact exact) {
  CheckInputs(in, 1, op);
  const DataType dtype = in[0].dtype();
  const bool use_fast = dtype == DataType::Float(32) || (fast_half && dtype == DataType::Float(16));
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    return {DispatchFloat(x[0].dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized(x[0].shape(), x[0].dtype());
      const T* src = x[0].data<T>();
      T* dst = out.mutable_data<T>();
      const int64_t n = out.size();
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (std::is_same_v<T, float>) {
          dst[i] = use_fast ? fast(src[i]) : static_cast<float>(exact(src[i]));
        } else {
          dst[i] = exact(src[i]);
        }
      }
      return out;
    })};
  });
}

}  // namespace

Arrays FastExp(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  return Map(in, out_type, "fast_exp", false, FastExpFloat32, [](double v) { return std::exp(v); });
}

Arrays FastTanh(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  return Map(in, out_type, "fast_tanh", false, FastTanhFloat32,
             [](double v) { return std::tanh(v); });
}

Arrays FastErf(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  return Map(in, out_type, "fast_erf", true, FastErfFloat32, [](double v) { return std::erf(v); });
}

// max along the axis, e = fast_exp(x - max), e / sum(e).
Arrays FastSoftmax(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const char* op = "nn.fast_softmax";
  CheckInputs(in, 1, op);
  const int64_t axis_attr = AttrsOf(attrs, op).get_int("axis");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int axis = NormalizeAxis(axis_attr, data.ndim(), std::string(op) + ": axis");
    int64_t outer = 1, extent = 1, inner = 1;
    for (int i = 0; i < data.ndim(); ++i) {
      (i < axis ? outer : i == axis ? extent : inner) *= data.shape()[i];
    }
    return {DispatchFloat(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray result = NDArray::Uninitialized(data.shape(), data.dtype());
      const T* src = data.data<T>();
      T* dst = result.mutable_data<T>();
      for (int64_t o = 0; o < outer && extent > 0; ++o) {
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t base = o * extent * inner + i;
          T max = src[base];
          for (int64_t c = 1; c < extent; ++c) max = std::max(max, src[base + c * inner]);
          T sum = 0;
          for (int64_t c = 0; c < extent; ++c) {
            const T d = src[base + c * inner] - max;
            T e;
            if constexpr (std::is_same_v<T, float>) {
              e = FastExpFloat32(d);
            } else {
              e = std::exp(d);
            }
            dst[base + c * inner] = e;
            sum += e;
          }
          for (int64_t c = 0; c < extent; ++c) dst[base + c * inner] /= sum;
        }
      }
      return result;
    })};
  });
}

}  // namespace relaypass::op::kernels
