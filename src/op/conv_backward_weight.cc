// nn.conv2d_backward_weight (TVM v0.13's Conv2DBackwardWeightRel on Conv2DAttrs, whose data_layout
// is the gradient's layout, kernel_layout the data's and out_layout the weight's): the gradient of
// conv2d with respect to its weight, from the output gradient and the data. NCHW / OIHW only.
#include <string>

#include "kernels/conv_backward_weight.h"
#include "nn_family.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

Dim KnownChannels(TypeRelationCall& call, const TensorTypeRef& t, const char* what) {
  if (t->ndim() != 4) {
    call.Fail("nn.conv2d_backward_weight: " + std::string(what) + " must be 4-D (NCHW), got " +
              TypeString(t));
  }
  if (IsAny(t->shape[1])) {
    call.Fail("nn.conv2d_backward_weight: the channels of " + std::string(what) + " " +
              TypeString(t) + " must be known");
  }
  return t->shape[1];
}

// grad [N, K, OH, OW] and data [N, C, H, W] give the weight [K, C / groups, KH, KW] (TVM's
// depthwise case, C = K = groups, takes channels / groups, which must then be set).
bool Conv2DBackwardWeightRel(TypeRelationCall& call) {
  TensorTypeRef grad = TensorOf(call, 0);
  TensorTypeRef data = TensorOf(call, 1);
  if (!grad || !data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (attrs.get_string("data_layout") != "NCHW" || attrs.get_string("kernel_layout") != "NCHW" ||
      attrs.get_string("out_layout") != "OIHW") {
    call.Fail(
        "nn.conv2d_backward_weight: only the NCHW gradient and data layouts and the OIHW kernel "
        "layout are supported");
  }
  const Dim out_channels = KnownChannels(call, grad, "grad");
  const Dim in_channels = KnownChannels(call, data, "data");
  if (attrs.get("kernel_size").is_null()) {
    call.Fail("nn.conv2d_backward_weight: kernel_size attribute needs to be specified");
  }
  const std::vector<int64_t> kernel = PositiveIntsAttr(call, "kernel_size", 2);
  PositiveIntsAttr(call, "strides", 2);
  PositiveIntsAttr(call, "dilation", 2);
  const std::vector<int64_t> padding = IntsAttr(call, "padding");
  if (padding.size() != 1 && padding.size() != 2 && padding.size() != 4) {
    call.Fail("nn.conv2d_backward_weight: padding must have 1, 2 or 4 values");
  }
  for (int64_t p : padding) {
    if (p < 0) call.Fail("nn.conv2d_backward_weight: padding must not be negative");
  }
  const int64_t groups = attrs.get_int("groups");
  if (groups < 1 || in_channels % groups != 0 || out_channels % groups != 0) {
    call.Fail("nn.conv2d_backward_weight: groups " + std::to_string(groups) +
              " must divide the data's " + std::to_string(in_channels) + " and the gradient's " +
              std::to_string(out_channels) + " channels");
  }
  Dim weight_in = in_channels / groups;
  if (in_channels == out_channels && in_channels == groups) {
    const ir::AttrValue& channels = attrs.get("channels");
    if (channels.is_null()) {
      call.Fail(
          "nn.conv2d_backward_weight: out_channels attribute not specified for depth wise "
          "conv2d.");
    }
    if (channels.as_int() / groups != weight_in) {
      call.Fail("nn.conv2d_backward_weight: channels " + std::to_string(channels.as_int()) +
                " does not match the gradient's " + std::to_string(out_channels));
    }
  }
  call.AssignResult(ir::TensorType({out_channels, weight_in, kernel[0], kernel[1]},
                                   DTypeOr(attrs.get("out_dtype"), grad->dtype)));
  return true;
}

}  // namespace

void RegisterConv2DBackwardWeightOp(OpRegistry& registry) {
  OpDef& op =
      RegisterOp(registry, "nn.conv2d_backward_weight", 2, OpPattern::kOutEWiseFusable,
                 Conv2DBackwardWeightRel, "The gradient of conv2d with respect to its weight.");
  op.attrs_schema = registry.Find("nn.conv2d")->attrs_schema;
  op.kernel = kernels::Conv2DBackwardWeight;
}

}  // namespace relaypass::op
