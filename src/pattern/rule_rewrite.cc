#include "relaypass/pattern/rule_rewrite.h"

#include <algorithm>
#include <functional>
#include <span>
#include <unordered_map>

#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/pattern/match.h"

namespace relaypass::pattern {

namespace {

using Id = ir::PostOrderIndex::Id;
constexpr Id kNone = ir::PostOrderIndex::kNone;

struct Group {
  Id root;
  RuleMatch match;
};

// The numbering of the expression the rules run on, shared by the rules as long as none of them
// changes the expression (most rules match nothing: numbering the graph once per rule was most
// of the pass on large graphs).
struct IndexedExpr {
  ir::Expr expr;
  ir::PostOrderIndex index;
  Id root = kNone;
  std::vector<uint32_t> uses;  // by id: the edges into the node; filled on first need
  // Positions in index.post_order(), ascending: of the calls of each operator, and of all calls.
  // A rule visits only the calls of its roots' operators (most rules' roots are rare in a graph).
  std::unordered_map<const ir::OpNode*, std::vector<uint32_t>> calls_by_op;
  std::vector<uint32_t> calls;

  void Reset(const ir::Expr& e) {
    if (expr.same_as(e)) return;
    expr = e;
    index = ir::PostOrderIndex();
    root = index.Add(e);
    uses.clear();
    calls_by_op.clear();
    calls.clear();
    const std::vector<Id>& order = index.post_order();
    for (uint32_t pos = 0; pos < order.size(); ++pos) {
      const ir::ExprNode* node = index.node(order[pos]);
      if (node->kind != ir::ExprKind::kCall) continue;
      calls.push_back(pos);
      if (auto* op = static_cast<const ir::CallNode*>(node)->op_node()) {
        calls_by_op[op].push_back(pos);
      }
    }
  }
  // The positions `rule` may match at, from the output back to the inputs (descending).
  std::vector<uint32_t> Candidates(const RewriteRule& rule) const {
    if (rule.roots.empty()) return {calls.rbegin(), calls.rend()};
    std::vector<uint32_t> out;
    for (const std::string& name : rule.roots) {
      ir::Op op = ir::OpRegistry::Global().GetOp(name);
      auto it = op ? calls_by_op.find(op.get()) : calls_by_op.end();
      if (it != calls_by_op.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    }
    std::sort(out.begin(), out.end(), std::greater<>());
    return out;
  }
  const std::vector<uint32_t>& Uses() {
    if (uses.empty() && index.size() > 0) {
      uses.assign(index.size(), 0);
      for (Id id = 0; id < index.size(); ++id) {
        for (Id c : index.children(id)) {
          if (c != kNone) ++uses[c];
        }
      }
    }
    return uses;
  }
};

// One application of `rule` to `indexed.expr` (typed).
ir::Expr ApplyRule(IndexedExpr& indexed, const RewriteRule& rule) {
  const ir::PostOrderIndex& index = indexed.index;
  const ir::Expr& expr = indexed.expr;
  const Id root = indexed.root;
  const size_t n = index.size();
  const std::vector<uint32_t> candidates = indexed.Candidates(rule);
  if (candidates.empty()) return expr;
  std::vector<uint32_t> group_of(n, UINT32_MAX);
  std::vector<Group> groups;
  const std::vector<Id>& order = index.post_order();
  std::vector<Id> inner_ids;
  for (uint32_t pos : candidates) {
    const Id id = order[pos];
    if (group_of[id] != UINT32_MAX) continue;
    RuleMatch match;
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
      if (inside != indexed.Uses()[inner]) {
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
  // By id: the node's rewritten form, or null while it is unchanged (most nodes: a rule's
  // callback often keeps what it matched), so unchanged parts cost no reference counting.
  std::vector<ir::Expr> results(n);
  size_t rewritten = 0;  // nodes with a result so far: while none, no capture needs a lookup
  for (Id id : order) {
    const uint32_t gid = group_of[id];
    const bool match_root = gid != UINT32_MAX && groups[gid].root == id;
    const std::span<const Id> children = index.children(id);
    const bool child_changed = std::any_of(children.begin(), children.end(),
                                           [&](Id c) { return c != kNone && results[c]; });
    if (!match_root && !child_changed) continue;
    const ir::Expr pre(index.node(id));
    ir::Expr post = child_changed ? ir::RebuildOnChildren(pre, children, results) : pre;
    if (match_root) {
      std::vector<ir::Expr>& captures = groups[gid].match.captures;
      if (rewritten > 0) {
        for (ir::Expr& c : captures) {
          const Id cid = c ? index.find(c.get()) : kNone;
          if (cid != kNone && results[cid]) c = results[cid];
        }
      }
      post = rule.rewrite(pre, post, captures);
      // Released here, while their nodes are in cache (most callbacks keep what they matched).
      std::vector<ir::Expr>().swap(captures);
    }
    if (!post.same_as(pre)) {
      results[id] = std::move(post);
      ++rewritten;
    }
  }
  return results[root] ? results[root] : expr;
}

}  // namespace

ir::Function RewriteWithRules(const ir::Function& func, const ir::IRModule& mod,
                              const std::vector<RewriteRule>& rules, int tvm_callbacks) {
  ir::Expr current = func;
  IndexedExpr indexed;
  // InferType's own output needs no second check (the pass requires InferType, so this is the
  // common case; checking a large graph again was a third of the pass).
  bool typed = mod.IsTypeInferred(func);
  int count = 0;
  while (true) {
    const ir::Expr last = current;
    for (const RewriteRule& rule : rules) {
      if (!typed) {
        current = ir::InferExprTypes(current, mod);
        typed = true;
      }
      indexed.Reset(current);
      ir::Expr next = ApplyRule(indexed, rule);
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

RewriteRule PatternRule(std::string name, DFPattern pattern, std::vector<DFPattern> captures,
                        RuleCallback rewrite) {
  std::vector<std::string> roots = RootOps(pattern);
  auto match = [pattern, captures, prefilter = Prefilter(pattern)](const ir::Expr& pre,
                                                                   RuleMatch& m) {
    if (!prefilter(pre)) return false;
    std::optional<MatchedCaptures> found = MatchCaptures(pattern, pre, captures);
    if (!found) return false;
    for (const ir::ExprNode* call : found->calls) {
      if (call != pre.get()) m.inner.push_back(call);
    }
    m.captures = std::move(found->captures);
    return true;
  };
  return {std::move(name), std::move(roots), std::move(match), std::move(rewrite)};
}

}  // namespace relaypass::pattern
