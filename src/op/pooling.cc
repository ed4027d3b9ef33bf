// 2D pooling: nn.max_pool2d, nn.avg_pool2d, nn.global_avg_pool2d, nn.global_max_pool2d (attrs,
// relations, builders).
#include <string>

#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

std::vector<ir::AttrField> Pool2DFields() {
  return {
      AttrsSchema::RequiredIntArray("pool_size"), AttrsSchema::IntArray("strides", {1, 1}),
      AttrsSchema::IntArray("dilation", {1, 1}),  AttrsSchema::IntArray("padding", {0, 0}),
      AttrsSchema::String("layout", "NCHW"),      AttrsSchema::String("out_layout", ""),
      AttrsSchema::Bool("ceil_mode", false),
  };
}

const AttrsSchema* MaxPool2DAttrs() {
  static const AttrsSchema schema("relay.attrs.MaxPool2DAttrs", Pool2DFields());
  return &schema;
}

const AttrsSchema* AvgPool2DAttrs() {
  static const AttrsSchema schema("relay.attrs.AvgPool2DAttrs", [] {
    std::vector<ir::AttrField> fields = Pool2DFields();
    fields.push_back(AttrsSchema::Bool("count_include_pad", false));
    return fields;
  }());
  return &schema;
}

const AttrsSchema* GlobalPool2DAttrs() {
  static const AttrsSchema schema("relay.attrs.GlobalPool2DAttrs",
                                  {
                                      AttrsSchema::String("layout", "NCHW"),
                                      AttrsSchema::String("out_layout", ""),
                                  });
  return &schema;
}

// Positions of H and W in the pooling layout, which must hold both unsplit.
std::pair<int, int> HeightWidthIndex(const TypeRelationCall& call, const TensorTypeRef& data,
                                     const std::string& layout_name) {
  Layout layout = ParseLayout(call, layout_name);
  if (!layout.Contains('H') || !layout.Contains('W') || layout.Contains('h') ||
      layout.Contains('w')) {
    call.Fail(call.op_name() + ": invalid layout " + layout_name +
              "; pooling layouts must have H and W, which cannot be split");
  }
  if (static_cast<size_t>(data->ndim()) != layout.ndim()) {
    call.Fail(call.op_name() + ": data " + TypeString(data) + " does not match layout " +
              layout_name);
  }
  return {layout.IndexOf('H'), layout.IndexOf('W')};
}

// TVM's calculate_pool_dimension (truncating division, as the values are non-negative).
Dim PoolOutDim(Dim in, Dim pad, int64_t pool, int64_t dilation, int64_t stride, bool ceil_mode) {
  if (IsAny(in)) return kAnyDim;
  // strides, dilation and pool_size are positive (PositiveIntsAttr).
  Dim numerator =
      CheckedSub(CheckedAdd(in, pad), CheckedAdd(CheckedMul(CheckedSub(pool, 1), dilation), 1));
  if (ceil_mode) numerator = CheckedAdd(numerator, CheckedSub(stride, 1));
  return CheckedAdd(stride == -1 ? CheckedMul(numerator, -1) : numerator / stride, 1);
}

// TVM's Pool2DRel, shared by max and avg pooling.
bool Pool2DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (data->ndim() < 2) {
    call.Fail(call.op_name() + " needs an input with height and width, got " + TypeString(data));
  }
  auto [h, w] = HeightWidthIndex(call, data, attrs.get_string("layout"));
  // TVM's relation never types another padding length; here that is an error naming it, as
  // conv2d's.
  const std::pair<Dim, Dim> pad = PaddingAttr(call, "padding");
  const std::vector<int64_t> pool = PositiveIntsAttr(call, "pool_size", 2);
  const std::vector<int64_t> strides = PositiveIntsAttr(call, "strides", 2);
  const std::vector<int64_t> dilation = PositiveIntsAttr(call, "dilation", 2);
  bool ceil_mode = attrs.get_bool("ceil_mode");
  Shape out = data->shape;
  out[h] = PoolOutDim(out[h], pad.first, pool[0], dilation[0], strides[0], ceil_mode);
  out[w] = PoolOutDim(out[w], pad.second, pool[1], dilation[1], strides[1], ceil_mode);
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

bool GlobalPool2DRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  if (data->ndim() < 2) {
    call.Fail(call.op_name() + " needs an input with height and width, got " + TypeString(data));
  }
  auto [h, w] = HeightWidthIndex(call, data, AttrsOf(call).get_string("layout"));
  Shape out = data->shape;
  out[h] = 1;
  out[w] = 1;
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterPoolingOps(OpRegistry& registry) {
  OpDef& max_pool = RegisterOp(registry, "nn.max_pool2d", 1, OpPattern::kOutEWiseFusable, Pool2DRel,
                               "2D max pooling over the H and W axes of the layout.");
  max_pool.attrs_schema = MaxPool2DAttrs();
  max_pool.kernel = kernels::MaxPool2D;
  max_pool.infer_layout = layout_rules::Pool2D;
  max_pool.convert_layout = layout_rules::ConvertPool2D("nn.max_pool2d");
  OpDef& avg_pool = RegisterOp(registry, "nn.avg_pool2d", 1, OpPattern::kOutEWiseFusable, Pool2DRel,
                               "2D average pooling over the H and W axes of the layout.");
  avg_pool.attrs_schema = AvgPool2DAttrs();
  avg_pool.kernel = kernels::AvgPool2D;
  avg_pool.infer_layout = layout_rules::Pool2D;
  avg_pool.convert_layout = layout_rules::ConvertPool2D("nn.avg_pool2d");
  OpDef& global_avg =
      RegisterOp(registry, "nn.global_avg_pool2d", 1, OpPattern::kOutEWiseFusable, GlobalPool2DRel,
                 "Average over the whole H and W extent; H and W become 1.");
  global_avg.attrs_schema = GlobalPool2DAttrs();
  global_avg.kernel = kernels::GlobalAvgPool2D;
  global_avg.infer_layout = layout_rules::Pool2D;
  global_avg.convert_layout = layout_rules::ConvertPool2D("nn.global_avg_pool2d");
  OpDef& global_max =
      RegisterOp(registry, "nn.global_max_pool2d", 1, OpPattern::kOutEWiseFusable, GlobalPool2DRel,
                 "Maximum over the whole H and W extent; H and W become 1.");
  global_max.attrs_schema = GlobalPool2DAttrs();
  global_max.kernel = kernels::GlobalMaxPool2D;
  global_max.infer_layout = layout_rules::Pool2D;
  global_max.convert_layout = layout_rules::ConvertPool2D("nn.global_max_pool2d");
}

}  // namespace relaypass::op

namespace relaypass::relay::nn {

namespace {

op::AttrValues Pool2DAttrValues(const Pool2DArgs& args) {
  using ir::AttrValue;
  return {
      {"pool_size", AttrValue::Ints(op::NormalizePair(args.pool_size))},
      {"strides", AttrValue::Ints(op::NormalizePair(args.strides))},
      {"dilation", AttrValue::Ints(op::NormalizePair(args.dilation))},
      {"padding", AttrValue::Ints(op::kernels::Padding4(args.padding, "2D pooling"))},
      {"layout", AttrValue::Str(args.layout)},
      {"out_layout", AttrValue::Str(args.out_layout)},
      {"ceil_mode", AttrValue::Bool(args.ceil_mode)},
  };
}

}  // namespace

Expr max_pool2d(Expr x, const Pool2DArgs& args) {
  return op::CallOp("nn.max_pool2d", {std::move(x)}, Pool2DAttrValues(args));
}

Expr avg_pool2d(Expr x, const Pool2DArgs& args) {
  op::AttrValues values = Pool2DAttrValues(args);
  values.emplace_back("count_include_pad", ir::AttrValue::Bool(args.count_include_pad));
  return op::CallOp("nn.avg_pool2d", {std::move(x)}, values);
}

Expr global_avg_pool2d(Expr x, const std::string& layout) {
  return op::CallOp("nn.global_avg_pool2d", {std::move(x)},
                    {{"layout", ir::AttrValue::Str(layout)}});
}

Expr global_max_pool2d(Expr x, const std::string& layout) {
  return op::CallOp("nn.global_max_pool2d", {std::move(x)},
                    {{"layout", ir::AttrValue::Str(layout)}});
}

}  // namespace relaypass::relay::nn
