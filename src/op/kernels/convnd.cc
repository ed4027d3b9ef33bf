// Direct N-d convolution kernels on channel-first layouts: nn.conv1d, nn.conv3d,
// nn.conv{1,2,3}d_transpose (float types, half by widening; integer operands summed in float64) and
// 1-D / 3-D max and average pooling.
#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "kernel_util.h"
#include "kernels.h"
#include "layout_permutation.h"
#include "relaypass/support/parallel.h"

namespace relaypass::op::kernels {

namespace {

std::vector<int64_t> PerAxis(const std::vector<int64_t>& v, int s, const char* op,
                             const char* what) {
  if (static_cast<int>(v.size()) == s) return v;
  if (v.size() == 1) return std::vector<int64_t>(s, v[0]);
  Fail(std::string(op) + ": " + what + " must have 1 or " + std::to_string(s) + " values");
}
// The window position after `a` (step `dilation`), or `end` when that would reach or pass it:
// a window's bounds can be near the int64 limits, where `a + dilation` would overflow. The
// difference is taken unsigned, which is exact for a < end.
int64_t NextTap(int64_t a, int64_t end, int64_t dilation) {
  if (static_cast<uint64_t>(end) - static_cast<uint64_t>(a) <= static_cast<uint64_t>(dilation)) {
    return end;
  }
  return a + dilation;
}
std::vector<int64_t> PadsOf(const std::vector<int64_t>& p, int s, const char* op) {
  if (static_cast<int>(p.size()) == 2 * s) return p;
  std::vector<int64_t> one = PerAxis(p, s, op, "padding");
  one.insert(one.end(), one.begin(), one.end());
  return one;
}

struct ConvGeometry {
  int s = 0;
  std::vector<int64_t> strides, dilation, pads, output_padding;
  int64_t groups = 1;
};

ConvGeometry ReadGeometry(const ir::AttrsNode& a, int s, const char* op, bool transposed) {
  ConvGeometry g;
  g.s = s;
  g.strides = PerAxis(a.get_ints("strides"), s, op, "strides");
  g.dilation = PerAxis(a.get_ints("dilation"), s, op, "dilation");
  g.pads = PadsOf(a.get_ints("padding"), s, op);
  if (transposed) {  // its first s values, as the type relation reads them
    std::vector<int64_t> padding = a.get_ints("output_padding");
    if (padding.size() > static_cast<size_t>(s)) padding.resize(static_cast<size_t>(s));
    g.output_padding = PerAxis(padding, s, op, "output_padding");
  }
  g.groups = a.get_int("groups");
  if (g.groups < 1) Fail(std::string(op) + ": groups must be positive");
  for (int i = 0; i < s; ++i) {
    if (g.strides[i] < 1 || g.dilation[i] < 1) {
      Fail(std::string(op) + ": attributes 'strides' and 'dilation' must be positive");
    }
  }
  return g;
}

// Steps the multi-index `idx` to the next row-major position of `shape`.
void NextIndex(std::vector<int64_t>& idx, const std::vector<int64_t>& shape) {
  for (size_t d = idx.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return;
    idx[d] = 0;
  }
}

template <typename T>
NDArray ConvForward(const NDArray& x, const NDArray& w, const ConvGeometry& g, const char* op) {
  const int s = g.s;
  const Shape& xs = x.shape();
  const Shape& ws = w.shape();
  const int64_t n = xs[0], c = xs[1], o = ws[0], cg = ws[1];
  if (c != cg * g.groups || o % g.groups != 0) Fail(std::string(op) + ": channels do not match");
  std::vector<int64_t> in(xs.begin() + 2, xs.end()), k(ws.begin() + 2, ws.end()), out(s);
  for (int i = 0; i < s; ++i) {
    out[i] =
        (in[i] + g.pads[i] + g.pads[s + i] - (g.dilation[i] * (k[i] - 1) + 1)) / g.strides[i] + 1;
    if (out[i] < 0) Fail(std::string(op) + ": the kernel is larger than the padded input");
  }
  Shape out_shape = {n, o};
  out_shape.insert(out_shape.end(), out.begin(), out.end());
  NDArray y = NDArray::Uninitialized(out_shape, x.dtype());
  const T* px = x.data<T>();
  const T* pw = w.data<T>();
  T* py = y.mutable_data<T>();
  const int64_t in_size = NumElements(Shape(in.begin(), in.end()));
  const int64_t k_size = NumElements(Shape(k.begin(), k.end()));
  const int64_t out_size = NumElements(Shape(out.begin(), out.end()));
  const Shape in_strides = Strides(Shape(in.begin(), in.end()));
  const int64_t og = o / g.groups;
  // The input offset and validity of each (output position, kernel position) pair.
  std::vector<int64_t> opos(s, 0);
  for (int64_t p = 0; p < out_size; ++p, NextIndex(opos, out)) {
    std::vector<int64_t> kpos(s, 0);
    std::vector<int64_t> offsets(k_size, -1);
    for (int64_t q = 0; q < k_size; ++q, NextIndex(kpos, k)) {
      int64_t off = 0;
      bool inside = true;
      for (int i = 0; i < s && inside; ++i) {
        const int64_t at = opos[i] * g.strides[i] - g.pads[i] + kpos[i] * g.dilation[i];
        inside = at >= 0 && at < in[i];
        off += at * in_strides[i];
      }
      if (inside) offsets[q] = off;
    }
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t oc = 0; oc < o; ++oc) {
        const int64_t grp = oc / og;
        double acc = 0;
        for (int64_t ic = 0; ic < cg; ++ic) {
          const T* xin = px + (b * c + grp * cg + ic) * in_size;
          const T* wk = pw + (oc * cg + ic) * k_size;
          for (int64_t q = 0; q < k_size; ++q) {
            if (offsets[q] >= 0) acc += static_cast<double>(xin[offsets[q]]) * wk[q];
          }
        }
        py[(b * o + oc) * out_size + p] = static_cast<T>(acc);
      }
    }
  }
  return y;
}

template <typename T>
NDArray ConvTransposed(const NDArray& x, const NDArray& w, const ConvGeometry& g, const char* op) {
  const int s = g.s;
  const Shape& xs = x.shape();
  const Shape& ws = w.shape();
  const int64_t n = xs[0], c = xs[1], og = ws[1], o = og * g.groups;
  if (ws[0] != c || c % g.groups != 0) Fail(std::string(op) + ": channels do not match");
  const int64_t cg = c / g.groups;
  std::vector<int64_t> in(xs.begin() + 2, xs.end()), k(ws.begin() + 2, ws.end()), out(s);
  for (int i = 0; i < s; ++i) {
    // (in - 1) * stride - pads + dilation * (k - 1) + 1 + output_padding, overflow-checked.
    int64_t extent = 0, span = 0;
    bool overflow = __builtin_mul_overflow(in[i] - 1, g.strides[i], &extent);
    overflow |= __builtin_mul_overflow(g.dilation[i], k[i] - 1, &span);
    for (int64_t term : {-g.pads[i], -g.pads[s + i], span, int64_t{1}, g.output_padding[i]}) {
      overflow |= __builtin_add_overflow(extent, term, &extent);
    }
    if (overflow) Fail(std::string(op) + ": the output extent overflows int64");
    out[i] = extent;
    if (out[i] < 0) Fail(std::string(op) + ": the output would be empty");
  }
  Shape out_shape = {n, o};
  out_shape.insert(out_shape.end(), out.begin(), out.end());
  // Both the result and the float64 accumulator are tensors: their sizes are checked (overflow,
  // the memory budget) before anything is allocated, a ResourceError when they do not fit.
  NDArray y = NDArray::Uninitialized(out_shape, x.dtype());
  NDArray acc_array = NDArray::Uninitialized(out_shape, DataType::Float(64));
  double* acc = acc_array.mutable_data<double>();
  std::fill(acc, acc + acc_array.size(), 0.0);
  const int64_t in_size = NumElements(Shape(in.begin(), in.end()));
  const int64_t k_size = NumElements(Shape(k.begin(), k.end()));
  const int64_t out_size = NumElements(Shape(out.begin(), out.end()));
  const Shape out_strides = Strides(Shape(out.begin(), out.end()));
  const T* px = x.data<T>();
  const T* pw = w.data<T>();
  // Per kernel position q, the output offset each input position lands on (-1: outside); then
  // every output plane (batch, output channel) is accumulated over its group's input channels in
  // one pass over the input plane, so the accumulator is walked in order and the planes run in
  // parallel (a loop that jumped across planes per element took hours on 224 x 224 images).
  std::vector<int64_t> offsets(static_cast<size_t>(in_size));
  std::vector<int64_t> kpos(s, 0);
  for (int64_t q = 0; q < k_size; ++q, NextIndex(kpos, k)) {
    std::vector<int64_t> ipos(s, 0);
    for (int64_t p = 0; p < in_size; ++p, NextIndex(ipos, in)) {
      int64_t off = 0;
      bool inside = true;
      for (int i = 0; i < s && inside; ++i) {
        const int64_t at = ipos[i] * g.strides[i] - g.pads[i] + kpos[i] * g.dilation[i];
        inside = at >= 0 && at < out[i];
        off += at * out_strides[i];
      }
      offsets[static_cast<size_t>(p)] = inside ? off : -1;
    }
    const int64_t* offs = offsets.data();
    support::ParallelFor(n * o, std::max<int64_t>(1, kParallelGrain / (in_size * cg + 1)),
                         [&](int64_t first, int64_t last) {
                           for (int64_t plane = first; plane < last; ++plane) {
                             const int64_t b = plane / o, oc = plane % o;
                             const int64_t grp = oc / og, j = oc % og;
                             double* acc_row = acc + plane * out_size;
                             for (int64_t ic = grp * cg; ic < (grp + 1) * cg; ++ic) {
                               const double wv = pw[(ic * og + j) * k_size + q];
                               const T* xrow = px + (b * c + ic) * in_size;
                               for (int64_t p = 0; p < in_size; ++p) {
                                 const double v = xrow[p];
                                 if (v != 0 && offs[p] >= 0) acc_row[offs[p]] += v * wv;
                               }
                             }
                           }
                         });
  }
  T* py = y.mutable_data<T>();
  for (int64_t i = 0; i < acc_array.size(); ++i) py[i] = static_cast<T>(acc[i]);
  return y;
}

// The canonical layouts the loops run on: NC + spatial data, OI (IO transposed) + spatial kernels.
std::string CanonicalData(int s) {
  return s == 1 ? "NCW" : (s == 2 ? "NCHW" : "NCDHW");
}
std::string CanonicalKernel(int s, bool transposed) {
  const std::string spatial = s == 1 ? "W" : (s == 2 ? "HW" : "DHW");
  return (transposed ? "IO" : "OI") + spatial;
}

// Any ordering of the canonical layouts' axes (NWC, NDHWC / DHWIO, NHWC / HWOI, ...) is moved to
// the canonical order, run, and the result moved back. Integer tensors (int8 data with an int32
// out_dtype) are computed in double, exact for their products' sums, then cast to out_dtype.
Arrays RunConv(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, int s,
               const char* op, bool transposed) {
  CheckInputs(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const ConvGeometry g = ReadGeometry(a, s, op, transposed);
  if (in[0].ndim() != s + 2 || in[1].ndim() != s + 2) {
    Fail(std::string(op) + ": data and weight must have rank " + std::to_string(s + 2));
  }
  const std::vector<int> data_perm =
      LayoutPermutation(a.get_string("data_layout"), CanonicalData(s));
  const std::vector<int> kernel_perm =
      LayoutPermutation(a.get_string("kernel_layout"), CanonicalKernel(s, transposed));
  if (data_perm.empty() || kernel_perm.empty()) {
    Fail(std::string(op) + ": unsupported layouts " + a.get_string("data_layout") + " / " +
         a.get_string("kernel_layout"));
  }
  const Arrays canonical = {Permute(in[0], data_perm), Permute(in[1], kernel_perm)};
  auto run = [&](const Arrays& v) -> Arrays {
    if (v[0].dtype() != v[1].dtype()) Fail(std::string(op) + ": operand dtypes differ");
    return {DispatchFloat(v[0].dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return transposed ? ConvTransposed<T>(v[0], v[1], g, op) : ConvForward<T>(v[0], v[1], g, op);
    })};
  };
  const DataType dtype = in[0].dtype();
  NDArray out;
  if ((dtype.is_int() || dtype.is_uint()) && (in[1].dtype().is_int() || in[1].dtype().is_uint())) {
    const DataType f64 = DataType::Float(64);
    out = CastArray(run({CastArray(canonical[0], f64), CastArray(canonical[1], f64)})[0],
                    DTypeAttr(a, "out_dtype", dtype));
  } else {
    out = PromoteHalf(canonical, out_type, run)[0];
  }
  return {Permute(out, InversePermutation(data_perm))};
}

// `s`-d pooling (1 or 3) on channel-first data (other orderings permuted), run as 3-D pooling: a
// 1-D pool is a 3-D pool whose two outer spatial extents, windows, strides and dilations are 1,
// without padding.
Arrays PoolND(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type, int s,
              bool is_max, const char* op) {
  CheckInputs(in, 1, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  auto as_3d = [s](std::vector<int64_t> v, int64_t fill) {
    v.insert(v.begin(), 3 - s, fill);
    return v;
  };
  const std::vector<int64_t> pool = as_3d(PerAxis(a.get_ints("pool_size"), s, op, "pool_size"), 1);
  const std::vector<int64_t> strides = as_3d(PerAxis(a.get_ints("strides"), s, op, "strides"), 1);
  const std::vector<int64_t> dilation =
      as_3d(PerAxis(a.get_ints("dilation"), s, op, "dilation"), 1);
  const std::vector<int64_t> s_pads = PadsOf(a.get_ints("padding"), s, op);
  std::vector<int64_t> pads = as_3d({s_pads.begin(), s_pads.begin() + s}, 0);
  const std::vector<int64_t> after = as_3d({s_pads.begin() + s, s_pads.end()}, 0);
  pads.insert(pads.end(), after.begin(), after.end());
  for (int i = 0; i < 3; ++i) {
    if (pool[i] < 1 || strides[i] < 1 || dilation[i] < 1) {
      Fail(std::string(op) + ": pool_size, strides and dilation must be positive");
    }
  }
  const bool ceil = a.get_bool("ceil_mode");
  const bool include_pad = !is_max && a.get_bool("count_include_pad");
  // Any ordering of the canonical layout's axes (NWC, NDHWC, ...) is moved to it and back.
  const std::vector<int> perm = LayoutPermutation(a.get_string("layout"), CanonicalData(s));
  if (perm.empty()) Fail(std::string(op) + ": unsupported layout " + a.get_string("layout"));
  if (in[0].ndim() != s + 2)
    Fail(std::string(op) + ": data must be " + std::to_string(s + 2) + "-D");
  const Arrays canonical = {Permute(in[0], perm)};
  const Arrays pooled = PromoteHalf(canonical, out_type, [&](const Arrays& v) -> Arrays {
    const NDArray& input = v[0];
    if (input.ndim() != s + 2) {
      Fail(std::string(op) + ": data must be " + std::to_string(s + 2) + "-D");
    }
    Shape xs = input.shape();
    xs.insert(xs.begin() + 2, 3 - s, 1);
    const NDArray x = Reshaped(input, xs);
    std::vector<int64_t> ins(xs.begin() + 2, xs.end()), out(3);
    for (int i = 0; i < 3; ++i) {
      int64_t span = ins[i] + pads[i] + pads[3 + i] - (dilation[i] * (pool[i] - 1) + 1);
      if (span < 0) Fail(std::string(op) + ": the pool is larger than the padded input");
      if (ceil) span += strides[i] - 1;
      out[i] = span / strides[i] + 1;
    }
    Shape out_shape = {xs[0], xs[1]};
    out_shape.insert(out_shape.end(), out.begin() + (3 - s), out.end());
    const Shape out_3d = {xs[0], xs[1], out[0], out[1], out[2]};
    // TVM pools integer tensors too: max in the dtype, avg as the integer sum over the count
    // (truncated); floats accumulate in double.
    if (x.dtype().is_bool()) Fail(std::string(op) + ": unsupported dtype bool");
    return {DispatchNumeric(x.dtype(), op, [&](auto tag) {
      using T = typename decltype(tag)::type;
      constexpr bool kFloat = std::is_floating_point_v<T>;
      using Acc = std::conditional_t<kFloat, double, __int128>;
      NDArray y = NDArray::Uninitialized(out_3d, x.dtype());
      const T* px = x.data<T>();
      T* py = y.mutable_data<T>();
      const int64_t planes = xs[0] * xs[1];
      const int64_t in_size = ins[0] * ins[1] * ins[2];
      int64_t o = 0;
      for (int64_t pl = 0; pl < planes; ++pl) {
        const T* src = px + pl * in_size;
        for (int64_t d = 0; d < out[0]; ++d) {
          for (int64_t h = 0; h < out[1]; ++h) {
            for (int64_t w = 0; w < out[2]; ++w, ++o) {
              // TVM starts a max pool at the dtype's lowest value (a window all in padding gives
              // it).
              T best = std::numeric_limits<T>::lowest();
              Acc acc = 0;
              int64_t count = 0;
              const int64_t pos[3] = {d, h, w};
              int64_t start[3], end[3];
              for (int i = 0; i < 3; ++i) {
                start[i] = pos[i] * strides[i] - pads[i];
                end[i] = std::min(start[i] + dilation[i] * (pool[i] - 1) + 1, ins[i] + pads[3 + i]);
              }
              if (include_pad) {
                count = 1;
                for (int i = 0; i < 3; ++i) {
                  count *= (end[i] - start[i] + dilation[i] - 1) / dilation[i];
                }
              }
              for (int64_t a0 = start[0]; a0 < end[0]; a0 = NextTap(a0, end[0], dilation[0])) {
                if (a0 < 0 || a0 >= ins[0]) continue;
                for (int64_t a1 = start[1]; a1 < end[1]; a1 = NextTap(a1, end[1], dilation[1])) {
                  if (a1 < 0 || a1 >= ins[1]) continue;
                  for (int64_t a2 = start[2]; a2 < end[2]; a2 = NextTap(a2, end[2], dilation[2])) {
                    if (a2 < 0 || a2 >= ins[2]) continue;
                    const T val = src[(a0 * ins[1] + a1) * ins[2] + a2];
                    if (is_max) {
                      best = std::max(best, val);
                    } else {
                      acc += val;
                      if (!include_pad) ++count;
                    }
                  }
                }
              }
              if (is_max) {
                py[o] = best;
              } else {
                py[o] = count > 0 ? static_cast<T>(acc / static_cast<Acc>(count)) : T{0};
              }
            }
          }
        }
      }
      return Reshaped(y, out_shape);
    })};
  });
  return {Permute(pooled[0], InversePermutation(perm))};
}

}  // namespace

Arrays Conv1D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return RunConv(in, attrs, out_type, 1, "nn.conv1d", false);
}
Arrays Conv3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return RunConv(in, attrs, out_type, 3, "nn.conv3d", false);
}
Arrays Conv1DTranspose(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return RunConv(in, attrs, out_type, 1, "nn.conv1d_transpose", true);
}
Arrays Conv2DTranspose(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return RunConv(in, attrs, out_type, 2, "nn.conv2d_transpose", true);
}
Arrays Conv3DTranspose(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return RunConv(in, attrs, out_type, 3, "nn.conv3d_transpose", true);
}
Arrays MaxPool1D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return PoolND(in, attrs, out_type, 1, true, "nn.max_pool1d");
}
Arrays AvgPool1D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return PoolND(in, attrs, out_type, 1, false, "nn.avg_pool1d");
}
Arrays MaxPool3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return PoolND(in, attrs, out_type, 3, true, "nn.max_pool3d");
}
Arrays AvgPool3D(const Arrays& in, const ir::Attrs& attrs, const ir::Type& out_type) {
  return PoolND(in, attrs, out_type, 3, false, "nn.avg_pool3d");
}

}  // namespace relaypass::op::kernels
