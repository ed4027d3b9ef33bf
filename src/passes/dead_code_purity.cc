#include "dead_code_purity.h"

#include <vector>

#include "relaypass/ir/op_registry.h"

namespace relaypass::passes::dce {

namespace {

using ir::ExprKind;
using ir::ExprNode;

constexpr int kMaxCallDepth = 25;

struct Purity {
  bool pure_eval;  // evaluating the expression is pure
  bool pure_call;  // calling its (function) value is pure; always true for first-order values
};

bool IsFirstOrder(const ExprNode* e) {
  return !(e->checked_type && e->checked_type.as<ir::FuncTypeNode>());
}

// TVM's PurityVisitor, a memoized recursive functor, run on an explicit stack. Each frame is one
// pending VisitExpr_; `ret_` carries the result of the frame that just finished to its parent.
class PurityVisitor {
 public:
  explicit PurityVisitor(const ir::IRModule& mod) : mod_(mod) {}

  void VisitModule() {
    for (const auto& [gv, func] : mod_.functions()) {
      if (func->is_primitive() || func->attrs.GetInt("Extern", 0) != 0) continue;
      stack_.push_back({func.get(), gv.get()});
      Drain();
    }
  }

  support::PointerMap<uint8_t> PurityMap() const {
    support::PointerMap<uint8_t> result;
    result.reserve(var_keys_.size());
    for (const ExprNode* var : var_keys_)
      result.emplace(var, var_purity_.at(var).pure_eval ? 1 : 0);
    return result;
  }

 private:
  struct Frame {
    const ExprNode* node;
    const ExprNode* global = nullptr;  // set for a global function's visit (not memoized)
    uint32_t stage = 0;
    uint32_t index = 0;
    bool all = true;
    Purity callee{true, true};
    const ir::LetNode* let = nullptr;
  };

  void SetVarPurity(const ExprNode* var, Purity p) {
    auto [slot, inserted] = var_purity_.emplace(var, p);
    if (inserted) {
      var_keys_.push_back(var);
    } else {
      *slot = p;
    }
  }

  // Pushes a visit of `e`; returns false. (Uniform with the stepping: every child is a frame.)
  bool Visit(const ExprNode* e) {
    stack_.push_back({e});
    return false;
  }

  void Drain() {
    while (!stack_.empty()) {
      size_t top = stack_.size() - 1;
      if (!Step(top)) continue;
      const Frame& f = stack_[top];
      // A uniquely referenced node is not met again: no memo entry. Nor is a global variable's
      // visit memoized: met inside its own function's body it answers the placeholder "pure"
      // of a recursion under way, which a later call from elsewhere must not see (global_purity_
      // holds the function's final answer). A recursive function that writes a reference was
      // taken as pure, and the call that made the write was dropped.
      if (!f.global && f.node->kind != ExprKind::kGlobalVar && !f.node->uniquely_referenced()) {
        memo_[f.node] = ret_;
      }
      stack_.pop_back();
    }
  }

  // Advances frame `index`; true when it is done with its result in ret_.
  bool Step(size_t index) {
    Frame& f = stack_[index];
    if (f.global) return StepGlobalFunction(f);
    if (f.stage == 0 && !f.node->uniquely_referenced()) {
      if (const Purity* done = memo_.find(f.node)) {
        ret_ = *done;
        stack_.pop_back();  // already memoized: nothing to store
        return false;
      }
    }
    switch (f.node->kind) {
      case ExprKind::kConstant:
      case ExprKind::kConstructor:  // building an ADT value has no effect
        return Finish({true, true});
      // Not analysed yet: taken as impure, so nothing around a match is removed.
      case ExprKind::kMatch:
        return Finish({false, false});
      case ExprKind::kOp: {
        const ir::OpDef* def = static_cast<const ir::OpNode*>(f.node)->def;
        return Finish({true, !(def && def->stateful)});
      }
      case ExprKind::kGlobalVar:
        return StepGlobalVar(f);
      case ExprKind::kVar: {
        const Purity* p = var_purity_.find(f.node);
        return Finish({true, p ? p->pure_call : true});
      }
      case ExprKind::kFunction: {
        auto* func = static_cast<const ir::FunctionNode*>(f.node);
        if (f.stage++ == 0) {
          // Higher-order parameters are assumed impure to call.
          for (const ir::Var& p : func->params)
            SetVarPurity(p.get(), {true, IsFirstOrder(p.get())});
          return Visit(func->body.get());
        }
        return Finish({true, ret_.pure_eval && ret_.pure_call});
      }
      case ExprKind::kLet:
        return StepLet(f);
      case ExprKind::kCall:
        return StepCall(f);
      case ExprKind::kIf: {
        auto* node = static_cast<const ir::IfNode*>(f.node);
        switch (f.stage++) {
          case 0:
            return Visit(node->cond.get());
          case 1:
            f.all = ret_.pure_eval;
            return Visit(node->true_branch.get());
          case 2:
            f.all = f.all && ret_.pure_eval;
            f.callee = ret_;  // the true branch's purity
            return Visit(node->false_branch.get());
          default:
            return Finish({f.all && ret_.pure_eval, f.callee.pure_call && ret_.pure_call});
        }
      }
      case ExprKind::kTuple: {
        auto* tuple = static_cast<const ir::TupleNode*>(f.node);
        if (f.stage > 0) f.all = f.all && ret_.pure_eval;
        if (f.stage < tuple->fields.size()) return Visit(tuple->fields[f.stage++].get());
        // The call purity of the fields is lost.
        return Finish({f.all, true});
      }
      case ExprKind::kTupleGetItem: {
        auto* item = static_cast<const ir::TupleGetItemNode*>(f.node);
        if (f.stage++ == 0) return Visit(item->tuple.get());
        return Finish({ret_.pure_eval, IsFirstOrder(item)});
      }
      // As TVM: creating a cell is unobservable but through its reads and writes (its value is
      // not visited); reads and writes are impure, and the call purity of a function stored in
      // or read from a cell is not tracked.
      case ExprKind::kRefCreate:
        return Finish({true, true});
      case ExprKind::kRefRead: {
        auto* read = static_cast<const ir::RefReadNode*>(f.node);
        if (f.stage++ == 0) return Visit(read->ref.get());
        return Finish({false, IsFirstOrder(read)});
      }
      case ExprKind::kRefWrite: {
        auto* write = static_cast<const ir::RefWriteNode*>(f.node);
        switch (f.stage++) {
          case 0:
            return Visit(write->ref.get());
          case 1:
            return Visit(write->value.get());
          default:
            return Finish({false, true});
        }
      }
    }
    return Finish({true, true});
  }

  bool Finish(Purity p) {
    ret_ = p;
    return true;
  }

  bool StepCall(Frame& f) {
    auto* call = static_cast<const ir::CallNode*>(f.node);
    if (f.stage == 0) {
      if (call_depth_ >= kMaxCallDepth) return Finish({false, IsFirstOrder(call)});
      ++call_depth_;
      ++f.stage;
      return Visit(call->op.get());
    }
    if (f.stage == 1) {
      f.callee = ret_;
    } else {
      f.all = f.all && ret_.pure_eval;
    }
    if (f.stage - 1 < call->args.size()) return Visit(call->args[f.stage++ - 1].get());
    --call_depth_;
    return Finish({f.all && f.callee.pure_eval && f.callee.pure_call,
                   IsFirstOrder(call) || f.callee.pure_call});
  }

  bool StepLet(Frame& f) {
    if (f.stage == 0) {
      f.let = static_cast<const ir::LetNode*>(f.node);
    } else if (f.stage == 1) {
      SetVarPurity(f.let->var.get(), ret_);
      f.all = f.all && ret_.pure_eval;
      const ExprNode* body = f.let->body.get();
      if (body->kind != ExprKind::kLet) {
        f.stage = 2;
        return Visit(body);
      }
      f.let = static_cast<const ir::LetNode*>(body);
    } else {
      return Finish({f.all && ret_.pure_eval, ret_.pure_call});
    }
    // A recursive function value sees its own variable as pure to call.
    SetVarPurity(f.let->var.get(), {true, true});
    f.stage = 1;
    return Visit(f.let->value.get());
  }

  bool StepGlobalVar(Frame& f) {
    auto* gv = static_cast<const ir::GlobalVarNode*>(f.node);
    if (f.stage++ == 0) {
      if (mod_.Contains(gv->name_hint)) {
        ir::Function func = mod_.Lookup(gv->name_hint);
        if (func->attrs.GetInt("Extern", 0) == 0) {
          stack_.push_back({func.get(), gv});
          return false;
        }
      }
      // Extern functions are assumed impure to call.
      return Finish({true, false});
    }
    return Finish(ret_);
  }

  // A global function's body, visited once; recursion meanwhile assumes it pure.
  bool StepGlobalFunction(Frame& f) {
    if (f.stage++ == 0) {
      if (const Purity* known = global_purity_.find(f.global)) return Finish(*known);
      global_purity_.emplace(f.global, Purity{true, true});
      return Visit(f.node);
    }
    global_purity_[f.global] = ret_;
    return Finish(ret_);
  }

  const ir::IRModule& mod_;
  std::vector<Frame> stack_;
  Purity ret_{true, true};
  int call_depth_ = 0;
  support::PointerMap<Purity> memo_;
  support::PointerMap<Purity> var_purity_;
  std::vector<const ExprNode*> var_keys_;
  support::PointerMap<Purity> global_purity_;
};

}  // namespace

support::PointerMap<uint8_t> AnalyzePurity(const ir::IRModule& mod) {
  PurityVisitor visitor(mod);
  visitor.VisitModule();
  return visitor.PurityMap();
}

}  // namespace relaypass::passes::dce
