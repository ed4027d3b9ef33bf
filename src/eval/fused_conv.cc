#include "fused_conv.h"

#include <string>

#include "kernel_errors.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::eval {

namespace {

using Kind = op::EpilogueStep::Kind;

// The static float32 shape of a typed expression, or false.
bool Float32Shape(const ir::Expr& e, ir::Shape* shape) {
  const auto* tt = e->checked_type.defined() ? e->checked_type.as<ir::TensorTypeNode>() : nullptr;
  if (!tt || tt->dtype != ir::DataType::Float32() || !tt->is_static()) return false;
  *shape = tt->shape;
  return true;
}

// A parameter of fn or a constant as a kernel operand.
bool AsOperand(const ir::Expr& e, const ir::FunctionNode* fn, FusedConv::Operand* out) {
  if (const auto* c = e.as<ir::ConstantNode>()) {
    out->constant = c->data;
    return true;
  }
  for (size_t i = 0; i < fn->params.size(); ++i) {
    if (fn->params[i].get() == e.get()) {
      out->param = static_cast<int>(i);
      return true;
    }
  }
  return false;
}

// How an add's operand of `shape` combines with an output of `out`: one value per channel, one
// per element, or neither (false).
bool AddKind(const ir::Shape& shape, const ir::Shape& out, Kind* kind) {
  if (shape == out) {
    *kind = Kind::kAddTensor;
    return true;
  }
  const int64_t channels = out[1];
  if (shape == ir::Shape{channels, 1, 1} || shape == ir::Shape{1, channels, 1, 1}) {
    *kind = Kind::kAddChannel;
    return true;
  }
  return false;
}

// One op of the chain (`call`, whose result has shape `out`): its step, and in *next the
// argument that continues the chain towards the convolution. False if it is not an epilogue op.
bool MatchStep(const ir::CallNode* call, const ir::FunctionNode* fn, const ir::Shape& out,
               FusedConv::Step* step, const ir::Expr** next) {
  const std::string& name = call->op_node()->name;
  ir::Shape shape;
  if (!Float32Shape(ir::Expr(call), &shape) || shape != out) return false;
  const bool has_attrs = call->attrs.defined();
  if ((name == "nn.relu" || (name == "clip" && has_attrs)) && call->args.size() == 1) {
    step->kind = name == "clip" ? Kind::kClip : Kind::kRelu;
    if (name == "clip") {
      // As the clip kernel: the double bounds converted to the element type.
      step->lo = static_cast<float>(call->attrs->get_double("a_min"));
      step->hi = static_cast<float>(call->attrs->get_double("a_max"));
    }
    *next = &call->args[0];
    return true;
  }
  if (call->args.size() != 2) return false;
  if (name == "nn.bias_add" && has_attrs) {
    const int64_t axis = call->attrs->get_int("axis");
    if ((axis != 1 && axis != -3) || !Float32Shape(call->args[1], &shape) ||
        shape != ir::Shape{out[1]} || !AsOperand(call->args[1], fn, &step->operand)) {
      return false;
    }
    step->kind = Kind::kAddChannel;
    *next = &call->args[0];
    return true;
  }
  if (name != "add") return false;
  // The chain goes on through the argument that is a call; the other is the operand.
  const int chain = call->args[0].as<ir::CallNode>() ? 0 : 1;
  const ir::Expr& other = call->args[1 - chain];
  if (!call->args[chain].as<ir::CallNode>() || !Float32Shape(other, &shape) ||
      !AddKind(shape, out, &step->kind) || !AsOperand(other, fn, &step->operand)) {
    return false;
  }
  *next = &call->args[chain];
  return true;
}

}  // namespace

std::unique_ptr<FusedConv> MatchFusedConv(const ir::FunctionNode* fn) {
  ir::Shape out;
  if (!fn->is_primitive() || !Float32Shape(fn->body, &out) || out.size() != 4) return nullptr;
  auto fused = std::make_unique<FusedConv>();
  std::vector<FusedConv::Step> reversed;
  const ir::Expr* e = &fn->body;
  while (true) {
    const auto* call = e->as<ir::CallNode>();
    if (!call || !call->op_node()) return nullptr;
    if (call->op_node()->name == "nn.conv2d") break;
    FusedConv::Step step;
    if (!MatchStep(call, fn, out, &step, &e)) return nullptr;
    reversed.push_back(std::move(step));
  }
  const auto* conv = e->as<ir::CallNode>();
  ir::Shape shape;
  if (conv->args.size() != 2 || !conv->attrs.defined() || !Float32Shape(*e, &shape) ||
      shape != out || !Float32Shape(conv->args[0], &shape) ||
      !Float32Shape(conv->args[1], &shape) || !op::Conv2DEpilogueSupported(*conv->attrs) ||
      !AsOperand(conv->args[0], fn, &fused->data) ||
      !AsOperand(conv->args[1], fn, &fused->weight)) {
    return nullptr;
  }
  fused->conv = conv;
  fused->steps.assign(reversed.rbegin(), reversed.rend());
  if (fused->weight.param < 0)
    fused->prepacked = PrepackFusedConvWeight(*fused, fused->weight.constant);
  return fused;
}

std::shared_ptr<const op::PrepackedConvWeight> PrepackFusedConvWeight(const FusedConv& fused,
                                                                      const ir::NDArray& weight) {
  ir::Shape data_shape;
  if (!Float32Shape(fused.conv->args[0], &data_shape)) return nullptr;
  return op::PrepackConv2DWeight(data_shape, weight, *fused.conv->attrs);
}

Value RunFusedConv(const FusedConv& fused, const std::vector<Value>& args,
                   const op::PrepackedConvWeight* prepacked) {
  auto tensor = [&](const FusedConv::Operand& o) -> const ir::NDArray& {
    return o.param >= 0 ? args.at(static_cast<size_t>(o.param)).tensor() : o.constant;
  };
  std::vector<op::EpilogueStep> steps;
  steps.reserve(fused.steps.size());
  for (const FusedConv::Step& s : fused.steps) {
    op::EpilogueStep step;
    step.kind = s.kind;
    if (s.kind == Kind::kAddChannel || s.kind == Kind::kAddTensor) step.operand = tensor(s.operand);
    step.lo = s.lo;
    step.hi = s.hi;
    steps.push_back(std::move(step));
  }
  const std::vector<ir::NDArray> inputs = {tensor(fused.data), tensor(fused.weight)};
  return Value(WithCallContext(fused.conv, "nn.conv2d", [&] {
    return op::Conv2DWithEpilogue(inputs, fused.conv->attrs, steps,
                                  prepacked ? prepacked : fused.prepacked.get());
  }));
}

}  // namespace relaypass::eval
