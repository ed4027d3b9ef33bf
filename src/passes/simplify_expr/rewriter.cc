#include "rewriter.h"

#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"

namespace relaypass::passes::simplify {

namespace {

using Id = ir::PostOrderIndex::Id;
constexpr Id kNone = ir::PostOrderIndex::kNone;

struct Group {
  Id root;
  Match match;
};

// One application of `rule` to `expr` (typed).
ir::Expr ApplyRule(const ir::Expr& expr, const Rule& rule) {
  ir::PostOrderIndex index;
  const Id root = index.Add(expr);
  const size_t n = index.size();
  std::vector<uint32_t> uses(n, 0);
  for (Id id = 0; id < n; ++id) {
    for (Id c : index.children(id)) {
      if (c != kNone) ++uses[c];
    }
  }
  std::vector<uint32_t> group_of(n, UINT32_MAX);
  std::vector<Group> groups;
  const std::vector<Id>& order = index.post_order();
  std::vector<Id> inner_ids;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const Id id = *it;
    if (group_of[id] != UINT32_MAX || index.node(id)->kind != ir::ExprKind::kCall) continue;
    Match match;
    if (!rule.match(ir::Expr(index.node(id)), match)) continue;
    // The inner nodes must be free and used only inside the match.
    inner_ids.clear();
    bool valid = true;
    for (const ir::ExprNode* node : match.inner) {
      const Id inner = index.find(node);
      if (inner == kNone || group_of[inner] != UINT32_MAX) {
        valid = false;
        break;
      }
      inner_ids.push_back(inner);
    }
    if (!valid) continue;
    for (Id inner : inner_ids) {
      uint32_t inside = 0;
      auto count = [&](Id member) {
        for (Id c : index.children(member)) inside += c == inner;
      };
      count(id);
      for (Id other : inner_ids) count(other);
      if (inside != uses[inner]) {
        valid = false;
        break;
      }
    }
    if (!valid) continue;
    const auto gid = static_cast<uint32_t>(groups.size());
    group_of[id] = gid;
    for (Id inner : inner_ids) group_of[inner] = gid;
    groups.push_back({id, std::move(match)});
  }
  if (groups.empty()) return expr;
  std::vector<ir::Expr> results(n);
  for (Id id : order) {
    const ir::Expr pre(index.node(id));
    ir::Expr post = ir::RebuildOnChildren(pre, index.children(id), results);
    const uint32_t gid = group_of[id];
    if (gid != UINT32_MAX && groups[gid].root == id) {
      std::vector<ir::Expr> captures;
      for (const ir::Expr& c : groups[gid].match.captures) {
        const Id cid = index.find(c.get());
        captures.push_back(cid != kNone && results[cid] ? results[cid] : c);
      }
      post = rule.rewrite(pre, post, captures);
    }
    results[id] = std::move(post);
  }
  return results[root];
}

}  // namespace

ir::Function RewriteWithRules(const ir::Function& func, const ir::IRModule& mod,
                              const std::vector<Rule>& rules, int tvm_callbacks) {
  ir::Expr current = func;
  bool typed = false;
  int count = 0;
  while (true) {
    const ir::Expr last = current;
    for (const Rule& rule : rules) {
      if (!typed) {
        current = ir::InferExprTypes(current, mod);
        typed = true;
      }
      ir::Expr next = ApplyRule(current, rule);
      if (!next.same_as(current)) {
        current = std::move(next);
        typed = false;
      }
    }
    count += tvm_callbacks;
    if (current.same_as(last) || ir::StructuralEqual(last, current) || count >= 100) break;
  }
  if (!typed) current = ir::InferExprTypes(current, mod);
  return current.downcast<ir::FunctionNode>();
}

}  // namespace relaypass::passes::simplify
