#include "relaypass/ir/expr.h"

#include <atomic>

namespace relaypass::ir {

Type ConstantNode::tensor_type() const {
  return TensorType(data.shape(), data.dtype());
}

uint64_t VarNode::NextVarId() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

Var MakeVar(std::string name, Type annotation) {
  return make_ref<VarNode>(std::move(name), std::move(annotation));
}
GlobalVar MakeGlobalVar(std::string name) {
  return make_ref<GlobalVarNode>(std::move(name));
}
Constant MakeConstant(NDArray data) {
  return make_ref<ConstantNode>(std::move(data));
}
Call MakeCall(Expr op, std::vector<Expr> args, Attrs attrs) {
  return make_ref<CallNode>(std::move(op), std::move(args), std::move(attrs));
}
Tuple MakeTuple(std::vector<Expr> fields) {
  return make_ref<TupleNode>(std::move(fields));
}
TupleGetItem MakeTupleGetItem(Expr tuple, int index) {
  return make_ref<TupleGetItemNode>(std::move(tuple), index);
}
Function MakeFunction(std::vector<Var> params, Expr body, Type ret_type, DictAttrs attrs,
                      std::vector<Type> type_params) {
  return make_ref<FunctionNode>(std::move(params), std::move(body), std::move(ret_type),
                                std::move(attrs), std::move(type_params));
}
Let MakeLet(Var var, Expr value, Expr body) {
  return make_ref<LetNode>(std::move(var), std::move(value), std::move(body));
}
If MakeIf(Expr cond, Expr true_branch, Expr false_branch) {
  return make_ref<IfNode>(std::move(cond), std::move(true_branch), std::move(false_branch));
}

RefCreate MakeRefCreate(Expr value) {
  return make_ref<RefCreateNode>(std::move(value));
}
RefRead MakeRefRead(Expr ref) {
  return make_ref<RefReadNode>(std::move(ref));
}
RefWrite MakeRefWrite(Expr ref, Expr value) {
  return make_ref<RefWriteNode>(std::move(ref), std::move(value));
}

TypeDataNode::TypeDataNode(Type h, std::vector<Type> tv, std::vector<Constructor> c)
    : TypeNode(kKind), header(std::move(h)), type_vars(std::move(tv)), constructors(std::move(c)) {
  complete = true;
  hash = std::hash<const void*>()(this);  // a definition equals only itself
}

Constructor MakeConstructor(std::string name, std::vector<Type> inputs, Type belong_to) {
  return make_ref<ConstructorNode>(std::move(name), std::move(inputs), std::move(belong_to));
}
TypeData MakeTypeData(Type header, std::vector<Type> type_vars,
                      std::vector<Constructor> constructors) {
  return make_ref<TypeDataNode>(std::move(header), std::move(type_vars), std::move(constructors));
}
Pattern MakePatternWildcard() {
  return make_ref<PatternWildcardNode>();
}
Pattern MakePatternVar(Var var) {
  return make_ref<PatternVarNode>(std::move(var));
}
Pattern MakePatternConstructor(Constructor constructor, std::vector<Pattern> patterns) {
  return make_ref<PatternConstructorNode>(std::move(constructor), std::move(patterns));
}
Pattern MakePatternTuple(std::vector<Pattern> patterns) {
  return make_ref<PatternTupleNode>(std::move(patterns));
}
Clause MakeClause(Pattern lhs, Expr rhs) {
  return make_ref<ClauseNode>(std::move(lhs), std::move(rhs));
}
Match MakeMatch(Expr data, std::vector<Clause> clauses, bool complete) {
  return make_ref<MatchNode>(std::move(data), std::move(clauses), complete);
}

namespace {
const std::vector<Pattern>* SubPatterns(const PatternNode* p) {
  if (p->kind == PatternKind::kConstructor) {
    return &static_cast<const PatternConstructorNode*>(p)->patterns;
  }
  if (p->kind == PatternKind::kTuple) return &static_cast<const PatternTupleNode*>(p)->patterns;
  return nullptr;
}
}  // namespace

std::vector<Var> PatternVars(const Pattern& pattern) {
  std::vector<Var> vars;
  std::vector<const PatternNode*> stack = {pattern.get()};
  while (!stack.empty()) {
    const PatternNode* p = stack.back();
    stack.pop_back();
    if (!p) continue;
    if (p->kind == PatternKind::kVar) {
      vars.push_back(static_cast<const PatternVarNode*>(p)->var);
    } else if (auto* subs = SubPatterns(p)) {
      for (size_t i = subs->size(); i-- > 0;) stack.push_back((*subs)[i].get());
    }
  }
  return vars;
}

Pattern ReplacePatternVars(const Pattern& pattern, const std::vector<Var>& vars) {
  // Post-order over the pattern with an explicit stack; variables are numbered in PatternVars'
  // (pre-order, left to right) order, which is the order leaves are first reached here too.
  struct Frame {
    const PatternNode* node;
    size_t next = 0;
    std::vector<Pattern> done;
  };
  size_t var_index = 0;
  std::vector<Frame> stack;
  stack.push_back({pattern.get(), 0, {}});
  Pattern result;
  while (!stack.empty()) {
    Frame& top = stack.back();
    const std::vector<Pattern>* subs = top.node ? SubPatterns(top.node) : nullptr;
    if (subs && top.next < subs->size()) {
      const PatternNode* child = (*subs)[top.next++].get();
      stack.push_back({child, 0, {}});
      continue;
    }
    Pattern built;
    const PatternNode* node = top.node;
    if (node && node->kind == PatternKind::kVar) {
      const Var& old_var = static_cast<const PatternVarNode*>(node)->var;
      const Var& new_var = var_index < vars.size() ? vars[var_index] : old_var;
      ++var_index;
      built = new_var.same_as(old_var) ? Pattern(node) : MakePatternVar(new_var);
    } else if (subs) {
      bool changed = false;
      for (size_t i = 0; i < subs->size(); ++i) changed |= !top.done[i].same_as((*subs)[i]);
      if (!changed) {
        built = Pattern(node);
      } else if (node->kind == PatternKind::kTuple) {
        built = MakePatternTuple(std::move(top.done));
      } else {
        built = MakePatternConstructor(
            static_cast<const PatternConstructorNode*>(node)->constructor, std::move(top.done));
      }
    } else {
      built = Pattern(node);
    }
    stack.pop_back();
    if (stack.empty()) {
      result = std::move(built);
    } else {
      stack.back().done.push_back(std::move(built));
    }
  }
  return result;
}

Expr CopyNode(const Expr& e) {
  switch (e->kind) {
    case ExprKind::kVar:
      return make_ref<VarNode>(*e.as<VarNode>());
    case ExprKind::kGlobalVar:
      return make_ref<GlobalVarNode>(*e.as<GlobalVarNode>());
    case ExprKind::kConstant:
      return make_ref<ConstantNode>(*e.as<ConstantNode>());
    case ExprKind::kOp:
      return make_ref<OpNode>(*e.as<OpNode>());
    case ExprKind::kCall:
      return make_ref<CallNode>(*e.as<CallNode>());
    case ExprKind::kTuple:
      return make_ref<TupleNode>(*e.as<TupleNode>());
    case ExprKind::kTupleGetItem:
      return make_ref<TupleGetItemNode>(*e.as<TupleGetItemNode>());
    case ExprKind::kFunction:
      return make_ref<FunctionNode>(*e.as<FunctionNode>());
    case ExprKind::kLet:
      return make_ref<LetNode>(*e.as<LetNode>());
    case ExprKind::kIf:
      return make_ref<IfNode>(*e.as<IfNode>());
    case ExprKind::kRefCreate:
      return make_ref<RefCreateNode>(*e.as<RefCreateNode>());
    case ExprKind::kRefRead:
      return make_ref<RefReadNode>(*e.as<RefReadNode>());
    case ExprKind::kRefWrite:
      return make_ref<RefWriteNode>(*e.as<RefWriteNode>());
    case ExprKind::kConstructor:
      return make_ref<ConstructorNode>(*e.as<ConstructorNode>());
    case ExprKind::kMatch:
      return make_ref<MatchNode>(*e.as<MatchNode>());
  }
  throw InternalError("CopyNode: unknown expression kind");
}

Expr WithCheckedType(const Expr& e, Type t) {
  if (e->checked_type.same_as(t) || TypeEqual(e->checked_type, t)) return e;
  Expr copy = CopyNode(e);
  const_cast<ExprNode*>(copy.get())->checked_type = std::move(t);  // fresh, not yet shared
  return copy;
}

}  // namespace relaypass::ir
