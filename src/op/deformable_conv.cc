// nn.deformable_conv2d (TVM v0.13's DeformableConv2DAttrs and DeformableConv2DRel) in NCHW / OIHW:
// data [N, C, H, W], offset [N, 2 * deformable_groups * KH * KW, OH, OW] and weight
// [channels, C / groups, KH, KW] give [N, channels, OH, OW].
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* DeformableConv2DAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.DeformableConv2DAttrs",
      {AttrsSchema::IntArray("strides", {1, 1}), AttrsSchema::IntArray("padding", {0, 0}),
       AttrsSchema::IntArray("dilation", {1, 1}), AttrsSchema::Int("deformable_groups", 1),
       AttrsSchema::Int("groups", 1), AttrsSchema::IndexExpr("channels"),
       AttrsSchema::NullableIntArray("kernel_size"), AttrsSchema::String("data_layout", "NCHW"),
       AttrsSchema::String("kernel_layout", "OIHW"), AttrsSchema::String("out_layout", ""),
       AttrsSchema::DType("out_dtype", "")});
  return &schema;
}

bool DeformableConv2DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef offset = TensorOf(call, 1);
  TensorTypeRef weight = TensorOf(call, 2);
  if (!data || !offset || !weight) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (attrs.get_string("data_layout") != "NCHW" || attrs.get_string("kernel_layout") != "OIHW" ||
      !(attrs.get_string("out_layout").empty() || attrs.get_string("out_layout") == "NCHW")) {
    call.Fail("nn.deformable_conv2d: only the NCHW data and OIHW kernel layouts are supported");
  }
  if (data->ndim() != 4 || offset->ndim() != 4 || weight->ndim() != 4) {
    call.Fail("nn.deformable_conv2d: data, offset and weight must be 4-D");
  }
  const std::vector<int64_t> strides = PositiveIntsAttr(call, "strides", 2);
  const std::vector<int64_t> dilation = PositiveIntsAttr(call, "dilation", 2);
  const auto [pad_h, pad_w] = PaddingAttr(call, "padding");
  const int64_t groups = attrs.get_int("groups"), dgroups = attrs.get_int("deformable_groups");
  if (groups < 1 || dgroups < 1) call.Fail("nn.deformable_conv2d: groups must be positive");
  const Dim kh = weight->shape[2], kw = weight->shape[3];
  auto out_extent = [&](Dim in, Dim pad, Dim k, int64_t stride, int64_t dil) -> Dim {
    if (IsAny(in) || IsAny(k)) return kAnyDim;
    const Dim span = CheckedAdd(in, pad) - CheckedAdd(CheckedMul(k - 1, dil), 1);
    if (span < 0) call.Fail("nn.deformable_conv2d: the kernel is larger than the padded data");
    return span / stride + 1;
  };
  const Dim oh = out_extent(data->shape[2], pad_h, kh, strides[0], dilation[0]);
  const Dim ow = out_extent(data->shape[3], pad_w, kw, strides[1], dilation[1]);
  if (!IsAny(data->shape[1]) && !IsAny(weight->shape[1]) &&
      data->shape[1] != CheckedMul(weight->shape[1], groups)) {
    call.Fail("nn.deformable_conv2d: data " + TypeString(data) + " and weight " +
              TypeString(weight) + " disagree on the input channels");
  }
  if (!IsAny(kh) && !IsAny(kw) && !IsAny(offset->shape[1]) &&
      offset->shape[1] != CheckedMul(CheckedMul(2 * dgroups, kh), kw)) {
    call.Fail("nn.deformable_conv2d: offset " + TypeString(offset) +
              " must have 2 * deformable_groups * KH * KW channels");
  }
  const Shape out = {data->shape[0], weight->shape[0], oh, ow};
  for (int d = 2; d < 4; ++d) {
    if (!IsAny(offset->shape[d]) && !IsAny(out[d]) && offset->shape[d] != out[d]) {
      call.Fail("nn.deformable_conv2d: offset " + TypeString(offset) +
                " does not match the output's extents " + ShapeToString(out));
    }
  }
  call.AssignResult(ir::TensorType(out, DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

}  // namespace

void RegisterDeformableConvOp(OpRegistry& registry) {
  OpDef& def = RegisterOp(registry, "nn.deformable_conv2d", 3, OpPattern::kOutEWiseFusable,
                          DeformableConv2DRel, "Compute 2-D deformable convolution on 4-D input.");
  def.attrs_schema = DeformableConv2DAttrs();
  def.kernel = kernels::DeformableConv2D;
}

}  // namespace relaypass::op
