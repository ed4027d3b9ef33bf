#include "maxpool_indices.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace relaypass::frontend::onnx_import {

namespace {

// TVM's pooled size (Pool2DRel), which the values output has.
int64_t PooledSize(int64_t in, int64_t pads, int64_t pool, int64_t dilation, int64_t stride,
                   bool ceil_mode) {
  int64_t numerator = in + pads - ((pool - 1) * dilation + 1);
  if (ceil_mode) numerator += stride - 1;
  return numerator / stride + 1;
}

ir::Expr Int64Constant(const Ints& shape, const std::vector<int64_t>& values) {
  ir::NDArray array = ir::NDArray::Empty(shape, ir::DataType::Int64());
  std::copy(values.begin(), values.end(), array.mutable_data<int64_t>());
  return relay::const_(std::move(array));
}

}  // namespace

ir::Expr MaxPoolIndices(const NodeContext& ctx, const ir::Expr& data, const Ints& shape,
                        const relay::nn::Pool2DArgs& args, bool column_major) {
  const int64_t n = shape[0], c = shape[1], h = shape[2], w = shape[3];
  const int64_t kh = args.pool_size[0], kw = args.pool_size[1];
  const int64_t sh = args.strides[0], sw = args.strides[1];
  const int64_t dh = args.dilation[0], dw = args.dilation[1];
  const int64_t top = args.padding[0], left = args.padding[1];
  const int64_t oh = PooledSize(h, top + args.padding[2], kh, dh, sh, args.ceil_mode);
  const int64_t ow = PooledSize(w, left + args.padding[3], kw, dw, sw, args.ceil_mode);
  if (oh <= 0 || ow <= 0) ctx.Fail("the pooled output is empty");
  // One slice per tap: a window of more taps would make a graph too large to be useful.
  constexpr int64_t kMaxTaps = 1024;
  if (kh > kMaxTaps || kw > kMaxTaps || kh * kw > kMaxTaps) {
    ctx.Unsupported("MaxPool's Indices output over windows of more than " +
                    std::to_string(kMaxTaps) + " elements");
  }
  // Padded with the lowest value (so padding never wins) far enough for ceil_mode's last window.
  const int64_t rows = (oh - 1) * sh + (kh - 1) * dh + 1, cols = (ow - 1) * sw + (kw - 1) * dw + 1;
  const ir::DataType dtype = ctx.dtype(0);
  const double lowest = dtype.is_float()  ? -std::numeric_limits<double>::infinity()
                        : dtype.is_uint() ? 0.0
                                          : -std::ldexp(1.0, dtype.bits() - 1);
  const ir::Expr padded = relay::nn::pad(data,
                                         {{0, 0},
                                          {0, 0},
                                          {top, std::max<int64_t>(0, rows - top - h)},
                                          {left, std::max<int64_t>(0, cols - left - w)}},
                                         ScalarConst(lowest, dtype));
  // Tap (i, j) of every window as one strided slice; argmax over the taps takes the first
  // maximum in row-major window order.
  std::vector<ir::Expr> taps;
  for (int64_t i = 0; i < kh; ++i) {
    for (int64_t j = 0; j < kw; ++j) {
      ir::Expr tap = relay::strided_slice(
          padded, {0, 0, i * dh, j * dw},
          {n, c, i * dh + (oh - 1) * sh + 1, j * dw + (ow - 1) * sw + 1}, Ints{1, 1, sh, sw});
      taps.push_back(relay::expand_dims(tap, 4));
    }
  }
  const ir::Expr tap =
      relay::cast(relay::argmax(relay::concatenate(std::move(taps), 4), Ints{4}), "int64");
  // The tap's input coordinates: row oh * sh - top + (tap / kw) * dh, column likewise.
  std::vector<int64_t> row_start, col_start, base;
  for (int64_t r = 0; r < oh; ++r) row_start.push_back(r * sh - top);
  for (int64_t q = 0; q < ow; ++q) col_start.push_back(q * sw - left);
  for (int64_t k = 0; k < n * c; ++k) base.push_back(k * h * w);
  const ir::Expr row = relay::add(
      Int64Constant({oh, 1}, row_start),
      relay::multiply(relay::divide(tap, Int64Constant({}, {kw})), Int64Constant({}, {dh})));
  const ir::Expr col = relay::add(
      Int64Constant({ow}, col_start),
      relay::multiply(relay::floor_mod(tap, Int64Constant({}, {kw})), Int64Constant({}, {dw})));
  const ir::Expr spatial = column_major
                               ? relay::add(relay::multiply(col, Int64Constant({}, {h})), row)
                               : relay::add(relay::multiply(row, Int64Constant({}, {w})), col);
  return relay::add(Int64Constant({n, c, 1, 1}, base), spatial);
}

}  // namespace relaypass::frontend::onnx_import
