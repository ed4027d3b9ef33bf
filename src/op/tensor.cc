// Elementwise and broadcast ops: binary arithmetic and comparisons (broadcasting), unary math,
// clip, nn.relu and nn.leaky_relu.
#include "families.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

// Schemas are function-local statics so they exist whenever the registry is first built, even
// during another file's static initialisation.
const ir::AttrsSchema* ClipAttrs() {
  static const ir::AttrsSchema schema(
      "relay.attrs.ClipAttrs",
      {ir::AttrsSchema::RequiredDouble("a_min"), ir::AttrsSchema::RequiredDouble("a_max")});
  return &schema;
}

const ir::AttrsSchema* LeakyReluAttrs() {
  static const ir::AttrsSchema schema("relay.attrs.LeakyReluAttrs",
                                      {ir::AttrsSchema::Double("alpha", 0.25)});
  return &schema;
}

struct NamedOp {
  const char* name;
  const char* description;
  kernels::KernelFn* kernel;
};

}  // namespace

void RegisterTensorOps(OpRegistry& registry) {
  const NamedOp binary[] = {
      {"add", "Elementwise addition with numpy-style broadcasting.", kernels::Add},
      {"subtract", "Elementwise subtraction with numpy-style broadcasting.", kernels::Subtract},
      {"multiply", "Elementwise multiplication with numpy-style broadcasting.", kernels::Multiply},
      {"divide", "Elementwise division with numpy-style broadcasting.", kernels::Divide},
      {"maximum", "Elementwise maximum with numpy-style broadcasting.", kernels::Maximum},
      {"minimum", "Elementwise minimum with numpy-style broadcasting.", kernels::Minimum},
      {"power", "Elementwise power with numpy-style broadcasting.", kernels::Power},
  };
  for (const NamedOp& op : binary) {
    OpDef& def =
        RegisterOp(registry, op.name, 2, OpPattern::kBroadcast, BroadcastRel, op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::BinaryBroadcast;
  }
  const NamedOp compare[] = {
      {"less", "Elementwise lhs < rhs with broadcasting; bool result.", kernels::Less},
      {"greater", "Elementwise lhs > rhs with broadcasting; bool result.", kernels::Greater},
      {"equal", "Elementwise lhs == rhs with broadcasting; bool result.", kernels::Equal},
      {"not_equal", "Elementwise lhs != rhs with broadcasting; bool result.", kernels::NotEqual},
      {"less_equal", "Elementwise lhs <= rhs with broadcasting; bool result.", kernels::LessEqual},
      {"greater_equal", "Elementwise lhs >= rhs with broadcasting; bool result.",
       kernels::GreaterEqual},
  };
  for (const NamedOp& op : compare) {
    OpDef& def = RegisterOp(registry, op.name, 2, OpPattern::kBroadcast, BroadcastCompareRel,
                            op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::BinaryBroadcast;
  }
  const NamedOp unary[] = {
      {"negative", "Elementwise negation.", kernels::Negative},
      {"sqrt", "Elementwise square root.", kernels::Sqrt},
      {"rsqrt", "Elementwise reciprocal square root, 1/sqrt(x).", kernels::Rsqrt},
      {"exp", "Elementwise exponential.", kernels::Exp},
      {"log", "Elementwise natural logarithm.", kernels::Log},
      {"tanh", "Elementwise hyperbolic tangent.", kernels::Tanh},
      {"sigmoid", "Elementwise logistic sigmoid, 1/(1+exp(-x)).", kernels::Sigmoid},
      {"nn.relu", "Rectified linear unit, max(x, 0).", kernels::Relu},
      {"abs", "Elementwise absolute value.", kernels::Abs},
      {"floor", "Elementwise floor.", kernels::Floor},
      {"ceil", "Elementwise ceiling.", kernels::Ceil},
      {"round", "Elementwise rounding to the nearest integer, halves to even.", kernels::Round},
      {"trunc", "Elementwise rounding toward zero.", kernels::Trunc},
      {"sin", "Elementwise sine.", kernels::Sin},
      {"cos", "Elementwise cosine.", kernels::Cos},
      {"erf", "Elementwise Gauss error function.", kernels::Erf},
  };
  for (const NamedOp& op : unary) {
    OpDef& def =
        RegisterOp(registry, op.name, 1, OpPattern::kElemWise, IdentityRel, op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::ElemwiseArbitrary;
  }
  OpDef& clip = RegisterOp(registry, "clip", 1, OpPattern::kElemWise, IdentityRel,
                           "Clips every element into [a_min, a_max].");
  clip.attrs_schema = ClipAttrs();
  clip.kernel = kernels::Clip;
  clip.infer_layout = layout_rules::ElemwiseArbitrary;
  OpDef& leaky_relu = RegisterOp(registry, "nn.leaky_relu", 1, OpPattern::kElemWise, IdentityRel,
                                 "Leaky rectified linear unit: x, or alpha * x below zero.");
  leaky_relu.attrs_schema = LeakyReluAttrs();
  leaky_relu.kernel = kernels::LeakyRelu;
  leaky_relu.infer_layout = layout_rules::ElemwiseArbitrary;
}

}  // namespace relaypass::op

namespace relaypass::relay {

using op::CallOp;

Expr add(Expr a, Expr b) {
  return CallOp("add", {std::move(a), std::move(b)});
}
Expr subtract(Expr a, Expr b) {
  return CallOp("subtract", {std::move(a), std::move(b)});
}
Expr multiply(Expr a, Expr b) {
  return CallOp("multiply", {std::move(a), std::move(b)});
}
Expr divide(Expr a, Expr b) {
  return CallOp("divide", {std::move(a), std::move(b)});
}
Expr maximum(Expr a, Expr b) {
  return CallOp("maximum", {std::move(a), std::move(b)});
}
Expr minimum(Expr a, Expr b) {
  return CallOp("minimum", {std::move(a), std::move(b)});
}
Expr power(Expr a, Expr b) {
  return CallOp("power", {std::move(a), std::move(b)});
}
Expr negative(Expr x) {
  return CallOp("negative", {std::move(x)});
}
Expr sqrt(Expr x) {
  return CallOp("sqrt", {std::move(x)});
}
Expr rsqrt(Expr x) {
  return CallOp("rsqrt", {std::move(x)});
}
Expr exp(Expr x) {
  return CallOp("exp", {std::move(x)});
}
Expr log(Expr x) {
  return CallOp("log", {std::move(x)});
}
Expr tanh(Expr x) {
  return CallOp("tanh", {std::move(x)});
}
Expr sigmoid(Expr x) {
  return CallOp("sigmoid", {std::move(x)});
}
Expr clip(Expr x, double a_min, double a_max) {
  return CallOp("clip", {std::move(x)},
                {{"a_min", ir::AttrValue::Double(a_min)}, {"a_max", ir::AttrValue::Double(a_max)}});
}

Expr abs(Expr x) {
  return CallOp("abs", {std::move(x)});
}
Expr round(Expr x) {
  return CallOp("round", {std::move(x)});
}

namespace nn {
Expr relu(Expr x) {
  return CallOp("nn.relu", {std::move(x)});
}
Expr leaky_relu(Expr x, double alpha) {
  return CallOp("nn.leaky_relu", {std::move(x)}, {{"alpha", ir::AttrValue::Double(alpha)}});
}
}  // namespace nn

}  // namespace relaypass::relay
