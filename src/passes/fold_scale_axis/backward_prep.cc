// The preparation phase of backward folding (TVM's BackwardPrep and FScaleAxisBackwardPrep).
#include "backward.h"
#include "conv2d_axes.h"
#include "scale_utils.h"

namespace relaypass::passes::fold_scale_axis {

namespace {

using ir::Expr;

bool HasBackwardRule(std::string_view op) {
  return op == "nn.relu" || op == "nn.leaky_relu" || op == "add" || op == "subtract" ||
         op == "nn.conv2d" || op == "nn.dense" || op == "nn.bias_add";
}

MaybeMessage AddSub(const ir::CallNode* call, const std::vector<MaybeMessage>& in) {
  const ir::TensorTypeNode& lhs = TensorTypeOf(call->args[0]);
  const ir::TensorTypeNode& rhs = TensorTypeOf(call->args[1]);
  if (in[0] && MatchBroadcastToLeftAxes(lhs, rhs, in[0]->axes)) return in[0];
  if (in[1] && MatchBroadcastToLeftAxes(rhs, lhs, in[1]->axes)) return in[1];
  // The sum of two scalable values of the same shape. As in TVM, the lhs message is kept even
  // when only the rhs requires a positive scale.
  if (in[0] && in[1] && in[0]->axes == in[1]->axes && lhs.shape == rhs.shape) return in[0];
  return std::nullopt;
}

// The message `call` sends to its consumer, given its arguments' messages.
MaybeMessage OutputMessage(const ir::CallNode* call, const std::vector<MaybeMessage>& in) {
  std::string_view op = OpName(call);
  if (op == "nn.relu" || op == "nn.leaky_relu") {
    if (!in[0]) return std::nullopt;
    return Message{in[0]->axes, true};
  }
  if (op == "add" || op == "subtract") return AddSub(call, in);
  if (op == "nn.conv2d") {
    Conv2DAxes axes = AnalyzeConv2D(call, ConvSide::kOutput);
    if (!axes.foldable) return std::nullopt;
    return Message{axes.channel_axes, false};
  }
  if (op == "nn.dense") return Message{{1}, false};
  // nn.bias_add: the attr is compared as written, so axis=-1 never matches.
  if (in[0] && in[0]->axes.size() == 1 && call->attrs->get_int("axis") == in[0]->axes[0]) {
    return in[0];
  }
  return std::nullopt;
}

// How many times each node is referenced by its parents (the root counts once).
std::vector<uint32_t> RefCounts(const NodeIndex& index) {
  std::vector<uint32_t> counts(index.size(), 0);
  if (!counts.empty()) counts.back() = 1;
  for (uint32_t i = 0; i < index.size(); ++i) {
    for (uint32_t child : index.children(i)) ++counts[child];
  }
  return counts;
}

}  // namespace

NodeTable<Message> PrepareBackward(const NodeIndex& index) {
  std::vector<uint32_t> counts = RefCounts(index);
  NodeTable<Message> messages(index.size());
  std::vector<MaybeMessage> in;
  for (uint32_t i = 0; i < index.size(); ++i) {
    auto* call = index.nodes()[i].as<ir::CallNode>();
    // A scale is only pushed into a value that has no other user.
    if (!call || !HasBackwardRule(OpName(call)) || counts[i] != 1) continue;
    in.clear();
    const std::span<const uint32_t> kids = index.children(i);  // the op, then the args
    for (size_t k = 1; k < kids.size(); ++k) {
      const Message* m = messages.find(kids[k]);
      in.push_back(m ? MaybeMessage(*m) : std::nullopt);
    }
    if (MaybeMessage out = OutputMessage(call, in)) messages[i] = std::move(*out);
  }
  return messages;
}

}  // namespace relaypass::passes::fold_scale_axis
