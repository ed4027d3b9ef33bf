#include "dependency_graph.h"

namespace relaypass::text {

void DependencyGraph::AddSlot(const ir::ExprNode* node) {
  nodes_.push_back(node);
  stamp_.push_back(0);
  refs_.push_back(0);
  first_input_.push_back(0);
  num_inputs_.push_back(0);
}

void DependencyGraph::Build(const ir::Expr& root) {
  ++epoch_;
  inputs_.clear();
  // Returns the node's id and whether it is new to this graph.
  auto enter = [&](const ir::ExprNode* node) -> std::pair<uint32_t, bool> {
    uint32_t id = IdOf(node);
    if (stamp_[id] == epoch_) return {id, false};
    stamp_[id] = epoch_;
    refs_[id] = 0;
    return {id, true};
  };
  // Each node is expanded once, when popped; the order does not matter for counting.
  std::vector<uint32_t> stack;
  stack.push_back(enter(root.get()).first);
  while (!stack.empty()) {
    uint32_t id = stack.back();
    stack.pop_back();
    first_input_[id] = static_cast<uint32_t>(inputs_.size());
    ir::ForEachChild(nodes_[id], [&](const ir::Expr& child) {
      auto [child_id, fresh] = enter(child.get());
      if (fresh) stack.push_back(child_id);
      if (refs_[child_id] < 2) ++refs_[child_id];
      inputs_.push_back(child_id);
    });
    num_inputs_[id] = static_cast<uint32_t>(inputs_.size()) - first_input_[id];
  }
}

}  // namespace relaypass::text
