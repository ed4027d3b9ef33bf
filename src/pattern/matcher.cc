#include "matcher.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>

#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"

namespace relaypass::pattern {

namespace {

// TVM's MatchRetValue, for relaypass's attribute values: integers and bools by value, doubles by
// value, strings (also dtype fields) by text, arrays elementwise.
bool AttrMatches(const ir::AttrValue& want, const ir::AttrValue& have) {
  using Kind = ir::AttrValue::Kind;
  switch (want.kind()) {
    case Kind::kNull:
      return have.is_null();
    case Kind::kInt:
    case Kind::kBool:
      return (have.kind() == Kind::kInt || have.kind() == Kind::kBool) &&
             want.as_int() == have.as_int();
    case Kind::kDouble:
      return (have.kind() == Kind::kDouble || have.kind() == Kind::kInt) &&
             want.as_double() == have.as_double();
    case Kind::kString:
      return have.kind() == Kind::kString && want.as_string() == have.as_string();
    case Kind::kArray: {
      if (have.kind() != Kind::kArray) return false;
      const auto& a = want.as_array();
      const auto& b = have.as_array();
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        if (!AttrMatches(a[i], b[i])) return false;
      }
      return true;
    }
    case Kind::kMap:  // other objects: structural equality, as TVM's
    case Kind::kVirtualDevice:
      return want == have;
  }
  return false;
}

// The attributes an Op itself carries (TVM's op attribute maps) that patterns can test.
bool OpAttr(const ir::OpNode* op, const std::string& name, ir::AttrValue* out) {
  if (!op->def) return false;
  if (name == "TOpPattern") {
    *out = ir::AttrValue::Int(static_cast<int>(op->def->pattern));
    return true;
  }
  if (name == "TOpIsStateful") {
    *out = ir::AttrValue::Bool(op->def->stateful);
    return true;
  }
  if (name == "TReshapeOp") {
    *out = ir::AttrValue::Bool(op->def->is_reshape_op);
    return true;
  }
  return false;
}

const ir::OpNode* PatternOp(const CallPatternNode* p) {
  if (!p) return nullptr;
  if (auto* e = p->op.as<ExprPatternNode>()) return e->expr.as<ir::OpNode>();
  return nullptr;
}

bool IsPatternOp(const CallPatternNode* p, const char* name) {
  const ir::OpNode* op = PatternOp(p);
  return op && op->name == name;
}

bool IsExprOp(const ir::Expr& e, const char* name) {
  auto* call = e.as<ir::CallNode>();
  const ir::OpNode* op = call ? call->op_node() : nullptr;
  return op && op->name == name;
}

}  // namespace

bool OpHasAttrs(const ir::OpNode* op, const ir::DictAttrs& attrs) {
  for (const auto& [name, value] : attrs.entries()) {
    ir::AttrValue have;
    if (!OpAttr(op, name, &have) || !AttrMatches(value, have)) return false;
  }
  return true;
}

ir::Type ExprType(const ir::Expr& expr) {
  if (expr->checked_type) return expr->checked_type;
  return ir::InferExprTypes(expr)->checked_type;
}

ExprGraph& Matcher::graph() {
  if (!graph_) graph_ = std::make_unique<ExprGraph>(root_);
  return *graph_;
}

bool Matcher::Match(const DFPattern& pattern, const ir::Expr& expr) {
  memo_.clear();
  matched_nodes_.clear();
  temporaries_.clear();
  // Room for a typical pattern's nodes, so the lists grow once, not at every doubling.
  memo_.reserve(16);
  matched_nodes_.reserve(16);
  memoize_ = true;
  return Visit(pattern, expr);
}

void Matcher::ClearMap(size_t watermark) {
  for (size_t i = watermark; i < matched_nodes_.size(); ++i) {
    const DFPatternNode* gone = matched_nodes_[i];
    std::erase_if(memo_, [gone](const auto& entry) { return entry.first == gone; });
  }
  matched_nodes_.resize(watermark);
}

NodeMap Matcher::memo() const {
  NodeMap out;
  for (const auto& [pattern, expr] : memo_) out[pattern].push_back(expr);
  return out;
}

const ir::Expr* Matcher::Matched(const DFPatternNode* pattern) const {
  for (const auto& entry : memo_) {
    if (entry.first == pattern) return &entry.second;
  }
  return nullptr;
}

bool Matcher::Visit(const DFPattern& pattern, const ir::Expr& expr) {
  // Recursion follows the pattern's nesting: deeper patterns are refused before the stack is.
  if (depth_ >= kMaxPatternDepth) {
    throw ValueError("the dataflow pattern is nested deeper than " +
                     std::to_string(kMaxPatternDepth) + " levels, which the matcher refuses");
  }
  ++depth_;
  struct Leave {
    int& depth;
    ~Leave() { --depth; }
  } leave{depth_};
  if (memoize_) {
    if (const ir::Expr* matched = Matched(pattern.get())) return expr.same_as(*matched);
  }
  const size_t watermark = matched_nodes_.size();
  const bool out = VisitNode(pattern, expr);
  if (out) {
    memo_.emplace_back(pattern.get(), expr);
    matched_nodes_.push_back(pattern.get());
  } else {
    ClearMap(watermark);
  }
  return out;
}

bool Matcher::VisitNode(const DFPattern& pattern, const ir::Expr& expr) {
  switch (pattern->kind) {
    case PatternKind::kExpr: {
      const ir::Expr& want = pattern.as<ExprPatternNode>()->expr;
      if (want.same_as(expr)) return true;
      if (want.as<ir::OpNode>() || expr.as<ir::OpNode>()) return false;
      return ir::StructuralEqual(want, expr);
    }
    case PatternKind::kVar: {
      auto* var = expr.as<ir::VarNode>();
      const std::string& name = pattern.as<VarPatternNode>()->name;
      return var && (name.empty() || name == var->name_hint);
    }
    case PatternKind::kConstant:
      return expr.as<ir::ConstantNode>() != nullptr;
    case PatternKind::kWildcard:
      return true;
    case PatternKind::kCall:
      return VisitCall(pattern.as<CallPatternNode>(), expr);
    case PatternKind::kFunction: {
      auto* p = pattern.as<FunctionPatternNode>();
      auto* fn = expr.as<ir::FunctionNode>();
      if (!fn) return false;
      if (p->has_params) {
        if (p->params.size() != fn->params.size()) return false;
        for (size_t i = 0; i < p->params.size(); ++i) {
          if (!Visit(p->params[i], fn->params[i])) return false;
        }
      }
      return Visit(p->body, fn->body);
    }
    case PatternKind::kTuple: {
      auto* p = pattern.as<TuplePatternNode>();
      auto* tuple = expr.as<ir::TupleNode>();
      if (!tuple) return false;
      if (!p->has_fields) return true;
      if (p->fields.size() != tuple->fields.size()) return false;
      for (size_t i = 0; i < p->fields.size(); ++i) {
        if (!Visit(p->fields[i], tuple->fields[i])) return false;
      }
      return true;
    }
    case PatternKind::kTupleGetItem: {
      auto* p = pattern.as<TupleGetItemPatternNode>();
      auto* item = expr.as<ir::TupleGetItemNode>();
      return item && (p->index == -1 || p->index == item->index) && Visit(p->tuple, item->tuple);
    }
    case PatternKind::kIf: {
      auto* p = pattern.as<IfPatternNode>();
      auto* node = expr.as<ir::IfNode>();
      return node && Visit(p->cond, node->cond) && Visit(p->true_branch, node->true_branch) &&
             Visit(p->false_branch, node->false_branch);
    }
    case PatternKind::kLet: {
      auto* p = pattern.as<LetPatternNode>();
      auto* let = expr.as<ir::LetNode>();
      return let && Visit(p->var, let->var) && Visit(p->value, let->value) &&
             Visit(p->body, let->body);
    }
    case PatternKind::kAlt: {
      auto* p = pattern.as<AltPatternNode>();
      return Visit(p->left, expr) || Visit(p->right, expr);
    }
    case PatternKind::kType: {
      auto* p = pattern.as<TypePatternNode>();
      return ir::TypeEqual(p->type, ExprType(expr)) && Visit(p->pattern, expr);
    }
    case PatternKind::kShape: {
      auto* p = pattern.as<ShapePatternNode>();
      auto* tt = ExprType(expr).as<ir::TensorTypeNode>();
      return tt && tt->shape == p->shape && Visit(p->pattern, expr);
    }
    case PatternKind::kDataType: {
      auto* p = pattern.as<DataTypePatternNode>();
      auto* tt = ExprType(expr).as<ir::TensorTypeNode>();
      return tt && tt->dtype == p->dtype && Visit(p->pattern, expr);
    }
    case PatternKind::kAttr:
      return VisitAttr(pattern.as<AttrPatternNode>(), expr);
    case PatternKind::kDominator:
      return VisitDominator(pattern.as<DominatorPatternNode>(), expr);
  }
  return false;
}

bool Matcher::MatchArgs(const std::vector<DFPattern>& patterns, const std::vector<ir::Expr>& args,
                        size_t watermark) {
  bool matches = patterns.size() == args.size();
  for (size_t i = 0; matches && i < patterns.size(); ++i) matches = Visit(patterns[i], args[i]);
  if (!matches) ClearMap(watermark);
  return matches;
}

bool Matcher::VisitCall(const CallPatternNode* p, const ir::Expr& expr) {
  const size_t watermark = matched_nodes_.size();
  auto* call = expr.as<ir::CallNode>();
  if (!call) return false;
  if (Visit(p->op, call->op)) {
    const size_t watermark2 = matched_nodes_.size();
    if (!p->has_args || MatchArgs(p->args, call->args, watermark2)) return true;
    // Commutative matching.
    if ((IsPatternOp(p, "add") || IsPatternOp(p, "multiply")) && p->args.size() == 2) {
      if (MatchArgs({p->args[1], p->args[0]}, call->args, watermark2)) return true;
    }
    return false;
  }
  ClearMap(watermark);
  if (!p->has_args) return false;
  // Associativity of divide and multiply: (a * b) / c matches a * (b / c) and (a / c) * b.
  if (IsPatternOp(p, "divide") && p->args.size() == 2) {
    auto* mul_p = p->args[0].as<CallPatternNode>();
    if (IsPatternOp(mul_p, "multiply") && mul_p->has_args && mul_p->args.size() == 2 &&
        IsExprOp(expr, "multiply") && call->args.size() == 2 &&
        (IsExprOp(call->args[0], "divide") || IsExprOp(call->args[1], "divide"))) {
      for (size_t arg_id = 0; arg_id < 2; ++arg_id) {
        DFPattern div = Keep(p->op({mul_p->args[arg_id], p->args[1]}));
        DFPattern mul = Keep(mul_p->op({mul_p->args[(arg_id + 1) % 2], div}));
        if (Visit(mul, expr)) return true;
        ClearMap(watermark);
      }
      return false;
    }
  }
  if (IsPatternOp(p, "multiply") && p->args.size() == 2) {
    for (size_t arg_id = 0; arg_id < 2; ++arg_id) {
      auto* div_p = p->args[arg_id].as<CallPatternNode>();
      if (IsPatternOp(div_p, "divide") && div_p->has_args && div_p->args.size() == 2 &&
          IsExprOp(expr, "divide") && call->args.size() == 2 &&
          (IsExprOp(call->args[0], "multiply") || IsExprOp(call->args[1], "multiply"))) {
        DFPattern mul = Keep(p->op({div_p->args[0], p->args[(arg_id + 1) % 2]}));
        DFPattern div = Keep(div_p->op({mul, div_p->args[1]}));
        return Visit(div, expr);
      }
    }
  }
  return false;
}

bool Matcher::VisitAttr(const AttrPatternNode* p, const ir::Expr& expr) {
  if (!Visit(p->pattern, expr)) return false;
  const auto& wanted = p->attrs.entries();
  if (auto* op = expr.as<ir::OpNode>()) return OpHasAttrs(op, p->attrs);
  if (auto* call = expr.as<ir::CallNode>()) {
    for (const auto& [name, value] : wanted) {
      if (!call->attrs) return false;
      const int field = call->attrs->schema->FieldIndex(name);
      if (field < 0 || !AttrMatches(value, call->attrs->values[field])) return false;
    }
    return true;
  }
  if (auto* fn = expr.as<ir::FunctionNode>()) {
    for (const auto& [name, value] : wanted) {
      const ir::AttrValue* have = fn->attrs.find(name);
      if (!have || !AttrMatches(value, *have)) return false;
    }
    return true;
  }
  return false;
}

// TVM's MatchesPath, with an explicit stack: every input of `expr` (but a call's callee) is the
// parent or matches the path and, in turn, all of its own inputs do.
bool Matcher::MatchesPath(const DominatorPatternNode* p, const ir::Expr& expr) {
  ExprGraph& g = graph();
  const ExprGraph::Id start = g.find(expr.get());
  if (start == ExprGraph::kNone) return true;
  std::unordered_set<ExprGraph::Id> done;
  std::vector<std::pair<ExprGraph::Id, size_t>> stack{{start, 0}};
  while (!stack.empty()) {
    auto& [id, next] = stack.back();
    const auto inputs = g.inputs(id);
    const ir::CallNode* call = g.node(id)->kind == ir::ExprKind::kCall
                                   ? static_cast<const ir::CallNode*>(g.node(id))
                                   : nullptr;
    if (next == inputs.size()) {
      done.insert(id);
      stack.pop_back();
      continue;
    }
    const ExprGraph::Id input = inputs[next++];
    if (input == ExprGraph::kNone || (call && g.node(input) == call->op.get())) continue;
    const ir::Expr node = g.expr(input);
    memoize_ = true;
    if (Visit(p->parent, node)) {
      done.insert(id);
      stack.pop_back();
      continue;
    }
    memoize_ = false;
    if (!Visit(p->path, node)) return false;
    if (!done.count(input)) stack.push_back({input, 0});
  }
  return true;
}

bool Matcher::DominatesParent(const DominatorPatternNode* p, const ir::Expr& expr) {
  ExprGraph& g = graph();
  const ExprGraph::Id start = g.find(expr.get());
  if (start == ExprGraph::kNone) return false;
  std::vector<ExprGraph::Id> stack{start};
  while (!stack.empty()) {
    const ExprGraph::Id current = stack.back();
    stack.pop_back();
    for (ExprGraph::Id child : g.dominator_children(current)) {
      if (Visit(p->parent, g.expr(child))) return true;
      stack.push_back(child);
    }
  }
  return false;
}

bool Matcher::VisitDominator(const DominatorPatternNode* p, const ir::Expr& expr) {
  if (Visit(p->child, expr)) {
    const bool matches_path = MatchesPath(p, expr);
    memoize_ = true;
    if (matches_path) return DominatesParent(p, expr);
  }
  return false;
}

const std::vector<ir::Expr>& Lookup(const NodeMap& map, const DFPattern& pattern) {
  static const std::vector<ir::Expr> kEmpty;
  auto it = map.find(pattern.get());
  return it == map.end() ? kEmpty : it->second;
}

bool Match(const DFPattern& pattern, const ir::Expr& expr) {
  return Matcher(expr).Match(pattern, expr);
}

namespace {

// True when `pattern` is a call of one operator on distinct wildcards (`IsOp("add")({x, y})`)
// and `expr` such a call: the match is the call, its callee and each argument, which callers read
// without the matcher's memo and bookkeeping.
bool MatchesFlatCall(const DFPattern& pattern, const ir::Expr& expr) {
  auto* p = pattern.as<CallPatternNode>();
  auto* call = expr.as<ir::CallNode>();
  if (!p || !call || !p->has_args || p->args.size() != call->args.size()) return false;
  auto* callee = p->op.as<ExprPatternNode>();
  if (!callee || !callee->expr.as<ir::OpNode>() || !callee->expr.same_as(call->op)) return false;
  for (size_t i = 0; i < p->args.size(); ++i) {
    if (p->args[i]->kind != PatternKind::kWildcard) return false;
    for (size_t j = 0; j < i; ++j) {
      if (p->args[j].same_as(p->args[i])) return false;  // a repeated wildcard: the matcher's
    }
  }
  return true;
}

}  // namespace

std::optional<MatchedCaptures> MatchCaptures(const DFPattern& pattern, const ir::Expr& expr,
                                             const std::vector<DFPattern>& captures) {
  MatchedCaptures out;
  if (MatchesFlatCall(pattern, expr)) {
    auto* p = pattern.as<CallPatternNode>();
    auto* call = expr.as<ir::CallNode>();
    for (const DFPattern& c : captures) {
      ir::Expr found;
      if (c.same_as(pattern)) found = expr;
      if (c.same_as(p->op)) found = call->op;
      for (size_t i = 0; i < p->args.size(); ++i) {
        if (c.same_as(p->args[i])) found = call->args[i];
      }
      out.captures.push_back(found);
    }
    out.calls.push_back(expr.get());
    return out;
  }
  // One matcher per thread, reused: most of a match's cost was allocating its lists.
  thread_local Matcher matcher{ir::Expr()};
  matcher.SetRoot(expr);
  struct Release {  // no expression or temporary pattern stays alive in it after the call
    Matcher& m;
    ~Release() { m.Release(); }
  } release{matcher};
  if (!matcher.Match(pattern, expr)) return std::nullopt;
  for (const DFPattern& c : captures) {
    const ir::Expr* found = matcher.Matched(c.get());
    out.captures.push_back(found ? *found : ir::Expr());
  }
  for (const auto& [p, e] : matcher.matched()) {
    if (p->kind != PatternKind::kCall) continue;
    if (std::find(out.calls.begin(), out.calls.end(), e.get()) == out.calls.end()) {
      out.calls.push_back(e.get());
    }
  }
  return out;
}

std::optional<MatchedNodes> MatchNodes(const DFPattern& pattern, const ir::Expr& expr) {
  Matcher matcher(expr);
  if (!matcher.Match(pattern, expr)) return std::nullopt;
  return MatchedNodes{matcher.memo(), matcher.TakeTemporaries()};
}

}  // namespace relaypass::pattern
