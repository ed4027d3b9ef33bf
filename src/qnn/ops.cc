// The qnn.* operators (TVM v0.13's src/relay/qnn/op/*.cc registrations): attrs, arity, type
// relation and a kernel that evaluates the op's lowering, so the evaluator (and FoldConstant with
// fold_qnn) computes exactly what the canonicalized graph computes.
#include <string>
#include <utility>

#include "canonicalize.h"
#include "relations.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/value.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/qnn/qnn.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "simulated_quantize.h"

namespace relaypass::qnn {

namespace {

using ir::AttrsSchema;

const AttrsSchema* QuantizeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.QuantizeAttrs",
      {AttrsSchema::DType("out_dtype", "int8"), AttrsSchema::Int("axis", -1)});
  return &schema;
}
const AttrsSchema* DequantizeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.DequantizeAttrs",
      {AttrsSchema::DType("out_dtype", "float32"), AttrsSchema::Int("axis", -1)});
  return &schema;
}
const AttrsSchema* RequantizeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.RequantizeAttrs",
      {AttrsSchema::Int("axis", -1), AttrsSchema::String("rounding", "None"),
       AttrsSchema::String("compute_dtype", "None"), AttrsSchema::DType("out_dtype", "")});
  return &schema;
}
const AttrsSchema* BroadcastAttrs() {
  static const AttrsSchema schema("relay.attrs.BroadcastAttrs", {AttrsSchema::Int("lhs_axis", -1),
                                                                 AttrsSchema::Int("rhs_axis", -1)});
  return &schema;
}

const AttrsSchema* SchemaOf(const ir::OpRegistry& registry, const std::string& nn_op) {
  const ir::OpDef* def = registry.Find(nn_op);
  if (def == nullptr || def->attrs_schema == nullptr) {
    throw InternalError("qnn: the op layer's " + nn_op + " is not registered");
  }
  return def->attrs_schema;
}

// The evaluator's kernel of a qnn op: the call rebuilt on constants, typed, lowered and
// evaluated. A tuple argument (qnn.concatenate's data, scales and zero points) arrives as its
// fields.
op::Kernel LoweringKernel(const std::string& name) {
  return [name](const std::vector<ir::NDArray>& inputs, const ir::Attrs& attrs,
                const ir::Type&) -> std::vector<ir::NDArray> {
    std::vector<ir::Expr> args;
    if (name == "qnn.concatenate") {
      if (inputs.size() < 5 || (inputs.size() - 2) % 3 != 0) {
        throw ValueError(
            "qnn.concatenate: expected n inputs, n scales, n zero points, an output "
            "scale and zero point, got " +
            std::to_string(inputs.size()) + " tensors");
      }
      const size_t n = (inputs.size() - 2) / 3;
      for (size_t group = 0; group < 3; ++group) {
        std::vector<ir::Expr> fields;
        for (size_t i = 0; i < n; ++i) fields.push_back(relay::const_(inputs[group * n + i]));
        args.push_back(relay::tuple(fields));
      }
      args.push_back(relay::const_(inputs[3 * n]));
      args.push_back(relay::const_(inputs[3 * n + 1]));
    } else {
      for (const ir::NDArray& input : inputs) args.push_back(relay::const_(input));
    }
    ir::Expr call = ir::MakeCall(ir::GetOp(name), std::move(args), attrs);
    ir::Expr lowered = LowerQnnCalls(ir::InferExprTypes(call));
    return eval::FlattenTensors(eval::Evaluate(lowered));
  };
}

op::OpDef& Register(op::OpRegistry& registry, const std::string& name, int num_inputs,
                    ir::TypeRelation relation, const AttrsSchema* schema, std::string description) {
  op::OpDef& def = registry.Register(name);
  def.num_inputs = num_inputs;
  def.type_relation = std::move(relation);
  def.attrs_schema = schema;
  def.pattern = ir::OpPattern::kOpaque;
  def.description = std::move(description);
  def.kernel = LoweringKernel(name);
  return def;
}

}  // namespace

void RegisterQnnOps(ir::OpRegistry& ir_registry) {
  op::OpRegistry registry(ir_registry);
  Register(registry, "qnn.quantize", 3, QuantizeRel(), QuantizeAttrs(),
           "Quantizes float data: clip(round(data / scale) + zero_point) in out_dtype.");
  Register(registry, "qnn.dequantize", 3, DequantizeRel(), DequantizeAttrs(),
           "Dequantizes integer data: scale * (data - zero_point).");
  Register(registry, "qnn.requantize", 5, RequantizeRel(), RequantizeAttrs(),
           "Converts quantized data to another scale and zero point.");
  RegisterSimulatedQuantizeOps(registry);
  for (const char* name : {"qnn.add", "qnn.subtract", "qnn.mul"}) {
    Register(registry, name, 8, BinaryRel(ir_registry), BroadcastAttrs(),
             std::string("Quantized ") + (name + 4) + " with numpy-style broadcasting.");
  }
  Register(registry, "qnn.dense", 6, DenseRel(ir_registry), SchemaOf(ir_registry, "nn.dense"),
           "Quantized dense: int32 sums of (data - zp) * (weight - zp).");
  Register(registry, "qnn.conv2d", 6, Conv2DRel(ir_registry), SchemaOf(ir_registry, "nn.conv2d"),
           "Quantized 2D convolution with int32 accumulation.");
  Register(registry, "qnn.conv2d_transpose", 6, Conv2DTransposeRel(ir_registry),
           SchemaOf(ir_registry, "nn.conv2d_transpose"),
           "Quantized transposed 2D convolution with int32 accumulation.");
  Register(registry, "qnn.batch_matmul", 6, BatchMatmulRel(ir_registry),
           SchemaOf(ir_registry, "nn.batch_matmul"),
           "Quantized batch matmul with int32 accumulation.");
  Register(registry, "qnn.concatenate", 5, ConcatenateRel(ir_registry),
           SchemaOf(ir_registry, "concatenate"),
           "Concatenates quantized tensors, requantized to the output's parameters.");
  Register(registry, "qnn.leaky_relu", 5, UnaryRel(), SchemaOf(ir_registry, "nn.leaky_relu"),
           "Quantized leaky relu: the input requantized to the output's parameters, the "
           "negative side scaled by alpha in fixed point.");
  Register(registry, "qnn.avg_pool2d", 5, AvgPool2DRel(ir_registry),
           SchemaOf(ir_registry, "nn.avg_pool2d"),
           "Quantized 2D average pooling: the input requantized to the output's parameters in "
           "int32, averaged, saturated.");
  Register(registry, "qnn.softmax", 5, SoftmaxRel(), SchemaOf(ir_registry, "nn.softmax"),
           "Quantized softmax of int8 data by integer arithmetic (shifts for exp).");
  for (const char* name : {"qnn.tanh", "qnn.exp", "qnn.sqrt", "qnn.rsqrt", "qnn.erf", "qnn.sigmoid",
                           "qnn.hardswish", "qnn.log", "qnn.abs"}) {
    Register(registry, name, 5, UnaryRel(), nullptr,
             std::string("Quantized ") + (name + 4) + ": dequantize, compute, quantize.");
  }
}

}  // namespace relaypass::qnn
