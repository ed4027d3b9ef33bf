#include "dominator_tree.h"

namespace relaypass::passes::fuse {

DominatorTree DominatorTree::PostDom(const IndexedForwardGraph& graph) {
  DominatorTree tree;
  uint32_t n = graph.size();
  tree.parent_.assign(n, kNone);
  tree.depth_.assign(n, 1);
  tree.pattern_.assign(n, OpPattern::kOpaque);
  // Consumers come later in post-DFS order, so they are in the tree when a node is reached.
  for (uint32_t i = n; i-- > 0;) {
    if (graph.extern_ref(i)) continue;
    OpPattern pattern = OpPattern::kElemWise;
    uint32_t parent = tree.LeastCommonAncestor(graph.outputs(i), &pattern);
    tree.parent_[i] = parent;
    tree.depth_[i] = parent == kNone ? 1 : tree.depth_[parent] + 1;
    tree.pattern_[i] = pattern;
  }
  return tree;
}

uint32_t DominatorTree::LeastCommonAncestor(std::span<const ForwardEdge> consumers,
                                            OpPattern* pattern) const {
  if (consumers.empty()) return kNone;
  uint32_t parent = consumers[0].node;
  *pattern = MaxPattern(*pattern, consumers[0].pattern);
  for (size_t k = 1; k < consumers.size(); ++k) {
    parent = LeastCommonAncestor(parent, consumers[k].node, pattern);
    *pattern = MaxPattern(*pattern, consumers[k].pattern);
  }
  return parent;
}

uint32_t DominatorTree::LeastCommonAncestor(uint32_t lhs, uint32_t rhs, OpPattern* pattern) const {
  while (lhs != rhs) {
    if (lhs == kNone || rhs == kNone) return kNone;
    if (depth_[lhs] < depth_[rhs]) {
      *pattern = MaxPattern(*pattern, pattern_[rhs]);
      rhs = parent_[rhs];
    } else if (depth_[rhs] < depth_[lhs]) {
      *pattern = MaxPattern(*pattern, pattern_[lhs]);
      lhs = parent_[lhs];
    } else {
      *pattern = MaxPattern(*pattern, pattern_[lhs]);
      *pattern = MaxPattern(*pattern, pattern_[rhs]);
      lhs = parent_[lhs];
      rhs = parent_[rhs];
    }
  }
  return lhs;
}

}  // namespace relaypass::passes::fuse
