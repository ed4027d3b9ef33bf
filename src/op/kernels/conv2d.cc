// nn.conv2d. The data is brought to NCHW and the weight to OIHW whatever their layouts, the
// convolution is computed there and the result is converted to out_layout (or data_layout).
// Float types use im2col and BLAS GEMM per group; depthwise convolutions (one input channel per
// group) use depthwise_conv.cc, uint8/int8 operands with out_dtype int32 the int8 GEMM
// (int8/int8_products.h) and other integer types a direct loop. Conv2DWithEpilogue (op/
// conv2d_epilogue.h) is the same computation with fused elementwise steps.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "conv_geometry.h"
#include "conv_panels.h"
#include "depthwise_conv.h"
#include "element_ops.h"
#include "epilogue.h"
#include "gemm.h"
#include "int8/int8_products.h"
#include "kernel_util.h"
#include "kernels.h"
#include "packed_sgemm.h"
#include "relaypass/support/parallel.h"
#include "small_k_gemm.h"

namespace relaypass::op {

// One packed matrix per group: [out_per_group, in_per_group * KH * KW].
struct PrepackedConvWeight {
  std::vector<kernels::PackedA> groups;
};

}  // namespace relaypass::op

namespace relaypass::op::kernels {

namespace {

// `pad` (top, left, bottom, right, from the attrs) is non-negative: see CropNegativePadding.
ConvGeometry Geometry(const NDArray& data, const NDArray& weight, const ir::AttrsNode& a,
                      const std::vector<int64_t>& pad) {
  const std::vector<int64_t> strides = a.get_ints("strides");
  const std::vector<int64_t> dilation = a.get_ints("dilation");
  if (data.ndim() != 4 || weight.ndim() != 4)
    Fail("nn.conv2d: data and weight must be 4-D (NCHW, OIHW)");
  if (strides.size() != 2 || dilation.size() != 2) {
    Fail("nn.conv2d: strides and dilation need 2 values each");
  }
  ConvGeometry g{};
  g.batch = data.shape()[0];
  g.channels = data.shape()[1];
  g.height = data.shape()[2];
  g.width = data.shape()[3];
  g.groups = a.get_int("groups");
  const int64_t w_out = weight.shape()[0], w_in = weight.shape()[1];
  g.kernel_h = weight.shape()[2];
  g.kernel_w = weight.shape()[3];
  g.stride_h = strides[0];
  g.stride_w = strides[1];
  g.dilation_h = dilation[0];
  g.dilation_w = dilation[1];
  g.pad_top = pad[0];
  g.pad_left = pad[1];
  if (g.groups < 1 || g.stride_h < 1 || g.stride_w < 1 || g.dilation_h < 1 || g.dilation_w < 1) {
    Fail("nn.conv2d: groups, strides and dilation must be positive");
  }
  if (g.groups > 1 && g.groups == g.channels && g.groups == w_out) {
    // Depthwise: the weight is [C, multiplier, KH, KW]; output channel c*m + q reads input c.
    g.in_per_group = 1;
    g.out_per_group = w_in;
    g.out_channels = g.channels * w_in;
  } else {
    if (g.channels % g.groups != 0 || w_out % g.groups != 0 || w_in != g.channels / g.groups) {
      Fail("nn.conv2d: data " + ShapeString(data.shape()) + " (NCHW) and weight " +
           ShapeString(weight.shape()) + " (OIHW) do not match groups=" + std::to_string(g.groups));
    }
    g.in_per_group = w_in;
    g.out_per_group = w_out / g.groups;
    g.out_channels = w_out;
  }
  // (extent + before + after) - ((kernel - 1) * dilation + 1), each step checked: attributes
  // near INT64_MAX must not wrap around into a plausible size.
  auto span_left = [](int64_t extent, int64_t before, int64_t after, int64_t kernel,
                      int64_t dilation) {
    int64_t padded = 0, span = 0, left = 0;
    if (__builtin_add_overflow(extent, before, &padded) ||
        __builtin_add_overflow(padded, after, &padded) ||
        __builtin_mul_overflow(kernel - 1, dilation, &span) ||
        __builtin_sub_overflow(padded, span, &left) ||
        __builtin_sub_overflow(left, int64_t{1}, &left)) {
      Fail("nn.conv2d: attributes 'padding' and 'dilation' with the weight overflow int64");
    }
    return left;
  };
  if (g.kernel_h < 1 || g.kernel_w < 1) {
    Fail("nn.conv2d: weight " + ShapeString(weight.shape()) + " has an empty kernel window");
  }
  const int64_t num_h = span_left(g.height, pad[0], pad[2], g.kernel_h, g.dilation_h);
  const int64_t num_w = span_left(g.width, pad[1], pad[3], g.kernel_w, g.dilation_w);
  if (num_h < 0 || num_w < 0) Fail("nn.conv2d: the kernel is larger than the padded input");
  g.out_height = num_h / g.stride_h + 1;
  g.out_width = num_w / g.stride_w + 1;
  return g;
}

// The NCHW data with its padding made non-negative. A negative pad crops (TVM's Conv2DRel accepts
// it: the output is (H + top + bottom - span) / stride + 1): the padded input spans input rows
// [-top, H + bottom), zero outside [0, H), so the data keeps its rows inside that range and the
// zero rows around them become the new padding. Every kernel path (direct, depthwise, im2col,
// packed panels) then sees only padding >= 0, which is what they index by.
NDArray CropNegativePadding(const NDArray& data, std::vector<int64_t>& pad) {
  if (data.ndim() != 4) Fail("nn.conv2d: data must be 4-D (NCHW)");
  if (std::all_of(pad.begin(), pad.end(), [](int64_t p) { return p >= 0; })) return data;
  int64_t keep[2][2];  // per spatial axis: the first row kept and the row after the last
  for (int axis = 0; axis < 2; ++axis) {
    const int64_t extent = data.shape()[2 + axis];
    int64_t& before = pad[axis];
    int64_t& after = pad[2 + axis];
    int64_t lo = 0, hi = 0;
    if (__builtin_sub_overflow(int64_t{0}, before, &lo) ||
        __builtin_add_overflow(extent, after, &hi)) {
      Fail("nn.conv2d: attribute 'padding' overflows int64");
    }
    if (hi < lo) Fail("nn.conv2d: attribute 'padding' crops more than the input");
    const int64_t first = std::clamp<int64_t>(lo, 0, extent);
    const int64_t last = std::clamp<int64_t>(hi, first, extent);
    keep[axis][0] = first;
    keep[axis][1] = last;
    before = first - lo > hi - lo ? hi - lo : std::max<int64_t>(0, first - lo);
    after = (hi - lo) - (last - first) - before;
  }
  const Shape& s = data.shape();
  const int64_t rows = keep[0][1] - keep[0][0], cols = keep[1][1] - keep[1][0];
  NDArray out = NDArray::Uninitialized({s[0], s[1], rows, cols}, data.dtype());
  const size_t elem = data.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(data.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  for (int64_t plane = 0; plane < s[0] * s[1]; ++plane) {
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t from = (plane * s[2] + keep[0][0] + r) * s[3] + keep[1][0];
      std::memcpy(dst + ((plane * rows + r) * cols) * elem, src + from * elem,
                  static_cast<size_t>(cols) * elem);
    }
  }
  return out;
}

// out[n, o] += sum over the group's input channels and kernel taps, by direct loops.
template <typename T>
void DirectConv(const ConvGeometry& g, const T* data, const T* weight, T* out, int64_t n) {
  const int64_t plane = g.height * g.width, out_plane = g.out_height * g.out_width;
  for (int64_t o = 0; o < g.out_channels; ++o) {
    const int64_t group = o / g.out_per_group;
    T* dst = out + (n * g.out_channels + o) * out_plane;
    for (int64_t ci = 0; ci < g.in_per_group; ++ci) {
      const T* src = data + (n * g.channels + group * g.in_per_group + ci) * plane;
      const T* w = weight + (o * g.in_per_group + ci) * g.kernel_h * g.kernel_w;
      for (int64_t kh = 0; kh < g.kernel_h; ++kh) {
        for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
          const T wv = w[kh * g.kernel_w + kw];
          const int64_t off_w = kw * g.dilation_w - g.pad_left;
          int64_t lo, hi;
          ValidRange(off_w, g.stride_w, g.width, g.out_width, &lo, &hi);
          for (int64_t oh = 0; oh < g.out_height; ++oh) {
            const int64_t ih = oh * g.stride_h - g.pad_top + kh * g.dilation_h;
            if (ih < 0 || ih >= g.height) continue;
            const T* srow = src + ih * g.width;
            T* drow = dst + oh * g.out_width;
            for (int64_t ow = lo; ow <= hi; ++ow) {
              // Integers wrap (two's complement), as TVM's int32 accumulation does.
              drow[ow] = WrapAdd<T>(drow[ow], WrapMul<T>(wv, srow[ow * g.stride_w + off_w]));
            }
          }
        }
      }
    }
  }
}

// The [in_per_group * KH * KW, OH * OW] patch matrix of one group of one image. Split over
// threads by (input channel, kernel row): a stem's three input channels alone would give two
// threads shares of 2 and 1.
template <typename T>
void Im2Col(const ConvGeometry& g, const T* src, T* col) {
  const int64_t out_plane = g.out_height * g.out_width;
  const int64_t rows_per_grain =
      std::max<int64_t>(1, kParallelGrain / std::max<int64_t>(out_plane * g.kernel_w, 1));
  auto rows = [&](int64_t first, int64_t last) {
    for (int64_t unit = first; unit < last; ++unit) {
      const int64_t ci = unit / g.kernel_h, kh = unit % g.kernel_h;
      for (int64_t kw = 0; kw < g.kernel_w; ++kw) {
        T* dst = col + ((ci * g.kernel_h + kh) * g.kernel_w + kw) * out_plane;
        const int64_t off_w = kw * g.dilation_w - g.pad_left;
        int64_t lo, hi;
        ValidRange(off_w, g.stride_w, g.width, g.out_width, &lo, &hi);
        for (int64_t oh = 0; oh < g.out_height; ++oh) {
          T* drow = dst + oh * g.out_width;
          const int64_t ih = oh * g.stride_h - g.pad_top + kh * g.dilation_h;
          if (ih < 0 || ih >= g.height || hi < lo) {
            std::fill(drow, drow + g.out_width, T(0));
            continue;
          }
          const T* srow = src + (ci * g.height + ih) * g.width;
          std::fill(drow, drow + lo, T(0));
          if (g.stride_w == 1) {
            std::copy(srow + lo + off_w, srow + hi + 1 + off_w, drow + lo);
          } else {
            for (int64_t ow = lo; ow <= hi; ++ow) drow[ow] = srow[ow * g.stride_w + off_w];
          }
          std::fill(drow + hi + 1, drow + g.out_width, T(0));
        }
      }
    }
  };
  support::ParallelFor(g.in_per_group * g.kernel_h, rows_per_grain, rows);
}

// C[m, n] = A[m, k] * B[k, n] (row-major, B and C with row pitch n), then `epilogue` (float only,
// may be null) on C, whose row i is output channel first_channel + i and starts at element
// `offset` + i * n of the output. A float product with a small k takes our own kernel
// (small_k_gemm.h), which writes C once with the epilogue. Otherwise OpenBLAS, block by block
// (gemm.h), in one parallel region: each block of C is zeroed, accumulated into with beta = 1
// (the bits of beta = 0, whose own zeroing loop in OpenBLAS is slower than memset) and passed
// through the epilogue while it is still in cache.
template <typename T>
void GemmWithEpilogue(int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c,
                      const Epilogue* epilogue, int64_t first_channel, int64_t offset) {
  if constexpr (!std::is_same_v<T, float>) {
    Gemm(false, m, n, k, a, k, b, n, c, n);
  } else if (k <= kSmallGemmMaxK) {
    SmallKGemm(m, n, k, a, b, c, epilogue, first_channel, offset);
  } else {
    ForEachGemmBlock(m, n, k, [&](const GemmBlock& blk) {
      const int64_t cols = blk.col_end - blk.col_begin;
      for (int64_t i = blk.row_begin; i < blk.row_end; ++i) {
        std::memset(c + i * n + blk.col_begin, 0, static_cast<size_t>(cols) * sizeof(float));
      }
      GemmOneBlock(false, blk, k, a, k, b, n, c, n, /*accumulate=*/true);
      if (!epilogue) return;
      for (int64_t i = blk.row_begin; i < blk.row_end; ++i) {
        epilogue->Apply(c + i * n + blk.col_begin, first_channel + i,
                        offset + i * n + blk.col_begin, cols);
      }
    });
  }
}

// A 1x1 convolution whose patch matrix is its input as it is.
bool IsPointwise(const ConvGeometry& g) {
  return g.kernel_h == 1 && g.kernel_w == 1 && g.stride_h == 1 && g.stride_w == 1 &&
         g.pad_top == 0 && g.pad_left == 0 && g.out_height == g.height && g.out_width == g.width;
}

// Whether `w` was packed for this geometry.
bool PrepackedFits(const PrepackedConvWeight& w, const ConvGeometry& g) {
  if (static_cast<int64_t>(w.groups.size()) != g.groups) return false;
  const int64_t k = g.in_per_group * g.kernel_h * g.kernel_w;
  return std::all_of(w.groups.begin(), w.groups.end(), [&](const PackedA& a) {
    return a.rows() == g.out_per_group && a.depth() == k;
  });
}

// A float convolution (not depthwise) by the packed GEMM: each group's weight packed (or taken
// prepacked), the patch matrix read straight from the input (conv_panels.h).
void ConvByPackedGemm(const ConvGeometry& g, const float* x, const float* w, float* y,
                      const Epilogue* epilogue, const PrepackedConvWeight* prepacked) {
  const int64_t plane = g.height * g.width, out_plane = g.out_height * g.out_width;
  const int64_t k = g.in_per_group * g.kernel_h * g.kernel_w;
  std::vector<PackedA> local;
  if (!prepacked || !PrepackedFits(*prepacked, g)) {
    prepacked = nullptr;
    local.reserve(static_cast<size_t>(g.groups));
    for (int64_t group = 0; group < g.groups; ++group) {
      local.emplace_back(g.out_per_group, k, w + group * g.out_per_group * k, k);
    }
  }
  const std::vector<PackedA>& packed = prepacked ? prepacked->groups : local;
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t group = 0; group < g.groups; ++group) {
      const float* src = x + (n * g.channels + group * g.in_per_group) * plane;
      const int64_t offset = (n * g.out_channels + group * g.out_per_group) * out_plane;
      const PackedA& a = packed[static_cast<size_t>(group)];
      if (IsPointwise(g)) {
        PackedSgemm(a, MatrixPanelSource(src, plane), out_plane, y + offset, out_plane, epilogue,
                    group * g.out_per_group, offset);
      } else {
        PackedSgemm(a, ConvPanelSource(g, src), out_plane, y + offset, out_plane, epilogue,
                    group * g.out_per_group, offset);
      }
    }
  }
}

// The convolution in NCHW / OIHW; `epilogue` (float only, else null) is applied to each output
// element.
template <typename T>
NDArray ConvNCHW(const NDArray& data, const NDArray& weight, const ConvGeometry& g, DataType dtype,
                 const Epilogue* epilogue, const PrepackedConvWeight* prepacked = nullptr) {
  // The integer loops accumulate into zeros; depthwise and GEMM write every element.
  const bool direct = !std::is_floating_point_v<T> || (g.in_per_group == 1 && g.groups > 1);
  const Shape shape = {g.batch, g.out_channels, g.out_height, g.out_width};
  NDArray out = std::is_floating_point_v<T> ? NDArray::Uninitialized(shape, dtype)
                                            : NDArray::Empty(shape, dtype);
  if (out.size() == 0) return out;
  const T* x = data.data<T>();
  const T* w = weight.data<T>();
  T* y = out.mutable_data<T>();
  if (direct) {
    for (int64_t n = 0; n < g.batch; ++n) {
      if constexpr (std::is_floating_point_v<T>) {
        DepthwiseConv(g, x, w, y, n, epilogue);  // direct && floating point: depthwise
      } else {
        DirectConv(g, x, w, y, n);
      }
    }
    return out;
  }
  if constexpr (std::is_floating_point_v<T>) {
    const int64_t plane = g.height * g.width, out_plane = g.out_height * g.out_width;
    const int64_t k = g.in_per_group * g.kernel_h * g.kernel_w;
    if constexpr (std::is_same_v<T, float>) {
      if (PackedSgemmAvailable()) {
        ConvByPackedGemm(g, x, w, y, epilogue, prepacked);
        return out;
      }
    }
    const bool pointwise = IsPointwise(g);
    // Im2Col writes every element: no zero fill.
    std::unique_ptr<T[]> col(pointwise ? nullptr : new T[static_cast<size_t>(k * out_plane)]);
    for (int64_t n = 0; n < g.batch; ++n) {
      for (int64_t group = 0; group < g.groups; ++group) {
        const T* src = x + (n * g.channels + group * g.in_per_group) * plane;
        const T* patches = src;
        if (!pointwise) {
          Im2Col(g, src, col.get());
          patches = col.get();
        }
        const int64_t offset = (n * g.out_channels + group * g.out_per_group) * out_plane;
        GemmWithEpilogue(g.out_per_group, out_plane, k, w + group * g.out_per_group * k, patches,
                         y + offset, epilogue, group * g.out_per_group, offset);
      }
    }
  }
  return out;
}

// Whether an int32 convolution of these operand dtypes is exact in float64: each product of two
// 8- or 16-bit integers is below 2^32 in magnitude, so a sum of fewer than 2^20 of them (the
// weight's I * KH * KW) stays below 2^52 and every partial sum is an exact double.
bool ExactInFloat64(DataType data, DataType weight, DataType out, const NDArray& w) {
  auto small = [](DataType t) {
    return (t.is_int() || t.is_uint()) && t.lanes() == 1 && t.bits() <= 16;
  };
  if (out != DataType::Int(32) || !small(data) || !small(weight) || w.ndim() != 4) return false;
  return w.shape()[1] * w.shape()[2] * w.shape()[3] < (int64_t{1} << 20);
}

// Exact integral doubles to int32, wrapping modulo 2^32 as int32 accumulation does.
NDArray WrapToInt32(const NDArray& exact) {
  NDArray out = NDArray::Uninitialized(exact.shape(), DataType::Int(32));
  const double* x = exact.data<double>();
  int32_t* y = out.mutable_data<int32_t>();
  for (int64_t i = 0; i < out.size(); ++i) {
    y[i] = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(x[i])));
  }
  return out;
}

}  // namespace

Arrays Conv2D(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  CheckInputs(in, 2, "nn.conv2d");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.conv2d");
  const Layout data_layout(a.get_string("data_layout"));
  const Layout kernel_layout(a.get_string("kernel_layout"));
  const std::string& out_layout_name = a.get_string("out_layout");
  const Layout out_layout(out_layout_name.empty() ? data_layout.name() : out_layout_name);
  const DataType out_dtype = DTypeAttr(a, "out_dtype", in[0].dtype());
  const DataType compute = IsHalf(out_dtype) ? DataType::Float32() : out_dtype;
  if (in[0].ndim() != static_cast<int>(data_layout.ndim()) ||
      in[1].ndim() != static_cast<int>(kernel_layout.ndim())) {
    Fail("nn.conv2d: data " + ShapeString(in[0].shape()) + " and weight " +
         ShapeString(in[1].shape()) + " do not match layouts " + data_layout.name() + " and " +
         kernel_layout.name());
  }
  NDArray data = TransformLayout(in[0], data_layout, Layout("NCHW"));
  NDArray weight;
  if (kernel_layout.Contains('G')) {
    // GOIHW [G, O/G, I, KH, KW] has the memory order of OIHW [O, I, KH, KW].
    NDArray goihw = TransformLayout(in[1], kernel_layout, Layout("GOIHW"));
    const Shape& s = goihw.shape();
    weight = Reshaped(goihw, {s[0] * s[1], s[2], s[3], s[4]});
  } else {
    weight = TransformLayout(in[1], kernel_layout, Layout("OIHW"));
  }
  std::vector<int64_t> pad = Padding4(a.get_ints("padding"), "nn.conv2d");
  if (Int8GemmKindFor(in[0].dtype(), in[1].dtype(), out_dtype)) {
    // uint8/int8 operands, int32 products: the int8 GEMM (int8/int8_products.h).
    data = CropNegativePadding(data, pad);
    const ConvGeometry g = Geometry(data, weight, a, pad);
    return {TransformLayout(Int8Conv2D(g, data, weight), Layout("NCHW"), out_layout)};
  }
  if (ExactInFloat64(in[0].dtype(), in[1].dtype(), out_dtype, weight)) {
    // Products of 8- and 16-bit integers summed in float64 are exact (see ExactInFloat64), so the
    // float64 GEMM gives the int32 result bit for bit, wrapped as int32 arithmetic wraps: the
    // int16 convolutions TVM's x86 legalization makes without fast int8 (target "llvm").
    data = CastArray(CropNegativePadding(data, pad), DataType::Float(64));
    weight = CastArray(weight, DataType::Float(64));
    const ConvGeometry g = Geometry(data, weight, a, pad);
    const NDArray exact = ConvNCHW<double>(data, weight, g, DataType::Float(64), nullptr);
    return {TransformLayout(WrapToInt32(exact), Layout("NCHW"), out_layout)};
  }
  weight = CastArray(weight, compute);
  data = CropNegativePadding(data, pad);
  data = CastArray(data, compute);
  const ConvGeometry g = Geometry(data, weight, a, pad);
  NDArray out = DispatchNumeric(compute, "nn.conv2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    return ConvNCHW<T>(data, weight, g, compute, nullptr);
  });
  return {CastArray(TransformLayout(out, Layout("NCHW"), out_layout), out_dtype)};
}

}  // namespace relaypass::op::kernels

namespace relaypass::op {

ir::NDArray Conv2DInt8WithSteps(const std::vector<ir::NDArray>& in, const ir::Attrs& conv_attrs,
                                const std::vector<Int8ConvStep>& steps, ir::DataType out_dtype) {
  if (in.size() != 2 || !conv_attrs.defined() || in[0].ndim() != 4 || in[1].ndim() != 4 ||
      in[0].dtype() != ir::DataType::UInt(8) || in[1].dtype() != ir::DataType::Int(8) ||
      !(out_dtype == ir::DataType::Int(32) || out_dtype == ir::DataType::UInt(8) ||
        out_dtype == ir::DataType::Int(8))) {
    return {};
  }
  const ir::AttrsNode& a = *conv_attrs;
  const std::string& out_layout = a.get_string("out_layout");
  if (a.get_string("data_layout") != "NCHW" || a.get_string("kernel_layout") != "OIHW" ||
      !(out_layout.empty() || out_layout == "NCHW") ||
      kernels::DTypeAttr(a, "out_dtype", in[0].dtype()) != ir::DataType::Int(32)) {
    return {};
  }
  std::vector<int64_t> pad = kernels::Padding4(a.get_ints("padding"), "nn.conv2d");
  for (int64_t p : pad) {
    if (p < 0) return {};
  }
  const kernels::ConvGeometry g = kernels::Geometry(in[0], in[1], a, pad);
  // The operands as int64 values, one or one per output channel.
  std::vector<std::vector<int64_t>> values;
  std::vector<RelaypassInt8EpilogueStep> kernel_steps;
  values.reserve(steps.size() * 4);
  for (const Int8ConvStep& step : steps) {
    RelaypassInt8EpilogueStep k{};
    k.kind = static_cast<int32_t>(step.kind);
    const bool fixed_point = step.kind == Int8ConvStep::Kind::kFixedPoint;
    const ir::DataType operand_dtype = fixed_point ? ir::DataType::Int(64) : ir::DataType::Int(32);
    if (step.operands.size() > 4) return {};
    for (size_t i = 0; i < step.operands.size(); ++i) {
      const ir::NDArray& x = step.operands[i];
      if (x.dtype() != operand_dtype || (x.size() != 1 && x.size() != g.out_channels)) return {};
      std::vector<int64_t>& v = values.emplace_back(static_cast<size_t>(x.size()));
      for (int64_t j = 0; j < x.size(); ++j) {
        v[static_cast<size_t>(j)] =
            fixed_point ? x.data<int64_t>()[j] : static_cast<int64_t>(x.data<int32_t>()[j]);
      }
      k.operand[i] = v.data();
      k.stride[i] = x.size() == 1 ? 0 : 1;
    }
    const size_t needed = step.kind == Int8ConvStep::Kind::kClip ? 0 : fixed_point ? 3 : 1;
    if (step.operands.size() < needed) return {};
    if (step.kind == Int8ConvStep::Kind::kClip) {
      k.lo = kernels::Saturate<int32_t>(step.lo);
      k.hi = kernels::Saturate<int32_t>(step.hi);
    }
    kernel_steps.push_back(k);
  }
  RelaypassInt8Epilogue epilogue{kernel_steps.data(), static_cast<int32_t>(kernel_steps.size()),
                                 static_cast<int32_t>(out_dtype.bytes())};
  return kernels::Int8Conv2DWithEpilogue(g, in[0], in[1], epilogue, out_dtype);
}

bool Conv2DEpilogueSupported(const ir::AttrsNode& a) {
  const std::string& out_layout = a.get_string("out_layout");
  return a.get_string("data_layout") == "NCHW" && a.get_string("kernel_layout") == "OIHW" &&
         (out_layout.empty() || out_layout == "NCHW") &&
         kernels::DTypeAttr(a, "out_dtype", ir::DataType::Float32()) == ir::DataType::Float32();
}

ir::NDArray Conv2DWithEpilogue(const std::vector<ir::NDArray>& in, const ir::Attrs& attrs,
                               const std::vector<EpilogueStep>& steps,
                               const PrepackedConvWeight* prepacked) {
  using namespace kernels;  // NOLINT
  CheckInputs(in, 2, "nn.conv2d");
  const ir::AttrsNode& a = AttrsOf(attrs, "nn.conv2d");
  if (!Conv2DEpilogueSupported(a) || in[0].dtype() != DataType::Float32() ||
      in[1].dtype() != DataType::Float32() || in[0].ndim() != 4 || in[1].ndim() != 4) {
    Fail("nn.conv2d with an epilogue: needs float32 NCHW data and OIHW weight");
  }
  std::vector<int64_t> pad = Padding4(a.get_ints("padding"), "nn.conv2d");
  const NDArray data = CropNegativePadding(in[0], pad);
  const ConvGeometry g = Geometry(data, in[1], a, pad);
  const Epilogue epilogue(steps, g.out_channels,
                          g.batch * g.out_channels * g.out_height * g.out_width);
  return ConvNCHW<float>(data, in[1], g, DataType::Float32(),
                         epilogue.empty() ? nullptr : &epilogue, prepacked);
}

std::shared_ptr<const PrepackedConvWeight> PrepackConv2DWeight(const ir::Shape& data_shape,
                                                               const ir::NDArray& weight,
                                                               const ir::AttrsNode& a) {
  using namespace kernels;  // NOLINT
  if (!PackedSgemmAvailable() || !Conv2DEpilogueSupported(a) || data_shape.size() != 4 ||
      weight.dtype() != DataType::Float32() || weight.ndim() != 4) {
    return nullptr;
  }
  const Shape& ws = weight.shape();
  const int64_t groups = a.get_int("groups"), channels = data_shape[1];
  const int64_t k = ws[1] * ws[2] * ws[3];
  // Depthwise convolutions have a kernel of their own.
  const bool depthwise = groups > 1 && groups == channels && groups == ws[0];
  if (groups < 1 || depthwise || ws[0] % groups != 0 || channels != ws[1] * groups) {
    return nullptr;
  }
  auto packed = std::make_shared<PrepackedConvWeight>();
  const int64_t rows = ws[0] / groups;
  for (int64_t group = 0; group < groups; ++group) {
    packed->groups.emplace_back(rows, k, weight.data<float>() + group * rows * k, k);
  }
  return packed;
}

}  // namespace relaypass::op
