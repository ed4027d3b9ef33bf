#include "fused_elementwise.h"

#include <string>
#include <utility>

#include "kernel_errors.h"
#include "output_budget.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::eval {

namespace {

using Opcode = op::ElementwiseProgram::Opcode;
using ir::DataType;

// The static tensor type of a typed expression, or null.
const ir::TensorTypeNode* StaticTensor(const ir::ExprNode* e) {
  const auto* tt = e->checked_type.defined() ? e->checked_type.as<ir::TensorTypeNode>() : nullptr;
  return tt && tt->is_static() ? tt : nullptr;
}

int ParamIndex(const ir::FunctionNode* fn, const ir::ExprNode* e) {
  for (size_t i = 0; i < fn->params.size(); ++i) {
    if (fn->params[i].get() == e) return static_cast<int>(i);
  }
  return -1;
}

// Whether a value of `shape` broadcasts to `out` (NumPy's rules).
bool BroadcastsTo(const ir::Shape& shape, const ir::Shape& out) {
  if (shape.size() > out.size()) return false;
  const size_t skip = out.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] != 1 && shape[d] != out[skip + d]) return false;
  }
  return true;
}

class Matcher {
 public:
  explicit Matcher(const ir::FunctionNode* fn) : fn_(fn) {}

  std::unique_ptr<FusedElementwise> Match() {
    const auto* body = fn_->body.as<ir::CallNode>();
    if (!fn_->is_primitive() || !body || !body->op_node()) return nullptr;
    fused_ = std::make_unique<FusedElementwise>();
    const ir::ExprNode* root = body;
    Opcode opcode;
    if (!op::ElementwiseOpcodeOf(body->op_node()->name, &opcode) && !body->args.empty()) {
      // A last op on the program's result (nn.pad of a quantized input) and leaves.
      for (size_t i = 1; i < body->args.size(); ++i) {
        FusedElementwise::Input a;
        if (!Leaf(body->args[i].get(), &a)) return nullptr;
        fused_->tail_args.push_back(std::move(a));
      }
      fused_->tail = body;
      root = body->args[0].get();
    }
    const auto* out = StaticTensor(root);
    if (!out) return nullptr;
    fused_->out_shape = out->shape;
    fused_->body =
        root->kind == ir::ExprKind::kCall ? static_cast<const ir::CallNode*>(root) : body;
    // Post-order over the body's DAG on an explicit stack.
    std::vector<std::pair<const ir::ExprNode*, bool>> stack = {{root, false}};
    while (!stack.empty()) {
      auto [node, expanded] = stack.back();
      stack.pop_back();
      if (values_.find(node)) continue;
      const auto* call =
          node->kind == ir::ExprKind::kCall ? static_cast<const ir::CallNode*>(node) : nullptr;
      Opcode opcode;
      const bool elementwise =
          call && call->op_node() && op::ElementwiseOpcodeOf(call->op_node()->name, &opcode);
      if (!elementwise || expanded) {
        if (!(elementwise ? AddInstruction(call, opcode) : AddLeaf(node))) return nullptr;
        continue;
      }
      stack.push_back({node, true});
      for (auto it = call->args.rbegin(); it != call->args.rend(); ++it) {
        if (!values_.find(it->get())) stack.push_back({it->get(), false});
      }
    }
    if (fused_->program.instructions.empty()) return nullptr;
    // The values were numbered in the order met (leaves and instructions apart); the program
    // numbers the inputs first.
    for (auto& in : fused_->program.instructions) {
      for (int& v : in.args) {
        if (v != -1) v = Decode(v);
      }
    }
    // Every input broadcasts to the result (a bias once given its unit axes).
    for (size_t i = 0; i < fused_->inputs.size(); ++i) {
      ir::Shape shape = input_shapes_[i];
      const int rank = fused_->inputs[i].bias_rank;
      if (rank > 0) shape.resize(static_cast<size_t>(rank), 1);
      if (!BroadcastsTo(shape, fused_->out_shape)) return nullptr;
    }
    fused_->program = op::FuseElementwiseInstructions(fused_->program);
    MatchConvSteps();
    return std::move(fused_);
  }

 private:
  // A parameter, a constant, or the anchor call (op call on parameters and constants).
  bool Leaf(const ir::ExprNode* node, FusedElementwise::Input* input) {
    if (node->kind == ir::ExprKind::kConstant) {
      input->constant = static_cast<const ir::ConstantNode*>(node)->data;
      return true;
    }
    input->param = ParamIndex(fn_, node);
    return input->param >= 0;
  }

  bool AddLeaf(const ir::ExprNode* node) {
    FusedElementwise::Input input;
    const auto* type = StaticTensor(node);
    if (!type || !op::ElementwiseProgramSupports(Opcode::kAdd, type->dtype)) return false;
    if (!Leaf(node, &input)) {
      const auto* call =
          node->kind == ir::ExprKind::kCall ? static_cast<const ir::CallNode*>(node) : nullptr;
      if (!call || !call->op_node() || fused_->anchor) return false;
      for (const ir::Expr& arg : call->args) {
        FusedElementwise::Input a;
        if (!Leaf(arg.get(), &a)) return false;
        fused_->anchor_args.push_back(std::move(a));
      }
      fused_->anchor = call;
      input.anchor_result = true;
    }
    values_.emplace(node, Encode(true, fused_->program.num_inputs++));
    input_shapes_.push_back(type->shape);
    fused_->inputs.push_back(std::move(input));
    return true;
  }

  bool AddInstruction(const ir::CallNode* call, Opcode opcode) {
    const auto* out = StaticTensor(call);
    if (!out || !BroadcastsTo(out->shape, fused_->out_shape)) return false;
    op::ElementwiseProgram::Instruction in;
    in.op = opcode;
    const size_t arity = call->args.size();
    const bool binary = opcode <= Opcode::kLeftShift;
    if (opcode == Opcode::kFixedPointMultiply) return false;
    if (arity != (binary ? 2u : 1u)) return false;
    const auto* a = StaticTensor(call->args[0].get());
    if (!a) return false;
    in.dtype = a->dtype;
    in.out_dtype = out->dtype;
    if (!op::ElementwiseProgramSupports(opcode, in.dtype) ||
        !op::ElementwiseProgramSupports(Opcode::kAdd, in.out_dtype) ||
        (opcode != Opcode::kCast && in.out_dtype != in.dtype)) {
      return false;
    }
    if (opcode == Opcode::kClip) {
      if (!call->attrs.defined()) return false;
      in.lo = call->attrs->get_double("a_min");
      in.hi = call->attrs->get_double("a_max");
    }
    in.args[0] = *values_.find(call->args[0].get());
    if (binary) {
      const auto* b = StaticTensor(call->args[1].get());
      if (!b || b->dtype != in.dtype) return false;
      if (call->op_node()->name == "nn.bias_add" && !BiasOperand(call, *a)) return false;
      in.args[1] = *values_.find(call->args[1].get());
    }
    values_.emplace(call, Encode(false, static_cast<int>(fused_->program.instructions.size())));
    fused_->program.instructions.push_back(in);
    return true;
  }

  // nn.bias_add(x, bias, axis): the bias (a leaf of 1 or x's extent on axis) gets the trailing
  // unit axes that make it broadcast along `axis`.
  bool BiasOperand(const ir::CallNode* call, const ir::TensorTypeNode& data) {
    if (!call->attrs.defined()) return false;
    const int64_t ndim = static_cast<int64_t>(data.shape.size());
    int64_t axis = call->attrs->get_int("axis");
    if (axis < 0) axis += ndim;
    if (axis < 0 || axis >= ndim) return false;
    const int* index = values_.find(call->args[1].get());
    if (!index || *index < 0) return false;  // not a leaf
    FusedElementwise::Input& bias = fused_->inputs[static_cast<size_t>(*index)];
    const int rank = static_cast<int>(ndim - axis);
    if (bias.anchor_result || (bias.bias_rank != 0 && bias.bias_rank != rank)) return false;
    const auto* bias_type = StaticTensor(call->args[1].get());
    if (!bias_type || bias_type->shape.size() != 1) return false;
    bias.bias_rank = rank;
    return true;
  }

  // Whether program input `i` holds one value, or one per channel of the (NCHW) result: extent 1
  // on every other axis.
  bool PerChannel(int i) const {
    const FusedElementwise::Input& input = fused_->inputs[static_cast<size_t>(i)];
    if (input.anchor_result) return false;
    ir::Shape shape = input_shapes_[static_cast<size_t>(i)];
    if (input.bias_rank > 0) shape.resize(static_cast<size_t>(input.bias_rank), 1);
    const ir::Shape& out = fused_->out_shape;
    if (shape.size() > out.size()) return false;
    const size_t skip = out.size() - shape.size();
    for (size_t d = 0; d < shape.size(); ++d) {
      if (skip + d != 1 && shape[d] != 1) return false;
    }
    return true;
  }

  // fused_->conv_steps: the program as per-channel steps on an int8 convolution's result.
  void MatchConvSteps() {
    const FusedElementwise& f = *fused_;
    const auto* conv_type = f.anchor && f.anchor->checked_type.defined()
                                ? f.anchor->checked_type.as<ir::TensorTypeNode>()
                                : nullptr;
    if (!conv_type || f.anchor->op_node()->name != "nn.conv2d" ||
        conv_type->dtype != DataType::Int(32) || conv_type->shape != f.out_shape ||
        f.out_shape.size() != 4) {
      return;
    }
    int chain = -1;  // the running value: the anchor's input index, then each result
    for (size_t i = 0; i < f.inputs.size(); ++i) {
      if (f.inputs[i].anchor_result) chain = static_cast<int>(i);
    }
    using Kind = op::Int8ConvStep::Kind;
    std::vector<FusedElementwise::ConvStep> steps;
    DataType dtype = DataType::Int(32);
    const auto& ins = f.program.instructions;
    for (size_t k = 0; k < ins.size(); ++k) {
      const op::ElementwiseProgram::Instruction& in = ins[k];
      const bool last = k + 1 == ins.size();
      FusedElementwise::ConvStep step;
      auto other = [&](bool commutes) {
        if (in.args[0] == chain && in.args[1] != chain) return in.args[1];
        return commutes && in.args[1] == chain && in.args[0] != chain ? in.args[0] : -1;
      };
      if (in.op == Opcode::kCast) {
        // Only last, int32 to uint8 / int8 (the stored low byte).
        if (!last || in.args[0] != chain || in.dtype != DataType::Int(32) ||
            (in.out_dtype != DataType::UInt(8) && in.out_dtype != DataType::Int(8))) {
          return;
        }
        dtype = in.out_dtype;
        chain = f.program.num_inputs + static_cast<int>(k);
        continue;
      }
      if (in.op == Opcode::kFixedPointMultiply) {
        if (in.args[0] != chain) return;
        step.kind = Kind::kFixedPoint;
        for (int a = 1; a < 5; ++a) {
          if (in.args[static_cast<size_t>(a)] >= 0)
            step.operands.push_back(in.args[static_cast<size_t>(a)]);
        }
      } else if (in.dtype != DataType::Int(32) || in.out_dtype != DataType::Int(32)) {
        return;
      } else if (in.op == Opcode::kClip) {
        if (in.args[0] != chain) return;
        step.kind = Kind::kClip;
        step.lo = in.lo;
        step.hi = in.hi;
      } else {
        const bool commutes = in.op != Opcode::kSubtract;
        const int operand = other(commutes);
        if (operand < 0 || operand >= f.program.num_inputs) return;
        if (in.op == Opcode::kAdd) {
          step.kind = Kind::kAdd;
        } else if (in.op == Opcode::kSubtract) {
          step.kind = Kind::kSubtract;
        } else if (in.op == Opcode::kMaximum) {
          step.kind = Kind::kMaximum;
        } else if (in.op == Opcode::kMinimum) {
          step.kind = Kind::kMinimum;
        } else {
          return;
        }
        step.operands.push_back(operand);
      }
      for (int operand : step.operands) {
        if (operand >= f.program.num_inputs || !PerChannel(operand)) return;
      }
      steps.push_back(std::move(step));
      chain = f.program.num_inputs + static_cast<int>(k);
    }
    fused_->conv_steps = std::move(steps);
    fused_->conv_steps_dtype = dtype;
    fused_->conv_steps_match = true;
  }

  // While matching, a leaf's value is its input index, an instruction's -2 - its index (-1 is
  // a unary instruction's absent operand).
  static int Encode(bool leaf, int index) { return leaf ? index : -2 - index; }
  int Decode(int value) const {
    return value >= 0 ? value : fused_->program.num_inputs + (-2 - value);
  }

  const ir::FunctionNode* fn_;
  std::unique_ptr<FusedElementwise> fused_;
  support::PointerMap<int> values_;  // node -> its value's number in the program
  std::vector<ir::Shape> input_shapes_;
};

ir::NDArray InputTensor(const FusedElementwise::Input& input, const std::vector<Value>& args) {
  return input.param >= 0 ? args.at(static_cast<size_t>(input.param)).tensor() : input.constant;
}

}  // namespace

std::unique_ptr<FusedElementwise> MatchFusedElementwise(const ir::FunctionNode* fn) {
  return Matcher(fn).Match();
}

namespace {

// The convolution with the program's steps in its kernel (FusedElementwise::conv_steps), or an
// empty array where the kernel does not do that.
ir::NDArray ConvolutionWithSteps(const FusedElementwise& fused,
                                 const std::vector<ir::NDArray>& inputs,
                                 const std::vector<Value>& args) {
  std::vector<ir::NDArray> conv_inputs;
  for (const FusedElementwise::Input& a : fused.anchor_args)
    conv_inputs.push_back(InputTensor(a, args));
  std::vector<op::Int8ConvStep> steps;
  for (const FusedElementwise::ConvStep& s : fused.conv_steps) {
    op::Int8ConvStep step;
    step.kind = s.kind;
    step.lo = s.lo;
    step.hi = s.hi;
    for (int i : s.operands) step.operands.push_back(inputs[static_cast<size_t>(i)]);
    steps.push_back(std::move(step));
  }
  return WithCallContext(fused.anchor, "nn.conv2d", [&] {
    CheckResultFitsBudget(fused.body->checked_type);
    return op::Conv2DInt8WithSteps(conv_inputs, fused.anchor->attrs, steps, fused.conv_steps_dtype);
  });
}

}  // namespace

Value RunFusedElementwise(const FusedElementwise& fused, const std::vector<Value>& args) {
  std::vector<ir::NDArray> inputs;
  inputs.reserve(fused.inputs.size());
  for (const FusedElementwise::Input& input : fused.inputs) {
    if (input.anchor_result) {
      inputs.emplace_back();  // computed below
    } else if (input.bias_rank > 0) {
      ir::NDArray bias = InputTensor(input, args);
      ir::Shape shape(static_cast<size_t>(input.bias_rank), 1);
      shape[0] = bias.size();
      inputs.push_back(ir::NDArray::FromBytes(shape, bias.dtype(), bias.raw_data()));
    } else {
      inputs.push_back(InputTensor(input, args));
    }
  }
  ir::NDArray result;
  if (fused.conv_steps_match) result = ConvolutionWithSteps(fused, inputs, args);
  if (!result.defined()) {
    for (size_t i = 0; i < fused.inputs.size(); ++i) {
      if (!fused.inputs[i].anchor_result) continue;
      std::vector<Value> anchor_args;
      for (const FusedElementwise::Input& a : fused.anchor_args) {
        anchor_args.emplace_back(InputTensor(a, args));
      }
      inputs[i] = EvaluateOpCall(fused.anchor, anchor_args).tensor();
    }
    const std::string& name = fused.body->op_node()->name;
    result = WithCallContext(fused.body, name, [&] {
      CheckResultFitsBudget(fused.body->checked_type);
      return op::RunElementwiseProgram(fused.program, inputs, fused.out_shape);
    });
  }
  if (!fused.tail) return Value(std::move(result));
  std::vector<Value> tail_args = {Value(std::move(result))};
  for (const FusedElementwise::Input& a : fused.tail_args)
    tail_args.emplace_back(InputTensor(a, args));
  return EvaluateOpCall(fused.tail, tail_args);
}

}  // namespace relaypass::eval
