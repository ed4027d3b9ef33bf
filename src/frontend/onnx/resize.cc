// Resize, Upsample and GridSample as TVM's converters: image.resize2d (4-D data; the output size
// from `sizes`, or the input shape times `scales` truncated as TVM's Python wrapper does) and
// nn.upsampling; image.grid_sample.
#include <cmath>
#include <optional>

#include "context.h"
#include "dynamic.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

std::vector<double> Doubles(const NodeContext& ctx, size_t i, const std::string& what) {
  const ir::NDArray& v = ctx.RequireValue(i, what);
  std::vector<double> out;
  for (int64_t k = 0; k < v.size(); ++k) {
    out.push_back(v.dtype() == ir::DataType::Float(64) ? v.data<double>()[k]
                                                       : static_cast<double>(v.data<float>()[k]));
  }
  if (v.dtype() != ir::DataType::Float32() && v.dtype() != ir::DataType::Float(64)) {
    ctx.Fail(what + " must be float32 or float64");
  }
  return out;
}

std::string Method(const NodeContext& ctx) {
  const std::string mode = ctx.attr_string("mode", "nearest");
  if (mode == "nearest") return "nearest_neighbor";
  if (mode == "linear" || mode == "cubic") return mode;
  ctx.Fail("invalid mode " + mode);
}

// The input coordinate ONNX samples output index x at, as a + b * x, for a resize by `scale`
// from `in` to `out` (= in * scale truncated). Only the modes whose map is affine in x.
std::optional<std::pair<double, double>> OnnxCoordinateMap(const std::string& coord, double in,
                                                           double scale, int64_t out) {
  if (coord == "half_pixel" || (coord == "pytorch_half_pixel" && out > 1)) {
    return std::pair{0.5 / scale - 0.5, 1.0 / scale};
  }
  if (coord == "pytorch_half_pixel") return std::pair{0.0, 0.0};
  if (coord == "asymmetric") return std::pair{0.0, 1.0 / scale};
  // ONNX divides by the untruncated output length, in * scale.
  if (coord == "align_corners" && in * scale > 1)
    return std::pair{0.0, (in - 1) / (in * scale - 1)};
  return std::nullopt;
}

// TVM's from_onnx turns `scales` into an output size, and image.resize2d then samples at
// in / out, which moves every sample when in * scale is not a whole number; ONNX (its reference
// and ONNX Runtime) samples at the given scale (the test_resize_downsample_scales_* tests). When
// such a resize shrinks, the map ONNX asks for is affine and stays inside the input, so it is
// written exactly as a tf_crop_and_resize region of interest (no sample reaches the
// extrapolation). Every other resize keeps TVM's graph: a whole-number in * scale samples the
// same either way. Returns the roi as resize2d takes it (start h, start w, end h, end w).
std::optional<std::vector<double>> RoiForExactScale(const ir::Shape& s,
                                                    const std::vector<double>& scales,
                                                    const relay::Ints& size,
                                                    const std::string& method,
                                                    const std::string& coord) {
  if (method == "nearest_neighbor") return std::nullopt;  // rounding: kept as TVM samples
  bool fractional = false;
  double start[2], end[2];
  for (int axis = 0; axis < 2; ++axis) {
    const double in = static_cast<double>(s[2 + axis]);
    const double scale = scales[2 + axis];
    const int64_t out = size[axis];
    if (!(scale > 0 && scale <= 1) || in < 2 || out < 1) return std::nullopt;
    fractional |= static_cast<double>(static_cast<float>(in) * static_cast<float>(scale)) !=
                  static_cast<double>(out);
    const auto map = OnnxCoordinateMap(coord, in, scale, out);
    if (!map) return std::nullopt;
    const auto [a, b] = *map;
    const double last = a + b * static_cast<double>(out - 1);
    if (a < 0 || last > in - 1) return std::nullopt;  // would reach the extrapolation
    start[axis] = a / (in - 1);
    end[axis] = out > 1 ? start[axis] + b * static_cast<double>(out - 1) / (in - 1) : start[axis];
  }
  if (!fractional) return std::nullopt;
  return std::vector<double>{start[0], start[1], end[0], end[1]};
}

// Resize-10: scales only, asymmetric coordinates.
Outputs ResizeV10(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  if (ctx.ndim(0) != 4) ctx.Unsupported(std::to_string(ctx.ndim(0)) + "-D Resize (only 4-D)");
  const std::vector<double> scales = Doubles(ctx, 1, "scales");
  if (scales.size() != 4) ctx.Fail("scales needs a value per axis");
  const ir::Shape& s = ctx.StaticShape(0, "Resize-10's output size needs at import");
  relay::image::Resize2DArgs args;
  args.method = Method(ctx);
  args.coordinate_transformation_mode = "asymmetric";
  const relay::Ints size{
      static_cast<int64_t>(static_cast<float>(s[2]) * static_cast<float>(scales[2])),
      static_cast<int64_t>(static_cast<float>(s[3]) * static_cast<float>(scales[3]))};
  return {relay::image::resize2d(ctx.input(0), size, args)};
}

// The attributes of Resize-11+ as image.resize2d's.
relay::image::Resize2DArgs ResizeArgs(const NodeContext& ctx) {
  relay::image::Resize2DArgs args;
  args.method = Method(ctx);
  args.coordinate_transformation_mode =
      ctx.attr_string("coordinate_transformation_mode", "half_pixel");
  args.rounding_method = ctx.attr_string("nearest_mode", "round_prefer_floor");
  args.cubic_alpha = ctx.attr_float("cubic_coeff_a", -0.75);
  args.cubic_exclude = ctx.attr_int32("exclude_outside", 0);
  args.extrapolation_value = ctx.attr_float("extrapolation_value", 0.0);
  return args;
}

// RoiForExactScale at run time, for run-time scales: the condition under which ONNX's map
// (a + b * x) stays inside the input on both axes, and the tf_crop_and_resize roi writing it.
// Null when the mode has no affine map or the input extents are `?`.
std::optional<std::pair<ir::Expr, ir::Expr>> RunTimeExactRoi(const NodeContext& ctx,
                                                             const std::string& coord) {
  const ir::Shape& s = ctx.shape(0);
  if (s[2] < 2 || s[3] < 2) return std::nullopt;  // `?` too
  if (coord != "half_pixel" && coord != "pytorch_half_pixel" && coord != "asymmetric" &&
      coord != "align_corners") {
    return std::nullopt;
  }
  const ir::DataType f64 = ir::DataType::Float(64);
  auto c = [&](double v) { return ScalarConst(v, f64); };
  auto call = [](const char* op, ir::Expr a, ir::Expr b) { return relay::call(op, {a, b}); };
  ir::Expr ok, starts[2], ends[2];
  for (int axis = 0; axis < 2; ++axis) {
    const double in = static_cast<double>(s[2 + axis]);
    ir::Expr scale_f32 = relay::take(relay::cast(ctx.input(2), "float32"),
                                     ScalarConst(2 + axis, ir::DataType::Int64()), 0);
    ir::Expr scale = relay::cast(scale_f32, "float64");
    // out = in * scale truncated, in float32 as the size (and the static converter).
    ir::Expr out = relay::cast(
        relay::cast(relay::multiply(ScalarConst(in, ir::DataType::Float32()), scale_f32), "int64"),
        "float64");
    ir::Expr inv = relay::divide(c(1), scale);
    ir::Expr a = c(0), b = inv;
    ir::Expr valid =
        relay::logical_and(call("greater", scale, c(0)), call("less_equal", scale, c(1)));
    valid = relay::logical_and(valid, call("greater_equal", out, c(1)));
    if (coord == "half_pixel") {
      a = relay::subtract(relay::multiply(c(0.5), inv), c(0.5));
    } else if (coord == "pytorch_half_pixel") {
      ir::Expr many = call("greater", out, c(1));
      a = relay::where(many, relay::subtract(relay::multiply(c(0.5), inv), c(0.5)), c(0));
      b = relay::where(many, inv, c(0));
    } else if (coord == "align_corners") {
      ir::Expr scaled = relay::multiply(c(in), scale);
      valid = relay::logical_and(valid, call("greater", scaled, c(1)));
      b = relay::divide(c(in - 1), relay::subtract(scaled, c(1)));
    }
    ir::Expr last = relay::add(a, relay::multiply(b, relay::subtract(out, c(1))));
    valid = relay::logical_and(valid, call("greater_equal", a, c(0)));
    valid = relay::logical_and(valid, call("less_equal", last, c(in - 1)));
    ok = axis == 0 ? valid : relay::logical_and(ok, valid);
    starts[axis] = relay::divide(a, c(in - 1));
    ir::Expr span = relay::divide(relay::multiply(b, relay::subtract(out, c(1))), c(in - 1));
    ends[axis] =
        relay::where(call("greater", out, c(1)), relay::add(starts[axis], span), starts[axis]);
  }
  std::vector<ir::Expr> parts;
  for (const ir::Expr& e : {starts[0], starts[1], ends[0], ends[1]}) {
    parts.push_back(relay::reshape(e, Ints{1}));
  }
  return std::pair{ok, relay::concatenate(parts, 0)};
}

// Resize-11+ whose sizes or scales are known only at run time: TVM's dyn.image.resize2d, the roi
// the H and W entries of the roi input (zeros without one). With run-time scales and no roi, a
// linear or cubic resize samples where ONNX does through the roi of RunTimeExactRoi when that
// map stays inside the input (a Relay If; the two agree when in * scale is whole), as the
// static converter does at import.
Outputs ResizeAtRunTime(const NodeContext& ctx) {
  ir::Expr roi = relay::full(ScalarConst(0, ir::DataType::Float32()), Ints{4});
  const bool has_roi = ctx.has_input(1) && !ctx.shape(1).empty() && ctx.shape(1)[0] != 0;
  if (has_roi) {
    roi = relay::cast(relay::take(ctx.input(1), Int64Vector(Ints{2, 3, 6, 7}), 0), "float32");
  }
  const relay::image::Resize2DArgs args = ResizeArgs(ctx);
  Outputs plain = DynResize(ctx, roi, args);
  const bool by_scales = ctx.has_input(2) && !ctx.shape(2).empty() && ctx.shape(2)[0] > 0;
  if (!by_scales || has_roi || args.method == "nearest_neighbor") return plain;
  const auto exact = RunTimeExactRoi(ctx, args.coordinate_transformation_mode);
  if (!exact) return plain;
  relay::image::Resize2DArgs crop = args;
  crop.coordinate_transformation_mode = "tf_crop_and_resize";
  Outputs sampled = DynResize(ctx, exact->second, crop);
  return {ir::MakeIf(exact->first, sampled[0], plain[0])};
}

// Resize-11 / 13: roi, scales or sizes; the coordinate mode, nearest mode, cubic coefficient,
// exclude_outside and extrapolation value as attributes.
Outputs ResizeV11(const NodeContext& ctx) {
  ctx.CheckInputs(1, 4);
  if (ctx.ndim(0) != 4) ctx.Unsupported(std::to_string(ctx.ndim(0)) + "-D Resize (only 4-D)");
  const ir::Shape& s = ctx.shape(0);
  relay::Ints size;
  std::vector<double> scales;  // when the size comes from them
  const bool has_scales = ctx.has_input(2) && !ctx.shape(2).empty() && ctx.shape(2)[0] > 0;
  if (ctx.has_input(has_scales ? 2 : 3) &&
      (ctx.AtRunTime(has_scales ? 2 : 3, has_scales ? "scales" : "sizes") ||
       (has_scales && (s[2] < 0 || s[3] < 0)))) {
    return ResizeAtRunTime(ctx);
  }
  if (ctx.has_input(3) && !has_scales) {
    const Ints sizes = ctx.IntsValue(3, "sizes");
    if (sizes.size() != 4) ctx.Fail("sizes needs a value per axis");
    size = {sizes[2], sizes[3]};
  } else {
    if (!has_scales) ctx.Fail("one of scales and sizes must be given");
    scales = Doubles(ctx, 2, "scales");
    if (scales.size() != 4) ctx.Fail("scales needs a value per axis");
    size = {static_cast<int64_t>(static_cast<float>(s[2]) * static_cast<float>(scales[2])),
            static_cast<int64_t>(static_cast<float>(s[3]) * static_cast<float>(scales[3]))};
  }
  relay::image::Resize2DArgs args;
  if (ctx.has_input(1) && !ctx.shape(1).empty() && ctx.shape(1)[0] > 0) {
    const std::vector<double> roi = Doubles(ctx, 1, "roi");
    if (roi.size() != 8) ctx.Fail("roi needs 2 values per axis");
    args.roi = std::vector<double>{roi[2], roi[3], roi[6], roi[7]};
  }
  args.method = Method(ctx);
  args.coordinate_transformation_mode =
      ctx.attr_string("coordinate_transformation_mode", "half_pixel");
  args.rounding_method = ctx.attr_string("nearest_mode", "round_prefer_floor");
  args.cubic_alpha = ctx.attr_float("cubic_coeff_a", -0.75);
  args.cubic_exclude = ctx.attr_int32("exclude_outside", 0);
  args.extrapolation_value = ctx.attr_float("extrapolation_value", 0.0);
  if (!scales.empty() && !args.roi) {
    if (auto roi =
            RoiForExactScale(s, scales, size, args.method, args.coordinate_transformation_mode)) {
      args.roi = std::move(*roi);
      args.coordinate_transformation_mode = "tf_crop_and_resize";
    }
  }
  return {relay::image::resize2d(ctx.input(0), size, args)};
}

// TVM's Upsample: nn.upsampling with the H and W scales (attribute before opset 9, input
// after), nearest_neighbor or bilinear, align_corners off.
Outputs Upsample(const NodeContext& ctx) {
  ctx.CheckInputs(1, 2);
  if (ctx.ndim(0) != 4) ctx.Unsupported(std::to_string(ctx.ndim(0)) + "-D Upsample (only 4-D)");
  std::vector<double> scales;
  if (ctx.has_attr("scales")) {
    for (float f : ctx.attr_floats("scales")) scales.push_back(f);
  } else if (ctx.AtRunTime(1, "scales")) {
    const std::string mode = ctx.attr_string("mode", "nearest");
    if (mode != "nearest" && mode != "linear") ctx.Fail("invalid mode " + mode);
    return DynUpsample(ctx, mode == "nearest" ? "nearest_neighbor" : "bilinear");
  } else {
    scales = Doubles(ctx, 1, "scales");
  }
  if (scales.size() != 4 || scales[0] != 1.0 || scales[1] != 1.0) {
    ctx.Unsupported("scales other than 1 on the batch and channel axes");
  }
  const std::string mode = ctx.attr_string("mode", "nearest");
  if (mode != "nearest" && mode != "linear") ctx.Fail("invalid mode " + mode);
  return {relay::nn::upsampling(ctx.input(0), scales[2], scales[3], "NCHW",
                                mode == "nearest" ? "nearest_neighbor" : "bilinear", false)};
}

// TVM's GridSample: the grid [N, H, W, 2] moved to [N, 2, H, W], image.grid_sample.
Outputs GridSample(const NodeContext& ctx) {
  ctx.CheckInputs(2, 2);
  if (ctx.ndim(0) != 4) ctx.Unsupported("GridSample of a non-4-D input");
  ir::Expr grid = relay::transpose(ctx.input(1), relay::Ints{0, 3, 1, 2});
  return {relay::image::grid_sample(ctx.input(0), grid, ctx.attr_string("mode", "bilinear"), "NCHW",
                                    ctx.attr_string("padding_mode", "zeros"),
                                    ctx.attr_int("align_corners", 0) != 0)};
}

}  // namespace

void RegisterResize(ConverterTable& t) {
  t.Add("GridSample", 16, GridSample);
  t.Add("Resize", 10, ResizeV10);
  t.Add("Resize", 11, ResizeV11);
  t.Add("Upsample", 7, Upsample);
}

}  // namespace relaypass::frontend::onnx_import
