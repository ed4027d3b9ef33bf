#include "grouper.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::pattern {

namespace {

// A pattern's inputs in the order of TVM's pattern IndexedGraph.
template <typename F>
void ForEachPatternInput(const DFPatternNode* p, F&& fn) {
  switch (p->kind) {
    case PatternKind::kCall: {
      auto* n = static_cast<const CallPatternNode*>(p);
      fn(n->op);
      for (const DFPattern& a : n->args) fn(a);
      break;
    }
    case PatternKind::kFunction: {
      auto* n = static_cast<const FunctionPatternNode*>(p);
      for (const DFPattern& a : n->params) fn(a);
      fn(n->body);
      break;
    }
    case PatternKind::kTuple:
      for (const DFPattern& f : static_cast<const TuplePatternNode*>(p)->fields) fn(f);
      break;
    case PatternKind::kTupleGetItem:
      fn(static_cast<const TupleGetItemPatternNode*>(p)->tuple);
      break;
    case PatternKind::kIf: {
      auto* n = static_cast<const IfPatternNode*>(p);
      fn(n->cond);
      fn(n->true_branch);
      fn(n->false_branch);
      break;
    }
    case PatternKind::kLet: {
      auto* n = static_cast<const LetPatternNode*>(p);
      fn(n->var);
      fn(n->value);
      fn(n->body);
      break;
    }
    case PatternKind::kAlt: {
      auto* n = static_cast<const AltPatternNode*>(p);
      fn(n->left);
      fn(n->right);
      break;
    }
    case PatternKind::kType:
      fn(static_cast<const TypePatternNode*>(p)->pattern);
      break;
    case PatternKind::kShape:
      fn(static_cast<const ShapePatternNode*>(p)->pattern);
      break;
    case PatternKind::kDataType:
      fn(static_cast<const DataTypePatternNode*>(p)->pattern);
      break;
    case PatternKind::kAttr:
      fn(static_cast<const AttrPatternNode*>(p)->pattern);
      break;
    case PatternKind::kDominator: {
      auto* n = static_cast<const DominatorPatternNode*>(p);
      fn(n->parent);
      fn(n->path);
      fn(n->child);
      break;
    }
    default:
      break;
  }
}

// The part of TVM's MatchExtractor name for one extracted node.
void AppendName(const ir::ExprNode* e, std::string& name) {
  switch (e->kind) {
    case ir::ExprKind::kTuple:
      name += "Tuple_";
      break;
    case ir::ExprKind::kFunction:
      name += "Function";
      break;
    case ir::ExprKind::kCall: {
      const ir::OpNode* op = static_cast<const ir::CallNode*>(e)->op_node();
      name += op ? op->name + "_" : std::string("Call_");
      break;
    }
    case ir::ExprKind::kLet:
      name += "Let_";
      break;
    case ir::ExprKind::kIf:
      name += "If_";
      break;
    case ir::ExprKind::kTupleGetItem:
      name +=
          "TupleGetItem" + std::to_string(static_cast<const ir::TupleGetItemNode*>(e)->index) + "_";
      break;
    default:
      break;
  }
}

}  // namespace

void PatternGrouper::GroupMatches(const DFPattern& pattern, const ir::Expr& expr) {
  groups_.clear();
  gid_ = support::PointerMap<int>();
  pattern_ = pattern;
  // The pattern's nodes in post-order (each once), with their number of inputs.
  pattern_order_.clear();
  pattern_num_inputs_.clear();
  std::unordered_set<const DFPatternNode*> seen{pattern.get()};
  std::vector<std::pair<DFPattern, std::vector<DFPattern>>> stack;
  auto push = [&](const DFPattern& p) {
    std::vector<DFPattern> inputs;
    ForEachPatternInput(p.get(), [&](const DFPattern& c) { inputs.push_back(c); });
    std::reverse(inputs.begin(), inputs.end());
    stack.emplace_back(p, std::move(inputs));
  };
  push(pattern);
  while (!stack.empty()) {
    auto& [p, pending] = stack.back();
    if (pending.empty()) {
      size_t n = 0;
      ForEachPatternInput(p.get(), [&](const DFPattern&) { ++n; });
      pattern_order_.push_back(p);
      pattern_num_inputs_.push_back(n);
      stack.pop_back();
      continue;
    }
    DFPattern next = pending.back();
    pending.pop_back();
    if (next && seen.insert(next.get()).second) push(next);
  }

  Matcher matcher(expr);
  matcher_ = &matcher;
  ExprGraph& graph = matcher.graph();
  std::unordered_set<const ir::ExprNode*> pre_partitioned;
  const std::vector<ExprGraph::Id>& order = graph.post_order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const ir::ExprNode* node = graph.node(*it);
    if (gid_.contains(node)) continue;
    if (node->kind == ir::ExprKind::kFunction) {
      auto* fn = static_cast<const ir::FunctionNode*>(node);
      if (fn->attrs.find("PartitionedFromPattern")) {
        pre_partitioned.insert(node);
        ir::post_order_visit(fn->body, [&](const ir::Expr& e) { pre_partitioned.insert(e.get()); });
      }
    }
    if (!pre_partitioned.count(node)) {
      ir::Expr current(node);
      if (matcher.Match(pattern_, current)) CreateGroup(current);
    }
  }
  matcher_ = nullptr;
}

const PatternGroup* PatternGrouper::GroupAt(const ir::ExprNode* node) const {
  const int* gid = gid_.find(node);
  if (!gid) return nullptr;
  const PatternGroup& group = groups_.at(*gid);
  return group.root.get() == node ? &group : nullptr;
}

bool PatternGrouper::EmbedConst(const ir::Expr& expr, const DFPattern& pattern) {
  if (!expr.as<ir::ConstantNode>()) return false;
  if (pattern.as<ConstantPatternNode>()) return true;
  if (auto* p = pattern.as<ExprPatternNode>()) return p->expr.as<ir::ConstantNode>() != nullptr;
  if (auto* p = pattern.as<AltPatternNode>()) {
    Matcher m(expr);
    return m.Match(p->left, expr) ? EmbedConst(expr, p->left) : EmbedConst(expr, p->right);
  }
  return false;
}

void PatternGrouper::CreateGroup(const ir::Expr& root) {
  const NodeMap node_map = matcher_->memo();
  // Matches of a dominator's parent and path, and the insides of matched functions, are no
  // inputs.
  std::unordered_set<const ir::ExprNode*> fuzzy;
  for (const DFPattern& p : pattern_order_) {
    if (auto* dom = p.as<DominatorPatternNode>()) {
      for (const DFPattern* q : {&dom->parent, &dom->path}) {
        for (const ir::Expr& e : Lookup(node_map, *q)) fuzzy.insert(e.get());
      }
    }
    if (p.as<FunctionPatternNode>()) {
      for (const ir::Expr& e : Lookup(node_map, p)) {
        ir::post_order_visit(e.as<ir::FunctionNode>()->body,
                             [&](const ir::Expr& x) { fuzzy.insert(x.get()); });
      }
    }
  }

  PatternGroup group;
  group.root = root;
  group.matched_nodes = node_map;
  std::unordered_map<const ir::ExprNode*, ir::Var> inputs;
  std::vector<ir::Var> params;
  int var_number = 0;
  for (size_t i = 0; i < pattern_order_.size(); ++i) {
    const DFPattern& p = pattern_order_[i];
    auto make_input = [&](const ir::Expr& input) {
      if (fuzzy.count(input.get()) || input.as<ir::OpNode>() || input.as<ir::FunctionNode>() ||
          EmbedConst(input, p) || inputs.count(input.get())) {
        return;
      }
      ir::Var var = ir::MakeVar("FunctionVar_" + std::to_string(graph_number_) + "_" +
                                std::to_string(var_number++));
      inputs.emplace(input.get(), var);
      group.args.push_back(input);
      params.push_back(var);
    };
    auto* tuple = p.as<TuplePatternNode>();
    auto* call = p.as<CallPatternNode>();
    const std::vector<ir::Expr>& matches = Lookup(node_map, p);
    if (tuple && !tuple->has_fields) {
      for (const ir::Expr& m : matches) {
        for (const ir::Expr& f : m.as<ir::TupleNode>()->fields) make_input(f);
      }
    } else if (call && !call->has_args) {
      for (const ir::Expr& m : matches) {
        for (const ir::Expr& a : m.as<ir::CallNode>()->args) make_input(a);
      }
    } else if (pattern_num_inputs_[i] == 0) {
      for (const ir::Expr& m : matches) make_input(m);
    }
  }
  ++graph_number_;

  // Extract the match: the nodes between the root and the inputs, rebuilt on the params.
  ir::PostOrderIndex index;
  index.Add(root, [&](const ir::ExprNode* e) { return !inputs.count(e); });
  std::vector<ir::Expr> results(index.size());
  std::unordered_set<const ir::ExprNode*> extracted;
  for (ir::PostOrderIndex::Id id : index.post_order()) {
    const ir::ExprNode* e = index.node(id);
    auto in = inputs.find(e);
    if (in != inputs.end()) {
      results[id] = in->second;
      continue;
    }
    extracted.insert(e);
    results[id] = ir::RebuildOnChildren(ir::Expr(e), index.children(id), results);
    AppendName(e, group.name);
  }
  ir::Expr body = results[index.find(root.get())];
  group.function = ir::MakeFunction(params, body);

  // Refuse overlaps with earlier groups, and inner nodes used outside the match.
  ExprGraph& graph = matcher_->graph();
  const ExprGraph::Id root_id = graph.find(root.get());
  for (const ir::ExprNode* e : extracted) {
    if (e->kind == ir::ExprKind::kOp || e->kind == ir::ExprKind::kFunction ||
        e->kind == ir::ExprKind::kConstant) {
      continue;
    }
    if (gid_.contains(e)) return;
    if (e == root.get()) continue;
    const ExprGraph::Id id = graph.find(e);
    if (id == ExprGraph::kNone) continue;
    for (ExprGraph::Id user : graph.users(id)) {
      if (!extracted.count(graph.node(user)) && !graph.Dominates(root_id, user)) return;
    }
  }
  group.gid = ++next_gid_;
  for (const ir::ExprNode* e : extracted) gid_[e] = group.gid;
  groups_[group.gid] = std::move(group);
}

}  // namespace relaypass::pattern
