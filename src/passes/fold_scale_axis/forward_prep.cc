// The preparation phase of forward folding (TVM's ForwardPrep and FScaleAxisForwardPrep): a sweep
// over the nodes in reverse post-order, so every consumer has sent its message before the node
// passes messages on to its own inputs.
#include "conv2d_axes.h"
#include "forward.h"
#include "scale_utils.h"

namespace relaypass::passes::fold_scale_axis {

namespace {

using ir::Expr;

// What `call` asks of each argument when its own consumers sent it `out`. Operators without a
// rule send nothing (nullopt) to every argument.
std::vector<MaybeMessage> InputMessages(const ir::CallNode* call, const MaybeMessage& out) {
  std::vector<MaybeMessage> in(call->args.size());
  std::string_view op = OpName(call);
  if (op == "nn.relu" || op == "nn.leaky_relu") {
    // The scale crosses the relu only if it is positive.
    if (out) in[0] = Message{out->axes, true};
  } else if (op == "add" || op == "subtract") {
    if (out) {
      const ir::TensorTypeNode& lhs = TensorTypeOf(call->args[0]);
      const ir::TensorTypeNode& rhs = TensorTypeOf(call->args[1]);
      if (MatchBroadcastToLeftAxes(lhs, rhs, out->axes)) {
        in[0] = out;
      } else if (MatchBroadcastToLeftAxes(rhs, lhs, out->axes)) {
        in[1] = out;
      }
    }
  } else if (op == "nn.conv2d") {
    Conv2DAxes axes = AnalyzeConv2D(call, ConvSide::kData);
    if (axes.foldable) in[0] = Message{axes.channel_axes, false};
  } else if (op == "nn.dense") {
    in[0] = Message{{1}, false};
  }
  return in;
}

class Prep {
 public:
  explicit Prep(const NodeIndex& index) : index_(index), messages_(index.size()) {}

  ForwardMessages Run() {
    if (index_.size() == 0) return std::move(messages_);
    messages_.Update(static_cast<uint32_t>(index_.size() - 1), std::nullopt);  // the root
    for (size_t i = index_.size(); i-- > 0;) Visit(static_cast<uint32_t>(i));
    return std::move(messages_);
  }

 private:
  void Visit(uint32_t number) {
    const Expr& node = index_.nodes()[number];
    const std::span<const uint32_t> kids = index_.children(number);
    switch (node->kind) {
      case ir::ExprKind::kCall: {
        const Message* out = messages_.Get(number);
        std::vector<MaybeMessage> in =
            InputMessages(node.as<ir::CallNode>(), out ? MaybeMessage(*out) : std::nullopt);
        for (size_t i = 0; i < in.size(); ++i) messages_.Update(kids[1 + i], in[i]);  // args
        break;
      }
      case ir::ExprKind::kTuple:
      case ir::ExprKind::kFunction:  // its body
      case ir::ExprKind::kLet:       // its value and body
      case ir::ExprKind::kIf:
      case ir::ExprKind::kRefCreate:
      case ir::ExprKind::kRefRead:
      case ir::ExprKind::kRefWrite:
        for (uint32_t child : kids) messages_.Update(child, std::nullopt);
        break;
      default:
        break;
    }
  }

  const NodeIndex& index_;
  ForwardMessages messages_;
};

}  // namespace

void ForwardMessages::Update(uint32_t node, const MaybeMessage& message) {
  int32_t& state = state_[node];
  if (state == kNone) return;  // none intersected with anything stays none
  if (!message) {
    state = kNone;
  } else if (state == kUnseen) {
    state = static_cast<int32_t>(messages_.size());
    messages_.push_back(*message);
  } else {
    Message& merged = messages_[static_cast<size_t>(state)];
    merged = *Intersect(merged, message);
  }
}

const Message* ForwardMessages::Get(uint32_t node) const {
  int32_t state = state_[node];
  return state >= 0 ? &messages_[static_cast<size_t>(state)] : nullptr;
}

bool ForwardMessages::AnyDefined() const {
  for (int32_t state : state_) {
    if (state >= 0) return true;
  }
  return false;
}

ForwardMessages PrepareForward(const NodeIndex& index) {
  return Prep(index).Run();
}

}  // namespace relaypass::passes::fold_scale_axis
