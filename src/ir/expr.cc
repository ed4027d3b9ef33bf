#include "relaypass/ir/expr.h"

namespace relaypass::ir {

Type ConstantNode::tensor_type() const {
  return TensorType(data.shape(), data.dtype());
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
Function MakeFunction(std::vector<Var> params, Expr body, Type ret_type, DictAttrs attrs) {
  return make_ref<FunctionNode>(std::move(params), std::move(body), std::move(ret_type),
                                std::move(attrs));
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
