// nn.conv2d: attrs, type relation (any layout convertible to NCHW/OIHW, groups, depthwise) and
// its builder.
#include <string>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const ir::AttrsSchema* Conv2DAttrs() {
  static const AttrsSchema schema("relay.attrs.Conv2DAttrs",
                                  {
                                      AttrsSchema::IntArray("strides", {1, 1}),
                                      AttrsSchema::IntArray("padding", {0, 0}),
                                      AttrsSchema::IntArray("dilation", {1, 1}),
                                      AttrsSchema::Int("groups", 1),
                                      AttrsSchema::IndexExpr("channels"),
                                      AttrsSchema::NullableIntArray("kernel_size"),
                                      AttrsSchema::String("data_layout", "NCHW"),
                                      AttrsSchema::String("kernel_layout", "OIHW"),
                                      AttrsSchema::String("out_layout", ""),
                                      AttrsSchema::DType("out_dtype", ""),
                                  });
  return &schema;
}

// floordiv(in + pad - dilated_kernel, stride) + 1, with `?` propagating.
Dim ConvOutDim(Dim in, Dim pad, Dim dilated_kernel, int64_t stride) {
  if (IsAny(in) || IsAny(dilated_kernel)) return kAnyDim;
  return CheckedAdd(DimFloorDiv(CheckedSub(CheckedAdd(in, pad), dilated_kernel), stride), 1);
}

Dim DilatedKernel(Dim k, int64_t dilation) {
  return IsAny(k) ? kAnyDim : CheckedAdd(1, CheckedMul(k - 1, dilation));
}

// TVM's Conv2DRel. The data is viewed in NCHW and the weight in OIHW (GOIHW for grouped
// kernel layouts) whatever their layouts; the output is computed in NCHW and converted to
// out_layout (or data_layout).
bool Conv2DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef weight = TensorOf(call, 1);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& data_layout = attrs.get_string("data_layout");
  const std::string& kernel_layout = attrs.get_string("kernel_layout");
  std::string out_layout = attrs.get_string("out_layout");
  if (out_layout.empty()) out_layout = data_layout;
  const int64_t groups = attrs.get_int("groups");
  if (groups < 1) call.Fail("conv2d: groups must be positive, got " + std::to_string(groups));
  const bool grouped_kernel = groups > 1 && kernel_layout.find('G') != std::string::npos;
  const int w_off = grouped_kernel ? 1 : 0;  // GOIHW: O, I, H, W start one axis later

  BijectiveLayout to_nchw(ParseLayout(call, data_layout), Layout("NCHW"));
  BijectiveLayout to_oihw(ParseLayout(call, kernel_layout),
                          Layout(grouped_kernel ? "GOIHW" : "OIHW"));
  BijectiveLayout out_to_nchw(ParseLayout(call, out_layout), Layout("NCHW"));
  if (!to_nchw.defined()) {
    call.Fail("conv2d: data layout " + data_layout + " is not convertible to NCHW");
  }
  if (!to_oihw.defined()) {
    call.Fail("conv2d: kernel layout " + kernel_layout + " is not convertible to " +
              to_oihw.dst().name());
  }
  if (!out_to_nchw.defined()) {
    call.Fail("conv2d: output layout " + out_layout + " is not convertible to NCHW");
  }
  Shape d = ConvertShape(call, to_nchw, data->shape, true, "conv2d: data shape");
  const std::vector<int64_t> strides = PositiveIntsAttr(call, "strides", 2);
  const std::vector<int64_t> dilation = PositiveIntsAttr(call, "dilation", 2);

  bool depthwise = false;
  if (groups > 1) {
    if (!weight) return false;  // TVM needs the weight's shape to tell depthwise from grouped
    Shape w = ConvertShape(call, to_oihw, weight->shape, true, "conv2d: weight shape");
    depthwise = groups == d[1] && groups == w[0];
  }

  const ir::AttrValue& channels_attr = attrs.get("channels");
  const ir::AttrValue& kernel_attr = attrs.get("kernel_size");
  Dim out_channels, kh, kw;
  if (!channels_attr.is_null() && !kernel_attr.is_null()) {
    // channels and kernel_size fix the weight's type: assign it (types untyped weights).
    const std::vector<int64_t> ksize = PositiveIntsAttr(call, "kernel_size", 2);
    const int64_t channels = channels_attr.as_int();
    Shape w;
    if (grouped_kernel) {
      w = {groups, DimFloorDiv(channels, groups), DimFloorDiv(d[1], groups), ksize[0], ksize[1]};
    } else if (depthwise) {
      w = {d[1], DimFloorDiv(channels, d[1]), ksize[0], ksize[1]};
    } else {
      w = {channels, DimFloorDiv(d[1], groups), ksize[0], ksize[1]};
    }
    w = ConvertShape(call, to_oihw, w, false, "conv2d: weight shape");
    if (weight && weight->is_static() && weight->shape != w) {
      call.Fail("conv2d: weight shape " + ShapeToString(weight->shape) + " does not match " +
                ShapeToString(w) + " implied by channels=" + std::to_string(channels) +
                ", kernel_size=" + kernel_attr.ToString() + " and data shape " +
                ShapeToString(data->shape));
    }
    call.Assign(1, ir::TensorType(w, weight ? weight->dtype : data->dtype));
    out_channels = channels;
    kh = ksize[0];
    kw = ksize[1];
  } else {
    if (!weight) return false;
    Shape w = ConvertShape(call, to_oihw, weight->shape, true, "conv2d: weight shape");
    std::string wdesc =
        " (weight shape " + ShapeToString(weight->shape) + ", kernel layout " + kernel_layout + ")";
    if (!kernel_attr.is_null()) {
      const std::vector<int64_t> ksize = PositiveIntsAttr(call, "kernel_size", 2);
      for (int i = 0; i < 2; ++i) {
        Dim wk = w[w_off + 2 + i];
        if (!IsAny(wk) && wk != ksize[i]) {
          call.Fail("conv2d: kernel_size " + kernel_attr.ToString() + " does not match the weight" +
                    wdesc);
        }
      }
    }
    out_channels = grouped_kernel ? DimMul(w[0], w[1]) : w[0];
    if (!channels_attr.is_null() && !IsAny(out_channels) &&
        out_channels != channels_attr.as_int()) {
      call.Fail("conv2d: channels=" + channels_attr.ToString() +
                " does not match the weight's output channels " + std::to_string(out_channels) +
                wdesc);
    }
    Dim in_per_group = DimFloorDiv(d[1], groups);
    Dim w_in = w[w_off + 1];
    if (!IsAny(in_per_group) && !IsAny(w_in) && in_per_group != w_in) {
      std::string in_desc = std::to_string(d[1]);
      if (groups > 1) in_desc += " / groups " + std::to_string(groups);
      call.Fail("conv2d: input channels " + in_desc + " do not match weight's " +
                std::to_string(w_in) + wdesc + "; data shape " + ShapeToString(data->shape));
    }
    kh = w[w_off + 2];
    kw = w[w_off + 3];
  }

  const std::pair<Dim, Dim> pad = PaddingAttr(call, "padding");
  Shape out = {d[0], out_channels,
               ConvOutDim(d[2], pad.first, DilatedKernel(kh, dilation[0]), strides[0]),
               ConvOutDim(d[3], pad.second, DilatedKernel(kw, dilation[1]), strides[1])};
  out = ConvertShape(call, out_to_nchw, out, false, "conv2d: output shape");
  call.AssignResult(ir::TensorType(out, DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

}  // namespace

void RegisterConvOps(OpRegistry& registry) {
  OpDef& conv2d =
      RegisterOp(registry, "nn.conv2d", 2, OpPattern::kOutEWiseFusable, Conv2DRel,
                 "2D convolution of data with a weight (kernel), with strides, padding, dilation "
                 "and groups, in any data/kernel layout convertible to NCHW/OIHW.");
  conv2d.attrs_schema = Conv2DAttrs();
  conv2d.kernel = kernels::Conv2D;
  conv2d.infer_layout = layout_rules::Conv2D;
  conv2d.convert_layout = layout_rules::ConvertConv2D;
}

}  // namespace relaypass::op

namespace relaypass::relay::nn {

Expr conv2d(Expr data, Expr weight, const Conv2DArgs& args) {
  using ir::AttrValue;
  std::optional<Ints> kernel_size;
  if (args.kernel_size) kernel_size = op::NormalizePair(*args.kernel_size);
  return op::CallOp(
      "nn.conv2d", {std::move(data), std::move(weight)},
      {
          {"strides", AttrValue::Ints(op::NormalizePair(args.strides))},
          {"padding", AttrValue::Ints(op::kernels::Padding4(args.padding, "nn.conv2d"))},
          {"dilation", AttrValue::Ints(op::NormalizePair(args.dilation))},
          {"groups", AttrValue::Int(args.groups)},
          {"channels", op::OptionalInt(args.channels)},
          {"kernel_size", op::OptionalInts(kernel_size)},
          {"data_layout", AttrValue::Str(args.data_layout)},
          {"kernel_layout", AttrValue::Str(args.kernel_layout)},
          {"out_layout", AttrValue::Str(args.out_layout)},
          {"out_dtype", AttrValue::Str(args.out_dtype)},
      });
}

}  // namespace relaypass::relay::nn
