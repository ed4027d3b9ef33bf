// nn.prelu, nn.lrn, nn.instance_norm, nn.layer_norm (float types, half by widening) and
// nn.batch_matmul (BLAS for float32/float64, a plain loop for integers).
#include <algorithm>
#include <cmath>
#include <vector>

#include "gemm.h"
#include "int8/int8_products.h"
#include "kernel_util.h"
#include "kernels.h"
#include "relaypass/support/float16.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {

int64_t Product(const Shape& s, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end && i < s.size(); ++i) n *= s[i];
  return n;
}

}  // namespace

Arrays PRelu(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 2, "nn.prelu");
  const int64_t axis_attr = AttrsOf(attrs, "nn.prelu").get_int("axis");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int axis = NormalizeAxis(axis_attr, data.ndim(), "nn.prelu: axis");
    const int64_t channels = data.shape()[axis];
    // One alpha value applies to every channel (TVM reads alpha per channel; a size-1 alpha
    // against a channel axis known only at run time is the case its dynamic tests make).
    const bool one_alpha = x[1].size() == 1;
    if (x[1].size() != channels && !one_alpha) {
      Fail("nn.prelu: alpha " + ShapeString(x[1].shape()) + " does not match axis " +
           std::to_string(axis) + " of data " + ShapeString(data.shape()));
    }
    const int64_t outer = Product(data.shape(), 0, axis);
    const int64_t inner = Product(data.shape(), axis + 1, data.shape().size());
    return {DispatchFloat(data.dtype(), "nn.prelu", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
      const NDArray alpha = CastArray(x[1], data.dtype());
      const T* pd = data.data<T>();
      const T* pa = alpha.data<T>();
      T* po = out.mutable_data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t c = 0; c < channels; ++c) {
          const int64_t base = (o * channels + c) * inner;
          for (int64_t i = 0; i < inner; ++i) {
            const T v = pd[base + i];
            po[base + i] = v < T(0) ? pa[one_alpha ? 0 : c] * v : v;
          }
        }
      }
      return out;
    })};
  });
}

namespace {

// Calls body(at, lo, hi, step) for every element `at` of an array of `shape`: lo .. hi (step
// apart) are the elements of its LRN window along `axis` (TVM's topi.nn.lrn: channels
// [c - size/2, c - size/2 + size - 1] within the axis).
template <typename Body>
void ForEachLrnWindow(const Shape& shape, int axis, int64_t size, Body&& body) {
  const int64_t n = shape[axis];
  const int64_t outer = Product(shape, 0, axis);
  const int64_t inner = Product(shape, axis + 1, shape.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t c = 0; c < n; ++c) {
      const int64_t lo = std::max<int64_t>(0, c - size / 2);
      const int64_t hi = std::min<int64_t>(n - 1, c - size / 2 + size - 1);
      for (int64_t i = 0; i < inner; ++i) {
        body((o * n + c) * inner + i, (o * n + lo) * inner + i, (o * n + hi) * inner + i, inner);
      }
    }
  }
}

// nn.lrn of float16 / bfloat16 data with every operation rounded to the type, in topi.nn.lrn's
// order (the square, each step of the window's sum, alpha *, / size, bias +, power, the
// division; the attributes rounded to the type first), as TVM computes it in that type and as
// NumPy's half arithmetic (topi.testing.lrn_python) does: widening the whole computation would
// round once, and differ from both in the last bit of a third of the values.
NDArray HalfLRN(const NDArray& data, const ir::AttrsNode& a, int64_t size, double bias,
                double alpha, double beta) {
  const bool bf16 = data.dtype().code() == DataType::Code::kBFloat;
  auto to_bits = [bf16](float v) {
    return bf16 ? support::FloatToBFloat16(v) : support::FloatToHalf(v);
  };
  auto to_float = [bf16](uint16_t h) {
    return bf16 ? support::BFloat16ToFloat(h) : support::HalfToFloat(h);
  };
  auto round = [&](float v) { return to_float(to_bits(v)); };
  const int axis = NormalizeAxis(a.get_int("axis"), data.ndim(), "nn.lrn: axis");
  const float alpha_h = round(static_cast<float>(alpha)), bias_h = round(static_cast<float>(bias));
  const float beta_h = round(static_cast<float>(beta)), size_h = round(static_cast<float>(size));
  NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
  const auto* pd = data.data<uint16_t>();
  auto* po = out.mutable_data<uint16_t>();
  ForEachLrnWindow(data.shape(), axis, size, [&](int64_t at, int64_t lo, int64_t hi, int64_t step) {
    float sq = 0;
    for (int64_t j = lo; j <= hi; j += step) {
      const float v = to_float(pd[j]);
      sq = round(sq + round(v * v));
    }
    const float scaled = round(round(alpha_h * sq) / size_h);
    const float denominator = round(std::pow(round(bias_h + scaled), beta_h));
    po[at] = to_bits(to_float(pd[at]) / denominator);
  });
  return out;
}

}  // namespace

// TVM's topi.nn.lrn: the window [c - size/2, c - size/2 + size - 1] on `axis`;
// out = x / (bias + alpha * sum(x^2) / size)^beta.
Arrays LRN(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 1, "nn.lrn");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.lrn");
  const int64_t size = a.get_int("size");
  if (size < 1) Fail("nn.lrn: attribute 'size' must be positive, got " + std::to_string(size));
  const double bias = a.get_double("bias"), alpha = a.get_double("alpha"),
               beta = a.get_double("beta");
  if (IsHalf(in[0].dtype())) return {HalfLRN(in[0], a, size, bias, alpha, beta)};
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int axis = NormalizeAxis(a.get_int("axis"), data.ndim(), "nn.lrn: axis");
    return {DispatchFloat(data.dtype(), "nn.lrn", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
      const T* pd = data.data<T>();
      T* po = out.mutable_data<T>();
      ForEachLrnWindow(data.shape(), axis, size,
                       [&](int64_t at, int64_t lo, int64_t hi, int64_t step) {
                         double sq = 0;
                         for (int64_t j = lo; j <= hi; j += step) {
                           const double v = pd[j];
                           sq += v * v;
                         }
                         po[at] = static_cast<T>(pd[at] / std::pow(bias + alpha * sq / size, beta));
                       });
      return out;
    })};
  });
}

namespace {

// (x - mean) / sqrt(var + eps) * gamma + beta, with mean and variance over the axes `reduced`
// marks and gamma / beta indexed along `axis`.
Arrays Normalize(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, const char* op,
                 bool instance) {
  CheckInputs(in, 3, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const double eps = a.get_double("epsilon");
  const bool center = a.get_bool("center"), scale = a.get_bool("scale");
  return PromoteHalf(in, out_type, [&](const Arrays& x) -> Arrays {
    const NDArray& data = x[0];
    const int nd = data.ndim();
    const int axis = NormalizeAxis(a.get_int("axis"), nd, std::string(op) + ": axis");
    // gamma and beta are indexed by the channel along `axis`: [data.shape[axis]] each.
    for (size_t i = 1; i < 3; ++i) {
      if (x[i].ndim() != 1 || x[i].size() != data.shape()[axis]) {
        Fail(std::string(op) + ": " + (i == 1 ? "gamma " : "beta ") + ShapeString(x[i].shape()) +
             " does not match axis " + std::to_string(axis) + " of data " +
             ShapeString(data.shape()));
      }
    }
    std::vector<bool> reduced(nd, false);
    if (instance) {
      for (int d = 1; d < nd; ++d) reduced[d] = d != axis;
    } else {
      reduced[axis] = true;
    }
    std::vector<int> perm;
    for (int d = 0; d < nd; ++d) {
      if (!reduced[d]) perm.push_back(d);
    }
    for (int d = 0; d < nd; ++d) {
      if (reduced[d]) perm.push_back(d);
    }
    std::vector<int> inverse(nd);
    for (int d = 0; d < nd; ++d) inverse[perm[d]] = d;
    const NDArray p = Permute(data, perm);
    int64_t len = 1;
    for (int d = 0; d < nd; ++d) {
      if (reduced[d]) len *= data.shape()[d];
    }
    const int64_t rows = len == 0 ? 0 : p.size() / len;
    // Which channel each permuted element belongs to: the axis' position in the permuted shape.
    const Shape pshape = p.shape();
    const Shape pstrides = Strides(pshape);
    const int paxis = inverse[axis];
    return {DispatchFloat(data.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const NDArray gamma = CastArray(x[1], data.dtype()), beta = CastArray(x[2], data.dtype());
      const T* pg = gamma.data<T>();
      const T* pb = beta.data<T>();
      NDArray outp = NDArray::Uninitialized(pshape, data.dtype());
      const T* pi = p.data<T>();
      T* po = outp.mutable_data<T>();
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = pi + r * len;
        double mean = 0, var = 0;
        for (int64_t j = 0; j < len; ++j) mean += row[j];
        mean /= static_cast<double>(len);
        for (int64_t j = 0; j < len; ++j) var += (row[j] - mean) * (row[j] - mean);
        var /= static_cast<double>(len);
        const double inv = 1.0 / std::sqrt(var + eps);
        for (int64_t j = 0; j < len; ++j) {
          const int64_t flat = r * len + j;
          const int64_t c = (flat / pstrides[paxis]) % pshape[paxis];
          double v = (row[j] - mean) * inv;
          if (scale) v *= static_cast<double>(pg[c]);
          if (center) v += static_cast<double>(pb[c]);
          po[flat] = static_cast<T>(v);
        }
      }
      return Permute(outp, inverse);
    })};
  });
}

}  // namespace

Arrays InstanceNorm(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Normalize(in, attrs, out_type, "nn.instance_norm", true);
}

Arrays LayerNorm(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return Normalize(in, attrs, out_type, "nn.layer_norm", false);
}

Arrays BatchMatmul(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  CheckInputs(in, 2, "nn.batch_matmul");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.batch_matmul");
  const bool ta = a.get_bool("transpose_a"), tb = a.get_bool("transpose_b");
  const DataType out_dtype = DTypeAttr(a, "out_dtype", in[0].dtype());
  // As TVM's topi: each operand cast to out_dtype, products summed in it (int8 x int8 with
  // out_dtype int32 accumulates in int32; the operands may differ, e.g. uint8 x int8).
  const DataType compute = IsHalf(out_dtype) ? DataType::Float32() : out_dtype;
  if (Int8GemmKindFor(in[0].dtype(), in[1].dtype(), out_dtype))
    return {Int8BatchMatmul(in[0], in[1], ta, tb)};
  const Arrays operands = {CastArray(in[0], compute), CastArray(in[1], compute)};
  Arrays result = PromoteHalf(operands, out_type, [&](const Arrays& v) -> Arrays {
    if (v[0].ndim() != 3 || v[1].ndim() != 3) Fail("nn.batch_matmul: operands must be 3-D");
    if (v[0].dtype() != v[1].dtype()) Fail("nn.batch_matmul: operand dtypes differ");
    // x as [b, m, k] and y as [b, n, k] (row-major), so C = X * Y^T.
    const NDArray x = ta ? Permute(v[0], {0, 2, 1}) : v[0];
    const NDArray y = tb ? v[1] : Permute(v[1], {0, 2, 1});
    const int64_t bx = x.shape()[0], by = y.shape()[0];
    const int64_t m = x.shape()[1], k = x.shape()[2], n = y.shape()[1];
    if (y.shape()[2] != k) Fail("nn.batch_matmul: reduction dimensions differ");
    if (bx != by && bx != 1 && by != 1) Fail("nn.batch_matmul: batches do not broadcast");
    // A batch of 1 against an empty batch is empty (NumPy's broadcast, as the type relation).
    const int64_t b = (bx == 0 || by == 0) ? 0 : std::max(bx, by);
    return {DispatchNumeric(x.dtype(), "nn.batch_matmul", [&](auto tag) {
      using T = typename decltype(tag)::type;
      NDArray out = NDArray::Uninitialized({b, m, n}, x.dtype());
      const T* px = x.data<T>();
      const T* py = y.data<T>();
      T* po = out.mutable_data<T>();
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        // The batch's products, each cut into Gemm's blocks (gemm.h), as one list of (product,
        // block) tasks over the kernel threads: attention's per-head products are each too
        // small to keep two threads busy alone. Each block is the same single OpenBLAS call as
        // in Gemm, so the bits do not change with the thread count.
        if (b > 1) {
          const int64_t blocks = GemmBlockCount(m, n, k);
          support::ParallelFor(b * blocks, 1, [&](int64_t first, int64_t last) {
            for (int64_t t = first; t < last; ++t) {
              const int64_t i = t / blocks;
              GemmOneBlock(true, GemmBlockAt(m, n, k, t % blocks), k,
                           px + (bx == 1 ? 0 : i) * m * k, k, py + (by == 1 ? 0 : i) * n * k, k,
                           po + i * m * n, n, false);
            }
          });
          return out;
        }
      }
      for (int64_t i = 0; i < b; ++i) {
        const T* xa = px + (bx == 1 ? 0 : i) * m * k;
        const T* yb = py + (by == 1 ? 0 : i) * n * k;
        T* c = po + i * m * n;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          Gemm(true, m, n, k, xa, k, yb, k, c, n);
        } else {
          for (int64_t r = 0; r < m; ++r) {
            for (int64_t s = 0; s < n; ++s) {
              T acc = T(0);
              for (int64_t j = 0; j < k; ++j)
                acc = static_cast<T>(acc + xa[r * k + j] * yb[s * k + j]);
              c[r * n + s] = acc;
            }
          }
        }
      }
      return out;
    })};
  });
  if (result[0].dtype() != out_dtype) result[0] = CastArray(result[0], out_dtype);
  return result;
}

}  // namespace relaypass::op::kernels
