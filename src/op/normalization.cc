// More of the nn family: nn.prelu, nn.lrn, nn.instance_norm, nn.layer_norm and
// nn.batch_matmul, with TVM's attrs, relations and patterns.
#include <string>

#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* PReluAttrs() {
  static const AttrsSchema schema("relay.attrs.PReluAttrs", {AttrsSchema::Int("axis", 1)});
  return &schema;
}
const AttrsSchema* LRNAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.LRNAttrs",
      {AttrsSchema::Int("size", 5), AttrsSchema::Int("axis", 1), AttrsSchema::Double("bias", 2),
       AttrsSchema::Double("alpha", 0.00001), AttrsSchema::Double("beta", 0.75)});
  return &schema;
}
std::vector<ir::AttrField> NormFields(int64_t axis) {
  return {AttrsSchema::Int("axis", axis), AttrsSchema::Double("epsilon", 1e-5),
          AttrsSchema::Bool("center", true), AttrsSchema::Bool("scale", true)};
}
const AttrsSchema* InstanceNormAttrs() {
  static const AttrsSchema schema("relay.attrs.InstanceNormAttrs", NormFields(1));
  return &schema;
}
const AttrsSchema* LayerNormAttrs() {
  static const AttrsSchema schema("relay.attrs.LayerNormAttrs", NormFields(-1));
  return &schema;
}
const AttrsSchema* BatchMatmulAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.BatchMatmulAttrs",
      {AttrsSchema::DType("out_dtype", ""), AttrsSchema::Bool("transpose_a", false),
       AttrsSchema::Bool("transpose_b", true)});
  return &schema;
}

// TVM's PReluRel: alpha is [data.shape[axis]].
bool PReluRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const int axis =
      NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), "nn.prelu: axis");
  call.Assign(1, ir::TensorType({data->shape[axis]}, data->dtype));
  call.AssignResult(ir::Type(data));
  return true;
}

bool LRNRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), "nn.lrn: axis");
  if (AttrsOf(call).get_int("size") < 1) call.Fail("nn.lrn: size must be positive");
  call.AssignResult(ir::Type(data));
  return true;
}

// TVM's InstanceNormRel and LayerNormRel: gamma and beta are [data.shape[axis]].
bool NormRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const int axis =
      NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), call.op_name() + ": axis");
  ir::Type vec = ir::TensorType({data->shape[axis]}, data->dtype);
  call.Assign(1, vec);
  call.Assign(2, vec);
  call.AssignResult(ir::Type(data));
  return true;
}

// TVM v0.13's BatchMatmulRel: x [b, m, k] ([b, k, m] with transpose_a), y [b, k, n] ([b, n, k]
// with transpose_b); a batch of 1 broadcasts.
bool BatchMatmulRel(TypeRelationCall& call) {
  TensorTypeRef x = TensorOf(call, 0);
  TensorTypeRef y = TensorOf(call, 1);
  if (!x || !y) return false;
  if (x->ndim() != 3 || y->ndim() != 3) {
    call.Fail("nn.batch_matmul: both operands must be 3-D, got " + TypeString(x) + " and " +
              TypeString(y));
  }
  const ir::AttrsNode& attrs = AttrsOf(call);
  const bool ta = attrs.get_bool("transpose_a"), tb = attrs.get_bool("transpose_b");
  const Dim m = ta ? x->shape[2] : x->shape[1], xk = ta ? x->shape[1] : x->shape[2];
  const Dim n = tb ? y->shape[1] : y->shape[2], yk = tb ? y->shape[2] : y->shape[1];
  if (!IsAny(xk) && !IsAny(yk) && xk != yk) {
    call.Fail("nn.batch_matmul: reduction dimensions differ, " + TypeString(x) + " and " +
              TypeString(y));
  }
  const Dim bx = x->shape[0], by = y->shape[0];
  if (!IsAny(bx) && !IsAny(by) && bx != by && bx != 1 && by != 1) {
    call.Fail("nn.batch_matmul: batch dimensions do not broadcast, " + TypeString(x) + " and " +
              TypeString(y));
  }
  // NumPy's broadcast: a batch of 1 against an empty batch is empty (TVM's max(bx, by) would
  // index into the empty operand).
  // The same symbolic batch on both sides stays itself (TVM's max(b, b)).
  const Dim b = bx == by                 ? bx
                : IsAny(bx) || IsAny(by) ? kAnyDim
                : (bx == 0 || by == 0)   ? 0
                                         : std::max(bx, by);
  call.AssignResult(ir::TensorType({b, m, n}, DTypeOr(attrs.get("out_dtype"), x->dtype)));
  return true;
}

}  // namespace

void RegisterNormalizationOps(OpRegistry& registry) {
  OpDef& prelu = RegisterOp(registry, "nn.prelu", 2, OpPattern::kBroadcast, PReluRel,
                            "Parametric ReLU: x, or alpha[c] * x below zero along `axis`.");
  prelu.attrs_schema = PReluAttrs();
  prelu.kernel = kernels::PRelu;
  prelu.infer_layout = layout_rules::PRelu;
  OpDef& lrn = RegisterOp(registry, "nn.lrn", 1, OpPattern::kOpaque, LRNRel,
                          "Local response normalization across `size` neighbours on `axis`.");
  lrn.attrs_schema = LRNAttrs();
  lrn.kernel = kernels::LRN;
  OpDef& instance_norm =
      RegisterOp(registry, "nn.instance_norm", 3, OpPattern::kOpaque, NormRel,
                 "Normalizes each instance and channel over the remaining axes.");
  instance_norm.attrs_schema = InstanceNormAttrs();
  instance_norm.kernel = kernels::InstanceNorm;
  instance_norm.infer_layout = layout_rules::Normalization;
  OpDef& layer_norm = RegisterOp(registry, "nn.layer_norm", 3, OpPattern::kOpaque, NormRel,
                                 "Normalizes over `axis`, then scales and shifts.");
  layer_norm.attrs_schema = LayerNormAttrs();
  layer_norm.kernel = kernels::LayerNorm;
  layer_norm.infer_layout = layout_rules::Normalization;
  OpDef& batch_matmul =
      RegisterOp(registry, "nn.batch_matmul", 2, OpPattern::kOutEWiseFusable, BatchMatmulRel,
                 "Batched matrix product of 3-D tensors (y transposed by default).");
  batch_matmul.attrs_schema = BatchMatmulAttrs();
  batch_matmul.kernel = kernels::BatchMatmul;
}

}  // namespace relaypass::op

namespace relaypass::relay::nn {

using ir::AttrValue;
using op::CallOp;

Expr prelu(Expr data, Expr alpha, int axis) {
  return CallOp("nn.prelu", {std::move(data), std::move(alpha)}, {{"axis", AttrValue::Int(axis)}});
}

Expr lrn(Expr data, int size, int axis, double bias, double alpha, double beta) {
  return CallOp("nn.lrn", {std::move(data)},
                {{"size", AttrValue::Int(size)},
                 {"axis", AttrValue::Int(axis)},
                 {"bias", AttrValue::Double(bias)},
                 {"alpha", AttrValue::Double(alpha)},
                 {"beta", AttrValue::Double(beta)}});
}

namespace {
Expr Norm(const char* name, Expr data, Expr gamma, Expr beta, int axis, double epsilon, bool center,
          bool scale) {
  return CallOp(name, {std::move(data), std::move(gamma), std::move(beta)},
                {{"axis", AttrValue::Int(axis)},
                 {"epsilon", AttrValue::Double(epsilon)},
                 {"center", AttrValue::Bool(center)},
                 {"scale", AttrValue::Bool(scale)}});
}
}  // namespace

Expr instance_norm(Expr data, Expr gamma, Expr beta, int axis, double epsilon, bool center,
                   bool scale) {
  return Norm("nn.instance_norm", std::move(data), std::move(gamma), std::move(beta), axis, epsilon,
              center, scale);
}

Expr layer_norm(Expr data, Expr gamma, Expr beta, int axis, double epsilon, bool center,
                bool scale) {
  return Norm("nn.layer_norm", std::move(data), std::move(gamma), std::move(beta), axis, epsilon,
              center, scale);
}

Expr batch_matmul(Expr x, Expr y, const std::string& out_dtype, bool transpose_a,
                  bool transpose_b) {
  return CallOp("nn.batch_matmul", {std::move(x), std::move(y)},
                {{"out_dtype", AttrValue::Str(out_dtype)},
                 {"transpose_a", AttrValue::Bool(transpose_a)},
                 {"transpose_b", AttrValue::Bool(transpose_b)}});
}

}  // namespace relaypass::relay::nn
