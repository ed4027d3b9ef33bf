// Elementwise and broadcast ops: binary arithmetic and comparisons (broadcasting), unary math,
// clip, nn.relu and nn.leaky_relu, logical ops, element tests (isnan, ...), where, and the
// constant makers (full, zeros, ones, zeros_like, ones_like).
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

const ir::AttrsSchema* InitOpAttrs() {
  static const ir::AttrsSchema schema(
      "relay.attrs.InitOpAttrs",
      {ir::AttrsSchema::NullableIntArray("shape"), ir::AttrsSchema::DType("dtype", "")});
  return &schema;
}

// TVM's IdentityCompRel: the input's shape with a bool dtype (isnan, isinf, isfinite).
bool IdentityCompRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  call.AssignResult(ir::TensorType(data->shape, ir::DataType::Bool()));
  return true;
}

// TVM's logical ops take bool operands only.
bool LogicalRel(TypeRelationCall& call) {
  for (size_t i = 0; i < call.num_args(); ++i) {
    TensorTypeRef t = TensorOf(call, i);
    if (t && !t->dtype.is_bool()) {
      call.Fail(call.op_name() + " requires bool operands, got " + TypeString(t));
    }
  }
  return call.num_args() == 1 ? IdentityRel(call) : BroadcastRel(call);
}

// TVM's WhereRel: condition, x and y broadcast together; x and y have one dtype.
bool WhereRel(TypeRelationCall& call) {
  TensorTypeRef cond = TensorOf(call, 0);
  TensorTypeRef x = TensorOf(call, 1);
  TensorTypeRef y = TensorOf(call, 2);
  if (!cond || !x || !y) return false;
  if (x->dtype != y->dtype) {
    call.Fail("where: x and y must have the same dtype, got " + TypeString(x) + " and " +
              TypeString(y));
  }
  std::optional<Shape> xy = BroadcastShape(x->shape, y->shape);
  if (!xy) call.Fail("where: x " + TypeString(x) + " and y " + TypeString(y) + " do not broadcast");
  std::optional<Shape> out = BroadcastShape(cond->shape, *xy);
  if (!out) {
    call.Fail("where: condition " + TypeString(cond) + " does not broadcast with " +
              ShapeToString(*xy));
  }
  call.AssignResult(ir::TensorType(*out, x->dtype));
  return true;
}

// full(fill_value) / zeros / ones: the static `shape` attribute, `dtype` (or the fill value's).
bool InitOpRel(TypeRelationCall& call) {
  const ir::AttrsNode& attrs = AttrsOf(call);
  ir::DataType dtype = ir::DataType::Float32();
  if (call.num_args() == 1) {
    TensorTypeRef fill = TensorOf(call, 0);
    if (!fill) return false;
    if (fill->ndim() != 0) call.Fail(call.op_name() + ": fill_value must be a scalar");
    dtype = fill->dtype;
  }
  dtype = DTypeOr(attrs.get("dtype"), dtype);
  std::vector<int64_t> shape = IntsAttr(call, "shape");
  for (int64_t d : shape) {
    if (d < 0) call.Fail(call.op_name() + ": negative dimension in shape");
  }
  call.AssignResult(ir::TensorType(Shape(shape.begin(), shape.end()), dtype));
  return true;
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
      {"floor_mod", "Elementwise remainder with the divisor's sign (numpy.mod).",
       kernels::FloorModK},
      {"mod", "Elementwise remainder with the dividend's sign (numpy.fmod).", kernels::TruncModK},
      {"right_shift", "Elementwise arithmetic right shift of integers.", kernels::RightShift},
      {"left_shift", "Elementwise left shift of integers.", kernels::LeftShift},
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
      {"tan", "Elementwise tangent.", kernels::Tan},
      {"sinh", "Elementwise hyperbolic sine.", kernels::Sinh},
      {"cosh", "Elementwise hyperbolic cosine.", kernels::Cosh},
      {"asin", "Elementwise arcsine.", kernels::Asin},
      {"acos", "Elementwise arccosine.", kernels::Acos},
      {"atan", "Elementwise arctangent.", kernels::Atan},
      {"asinh", "Elementwise inverse hyperbolic sine.", kernels::Asinh},
      {"acosh", "Elementwise inverse hyperbolic cosine.", kernels::Acosh},
      {"atanh", "Elementwise inverse hyperbolic tangent.", kernels::Atanh},
      {"sign", "Elementwise sign: -1, 0 or 1.", kernels::Sign},
      {"zeros_like", "Zeros of the input's shape and dtype.", kernels::ZerosLike},
      {"ones_like", "Ones of the input's shape and dtype.", kernels::OnesLike},
      {"copy", "A copy of the input.", kernels::Copy},
  };
  for (const NamedOp& op : unary) {
    OpDef& def =
        RegisterOp(registry, op.name, 1, OpPattern::kElemWise, IdentityRel, op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::ElemwiseArbitrary;
  }
  const NamedOp tests[] = {
      {"isnan", "Elementwise test for NaN; bool result.", kernels::IsNan},
      {"isinf", "Elementwise test for an infinity; bool result.", kernels::IsInf},
      {"isfinite", "Elementwise test for a finite value; bool result.", kernels::IsFinite},
  };
  for (const NamedOp& op : tests) {
    OpDef& def =
        RegisterOp(registry, op.name, 1, OpPattern::kElemWise, IdentityCompRel, op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::ElemwiseArbitrary;
  }
  const NamedOp logical[] = {
      {"logical_and", "Elementwise logical and of bool tensors, with broadcasting.",
       kernels::LogicalAnd},
      {"logical_or", "Elementwise logical or of bool tensors, with broadcasting.",
       kernels::LogicalOr},
      {"logical_xor", "Elementwise logical xor of bool tensors, with broadcasting.",
       kernels::LogicalXor},
  };
  for (const NamedOp& op : logical) {
    OpDef& def =
        RegisterOp(registry, op.name, 2, OpPattern::kBroadcast, LogicalRel, op.description);
    def.kernel = op.kernel;
    def.infer_layout = layout_rules::BinaryBroadcast;
  }
  OpDef& logical_not = RegisterOp(registry, "logical_not", 1, OpPattern::kElemWise, LogicalRel,
                                  "Elementwise logical not of a bool tensor.");
  logical_not.kernel = kernels::LogicalNot;
  logical_not.infer_layout = layout_rules::ElemwiseArbitrary;
  OpDef& where = RegisterOp(registry, "where", 3, OpPattern::kBroadcast, WhereRel,
                            "x where condition is true, else y (the three broadcast together).");
  where.kernel = kernels::Where;
  OpDef& full = RegisterOp(registry, "full", 1, OpPattern::kElemWise, InitOpRel,
                           "The scalar fill_value broadcast to a static shape.");
  full.attrs_schema = InitOpAttrs();
  full.kernel = kernels::Full;
  OpDef& zeros = RegisterOp(registry, "zeros", 0, OpPattern::kElemWise, InitOpRel,
                            "Zeros of a static shape and dtype.");
  zeros.attrs_schema = InitOpAttrs();
  zeros.kernel = kernels::Zeros;
  OpDef& ones = RegisterOp(registry, "ones", 0, OpPattern::kElemWise, InitOpRel,
                           "Ones of a static shape and dtype.");
  ones.attrs_schema = InitOpAttrs();
  ones.kernel = kernels::Ones;
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

Expr sign(Expr x) {
  return CallOp("sign", {std::move(x)});
}
Expr isnan(Expr x) {
  return CallOp("isnan", {std::move(x)});
}
Expr isinf(Expr x) {
  return CallOp("isinf", {std::move(x)});
}
Expr logical_not(Expr x) {
  return CallOp("logical_not", {std::move(x)});
}
Expr logical_and(Expr a, Expr b) {
  return CallOp("logical_and", {std::move(a), std::move(b)});
}
Expr logical_or(Expr a, Expr b) {
  return CallOp("logical_or", {std::move(a), std::move(b)});
}
Expr logical_xor(Expr a, Expr b) {
  return CallOp("logical_xor", {std::move(a), std::move(b)});
}
Expr floor_mod(Expr a, Expr b) {
  return CallOp("floor_mod", {std::move(a), std::move(b)});
}
Expr mod(Expr a, Expr b) {
  return CallOp("mod", {std::move(a), std::move(b)});
}
Expr zeros_like(Expr x) {
  return CallOp("zeros_like", {std::move(x)});
}
Expr ones_like(Expr x) {
  return CallOp("ones_like", {std::move(x)});
}
Expr full(Expr fill_value, const Ints& shape, const std::string& dtype) {
  return CallOp("full", {std::move(fill_value)},
                {{"shape", ir::AttrValue::Ints(shape)}, {"dtype", ir::AttrValue::Str(dtype)}});
}
Expr zeros(const Ints& shape, const std::string& dtype) {
  return CallOp("zeros", {},
                {{"shape", ir::AttrValue::Ints(shape)}, {"dtype", ir::AttrValue::Str(dtype)}});
}
Expr ones(const Ints& shape, const std::string& dtype) {
  return CallOp("ones", {},
                {{"shape", ir::AttrValue::Ints(shape)}, {"dtype", ir::AttrValue::Str(dtype)}});
}
Expr where(Expr condition, Expr x, Expr y) {
  return CallOp("where", {std::move(condition), std::move(x), std::move(y)});
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
