#include "walk.h"

namespace relaypass::passes::devices {

void ExprChildren(const ir::ExprNode* expr, std::vector<const ir::ExprNode*>& out) {
  switch (expr->kind) {
    case ir::ExprKind::kCall: {
      auto* call = static_cast<const ir::CallNode*>(expr);
      out.push_back(call->op.get());
      for (const ir::Expr& arg : call->args) out.push_back(arg.get());
      break;
    }
    case ir::ExprKind::kTuple:
      for (const ir::Expr& f : static_cast<const ir::TupleNode*>(expr)->fields) {
        out.push_back(f.get());
      }
      break;
    case ir::ExprKind::kTupleGetItem:
      out.push_back(static_cast<const ir::TupleGetItemNode*>(expr)->tuple.get());
      break;
    case ir::ExprKind::kFunction: {
      auto* fn = static_cast<const ir::FunctionNode*>(expr);
      for (const ir::Var& p : fn->params) out.push_back(p.get());
      out.push_back(fn->body.get());
      break;
    }
    case ir::ExprKind::kLet: {
      auto* let = static_cast<const ir::LetNode*>(expr);
      out.push_back(let->var.get());
      out.push_back(let->value.get());
      out.push_back(let->body.get());
      break;
    }
    case ir::ExprKind::kIf: {
      auto* e = static_cast<const ir::IfNode*>(expr);
      out.push_back(e->cond.get());
      out.push_back(e->true_branch.get());
      out.push_back(e->false_branch.get());
      break;
    }
    case ir::ExprKind::kRefCreate:
      out.push_back(static_cast<const ir::RefCreateNode*>(expr)->value.get());
      break;
    case ir::ExprKind::kRefRead:
      out.push_back(static_cast<const ir::RefReadNode*>(expr)->ref.get());
      break;
    case ir::ExprKind::kRefWrite: {
      auto* w = static_cast<const ir::RefWriteNode*>(expr);
      out.push_back(w->ref.get());
      out.push_back(w->value.get());
      break;
    }
    case ir::ExprKind::kMatch: {
      auto* m = static_cast<const ir::MatchNode*>(expr);
      out.push_back(m->data.get());
      for (const ir::Clause& c : m->clauses) out.push_back(c->rhs.get());
      break;
    }
    default:
      break;
  }
}

}  // namespace relaypass::passes::devices
