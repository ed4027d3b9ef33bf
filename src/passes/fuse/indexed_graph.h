// The indexed forward dataflow graph that FuseOps partitions (TVM's IndexedForwardGraph).
//
// One node per Var, Constant, Call, Tuple, TupleGetItem, Let and If reachable from the body
// (Op, GlobalVar and Function nodes are not graph nodes), numbered in post-DFS order: a node comes
// after its children, a call's children are its callee then its arguments. Each node has its op
// pattern and its forward edges to the nodes that consume it, in the order the consumers were
// first reached. A node is `extern_ref` when something other than a fusable consumer uses it
// (function params and bodies, let/if operands, the root); such a node has no post-dominator.
//
// The graph is built on a PostOrderIndex, and nodes are found by their number in it: FuseOps's
// rewriter walks the same index, so it never looks a node up by pointer (on million-node graphs
// those lookups were cache misses, and their cost grew faster than the graph).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/post_order_index.h"
#include "relaypass/op/registry.h"

namespace relaypass::passes::fuse {

using op::OpPattern;

// The larger of two patterns (the order of OpPattern is the order of generality).
inline OpPattern MaxPattern(OpPattern a, OpPattern b) {
  return a > b ? a : b;
}

struct ForwardEdge {
  uint32_t node;      // the consumer's index
  OpPattern pattern;  // how the consumer uses this node
};

class IndexedForwardGraph {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  // Builds the graph of `index.node(root)` (usually a function). Iterative: any depth. The
  // expressions must carry checked types (FuseOps requires InferType). The children of functions
  // `index` left unexpanded are numbered now (added to `index`), except those of functions left
  // to an external compiler, which are not graph nodes.
  static IndexedForwardGraph Create(ir::PostOrderIndex& index, ir::PostOrderIndex::Id root);

  uint32_t size() const { return static_cast<uint32_t>(refs_.size()); }
  const ir::ExprNode* ref(uint32_t i) const { return refs_[i]; }
  bool extern_ref(uint32_t i) const { return extern_ref_[i] != 0; }
  OpPattern pattern(uint32_t i) const { return patterns_[i]; }
  std::span<const ForwardEdge> outputs(uint32_t i) const {
    return {edges_.data() + edge_begin_[i], edges_.data() + edge_begin_[i + 1]};
  }
  // The graph index of the node numbered `id` in the PostOrderIndex, or kNone if that node is
  // not a graph node.
  uint32_t IndexOf(ir::PostOrderIndex::Id id) const {
    return id < index_of_id_.size() ? index_of_id_[id] : kNone;
  }

 private:
  friend class GraphBuilder;
  std::vector<const ir::ExprNode*> refs_;
  std::vector<uint8_t> extern_ref_;
  std::vector<OpPattern> patterns_;
  std::vector<uint32_t> edge_begin_;  // size() + 1 offsets into edges_
  std::vector<ForwardEdge> edges_;
  std::vector<uint32_t> index_of_id_;  // PostOrderIndex number -> graph index
};

}  // namespace relaypass::passes::fuse
