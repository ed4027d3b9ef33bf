// The converters' forms for an input not known at import (a graph input, or computed from one):
// TVM v0.13 from_onnx's dynamic ops (dyn.reshape, dyn.broadcast_to, dyn.tile, dyn.strided_slice,
// dyn.nn.pad, dyn.full, dyn.topk, dyn.squeeze, dyn.expand_dims, dyn.one_hot, dyn.image.resize2d,
// arange with tensor bounds), whose extents are `?` until run time. The static converters call
// these only when the value is unknown: a constant input still folds at import.
#pragma once

#include <functional>
#include <string>

#include "context.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

// Reshape-5+: dyn.reshape(data, shape).
Outputs DynReshape(const NodeContext& ctx, bool allowzero);
// Squeeze-13: dyn.squeeze with the axes made non-negative at run time.
Outputs DynSqueeze(const NodeContext& ctx);
// Unsqueeze-13: the axes made non-negative and sorted at run time, one dyn.expand_dims each.
Outputs DynUnsqueeze(const NodeContext& ctx);
// Expand: dyn.broadcast_to the maximum of the input's shape and `shape` (both left-padded with
// ones), as TVM's expand_shape.
Outputs DynExpand(const NodeContext& ctx);
// Tile: dyn.tile(data, repeats).
Outputs DynTile(const NodeContext& ctx);
// Slice-10+: begin, end and strides over every axis, scattered from starts, ends and steps at
// the (run-time normalised) axes, then dyn.strided_slice.
Outputs DynSlice(const NodeContext& ctx);
// Pad-11+ with pads not known: dyn.nn.pad with pads reshaped to (rank, 2).
Outputs DynPad(const NodeContext& ctx, const ir::Expr& pad_value, const std::string& mode);
// ConstantOfShape: dyn.full(value, shape).
Outputs DynConstantOfShape(const NodeContext& ctx, const ir::NDArray& fill);
// TopK-10+: dyn.topk(data, k).
Outputs DynTopK(const NodeContext& ctx);
// CumSum with a run-time axis: one cumsum per possible axis, chosen by a Relay If chain.
Outputs DynCumSum(const NodeContext& ctx);
// OneHot with a run-time depth: dyn.one_hot.
Outputs DynOneHot(const NodeContext& ctx);
// Range with a bound not known: arange(start, limit, delta) (its extent `?`).
Outputs DynRange(const NodeContext& ctx);
// Reduce ops with run-time axes (a static count n): one reduction per n-subset of the axes, chosen
// by a Relay If chain; each branch's extents relaxed to `?` (dyn.reshape to its own shape) so the
// branches' types agree.
Outputs DynReduce(const NodeContext& ctx, bool keepdims,
                  const std::function<ir::Expr(const ir::Expr&, const Ints&, bool)>& reduce);
// Resize-11+ with sizes or scales not known: dyn.image.resize2d; the size is sizes[2:4], or the
// input extents times scales[2:4] truncated (as the static converter).
// `args.roi` is ignored: `roi` is the (4-value) region tensor.
Outputs DynResize(const NodeContext& ctx, const ir::Expr& roi,
                  const relay::image::Resize2DArgs& args);

// Hann / Hamming / Blackman windows of a run-time size: a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n /
// N) over arange(size), N = size (periodic) or size - 1, computed in float32 and cast to `dtype`.
Outputs DynWindow(const NodeContext& ctx, double a0, double a1, double a2, bool periodic,
                  const std::string& dtype);
// Compress with a run-time condition (TVM's): take at reshape(argwhere(condition), [-1]).
Outputs DynCompress(const NodeContext& ctx);
// NonZero of a value known only at run time (TVM's): transpose(argwhere(x)) as int64.
Outputs DynNonZero(const NodeContext& ctx);
// Split with run-time split sizes: one dyn.strided_slice per output, between the sizes'
// exclusive and inclusive cumulative sums on `axis`.
Outputs DynSplit(const NodeContext& ctx, int64_t axis);
// Upsample-9 with run-time scales: dyn.nn.upsampling with scales[2] and scales[3].
Outputs DynUpsample(const NodeContext& ctx, const std::string& method);

// Helpers shared with the static converters.
// An int64 vector constant.
ir::Expr Int64Vector(const Ints& values);
// `x`'s shape as int64: a constant when static, shape_of at run time when an extent is `?`.
ir::Expr ShapeTensor(const NodeContext& ctx, size_t i);
// Input i cast to int64 (unchanged when it already is).
ir::Expr AsInt64(const NodeContext& ctx, size_t i);

}  // namespace relaypass::frontend::onnx_import
