#include "node_table.h"

namespace relaypass::passes::fold_scale_axis {

NodeIndex::NodeIndex(const ir::Expr& root) {
  index_.Add(root);
  const std::vector<ir::PostOrderIndex::Id>& order = index_.post_order();
  number_of_id_.resize(index_.size());
  for (size_t i = 0; i < order.size(); ++i) number_of_id_[order[i]] = static_cast<uint32_t>(i);
  nodes_.reserve(order.size());
  child_begin_.reserve(order.size() + 1);
  for (ir::PostOrderIndex::Id id : order) {
    const ir::ExprNode* node = index_.node(id);
    nodes_.emplace_back(node);
    child_begin_.push_back(static_cast<uint32_t>(children_.size()));
    // PostOrderIndex also lists the variables a function or let binds; ForEachChild does not.
    size_t skip_begin = 0, skip_end = 0;
    if (node->kind == ir::ExprKind::kFunction) {
      skip_end = static_cast<const ir::FunctionNode*>(node)->params.size();
    } else if (node->kind == ir::ExprKind::kLet) {
      skip_begin = 1, skip_end = 2;
    }
    const std::span<const ir::PostOrderIndex::Id> kids = index_.children(id);
    for (size_t k = 0; k < kids.size(); ++k) {
      if (k >= skip_begin && k < skip_end) continue;
      children_.push_back(kids[k] == ir::PostOrderIndex::kNone ? ir::PostOrderIndex::kNone
                                                               : number_of_id_[kids[k]]);
    }
  }
  child_begin_.push_back(static_cast<uint32_t>(children_.size()));
}

}  // namespace relaypass::passes::fold_scale_axis
