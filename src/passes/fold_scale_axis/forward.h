// Forward folding: a `multiply` by a per-channel constant that feeds a conv2d or dense (through
// relu and add/subtract) is folded into that consumer's weight. Two phases, as in TVM:
// preparation sends each consumer's demand backwards (which axes it can absorb a scale on), then
// a post-order rewrite turns a multiply that meets the demand into a pending scaled value that
// the consumers carry forward until a conv2d or dense absorbs it.
#pragma once

#include <vector>

#include "message.h"
#include "node_table.h"

namespace relaypass::passes::fold_scale_axis {

// The demands each node got from its consumers, merged by intersection.
class ForwardMessages {
 public:
  explicit ForwardMessages(size_t num_nodes) : state_(num_nodes, kUnseen) {}
  // Merges one consumer's demand on `node` into the others'.
  void Update(uint32_t node, const MaybeMessage& message);
  // The merged demand; null when some consumer sent none, or when no consumer sent anything
  // (only get-items use the node).
  const Message* Get(uint32_t node) const;
  // Whether some node ended up with a demand; if none did, nothing can be folded.
  bool AnyDefined() const;

 private:
  static constexpr int32_t kUnseen = -2;
  static constexpr int32_t kNone = -1;
  std::vector<int32_t> state_;  // kUnseen, kNone, or an index into messages_
  std::vector<Message> messages_;
};

// The preparation phase (forward_prep.cc).
ForwardMessages PrepareForward(const NodeIndex& index);

// The whole forward folding of `root` (forward_rewrite.cc).
ir::Expr ForwardFold(const ir::Expr& root);

}  // namespace relaypass::passes::fold_scale_axis
