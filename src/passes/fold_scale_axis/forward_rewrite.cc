// The rewrite phase of forward folding (TVM's ForwardRewrite with the FScaleAxisForwardRewrite
// rules). A multiply whose consumers all demand a scale on the axes it scales becomes a pending
// ScaledValue (value, axes, scale) = value scaled along axes; relu and add/subtract carry it
// forward and conv2d/dense absorb it into their weight.
#include <variant>

#include "conv2d_axes.h"
#include "forward.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "scale_utils.h"

namespace relaypass::passes::fold_scale_axis {

namespace {

using ir::Expr;

// value * scale along `axes` (scale squeezed to those axes), not yet materialised.
struct ScaledValue {
  Expr value;
  AxesSet axes;
  Expr scale;
};

// A rewritten argument: its new expression, or the pending scaled value it became.
struct Arg {
  Expr expr;
  const ScaledValue* scaled = nullptr;
};

// What a rule made of a call: nothing (the call is rebuilt as usual), a plain expression, or a
// value that still carries a scale.
using RuleResult = std::variant<std::monostate, Expr, ScaledValue>;

[[noreturn]] void OutstandingScale() {
  throw InternalError("FoldScaleAxis: outstanding scale reached an operator that cannot take it");
}

// TVM's ICHECK in the add/subtract rule: preparation sent the demand to the scaled side.
void CheckBroadcast(bool matched) {
  if (!matched) throw InternalError("FoldScaleAxis: scaled operand does not broadcast");
}

// The same operator and attrs on new arguments.
Expr CallWithArgs(const ir::CallNode* call, std::vector<Expr> args) {
  return ir::MakeCall(call->op, std::move(args), call->attrs);
}

RuleResult Relu(const ir::CallNode* call, const std::vector<Arg>& args) {
  const ScaledValue* input = args[0].scaled;
  if (!input) return {};
  return ScaledValue{CallWithArgs(call, {input->value}), input->axes, input->scale};
}

// The unscaled operand is divided by the scale, so that the sum stays scaled:
// x*s + y == (x + y/s)*s.
RuleResult AddSub(const ir::CallNode* call, const std::vector<Arg>& args) {
  const ScaledValue* lhs = args[0].scaled;
  const ScaledValue* rhs = args[1].scaled;
  if (!lhs && !rhs) return {};
  if (lhs && rhs) {
    throw InternalError("FoldScaleAxis: both operands of " + call->op_node()->name + " are scaled");
  }
  const ir::TensorTypeNode& tlhs = TensorTypeOf(call->args[0]);
  const ir::TensorTypeNode& trhs = TensorTypeOf(call->args[1]);
  const ScaledValue& scaled = lhs ? *lhs : *rhs;
  CheckBroadcast(lhs ? MatchBroadcastToLeftAxes(tlhs, trhs, scaled.axes)
                     : MatchBroadcastToLeftAxes(trhs, tlhs, scaled.axes));
  Expr scale = ReshapeOrExpandToMatchAxis(scaled.scale, (lhs ? tlhs : trhs).shape, scaled.axes);
  if (!scale) return {};
  Expr value = lhs ? CallWithArgs(call, {scaled.value, relay::divide(args[1].expr, scale)})
                   : CallWithArgs(call, {relay::divide(args[0].expr, scale), scaled.value});
  return ScaledValue{value, scaled.axes, scaled.scale};
}

// Mirrors TVM's MultiplyForwardRewrite, including its use of one variable per operand: when the
// first orientation matches but its scale is not positive, the second orientation sees the
// already squeezed rhs.
RuleResult Multiply(const ir::CallNode* call, const std::vector<Arg>& args,
                    const Message* message) {
  // An empty intersection of demands aborts TVM; here it just folds nothing.
  if (!message || message->axes.empty()) return {};
  if (args[0].scaled || args[1].scaled) OutstandingScale();
  const ir::TensorTypeNode& tlhs = TensorTypeOf(call->args[0]);
  const ir::TensorTypeNode& trhs = TensorTypeOf(call->args[1]);
  Expr lhs = args[0].expr;
  Expr rhs = args[1].expr;
  const AxesSet& axes = message->axes;
  if (MatchBroadcastToLeftAxes(tlhs, trhs, axes, &rhs) &&
      (!message->require_positive || IsAllPositiveConstant(rhs))) {
    return ScaledValue{lhs, axes, rhs};
  }
  if (MatchBroadcastToLeftAxes(trhs, tlhs, axes, &lhs) &&
      (!message->require_positive || IsAllPositiveConstant(lhs))) {
    return ScaledValue{rhs, axes, lhs};
  }
  return {};
}

RuleResult Conv2D(const ir::CallNode* call, const std::vector<Arg>& args) {
  const ScaledValue* data = args[0].scaled;
  if (!data || args[1].scaled) return {};
  Conv2DAxes axes = AnalyzeConv2D(call, ConvSide::kData);
  if (!axes.foldable) OutstandingScale();
  Expr factor = KernelInputChannelScale(axes, data->scale, call);
  if (!factor) return {};
  return CallWithArgs(call, {data->value, relay::multiply(args[1].expr, factor)});
}

RuleResult Dense(const ir::CallNode* call, const std::vector<Arg>& args) {
  const ScaledValue* data = args[0].scaled;
  if (!data || args[1].scaled) return {};
  return CallWithArgs(call, {data->value, relay::multiply(args[1].expr, data->scale)});
}

// `message` is the merged demand of the call's consumers (null for none).
RuleResult ApplyRule(const ir::CallNode* call, const std::vector<Arg>& args,
                     const Message* message) {
  std::string_view op = OpName(call);
  if (op == "nn.relu" || op == "nn.leaky_relu") return Relu(call, args);
  if (op == "add" || op == "subtract") return AddSub(call, args);
  if (op == "multiply") return Multiply(call, args, message);
  if (op == "nn.conv2d") return Conv2D(call, args);
  if (op == "nn.dense") return Dense(call, args);
  return {};
}

class ForwardRewriter : public ir::ExprMutator {
 public:
  ForwardRewriter(const NodeIndex& index, const ForwardMessages& messages)
      : index_(index), messages_(messages), scaled_(index.size()) {}

 protected:
  Expr Rewrite(const Expr& pre, const Expr& post) override {
    // Only calls with a rule take a scaled value; anywhere else it would have to be materialised,
    // which preparation rules out.
    if (pre->kind != ir::ExprKind::kCall) {
      ir::ForEachChild(pre.get(), [&](const Expr& child) {
        if (scaled_.find(index_.of(child))) OutstandingScale();
      });
    }
    return ExprMutator::Rewrite(pre, post);
  }

  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    std::vector<Arg> args;
    args.reserve(pre->args.size());
    for (const Expr& a : pre->args) args.push_back({Lookup(a), scaled_.find(index_.of(a))});
    uint32_t self = index_.of(pre);
    RuleResult result = ApplyRule(pre, args, messages_.Get(self));
    if (auto* expr = std::get_if<Expr>(&result)) return *expr;
    if (auto* scaled = std::get_if<ScaledValue>(&result)) {
      Expr value = scaled->value;
      scaled_[self] = std::move(*scaled);
      // Consumers read the pending value from scaled_; the memo entry is never materialised.
      return value;
    }
    if (scaled_.find(index_.of(pre->op))) OutstandingScale();
    for (const Arg& a : args) {
      if (a.scaled) OutstandingScale();
    }
    return post;
  }

  // As TVM's ForwardRewrite: a get-item of a literal tuple is that field.
  Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const Expr& post) override {
    auto* item = post.as<ir::TupleGetItemNode>();
    auto* tuple = item->tuple.as<ir::TupleNode>();
    return tuple ? tuple->fields[static_cast<size_t>(item->index)] : post;
  }

 private:
  const NodeIndex& index_;
  const ForwardMessages& messages_;
  NodeTable<ScaledValue> scaled_;
};

}  // namespace

Expr ForwardFold(const Expr& root) {
  NodeIndex index(root);
  ForwardMessages messages = PrepareForward(index);
  if (!messages.AnyDefined()) return root;
  return ForwardRewriter(index, messages).Mutate(root);
}

}  // namespace relaypass::passes::fold_scale_axis
