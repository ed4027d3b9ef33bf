// The post-dominator tree of an IndexedForwardGraph (TVM's DominatorTree::PostDom).
//
// Built in one pass over the nodes in reverse post-DFS order: the immediate post-dominator of a
// node is the least common ancestor, in the tree built so far, of all its consumers (the graph is
// a DAG, so no iteration is needed). Alongside, each node records the most general pattern met on
// the way to that dominator: its consumer edges and the tree nodes passed while climbing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "indexed_graph.h"

namespace relaypass::passes::fuse {

class DominatorTree {
 public:
  static constexpr uint32_t kNone = IndexedForwardGraph::kNone;

  static DominatorTree PostDom(const IndexedForwardGraph& graph);

  // The immediate post-dominator of node `i`, or kNone (external nodes and roots have none).
  uint32_t parent(uint32_t i) const { return parent_[i]; }
  // The combined pattern of the paths from `i` to its post-dominator.
  OpPattern pattern(uint32_t i) const { return pattern_[i]; }
  uint32_t depth(uint32_t i) const { return depth_[i]; }

 private:
  uint32_t LeastCommonAncestor(std::span<const ForwardEdge> consumers, OpPattern* pattern) const;
  uint32_t LeastCommonAncestor(uint32_t lhs, uint32_t rhs, OpPattern* pattern) const;

  std::vector<uint32_t> parent_;
  std::vector<uint32_t> depth_;
  std::vector<OpPattern> pattern_;
};

}  // namespace relaypass::passes::fuse
