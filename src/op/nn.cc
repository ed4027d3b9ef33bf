// The nn family: dense, bias_add, batch_norm, softmax, log_softmax, dropout, batch_flatten, pad
// and annotation.stop_fusion here;
// convolution and pooling in their own files.
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/ir/dim_expr.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* DenseAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.DenseAttrs",
      {AttrsSchema::RequiredIndexExpr("units"), AttrsSchema::DType("out_dtype", "")});
  return &schema;
}
const AttrsSchema* BiasAddAttrs() {
  static const AttrsSchema schema("relay.attrs.BiasAddAttrs", {AttrsSchema::Int("axis", 1)});
  return &schema;
}
const AttrsSchema* BatchNormAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.BatchNormAttrs",
      {AttrsSchema::Int("axis", 1), AttrsSchema::Double("epsilon", 1e-5),
       AttrsSchema::Bool("center", true), AttrsSchema::Bool("scale", true)});
  return &schema;
}
const AttrsSchema* SoftmaxAttrs() {
  static const AttrsSchema schema("relay.attrs.SoftmaxAttrs", {AttrsSchema::Int("axis", -1)});
  return &schema;
}
const AttrsSchema* DropoutAttrs() {
  static const AttrsSchema schema("relay.attrs.DropoutAttrs", {AttrsSchema::Double("rate", 0.5)});
  return &schema;
}
const AttrsSchema* PadAttrs() {
  static const AttrsSchema schema("relay.attrs.PadAttrs",
                                  {AttrsSchema::RequiredIntArrayArray("pad_width"),
                                   AttrsSchema::String("pad_mode", "constant")});
  return &schema;
}

// TVM's MatmulRel with dense semantics (weight is [units, in]). With `units` set the weight's
// type is assigned, which types untyped weights.
bool DenseRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef weight = TensorOf(call, 1);
  if (!data) return false;
  if (data->ndim() == 0) call.Fail("nn.dense: data must have rank >= 1, got a scalar");
  const ir::AttrsNode& attrs = AttrsOf(call);
  const Dim reduce = data->shape.back();
  Shape out = data->shape;
  const ir::AttrValue& units = attrs.get("units");
  if (!units.is_null()) {
    Shape w = {units.as_int(), reduce};
    if (weight && weight->is_static() && !IsAny(reduce) && weight->shape != w) {
      call.Fail("nn.dense: weight " + TypeString(weight) +
                " does not match units=" + units.ToString() + " and data " + TypeString(data) +
                " (expected weight shape " + ShapeToString(w) + ")");
    }
    call.Assign(1, ir::TensorType(w, weight ? weight->dtype : data->dtype));
    out.back() = units.as_int();
  } else {
    if (!weight) return false;
    if (weight->ndim() != 2) call.Fail("nn.dense: weight must be 2-D, got " + TypeString(weight));
    if (!IsAny(reduce) && !IsAny(weight->shape[1]) && reduce != weight->shape[1]) {
      call.Fail("nn.dense: input dimension doesn't match, data " + TypeString(data) + ", weight " +
                TypeString(weight));
    }
    out.back() = weight->shape[0];
  }
  call.AssignResult(ir::TensorType(out, DTypeOr(attrs.get("out_dtype"), data->dtype)));
  return true;
}

bool BiasAddRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  int axis = NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), "nn.bias_add: axis");
  call.Assign(1, ir::TensorType({data->shape[axis]}, data->dtype));
  call.AssignResult(ir::Type(data));
  return true;
}

// Assigns the four parameters [C] and returns (data type, [C], [C]).
bool BatchNormRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  int64_t axis = AttrsOf(call).get_int("axis");
  if (axis < -1 || axis >= data->ndim() || data->ndim() == 0) {
    call.Fail("nn.batch_norm: axis " + std::to_string(axis) + " is out of range for data " +
              TypeString(data) + " (expected [-1, " + std::to_string(data->ndim()) + "))");
  }
  if (axis == -1) axis = data->ndim() - 1;
  ir::Type vec = ir::TensorType({data->shape[axis]}, data->dtype);
  for (size_t i = 1; i <= 4; ++i) call.Assign(i, vec);
  call.AssignResult(ir::TupleType({ir::Type(data), vec, vec}));
  return true;
}

bool SoftmaxRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), call.op_name() + ": axis");
  call.AssignResult(ir::Type(data));
  return true;
}

// The result is (data type, data type): the output and the mask, as in TVM.
bool DropoutRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  call.AssignResult(ir::TupleType({ir::Type(data), ir::Type(data)}));
  return true;
}

// TVM's annotation.checkpoint takes any value (IdentityRel: the result is the argument's type)
// and its kernel returns each input tensor: a tensor or a tuple of tensors here (the evaluator
// passes a tuple's tensors flat, so nested tuples are refused).
bool CheckpointRel(TypeRelationCall& call) {
  ir::Type arg = call.arg(0);
  if (!arg || arg.as<ir::IncompleteTypeNode>()) return false;
  if (const auto* tuple = arg.as<ir::TupleTypeNode>()) {
    for (const ir::Type& field : tuple->fields) {
      if (!field || field.as<ir::IncompleteTypeNode>()) return false;
      if (!field.as<ir::TensorTypeNode>()) {
        call.Fail("annotation.checkpoint takes a tensor or a tuple of tensors, got " +
                  ir::TypeToString(arg));
      }
    }
  } else if (!arg.as<ir::TensorTypeNode>()) {
    call.Fail("annotation.checkpoint takes a tensor or a tuple of tensors, got " +
              ir::TypeToString(arg));
  }
  call.AssignResult(arg);
  return true;
}

std::vector<ir::NDArray> CheckpointKernel(const std::vector<ir::NDArray>& in, const ir::Attrs&,
                                          const ir::Type&) {
  return in;
}

bool BatchFlattenRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  if (data->ndim() == 0) call.Fail("nn.batch_flatten: data must have rank >= 1, got a scalar");
  // TVM's BatchFlattenRel: 1 * d1 * d2 ..., left to right (a symbolic extent gives TVM's
  // expression, `?` gives `?`).
  Dim flat = 1;
  for (int i = 1; i < data->ndim(); ++i) flat = ir::DimExprMul(flat, data->shape[i]);
  call.AssignResult(ir::TensorType({data->shape[0], flat}, data->dtype));
  return true;
}

bool PadRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrValue& pad_width = AttrsOf(call).get("pad_width");
  const std::vector<ir::AttrValue>& rows = pad_width.as_array();
  if (rows.size() != static_cast<size_t>(data->ndim())) {
    call.Fail("nn.pad: pad_width " + pad_width.ToString() + " has " + std::to_string(rows.size()) +
              " pairs but data " + TypeString(data) + " has rank " + std::to_string(data->ndim()));
  }
  Shape out = data->shape;
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<int64_t> pair = rows[i].as_ints();
    if (pair.size() != 2) {
      call.Fail("nn.pad: pad_width entry " + std::to_string(i) + " is " + rows[i].ToString() +
                ", not a [before, after] pair");
    }
    if (out[i] == kAnyDim) continue;
    const int64_t padding = CheckedAdd(pair[0], pair[1]);
    if (ir::IsSymbolicDim(out[i])) {  // TVM: `n + padding`, e.g. `n + -2`
      out[i] = ir::MakeDimExpr(ir::DimOp::kAdd, ir::DimOperand::Of(out[i]),
                               ir::DimOperand::Const(padding));
      continue;
    }
    out[i] = CheckedAdd(out[i], padding);
    if (out[i] < 0) {
      call.Fail("nn.pad: padding makes dimension " + std::to_string(i) + " of " + TypeString(data) +
                " negative");
    }
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterNNOps(OpRegistry& registry) {
  RegisterConvOps(registry);
  RegisterConv2DBackwardWeightOp(registry);  // after nn.conv2d: it shares its attrs
  RegisterConvNCHWcOps(registry);            // after nn.conv2d: they share its definition
  RegisterPoolingOps(registry);
  RegisterNormalizationOps(registry);
  RegisterMatmulOp(registry);
  RegisterConvNDOps(registry);
  RegisterAdaptivePoolOps(registry);
  RegisterGroupNormOps(registry);
  RegisterLossOps(registry);
  RegisterPadLikeOps(registry);
  RegisterCorrelationOp(registry);
  RegisterBitserialOps(registry);
  OpDef& dense = RegisterOp(registry, "nn.dense", 2, OpPattern::kOutEWiseFusable, DenseRel,
                            "Fully connected layer: data [.., in] x weight [units, in]^T.");
  dense.attrs_schema = DenseAttrs();
  dense.kernel = kernels::Dense;
  dense.infer_layout = layout_rules::Dense;
  OpDef& bias_add = RegisterOp(registry, "nn.bias_add", 2, OpPattern::kBroadcast, BiasAddRel,
                               "Adds a 1-D bias along `axis` of the data.");
  bias_add.attrs_schema = BiasAddAttrs();
  bias_add.kernel = kernels::BiasAdd;
  OpDef& batch_norm =
      RegisterOp(registry, "nn.batch_norm", 5, OpPattern::kOutEWiseFusable, BatchNormRel,
                 "Batch normalisation with moving statistics; returns (out, mean, var).");
  batch_norm.attrs_schema = BatchNormAttrs();
  batch_norm.kernel = kernels::BatchNorm;
  batch_norm.infer_layout = layout_rules::BatchNorm;
  OpDef& softmax = RegisterOp(registry, "nn.softmax", 1, OpPattern::kOutEWiseFusable, SoftmaxRel,
                              "Softmax along `axis`.");
  softmax.attrs_schema = SoftmaxAttrs();
  softmax.kernel = kernels::Softmax;
  OpDef& log_softmax = RegisterOp(registry, "nn.log_softmax", 1, OpPattern::kOutEWiseFusable,
                                  SoftmaxRel, "Logarithm of the softmax along `axis`.");
  log_softmax.attrs_schema = SoftmaxAttrs();
  log_softmax.kernel = kernels::LogSoftmax;
  // TVM registers it Opaque: FuseOps keeps its argument out of every group, so a fusion can be
  // cut by hand; FuseOps then replaces the call by its argument.
  OpDef& stop_fusion =
      RegisterOp(registry, "annotation.stop_fusion", 1, OpPattern::kOpaque, IdentityRel,
                 "Marks a fusion boundary; its value is its argument.");
  stop_fusion.kernel = kernels::Identity;
  stop_fusion.infer_layout = layout_rules::ElemwiseArbitrary;
  // TVM's gradient pass recomputes what it marks instead of keeping it; its value is its argument.
  OpDef& checkpoint =
      RegisterOp(registry, "annotation.checkpoint", 1, OpPattern::kOpaque, CheckpointRel,
                 "Marks a checkpoint for gradient recomputation; its value is its argument.");
  checkpoint.kernel = CheckpointKernel;
  checkpoint.infer_layout = layout_rules::ElemwiseArbitrary;
  OpDef& dropout = RegisterOp(registry, "nn.dropout", 1, OpPattern::kOpaque, DropoutRel,
                              "Dropout with probability `rate`; returns (out, mask).");
  dropout.attrs_schema = DropoutAttrs();
  dropout.stateful = true;
  dropout.kernel = kernels::Dropout;
  dropout.infer_layout = layout_rules::ElemwiseArbitrary;
  OpDef& batch_flatten =
      RegisterOp(registry, "nn.batch_flatten", 1, OpPattern::kInjective, BatchFlattenRel,
                 "Flattens all axes but the first: [d0, d1*...*dn].");
  batch_flatten.is_reshape_op = true;
  batch_flatten.kernel = kernels::BatchFlatten;
  OpDef& pad = RegisterOp(registry, "nn.pad", 2, OpPattern::kInjective, PadRel,
                          "Pads each axis by [before, after] with pad_value.");
  pad.attrs_schema = PadAttrs();
  pad.kernel = kernels::Pad;
  pad.infer_layout = layout_rules::Pad;
}

}  // namespace relaypass::op

namespace relaypass::relay::nn {

using ir::AttrValue;
using op::CallOp;

Expr batch_norm(Expr data, Expr gamma, Expr beta, Expr moving_mean, Expr moving_var,
                const BatchNormArgs& args) {
  return CallOp("nn.batch_norm",
                {std::move(data), std::move(gamma), std::move(beta), std::move(moving_mean),
                 std::move(moving_var)},
                {{"axis", AttrValue::Int(args.axis)},
                 {"epsilon", AttrValue::Double(args.epsilon)},
                 {"center", AttrValue::Bool(args.center)},
                 {"scale", AttrValue::Bool(args.scale)}});
}

Expr bias_add(Expr data, Expr bias, int axis) {
  return CallOp("nn.bias_add", {std::move(data), std::move(bias)},
                {{"axis", AttrValue::Int(axis)}});
}

Expr dense(Expr data, Expr weight, std::optional<int64_t> units, const std::string& out_dtype) {
  return CallOp("nn.dense", {std::move(data), std::move(weight)},
                {{"units", op::OptionalInt(units)}, {"out_dtype", AttrValue::Str(out_dtype)}});
}

Expr softmax(Expr x, int axis) {
  return CallOp("nn.softmax", {std::move(x)}, {{"axis", AttrValue::Int(axis)}});
}

Expr log_softmax(Expr x, int axis) {
  return CallOp("nn.log_softmax", {std::move(x)}, {{"axis", AttrValue::Int(axis)}});
}

Expr dropout(Expr x, double rate) {
  return CallOp("nn.dropout", {std::move(x)}, {{"rate", AttrValue::Double(rate)}});
}

Expr batch_flatten(Expr x) {
  return CallOp("nn.batch_flatten", {std::move(x)});
}

Expr pad(Expr x, const std::vector<Ints>& pad_width, Expr pad_value, const std::string& pad_mode) {
  std::vector<AttrValue> rows;
  for (const Ints& row : pad_width) rows.push_back(AttrValue::Ints(row));
  if (!pad_value) pad_value = relay::const_(int32_t{0});
  return CallOp(
      "nn.pad", {std::move(x), std::move(pad_value)},
      {{"pad_width", AttrValue::Array(std::move(rows))}, {"pad_mode", AttrValue::Str(pad_mode)}});
}

}  // namespace relaypass::relay::nn

namespace relaypass::relay {

Expr stop_fusion(Expr x) {
  return op::CallOp("annotation.stop_fusion", {std::move(x)});
}

}  // namespace relaypass::relay
