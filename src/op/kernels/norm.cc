// nn.batch_norm (inference), nn.softmax, nn.log_softmax, nn.dropout (inference: identity) and
// annotation.stop_fusion (identity).
#include <algorithm>
#include <cmath>

#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {

// Extents before, at and after `axis`.
struct AxisSplit {
  int64_t outer = 1, axis = 1, inner = 1;
};

AxisSplit SplitAt(const Shape& shape, int axis) {
  AxisSplit s;
  for (int i = 0; i < static_cast<int>(shape.size()); ++i) {
    if (i < axis) s.outer *= shape[i];
    if (i == axis) s.axis = shape[i];
    if (i > axis) s.inner *= shape[i];
  }
  return s;
}

}  // namespace

// As SimplifyInference rewrites it: scale = 1 / sqrt(var + eps) (* gamma), shift = -mean * scale
// (+ beta), out = data * scale + shift. The moving mean and variance are returned unchanged.
Arrays BatchNorm(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  const char* op = "nn.batch_norm";
  CheckInputs(in, 5, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const int64_t axis_attr = a.get_int("axis");
  const double epsilon = a.get_double("epsilon");
  const bool center = a.get_bool("center"), scale = a.get_bool("scale");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int axis = NormalizeAxis(axis_attr, data.ndim(), "nn.batch_norm: axis");
    const AxisSplit s = SplitAt(data.shape(), axis);
    for (size_t i = 1; i < 5; ++i) {
      if (x[i].size() != s.axis || x[i].dtype() != data.dtype()) {
        Fail("nn.batch_norm: parameter " + std::to_string(i) + " " + ShapeString(x[i].shape()) +
             " " + x[i].dtype().ToString() + " does not match axis " + std::to_string(axis) +
             " of data " + ShapeString(data.shape()) + " " + data.dtype().ToString());
      }
    }
    NDArray out = DispatchFloat(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* gamma = x[1].data<T>();
      const T* beta = x[2].data<T>();
      const T* mean = x[3].data<T>();
      const T* var = x[4].data<T>();
      const T eps = static_cast<T>(static_cast<float>(epsilon));
      NDArray result = NDArray::Uninitialized(data.shape(), data.dtype());
      const T* src = data.data<T>();
      T* dst = result.mutable_data<T>();
      for (int64_t c = 0; c < s.axis; ++c) {
        T sc = T(1) / std::sqrt(var[c] + eps);
        if (scale) sc = sc * gamma[c];
        T shift = -mean[c] * sc;
        if (center) shift = shift + beta[c];
        for (int64_t o = 0; o < s.outer; ++o) {
          const int64_t base = (o * s.axis + c) * s.inner;
          for (int64_t i = 0; i < s.inner; ++i) dst[base + i] = src[base + i] * sc + shift;
        }
      }
      return result;
    });
    return {out, x[3], x[4]};
  });
}

namespace {

// softmax, or log_softmax (x - max - log(sum(exp(x - max)))), along the attrs' axis.
Arrays SoftmaxImpl(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, bool log,
                   const char* op) {
  CheckInputs(in, 1, op);
  const int64_t axis_attr = AttrsOf(attrs, op).get_int("axis");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int axis = NormalizeAxis(axis_attr, data.ndim(), std::string(op) + ": axis");
    const AxisSplit s = SplitAt(data.shape(), axis);
    return {DispatchFloat(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray result = NDArray::Uninitialized(data.shape(), data.dtype());
      const T* src = data.data<T>();
      T* dst = result.mutable_data<T>();
      if (result.size() == 0) return result;
      // Each (o, i) line independent: the lines split over the kernel threads, the same bits at
      // any thread count.
      const int64_t lines = s.outer * s.inner;
      support::ParallelFor(
          lines, std::max<int64_t>(1, kParallelGrain / s.axis), [&](int64_t first, int64_t last) {
            for (int64_t line = first; line < last; ++line) {
              const int64_t o = line / s.inner, i = line % s.inner;
              const int64_t base = o * s.axis * s.inner + i;
              T max = src[base];
              for (int64_t c = 1; c < s.axis; ++c) max = std::max(max, src[base + c * s.inner]);
              T sum = 0;
              for (int64_t c = 0; c < s.axis; ++c) {
                const T e = std::exp(src[base + c * s.inner] - max);
                dst[base + c * s.inner] = e;
                sum += e;
              }
              if (log) {
                const T log_sum = std::log(sum);
                for (int64_t c = 0; c < s.axis; ++c) {
                  dst[base + c * s.inner] = src[base + c * s.inner] - max - log_sum;
                }
              } else {
                for (int64_t c = 0; c < s.axis; ++c) dst[base + c * s.inner] /= sum;
              }
            }
          });
      return result;
    })};
  });
}

}  // namespace

Arrays Softmax(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return SoftmaxImpl(in, attrs, out_type, false, "nn.softmax");
}

Arrays LogSoftmax(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return SoftmaxImpl(in, attrs, out_type, true, "nn.log_softmax");
}

// annotation.stop_fusion: its argument unchanged.
Arrays Identity(const Arrays& in, const ir::Attrs&, const ir::Type&) {
  CheckInputs(in, 1, "annotation.stop_fusion");
  return in;
}

// Inference dropout: the data unchanged and a mask of ones.
Arrays Dropout(const Arrays& in, const ir::Attrs&, const ir::Type& out_type) {
  CheckInputs(in, 1, "nn.dropout");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    NDArray mask = DispatchNumeric(x[0].dtype(), "nn.dropout", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray ones = NDArray::Uninitialized(x[0].shape(), x[0].dtype());
      std::fill(ones.mutable_data<T>(), ones.mutable_data<T>() + ones.size(), T(1));
      return ones;
    });
    return {x[0], mask};
  });
}

}  // namespace relaypass::op::kernels
