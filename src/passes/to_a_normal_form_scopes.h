// The scopes ToANormalForm binds expressions in (TVM's DependencyGraph and CalcScope).
//
// Function bodies, let bodies and if branches open child scopes. Every other expression lives in
// the innermost scope that encloses all its uses (the least common ancestor of its users'
// scopes); the root lives in the global scope. Computed without recursion: a post-order of the
// dependency graph, then one pass in reverse post-order that pushes each node's scope to its
// children.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/ir/post_order_index.h"

namespace relaypass::passes::anf {

// A tree of scopes with O(log depth) least-common-ancestor queries (skew-binary jump pointers:
// let chains nest scopes 100,000 deep).
class ScopeTree {
 public:
  static constexpr uint32_t kGlobal = 0;

  ScopeTree() : nodes_{{kGlobal, 0, kGlobal}} {}
  uint32_t AddChild(uint32_t parent);
  uint32_t LeastCommonAncestor(uint32_t a, uint32_t b) const;
  uint32_t size() const { return static_cast<uint32_t>(nodes_.size()); }

 private:
  struct Node {
    uint32_t parent;
    uint32_t depth;
    uint32_t jump;  // an ancestor; its depth depends only on this node's depth
  };
  std::vector<Node> nodes_;
};

struct ScopeAnalysis {
  static constexpr uint32_t kNone = UINT32_MAX;

  // `find_lifted`: also compute `lifted` (ToBasicBlockNormalForm needs it, ToANormalForm does not;
  // it costs one more walk over the graph).
  static ScopeAnalysis Run(const ir::Expr& root, bool find_lifted);

  // Dense ids of all nodes reachable from the root, with their children's ids.
  ir::PostOrderIndex index;
  uint32_t root = kNone;
  // By id: the scope the node is bound in.
  std::vector<uint32_t> scope;
  // By id: the scope of a function's or let's body, or of an if's true branch.
  std::vector<uint32_t> body_scope;
  // By id: the scope of an if's false branch.
  std::vector<uint32_t> else_scope;
  // By the id of a match: the scope of each clause (its pattern's variables and right side).
  std::unordered_map<uint32_t, std::vector<uint32_t>> match_scopes;
  // By id: 1 if the node's scope is not the scope its first user (in the order TVM's recursive
  // DependencyGraph creator reaches the edges) gives it: TVM's lifted expressions, the only
  // ones ToBasicBlockNormalForm binds. Ops are never lifted. Empty unless Run found them.
  std::vector<uint8_t> lifted;
  ScopeTree tree;
};

}  // namespace relaypass::passes::anf
