// The image family: image.resize2d, image.resize3d, image.grid_sample, image.crop_and_resize,
// image.affine_grid, nn.upsampling(3d),
// nn.depth_to_space and nn.space_to_depth (TVM's attrs; NCHW data, NCDHW for resize3d).
#include <cmath>
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* Resize2DAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.Resize2DAttrs",
      {AttrsSchema::NullableIntArray("size"), AttrsSchema::NullableDoubleArray("roi"),
       AttrsSchema::String("layout", "NCHW"), AttrsSchema::String("method", "linear"),
       AttrsSchema::String("coordinate_transformation_mode", "half_pixel"),
       AttrsSchema::String("rounding_method", "round"), AttrsSchema::Double("cubic_alpha", -0.5),
       AttrsSchema::Int("cubic_exclude", 0), AttrsSchema::Double("extrapolation_value", 0.0),
       AttrsSchema::DType("out_dtype", "")});
  return &schema;
}
const AttrsSchema* Resize3DAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.Resize3DAttrs",
      {AttrsSchema::NullableIntArray("size"), AttrsSchema::NullableDoubleArray("roi"),
       AttrsSchema::String("layout", "NCDHW"), AttrsSchema::String("method", "linear"),
       AttrsSchema::String("coordinate_transformation_mode", "half_pixel"),
       AttrsSchema::String("rounding_method", "round"), AttrsSchema::Double("cubic_alpha", -0.5),
       AttrsSchema::Int("cubic_exclude", 0), AttrsSchema::Double("extrapolation_value", 0.0),
       AttrsSchema::DType("out_dtype", "")});
  return &schema;
}
const AttrsSchema* UpSamplingAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.UpSamplingAttrs",
      {AttrsSchema::Double("scale_h", 1), AttrsSchema::Double("scale_w", 1),
       AttrsSchema::String("layout", "NCHW"), AttrsSchema::String("method", "nearest_neighbor"),
       AttrsSchema::Bool("align_corners", false)});
  return &schema;
}
const AttrsSchema* UpSampling3DAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.UpSampling3DAttrs",
      {AttrsSchema::Double("scale_d", 1), AttrsSchema::Double("scale_h", 1),
       AttrsSchema::Double("scale_w", 1), AttrsSchema::String("layout", "NCDHW"),
       AttrsSchema::String("method", "nearest_neighbor"),
       AttrsSchema::String("coordinate_transformation_mode", "half_pixel")});
  return &schema;
}
const AttrsSchema* CropAndResizeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.CropAndResizeAttrs",
      {AttrsSchema::NullableIntArray("crop_size"), AttrsSchema::String("layout", "NCHW"),
       AttrsSchema::String("method", "bilinear"), AttrsSchema::Double("extrapolation_value", 0.0),
       AttrsSchema::DType("out_dtype", "")});
  return &schema;
}
const AttrsSchema* AffineGridAttrs() {
  static const AttrsSchema schema("relay.attrs.AffineGridAttrs",
                                  {AttrsSchema::NullableIntArray("target_shape")});
  return &schema;
}
const AttrsSchema* SubPixelAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.SubPixelAttrs",
      {AttrsSchema::Int("block_size", 1), AttrsSchema::String("layout", "NCHW"),
       AttrsSchema::String("mode", "DCR")});
  return &schema;
}

const AttrsSchema* GridSampleAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.GridSampleAttrs",
      {AttrsSchema::String("method", "bilinear"), AttrsSchema::String("layout", "NCHW"),
       AttrsSchema::String("padding_mode", "zeros"), AttrsSchema::Bool("align_corners", true)});
  return &schema;
}

TensorTypeRef NCHWData(const TypeRelationCall& call, const char* layout_key,
                       bool nhwc_too = false) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return data;
  const std::string& layout = AttrsOf(call).get_string(layout_key);
  if (layout != "NCHW" && !(nhwc_too && layout == "NHWC")) {
    call.Fail(call.op_name() + (nhwc_too ? ": only the NCHW and NHWC layouts are supported"
                                         : ": only the NCHW layout is supported"));
  }
  if (data->ndim() != 4) call.Fail(call.op_name() + ": data must be 4-D, got " + TypeString(data));
  return data;
}

// The shape of a 4-D `data` in `layout` (NCHW or NHWC) with H and W replaced.
Shape WithHeightWidth(const TensorTypeRef& data, const std::string& layout, Dim h, Dim w) {
  Shape out = data->shape;
  const size_t hi = layout == "NHWC" ? 1 : 2;
  out[hi] = h;
  out[hi + 1] = w;
  return out;
}

bool Resize2DRel(TypeRelationCall& call) {
  TensorTypeRef data = NCHWData(call, "layout", true);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& method = attrs.get_string("method");
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic") {
    call.Fail("image.resize2d: method must be nearest_neighbor, linear or cubic, got \"" + method +
              "\"");
  }
  std::vector<int64_t> size = IntsAttr(call, "size");
  if (size.size() != 2 || size[0] < 0 || size[1] < 0) {
    call.Fail("image.resize2d: size must be 2 non-negative values, got " +
              attrs.get("size").ToString());
  }
  call.AssignResult(
      ir::TensorType(WithHeightWidth(data, attrs.get_string("layout"), size[0], size[1]),
                     DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

// TVM's Resize3DRel on NCDHW data: D, H and W become `size`.
bool Resize3DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (attrs.get_string("layout") != "NCDHW") {
    call.Fail("image.resize3d: only the NCDHW layout is supported");
  }
  if (data->ndim() != 5) call.Fail("image.resize3d: data must be 5-D, got " + TypeString(data));
  const std::string& method = attrs.get_string("method");
  if (method != "nearest_neighbor" && method != "linear" && method != "cubic") {
    call.Fail("image.resize3d: method must be nearest_neighbor, linear or cubic, got \"" + method +
              "\"");
  }
  std::vector<int64_t> size = IntsAttr(call, "size");
  if (size.size() != 3 || size[0] < 0 || size[1] < 0 || size[2] < 0) {
    call.Fail("image.resize3d: size must be 3 non-negative values, got " +
              attrs.get("size").ToString());
  }
  Shape shape = data->shape;
  for (int k = 0; k < 3; ++k) shape[2 + k] = size[k];
  call.AssignResult(ir::TensorType(shape, DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

// TVM's UpSamplingRel: H and W scaled and rounded.
bool UpSamplingRel(TypeRelationCall& call) {
  TensorTypeRef data = NCHWData(call, "layout", true);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& method = attrs.get_string("method");
  if (method != "nearest_neighbor" && method != "bilinear" && method != "bicubic") {
    call.Fail("nn.upsampling: method must be nearest_neighbor, bilinear or bicubic");
  }
  auto scaled = [&](Dim d, double s) -> Dim {
    if (IsAny(d)) return kAnyDim;
    const double v = std::round(static_cast<double>(d) * s);
    // A scale that is not a finite number, or a result beyond int64, has no dimension.
    if (!(v >= -9.2e18 && v <= 9.2e18)) {
      call.Fail("nn.upsampling: dimension " + std::to_string(d) + " scaled by " +
                std::to_string(s) + " overflows int64");
    }
    return static_cast<Dim>(v);
  };
  const std::string& layout = attrs.get_string("layout");
  const size_t hi = layout == "NHWC" ? 1 : 2;
  call.AssignResult(ir::TensorType(
      WithHeightWidth(data, layout, scaled(data->shape[hi], attrs.get_double("scale_h")),
                      scaled(data->shape[hi + 1], attrs.get_double("scale_w"))),
      data->dtype));
  return true;
}

// TVM's UpSampling3DRel: D, H and W scaled and rounded (NCDHW or NDHWC). The method and the
// coordinate mode are checked here, as topi.nn.upsampling3d would reject them when compiling.
bool UpSampling3DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& layout = attrs.get_string("layout");
  if (layout != "NCDHW" && layout != "NDHWC") {
    call.Fail("nn.upsampling3d: only the NCDHW and NDHWC layouts are supported, got " + layout);
  }
  if (data->ndim() != 5) call.Fail("nn.upsampling3d: data must be 5-D, got " + TypeString(data));
  const std::string& method = attrs.get_string("method");
  if (method != "nearest_neighbor" && method != "trilinear") {
    call.Fail("nn.upsampling3d: method must be nearest_neighbor or trilinear, got \"" + method +
              "\"");
  }
  const std::string& coord = attrs.get_string("coordinate_transformation_mode");
  if (coord != "half_pixel" && coord != "align_corners" && coord != "asymmetric") {
    call.Fail(
        "nn.upsampling3d: coordinate_transformation_mode must be half_pixel, align_corners or "
        "asymmetric, got \"" +
        coord + "\"");
  }
  Shape out = data->shape;
  const size_t first = layout == "NDHWC" ? 1 : 2;
  const char* scales[3] = {"scale_d", "scale_h", "scale_w"};
  for (size_t k = 0; k < 3; ++k) {
    const Dim d = out[first + k];
    if (IsAny(d)) continue;
    const double v = std::round(static_cast<double>(d) * attrs.get_double(scales[k]));
    if (!(v >= 0 && v <= 9.2e18)) {
      call.Fail("nn.upsampling3d: dimension " + std::to_string(d) + " scaled by " +
                std::to_string(attrs.get_double(scales[k])) + " is not a valid extent");
    }
    out[first + k] = static_cast<Dim>(v);
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's CropAndResizeRel: data [N, C, H, W] (or NHWC), boxes [B, 4], box_indices [B] give
// [B, C, crop_h, crop_w] (or NHWC) of out_dtype (data's when unset).
bool CropAndResizeRel(TypeRelationCall& call) {
  TensorTypeRef data = NCHWData(call, "layout", true);
  TensorTypeRef boxes = TensorOf(call, 1);
  TensorTypeRef box_indices = TensorOf(call, 2);
  if (!data || !boxes || !box_indices) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (boxes->ndim() != 2 || (!IsAny(boxes->shape[1]) && boxes->shape[1] != 4)) {
    call.Fail("image.crop_and_resize: boxes must be [num_boxes, 4], got " + TypeString(boxes));
  }
  if (box_indices->ndim() != 1) {
    call.Fail("image.crop_and_resize: box_indices must be 1-D, got " + TypeString(box_indices));
  }
  if (!box_indices->dtype.is_int() && !box_indices->dtype.is_uint()) {
    call.Fail("image.crop_and_resize: box_indices must be an integer tensor, got " +
              TypeString(box_indices));
  }
  const std::string& method = attrs.get_string("method");
  if (method != "bilinear" && method != "nearest_neighbor") {
    call.Fail("image.crop_and_resize: method must be bilinear or nearest_neighbor, got \"" +
              method + "\"");
  }
  std::vector<int64_t> size = IntsAttr(call, "crop_size");
  if (size.size() != 2 || size[0] < 0 || size[1] < 0) {
    call.Fail("image.crop_and_resize: crop_size must be 2 non-negative values, got " +
              attrs.get("crop_size").ToString());
  }
  const std::string& layout = attrs.get_string("layout");
  Shape out = WithHeightWidth(data, layout, size[0], size[1]);
  out[0] = boxes->shape[0];
  call.AssignResult(ir::TensorType(out, DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

// TVM's AffineGridRel: data [batch, 2, 3] gives [batch, 2, target_h, target_w].
bool AffineGridRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  if (data->ndim() != 3 || (!IsAny(data->shape[1]) && data->shape[1] != 2) ||
      (!IsAny(data->shape[2]) && data->shape[2] != 3)) {
    call.Fail(
        "image.affine_grid: data should be an affine matrix with shape [batch_size, 2, 3], "
        "got " +
        TypeString(data));
  }
  if (!data->dtype.is_float()) {
    call.Fail("image.affine_grid: data must be floating point, got " + TypeString(data));
  }
  std::vector<int64_t> target = IntsAttr(call, "target_shape");
  if (target.size() != 2 || target[0] < 0 || target[1] < 0) {
    call.Fail("image.affine_grid: target_shape should be 2 non-negative values, got " +
              AttrsOf(call).get("target_shape").ToString());
  }
  call.AssignResult(ir::TensorType({data->shape[0], 2, target[0], target[1]}, data->dtype));
  return true;
}

bool SubPixelRel(TypeRelationCall& call, bool to_space) {
  TensorTypeRef data = NCHWData(call, "layout");
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t b = attrs.get_int("block_size");
  if (b < 1) call.Fail(call.op_name() + ": block_size must be positive");
  const int64_t b2 = CheckedMul(b, b);
  const std::string& mode = attrs.get_string("mode");
  if (mode != "DCR" && mode != "CRD") call.Fail(call.op_name() + ": mode must be DCR or CRD");
  Shape out = data->shape;
  // As TVM's DepthToSpaceRel / SpaceToDepthRel: extents that the block does not divide are
  // floored (the kernel then reads the part of the data the result covers).
  if (to_space) {
    out[1] = DimFloorDiv(out[1], b2);
    out[2] = DimMul(out[2], b);
    out[3] = DimMul(out[3], b);
  } else {
    for (int i = 2; i < 4; ++i) out[i] = DimFloorDiv(out[i], b);
    out[1] = DimMul(out[1], b2);
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's GridSampleRel: data [N, C, H, W] and grid [N, 2, H', W'] give [N, C, H', W'] (NCHW);
// data [N, C, D, H, W] and grid [N, 3, D', H', W'] give [N, C, D', H', W'] (NCDHW).
bool GridSampleRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef grid = TensorOf(call, 1);
  if (!data || !grid) return false;
  const std::string& layout = AttrsOf(call).get_string("layout");
  if (layout != "NCHW" && layout != "NCDHW") {
    call.Fail("image.grid_sample: only the NCHW and NCDHW layouts are supported, got " + layout);
  }
  const int spatial = layout == "NCHW" ? 2 : 3;
  if (data->ndim() != spatial + 2) {
    call.Fail("image.grid_sample: data must be " + std::to_string(spatial + 2) + "-D in " + layout +
              ", got " + TypeString(data));
  }
  if (grid->ndim() != spatial + 2 ||
      (!IsAny(grid->shape[1]) && grid->shape[1] != static_cast<Dim>(spatial))) {
    call.Fail("image.grid_sample: grid must be [N, " + std::to_string(spatial) + ", ...] of rank " +
              std::to_string(spatial + 2) + ", got " + TypeString(grid));
  }
  const std::string& method = AttrsOf(call).get_string("method");
  if (method != "bilinear" && method != "nearest" && (method != "bicubic" || spatial == 3)) {
    call.Fail("image.grid_sample: method must be bilinear, nearest or (2-D only) bicubic, got " +
              method);
  }
  Shape out = {data->shape[0], data->shape[1]};
  for (int k = 0; k < spatial; ++k) out.push_back(grid->shape[2 + k]);
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterImageOps(OpRegistry& registry) {
  OpDef& grid_sample = RegisterOp(registry, "image.grid_sample", 2, OpPattern::kInjective,
                                  GridSampleRel, "Samples data at the grid's normalised points.");
  grid_sample.attrs_schema = GridSampleAttrs();
  grid_sample.kernel = kernels::GridSample;
  OpDef& resize2d = RegisterOp(registry, "image.resize2d", 1, OpPattern::kInjective, Resize2DRel,
                               "Resizes H and W to `size` (nearest, linear or cubic).");
  resize2d.attrs_schema = Resize2DAttrs();
  resize2d.kernel = kernels::Resize2D;
  OpDef& resize3d = RegisterOp(registry, "image.resize3d", 1, OpPattern::kInjective, Resize3DRel,
                               "Resizes D, H and W to `size` (nearest, linear or cubic).");
  resize3d.attrs_schema = Resize3DAttrs();
  resize3d.kernel = kernels::Resize3D;
  OpDef& upsampling = RegisterOp(registry, "nn.upsampling", 1, OpPattern::kInjective, UpSamplingRel,
                                 "Scales H and W by scale_h and scale_w.");
  upsampling.attrs_schema = UpSamplingAttrs();
  upsampling.kernel = kernels::UpSampling;
  OpDef& upsampling3d =
      RegisterOp(registry, "nn.upsampling3d", 1, OpPattern::kInjective, UpSampling3DRel,
                 "Scales D, H and W by scale_d, scale_h and scale_w.");
  upsampling3d.attrs_schema = UpSampling3DAttrs();
  upsampling3d.kernel = kernels::UpSampling3D;
  OpDef& crop = RegisterOp(registry, "image.crop_and_resize", 3, OpPattern::kInjective,
                           CropAndResizeRel, "Crops boxes of the images and resizes them.");
  crop.attrs_schema = CropAndResizeAttrs();
  crop.kernel = kernels::CropAndResize;
  OpDef& affine = RegisterOp(registry, "image.affine_grid", 1, OpPattern::kInjective, AffineGridRel,
                             "A [-1, 1] sampling grid moved by affine matrices.");
  affine.attrs_schema = AffineGridAttrs();
  affine.kernel = kernels::AffineGrid;
  OpDef& d2s = RegisterOp(
      registry, "nn.depth_to_space", 1, OpPattern::kInjective,
      [](TypeRelationCall& call) { return SubPixelRel(call, true); },
      "Moves channel blocks into block_size x block_size spatial tiles.");
  d2s.attrs_schema = SubPixelAttrs();
  d2s.kernel = kernels::DepthToSpace;
  OpDef& s2d = RegisterOp(
      registry, "nn.space_to_depth", 1, OpPattern::kInjective,
      [](TypeRelationCall& call) { return SubPixelRel(call, false); },
      "Moves block_size x block_size spatial tiles into channels.");
  s2d.attrs_schema = SubPixelAttrs();
  s2d.kernel = kernels::SpaceToDepth;
}

}  // namespace relaypass::op

namespace relaypass::relay {

using ir::AttrValue;
using op::CallOp;

namespace image {

Expr resize2d(Expr data, const Ints& size, const Resize2DArgs& a) {
  // TVM's Python wrapper: roi None becomes [0.0] * 4.
  std::vector<AttrValue> roi;
  for (double v : a.roi ? *a.roi : std::vector<double>(4, 0.0)) roi.push_back(AttrValue::Double(v));
  return CallOp(
      "image.resize2d", {std::move(data)},
      {{"size", AttrValue::Ints(size)},
       {"roi", AttrValue::Array(std::move(roi))},
       {"layout", AttrValue::Str(a.layout)},
       {"method", AttrValue::Str(a.method)},
       {"coordinate_transformation_mode", AttrValue::Str(a.coordinate_transformation_mode)},
       {"rounding_method", AttrValue::Str(a.rounding_method)},
       {"cubic_alpha", AttrValue::Double(a.cubic_alpha)},
       {"cubic_exclude", AttrValue::Int(a.cubic_exclude)},
       {"extrapolation_value", AttrValue::Double(a.extrapolation_value)},
       {"out_dtype", AttrValue::Str(a.out_dtype)}});
}

Expr grid_sample(Expr data, Expr grid, const std::string& method, const std::string& layout,
                 const std::string& padding_mode, bool align_corners) {
  return CallOp("image.grid_sample", {std::move(data), std::move(grid)},
                {{"method", AttrValue::Str(method)},
                 {"layout", AttrValue::Str(layout)},
                 {"padding_mode", AttrValue::Str(padding_mode)},
                 {"align_corners", AttrValue::Bool(align_corners)}});
}

}  // namespace image

namespace nn {

Expr depth_to_space(Expr data, int block_size, const std::string& layout, const std::string& mode) {
  return CallOp("nn.depth_to_space", {std::move(data)},
                {{"block_size", AttrValue::Int(block_size)},
                 {"layout", AttrValue::Str(layout)},
                 {"mode", AttrValue::Str(mode)}});
}

Expr space_to_depth(Expr data, int block_size, const std::string& layout) {
  return CallOp("nn.space_to_depth", {std::move(data)},
                {{"block_size", AttrValue::Int(block_size)}, {"layout", AttrValue::Str(layout)}});
}

Expr upsampling(Expr data, double scale_h, double scale_w, const std::string& layout,
                const std::string& method, bool align_corners) {
  return CallOp("nn.upsampling", {std::move(data)},
                {{"scale_h", AttrValue::Double(scale_h)},
                 {"scale_w", AttrValue::Double(scale_w)},
                 {"layout", AttrValue::Str(layout)},
                 {"method", AttrValue::Str(method)},
                 {"align_corners", AttrValue::Bool(align_corners)}});
}

}  // namespace nn
}  // namespace relaypass::relay
