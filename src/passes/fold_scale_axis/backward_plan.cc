// Planning for backward folding: TVM's FScaleAxisBackwardTransform rules, deciding where each
// scale goes without building anything yet. Consumers come before producers in reverse
// post-order, so a call's push is known when the call is reached. Every call pushed into has a
// message, hence a single user: at most one push reaches it.
#include "backward.h"
#include "conv2d_axes.h"
#include "relaypass/support/error.h"
#include "scale_utils.h"

namespace relaypass::passes::fold_scale_axis {

namespace {

using ir::Expr;

[[noreturn]] void OutstandingScale() {
  throw InternalError("FoldScaleAxis: outstanding scale reached an operator that cannot take it");
}

void CheckSameAxes(const AxesSet& a, const AxesSet& b) {
  if (a != b) throw InternalError("FoldScaleAxis: pushed scale axes do not match");
}

class Planner {
 public:
  Planner(const NodeIndex& index, const NodeTable<Message>& messages)
      : index_(index), messages_(messages), plan_(index.size()) {}

  NodeTable<BackwardStep> Run(bool* any_fired) {
    for (size_t i = index_.size(); i-- > 0;) Visit(static_cast<uint32_t>(i));
    *any_fired = any_fired_;
    return std::move(plan_);
  }

 private:
  void Visit(uint32_t node) {
    const BackwardStep* step = plan_.find(node);
    bool pushed = step && step->scale;
    auto* call = index_.nodes()[node].as<ir::CallNode>();
    if (call && OpName(call) == "multiply") {
      if (pushed) OutstandingScale();
      PlanMultiply(call);
    } else if (pushed) {
      if (!call) OutstandingScale();
      // The scale is copied: pushing into the arguments may move the plan's entries (the
      // message lives in the preparation's table, which does not change).
      const Message& message = *step->message;
      Expr scale = step->scale;
      PlanPushed(call, message, scale);
    }
  }

  void Push(const Expr& node, const Message& message, const Expr& scale) {
    BackwardStep& step = plan_[index_.of(node)];
    step.message = &message;
    step.scale = scale;
  }

  // The call is rebuilt with argument `arg` multiplied by `factor`.
  void SetFactor(const ir::CallNode* call, int arg, const Expr& factor) {
    BackwardStep& step = plan_[index_.of(call)];
    step.factor_arg = arg;
    step.factor = factor;
  }

  // As in TVM, a scale that cannot be laid out (a blocked layout with an unknown channel dim)
  // is dropped: the call is rebuilt as usual.
  void Drop(const ir::CallNode* call) { plan_[index_.of(call)].scale = nullptr; }

  // The multiply leaves the graph if its scaled operand can absorb the scale: TVM's
  // MultiplyBackwardTransform (the rhs is only tried when the lhs has no message at all).
  void PlanMultiply(const ir::CallNode* call) {
    const Message* lhs = MessageOf(call->args[0]);
    const Message* rhs = MessageOf(call->args[1]);
    const ir::TensorTypeNode& tlhs = TensorTypeOf(call->args[0]);
    const ir::TensorTypeNode& trhs = TensorTypeOf(call->args[1]);
    if (lhs) {
      Expr scale = call->args[1];
      if (MatchBroadcastToLeftAxes(tlhs, trhs, lhs->axes, &scale) &&
          (!lhs->require_positive || IsAllPositiveConstant(scale))) {
        Fire(call, 0, *lhs, scale);
      }
    } else if (rhs) {
      Expr scale = call->args[0];
      if (MatchBroadcastToLeftAxes(trhs, tlhs, rhs->axes, &scale) &&
          (!rhs->require_positive || IsAllPositiveConstant(scale))) {
        Fire(call, 1, *rhs, scale);
      }
    }
  }

  void Fire(const ir::CallNode* call, int arg, const Message& message, const Expr& scale) {
    plan_[index_.of(call)].replace_by_arg = arg;
    Push(call->args[static_cast<size_t>(arg)], message, scale);
    any_fired_ = true;
  }

  void PlanPushed(const ir::CallNode* call, const Message& message, const Expr& scale) {
    std::string_view op = OpName(call);
    if (op == "nn.relu" || op == "nn.leaky_relu") {
      Push(call->args[0], message, scale);
    } else if (op == "add" || op == "subtract") {
      PlanAddSub(call, message, scale);
    } else if (op == "nn.bias_add") {
      const Message* lhs = MessageOf(call->args[0]);
      if (!lhs) OutstandingScale();
      CheckSameAxes(message.axes, lhs->axes);
      Push(call->args[0], message, scale);
      SetFactor(call, 1, scale);
    } else if (op == "nn.conv2d") {
      Conv2DAxes axes = AnalyzeConv2D(call, ConvSide::kOutput);
      Expr factor = KernelOutputChannelScale(axes, scale, call);
      if (factor) {
        SetFactor(call, 1, factor);
      } else {
        Drop(call);
      }
    } else if (op == "nn.dense") {
      SetFactor(call, 1, ExpandBiasToMatchAxis(scale, 2, 0));
    } else {
      OutstandingScale();
    }
  }

  // Operands that can absorb the scale get it; the other one is multiplied by it:
  // (x + y)*s == x*s + y*s.
  void PlanAddSub(const ir::CallNode* call, const Message& message, const Expr& scale) {
    const Message* lhs = MessageOf(call->args[0]);
    const Message* rhs = MessageOf(call->args[1]);
    if (lhs && rhs) {
      CheckSameAxes(lhs->axes, rhs->axes);
      CheckSameAxes(message.axes, lhs->axes);
      Push(call->args[0], message, scale);
      Push(call->args[1], message, scale);
      return;
    }
    if (!lhs && !rhs) OutstandingScale();
    CheckSameAxes(message.axes, (lhs ? lhs : rhs)->axes);
    int scaled = lhs ? 0 : 1;
    const ir::TensorTypeNode& type = TensorTypeOf(call->args[static_cast<size_t>(scaled)]);
    Expr factor = ReshapeOrExpandToMatchAxis(scale, type.shape, message.axes);
    if (!factor) {
      Drop(call);
      return;
    }
    Push(call->args[static_cast<size_t>(scaled)], message, scale);
    SetFactor(call, 1 - scaled, factor);
  }

  const Message* MessageOf(const Expr& node) const { return messages_.find(index_.of(node)); }

  const NodeIndex& index_;
  const NodeTable<Message>& messages_;
  NodeTable<BackwardStep> plan_;
  bool any_fired_ = false;
};

}  // namespace

NodeTable<BackwardStep> PlanBackward(const NodeIndex& index, const NodeTable<Message>& messages,
                                     bool* any_fired) {
  return Planner(index, messages).Run(any_fired);
}

}  // namespace relaypass::passes::fold_scale_axis
