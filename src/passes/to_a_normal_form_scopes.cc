#include "to_a_normal_form_scopes.h"

#include "recursive_edge_order.h"

namespace relaypass::passes::anf {

using ir::ExprKind;

uint32_t ScopeTree::AddChild(uint32_t parent) {
  const Node& p = nodes_[parent];
  const Node& pj = nodes_[p.jump];
  const Node& pjj = nodes_[pj.jump];
  // Jump twice as far when the parent's jump and its jump's jump span equal distances.
  uint32_t jump = p.depth - pj.depth == pj.depth - pjj.depth ? pj.jump : parent;
  nodes_.push_back({parent, p.depth + 1, jump});
  return static_cast<uint32_t>(nodes_.size() - 1);
}

uint32_t ScopeTree::LeastCommonAncestor(uint32_t a, uint32_t b) const {
  if (nodes_[a].depth < nodes_[b].depth) std::swap(a, b);
  while (nodes_[a].depth > nodes_[b].depth) {
    a = nodes_[nodes_[a].jump].depth >= nodes_[b].depth ? nodes_[a].jump : nodes_[a].parent;
  }
  while (a != b) {
    // At equal depths the jumps land at equal depths too.
    if (nodes_[a].jump != nodes_[b].jump) {
      a = nodes_[a].jump;
      b = nodes_[b].jump;
    } else {
      a = nodes_[a].parent;
      b = nodes_[b].parent;
    }
  }
  return a;
}

ScopeAnalysis ScopeAnalysis::Run(const ir::Expr& root, bool find_lifted) {
  ScopeAnalysis a;
  a.root = a.index.Add(root);
  // Reverse post-order: every user of a node comes before it. The edges are TVM's dependency
  // graph's with the scope nodes of functions, lets and ifs folded into their owners: a
  // function's params and body, a let's value, var and body, an if's condition and branches.
  const size_t n = a.index.size();
  a.scope.assign(n, kNone);
  a.body_scope.assign(n, kNone);
  a.else_scope.assign(n, kNone);
  // The first user of each node, and the scope that user gives it.
  std::vector<uint32_t> first_parent(find_lifted ? n : 0, kNone);
  std::vector<uint32_t> first_scope(find_lifted ? n : 0, kNone);
  if (find_lifted) {
    ForEachEdgeInRecursiveOrder(a.index, a.root, [&](uint32_t parent, uint32_t, uint32_t child) {
      if (first_parent[child] == kNone) first_parent[child] = parent;
    });
  }
  uint32_t current_parent = kNone;
  auto push = [&](uint32_t child, uint32_t scope) {
    if (child == kNone) return;
    if (find_lifted && first_parent[child] == current_parent && first_scope[child] == kNone) {
      first_scope[child] = scope;
    }
    uint32_t& s = a.scope[child];
    s = s == kNone ? scope : a.tree.LeastCommonAncestor(s, scope);
  };
  const std::vector<uint32_t>& post_order = a.index.post_order();
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    const uint32_t id = *it;
    if (a.scope[id] == kNone) a.scope[id] = ScopeTree::kGlobal;  // the root
    const uint32_t s = a.scope[id];
    current_parent = id;
    const std::span<const uint32_t> children = a.index.children(id);
    switch (a.index.node(id)->kind) {
      case ExprKind::kFunction:
      case ExprKind::kLet: {
        const uint32_t body = a.tree.AddChild(s);
        a.body_scope[id] = body;
        for (uint32_t c : children) push(c, body);
        break;
      }
      case ExprKind::kIf:
        a.body_scope[id] = a.tree.AddChild(s);
        a.else_scope[id] = a.tree.AddChild(s);
        push(children[0], s);
        push(children[1], a.body_scope[id]);
        push(children[2], a.else_scope[id]);
        break;
      case ExprKind::kMatch: {
        // The data in the match's scope; each clause (its pattern's variables, then its right
        // side: ForEachVisitChild's order) in a scope of its own, as an if's branches.
        const auto* match = static_cast<const ir::MatchNode*>(a.index.node(id));
        push(children[0], s);
        std::vector<uint32_t>& clause_scopes = a.match_scopes[id];
        size_t k = 1;
        for (const ir::Clause& clause : match->clauses) {
          const uint32_t scope = a.tree.AddChild(s);
          clause_scopes.push_back(scope);
          const size_t end = k + ir::PatternVars(clause->lhs).size() + 1;
          for (; k < end; ++k) push(children[k], scope);
        }
        break;
      }
      default:
        for (uint32_t c : children) push(c, s);
    }
  }
  if (!find_lifted) return a;
  a.lifted.assign(n, 0);
  for (uint32_t id = 0; id < n; ++id) {
    a.lifted[id] = first_scope[id] != kNone && first_scope[id] != a.scope[id] &&
                   a.index.node(id)->kind != ExprKind::kOp;
  }
  return a;
}

}  // namespace relaypass::passes::anf
