// Detection operators as TVM v0.13's from_onnx converts them: NonMaxSuppression
// (vision.all_class_non_max_suppression, its selected rows cut to the count it returns with a
// dynamic strided_slice, so the result's first dimension is `?`) and RoiAlign (vision.roi_align on
// the rois with their batch indices as a first column).
#include "context.h"
#include "data_dependent.h"
#include "relaypass/relay.h"

namespace relaypass::frontend::onnx_import {

namespace {

namespace relay = relaypass::relay;

// A threshold or limit given as a scalar or a 1-element vector, as a scalar (TVM's
// conditionally_squeeze_scalar).
ir::Expr ScalarInput(const NodeContext& ctx, size_t i, const char* what) {
  if (ctx.ndim(i) > 1)
    ctx.Fail(std::string(what) + " must be a scalar (nms thresholds must be scalars)");
  if (ctx.ndim(i) == 1) {
    if (ctx.shape(i)[0] != 1) ctx.Fail(std::string(what) + " must have one element");
    return relay::squeeze(ctx.input(i), relay::Ints{0});
  }
  return ctx.input(i);
}

Outputs NonMaxSuppression(const NodeContext& ctx) {
  ctx.CheckInputs(2, 5);
  if (ctx.ndim(0) != 3 || ctx.shape(0)[2] != 4) ctx.Fail("boxes must be [batch, boxes, 4]");
  if (ctx.ndim(1) != 3) ctx.Fail("scores must be [batch, classes, boxes]");
  if (ctx.shape(1)[0] != ctx.shape(0)[0] || ctx.shape(1)[2] != ctx.shape(0)[1]) {
    ctx.Fail("scores' batch and box counts differ from boxes'");
  }
  if (!ctx.dtype(0).is_float() || !ctx.dtype(1).is_float()) {
    ctx.Fail("boxes and scores must be float tensors");
  }
  const int64_t center = ctx.attr_int("center_point_box", 0);
  if (center != 0 && center != 1) ctx.Fail("center_point_box must be 0 or 1");
  ir::Expr boxes = ctx.input(0);
  if (center == 0) {
    // ONNX lets the corners of a box come in either order (y1 > y2, x1 > x2); TVM's overlap
    // takes them as [top, left, bottom, right] and gets a flipped box's area wrong, so the
    // corners are ordered first (TVM v0.13 passes the boxes as they are).
    ir::Expr parts = relay::split(boxes, 2, 2);
    ir::Expr a = relay::get_item(parts, 0), b = relay::get_item(parts, 1);
    boxes = relay::concatenate({relay::minimum(a, b), relay::maximum(a, b)}, 2);
  } else {
    // [x_center, y_center, width, height] to corners [y1, x1, y2, x2] (TVM's order).
    const std::string dt = ctx.dtype(0).ToString();
    ir::Expr parts = relay::split(boxes, 4, 2);
    ir::Expr xc = relay::get_item(parts, 0), yc = relay::get_item(parts, 1);
    ir::Expr half_w = relay::divide(relay::get_item(parts, 2), relay::const_(2.0, dt));
    ir::Expr half_h = relay::divide(relay::get_item(parts, 3), relay::const_(2.0, dt));
    boxes = relay::concatenate({relay::subtract(yc, half_h), relay::subtract(xc, half_w),
                                relay::add(yc, half_h), relay::add(xc, half_w)},
                               2);
  }
  // ONNX's defaults: no box kept without a limit, thresholds 0 (TVM's for the thresholds).
  ir::Expr max_boxes = ctx.has_input(2) ? ScalarInput(ctx, 2, "max_output_boxes_per_class")
                                        : relay::const_(0, "int64");
  ir::Expr iou =
      ctx.has_input(3) ? ScalarInput(ctx, 3, "iou_threshold") : relay::const_(0.0, "float32");
  ir::Expr score =
      ctx.has_input(4) ? ScalarInput(ctx, 4, "score_threshold") : relay::const_(0.0, "float32");
  ir::Expr nms = relay::call("vision.all_class_non_max_suppression",
                             {boxes, ctx.input(1), max_boxes, iou, score},
                             {{"output_format", ir::AttrValue::Str("onnx")}});
  ir::NDArray zero = ir::NDArray::Empty({1}, ir::DataType::Int(64));
  *zero.mutable_data<int64_t>() = 0;
  return {
      DynamicStridedSlice(relay::get_item(nms, 0), relay::const_(zero), relay::get_item(nms, 1))};
}

Outputs RoiAlign(const NodeContext& ctx) {
  ctx.CheckInputs(3, 3);
  if (ctx.ndim(0) != 4) ctx.Fail("X must be 4-D [N, C, H, W]");
  if (ctx.ndim(1) != 2 || ctx.shape(1)[1] != 4) ctx.Fail("rois must be [num_rois, 4]");
  if (ctx.ndim(2) != 1 || ctx.shape(2)[0] != ctx.shape(1)[0]) {
    ctx.Fail("batch_indices must be [num_rois]");
  }
  const std::string mode = ctx.attr_string("mode", "avg");
  if (mode != "avg" && mode != "max") ctx.Fail("mode must be avg or max, got '" + mode + "'");
  const int64_t height = ctx.attr_int("output_height", 1);
  const int64_t width = ctx.attr_int("output_width", 1);
  if (height < 1 || width < 1) ctx.Fail("output_height and output_width must be positive");
  const int sampling_ratio = ctx.attr_int32("sampling_ratio", 0);
  if (sampling_ratio < 0) ctx.Fail("sampling_ratio must not be negative");
  const double spatial_scale = ctx.attr_float("spatial_scale", 1.0);
  if (!(spatial_scale > 0)) ctx.Fail("spatial_scale must be positive");
  // Opset 16 added coordinate_transformation_mode, half_pixel by default; TVM v0.13 converts
  // every RoiAlign as output_half_pixel (the opset-10 behaviour). half_pixel samples half a
  // pixel to the top-left: the rois shifted by 0.5 / spatial_scale. vision.roi_align keeps
  // TVM's minimum roi size of 1 (pixel) that half_pixel drops, so a roi under one pixel wide
  // after scaling still differs.
  const std::string transform = ctx.attr_string(
      "coordinate_transformation_mode", ctx.opset() >= 16 ? "half_pixel" : "output_half_pixel");
  if (transform != "half_pixel" && transform != "output_half_pixel") {
    ctx.Fail("coordinate_transformation_mode must be half_pixel or output_half_pixel, got '" +
             transform + "'");
  }
  const std::string dt = ctx.dtype(1).ToString();
  ir::Expr rois = ctx.input(1);
  if (transform == "half_pixel") {
    rois = relay::subtract(rois, relay::const_(0.5 / spatial_scale, dt));
  }
  ir::Expr index = relay::cast(relay::expand_dims(ctx.input(2), 1), dt);
  rois = relay::concatenate({index, rois}, 1);
  return {relay::call("vision.roi_align", {ctx.input(0), rois},
                      {{"pooled_size", ir::AttrValue::Ints({height, width})},
                       {"spatial_scale", ir::AttrValue::Double(spatial_scale)},
                       {"sample_ratio", ir::AttrValue::Int(sampling_ratio)},
                       {"layout", ir::AttrValue::Str("NCHW")},
                       {"mode", ir::AttrValue::Str(mode)}})};
}

}  // namespace

void RegisterVision(ConverterTable& t) {
  t.Add("NonMaxSuppression", 10, NonMaxSuppression);
  t.Add("RoiAlign", 10, RoiAlign);
}

}  // namespace relaypass::frontend::onnx_import
