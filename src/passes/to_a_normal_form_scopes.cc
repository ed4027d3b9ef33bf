#include "to_a_normal_form_scopes.h"

namespace relaypass::passes::anf {

using ir::ExprKind;
using ir::ExprNode;

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

namespace {

// The dependency graph's edges, with the scope nodes of functions, lets and ifs folded into
// their owners: a function's params and body, a let's var, value and body, an if's condition
// and branches.
template <typename F>
void ForEachDependency(const ExprNode* e, F&& fn) {
  if (e->kind == ExprKind::kFunction) {
    for (const ir::Var& p : static_cast<const ir::FunctionNode*>(e)->params) fn(p.get());
  } else if (e->kind == ExprKind::kLet) {
    fn(static_cast<const ir::LetNode*>(e)->var.get());
  }
  ir::ForEachChild(e, [&](const ir::Expr& c) { fn(c.get()); });
}

}  // namespace

ScopeAnalysis ScopeAnalysis::Run(const ir::Expr& root) {
  ScopeAnalysis a;
  // Post-order with dense ids. A node may sit on the stack more than once; it is expanded at
  // its first pop and emitted once all its children are.
  std::vector<const ExprNode*> nodes;
  std::vector<uint8_t> state;  // by id: 0 new, 1 expanded, 2 emitted
  std::vector<uint32_t> post_order;
  struct Frame {
    uint32_t id;
    bool expanded;
  };
  std::vector<Frame> stack;
  auto id_of = [&](const ExprNode* e) {
    auto [id, fresh] = a.ids.emplace(e, static_cast<uint32_t>(nodes.size()));
    if (fresh) {
      nodes.push_back(e);
      state.push_back(0);
    }
    return *id;
  };
  stack.push_back({id_of(root.get()), false});
  std::vector<uint32_t> children;
  while (!stack.empty()) {
    Frame top = stack.back();
    if (top.expanded) {
      state[top.id] = 2;
      post_order.push_back(top.id);
      stack.pop_back();
      continue;
    }
    if (state[top.id] != 0) {
      stack.pop_back();
      continue;
    }
    state[top.id] = 1;
    stack.back().expanded = true;
    children.clear();
    ForEachDependency(nodes[top.id], [&](const ExprNode* c) { children.push_back(id_of(c)); });
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      if (state[*it] == 0) stack.push_back({*it, false});
    }
  }

  // Reverse post-order: every user of a node comes before it.
  size_t n = nodes.size();
  a.scope.assign(n, kNone);
  a.body_scope.assign(n, kNone);
  a.else_scope.assign(n, kNone);
  auto push = [&](const ExprNode* child, uint32_t scope) {
    uint32_t& s = a.scope[a.IdOf(child)];
    s = s == kNone ? scope : a.tree.LeastCommonAncestor(s, scope);
  };
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    uint32_t id = *it;
    if (a.scope[id] == kNone) a.scope[id] = ScopeTree::kGlobal;  // the root
    uint32_t s = a.scope[id];
    const ExprNode* e = nodes[id];
    switch (e->kind) {
      case ExprKind::kFunction:
      case ExprKind::kLet: {
        uint32_t body = a.tree.AddChild(s);
        a.body_scope[id] = body;
        ForEachDependency(e, [&](const ExprNode* c) { push(c, body); });
        break;
      }
      case ExprKind::kIf: {
        auto* node = static_cast<const ir::IfNode*>(e);
        a.body_scope[id] = a.tree.AddChild(s);
        a.else_scope[id] = a.tree.AddChild(s);
        push(node->cond.get(), s);
        push(node->true_branch.get(), a.body_scope[id]);
        push(node->false_branch.get(), a.else_scope[id]);
        break;
      }
      default:
        ForEachDependency(e, [&](const ExprNode* c) { push(c, s); });
    }
  }
  return a;
}

}  // namespace relaypass::passes::anf
