#include "relaypass/passes/to_a_normal_form.h"

#include <atomic>
#include <optional>
#include <string>

#include "to_a_normal_form_scopes.h"

namespace relaypass::passes {

namespace {

using anf::ScopeAnalysis;
using ir::Expr;
using ir::ExprKind;
using ir::ExprNode;

constexpr uint32_t kNone = UINT32_MAX;

std::atomic<uint64_t> next_gensym_id{0};

// The let bindings of every scope, in the order they were made (TVM's LetList per scope).
class LetLists {
 public:
  // `num_nodes`: the graph's size, which bounds the number of bindings (reserved up front: the
  // bindings hold references, and growing the vector step by step moves them all each time).
  LetLists(uint32_t num_scopes, size_t num_nodes) : lists_(num_scopes) {
    bindings_.reserve(num_nodes);
  }

  void Push(uint32_t scope, ir::Var var, Expr value) {
    auto b = static_cast<uint32_t>(bindings_.size());
    bindings_.push_back({std::move(var), std::move(value), kNone});
    Append(lists_[scope], b, b);
  }

  // Moves the bindings of scope `from` to the end of scope `to`.
  void Splice(uint32_t from, uint32_t to) {
    List& src = lists_[from];
    if (src.head == kNone) return;
    Append(lists_[to], src.head, src.tail);
    src = List{};
  }

  // `body` under the bindings of `scope`, first binding outermost.
  Expr Wrap(uint32_t scope, Expr body) {
    order_.clear();
    for (uint32_t b = lists_[scope].head; b != kNone; b = bindings_[b].next) order_.push_back(b);
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      body = ir::MakeLet(bindings_[*it].var, bindings_[*it].value, body);
    }
    return body;
  }

 private:
  struct Binding {
    ir::Var var;
    Expr value;
    uint32_t next;
  };
  struct List {
    uint32_t head = kNone;
    uint32_t tail = kNone;
  };

  void Append(List& list, uint32_t head, uint32_t tail) {
    if (list.head == kNone) {
      list.head = head;
    } else {
      bindings_[list.tail].next = head;
    }
    list.tail = tail;
  }

  std::vector<Binding> bindings_;
  std::vector<List> lists_;
  std::vector<uint32_t> order_;
};

// TVM's Fill, with an explicit stack in place of its recursion. Visiting a node yields an atomic
// expression (a variable, or a var/global/op itself) and pushes the node's binding to the let list
// of its scope. Arguments are visited left to right, then the callee. A visit may carry the
// variable the result must be bound to (a let's value is bound to the let's own variable).
class Filler {
 public:
  // `basic_block`: bind only the lifted expressions (and let values), as TVM's
  // Fill::ToBasicBlockNormalForm; otherwise every compound expression (ToANormalForm).
  Filler(const ScopeAnalysis& scopes, bool basic_block)
      : basic_block_(basic_block),
        scopes_(scopes),
        index_(scopes.index),
        lets_(scopes.tree.size(), scopes.scope.size()),
        memo_(scopes.scope.size()) {}

  Expr Run() {
    Request(scopes_.root, nullptr);
    while (!stack_.empty()) {
      size_t top = stack_.size() - 1;
      std::optional<Expr> result = Step(top);
      if (!result) continue;  // a child was pushed
      memo_[stack_[top].id] = std::move(*result);
      stack_.pop_back();
    }
    return lets_.Wrap(scopes_.scope[scopes_.root], memo_[scopes_.root]);
  }

 private:
  struct Frame {
    const ExprNode* node;
    ir::Var var;  // the variable to bind the result to, or null
    uint32_t id;
    uint32_t stage;
    Expr pending;                     // an if's finished true branch
    std::vector<ir::Clause> clauses;  // a match's finished clauses
  };

  // TVM's VisitExpr(e, var) for node `id`: true if it was visited before (then `var`, if any,
  // is bound to its result); otherwise pushes a frame for it and returns false.
  bool Request(uint32_t id, const ir::Var& var) {
    if (memo_[id]) {
      if (var) lets_.Push(scopes_.scope[id], var, memo_[id]);
      return true;
    }
    stack_.push_back({index_.node(id), var, id, 0, nullptr, {}});
    return false;
  }
  // The number and the result of the frame's k-th child (in PostOrderIndex's child order).
  uint32_t Child(const Frame& f, size_t k) const { return index_.children(f.id)[k]; }
  const Expr& Result(const Frame& f, size_t k) const { return memo_[Child(f, k)]; }

  Expr Atomic(const Frame& f) {
    if (!f.var) return Expr(f.node);
    lets_.Push(scopes_.scope[f.id], f.var, Expr(f.node));
    return f.var;
  }
  Expr Compound(const Frame& f, Expr now) {
    if (!f.var && basic_block_ && !scopes_.lifted[f.id]) return now;
    ir::Var var = f.var ? f.var : GenSym();
    lets_.Push(scopes_.scope[f.id], var, std::move(now));
    return var;
  }

  // Advances the frame at `index`; its result once all its children are done. After a Request
  // that returns false the frame reference is stale, so it returns at once.
  std::optional<Expr> Step(size_t index) {
    Frame& f = stack_[index];
    switch (f.node->kind) {
      case ExprKind::kVar:
      case ExprKind::kGlobalVar:
      case ExprKind::kOp:
      case ExprKind::kConstructor:  // atomic, as in TVM's ANF
        return Atomic(f);
      case ExprKind::kMatch:
        return StepMatch(f);
      case ExprKind::kConstant:
        return Compound(f, Expr(f.node));
      case ExprKind::kCall: {
        auto* call = static_cast<const ir::CallNode*>(f.node);
        const size_t num_args = call->args.size();
        while (f.stage < num_args) {
          if (!Request(Child(f, 1 + f.stage++), nullptr)) return std::nullopt;
        }
        if (f.stage++ == num_args && !Request(Child(f, 0), nullptr)) return std::nullopt;
        std::vector<Expr> args;
        args.reserve(num_args);
        for (size_t i = 0; i < num_args; ++i) args.push_back(Result(f, 1 + i));
        return Compound(f, ir::MakeCall(Result(f, 0), std::move(args), call->attrs));
      }
      case ExprKind::kTuple: {
        auto* tuple = static_cast<const ir::TupleNode*>(f.node);
        while (f.stage < tuple->fields.size()) {
          if (!Request(Child(f, f.stage++), nullptr)) return std::nullopt;
        }
        std::vector<Expr> fields;
        bool unchanged = true;
        for (size_t i = 0; i < tuple->fields.size(); ++i) {
          fields.push_back(Result(f, i));
          unchanged &= fields.back().same_as(tuple->fields[i]);
        }
        if (unchanged) return Compound(f, Expr(f.node));
        // TVM's WithFields: a copy keeping the checked type and span.
        Expr copy = ir::CopyNode(Expr(f.node));
        const_cast<ir::TupleNode*>(copy.as<ir::TupleNode>())->fields = std::move(fields);
        return Compound(f, std::move(copy));
      }
      case ExprKind::kTupleGetItem: {
        auto* item = static_cast<const ir::TupleGetItemNode*>(f.node);
        if (f.stage++ == 0 && !Request(Child(f, 0), nullptr)) return std::nullopt;
        return Compound(f, ir::MakeTupleGetItem(Result(f, 0), item->index));
      }
      case ExprKind::kIf:
        return StepIf(f);
      case ExprKind::kFunction:
        return StepFunction(f);
      case ExprKind::kLet:
        return StepLet(f);
      case ExprKind::kRefCreate:
        if (f.stage++ == 0 && !Request(Child(f, 0), nullptr)) return std::nullopt;
        return Compound(f, ir::MakeRefCreate(Result(f, 0)));
      case ExprKind::kRefRead:
        if (f.stage++ == 0 && !Request(Child(f, 0), nullptr)) return std::nullopt;
        return Compound(f, ir::MakeRefRead(Result(f, 0)));
      case ExprKind::kRefWrite:
        // The reference, then the value (as TVM's Fill, like an if's parts).
        while (f.stage < 2) {
          if (!Request(Child(f, f.stage++), nullptr)) return std::nullopt;
        }
        return Compound(f, ir::MakeRefWrite(Result(f, 0), Result(f, 1)));
    }
    return std::nullopt;
  }

  std::optional<Expr> StepIf(Frame& f) {
    switch (f.stage) {
      case 0:
        ++f.stage;
        if (!Request(Child(f, 0), nullptr)) return std::nullopt;
        [[fallthrough]];
      case 1:
        ++f.stage;
        if (!Request(Child(f, 1), nullptr)) return std::nullopt;
        [[fallthrough]];
      case 2:
        ++f.stage;
        f.pending = lets_.Wrap(scopes_.body_scope[f.id], Result(f, 1));
        if (!Request(Child(f, 2), nullptr)) return std::nullopt;
        [[fallthrough]];
      default: {
        Expr false_branch = lets_.Wrap(scopes_.else_scope[f.id], Result(f, 2));
        return Compound(f, ir::MakeIf(Result(f, 0), f.pending, false_branch));
      }
    }
  }

  // As TVM's Fill for a match: the data, then each clause's right side in the clause's own
  // scope (its bindings wrapped around it). Stage 0 requests the data; stage 1 + 2k requests
  // clause k's right side, stage 2 + 2k wraps it.
  std::optional<Expr> StepMatch(Frame& f) {
    auto* match = static_cast<const ir::MatchNode*>(f.node);
    if (f.stage == 0) {
      ++f.stage;
      if (!Request(Child(f, 0), nullptr)) return std::nullopt;
    }
    while (true) {
      const size_t k = (f.stage - 1) / 2;
      if (k >= match->clauses.size()) break;
      size_t position = 1;  // the children: data, then per clause its variables and right side
      for (size_t j = 0; j < k; ++j) position += ir::PatternVars(match->clauses[j]->lhs).size() + 1;
      position += ir::PatternVars(match->clauses[k]->lhs).size();
      const uint32_t rhs = Child(f, position);
      if ((f.stage - 1) % 2 == 0) {
        ++f.stage;
        if (!Request(rhs, nullptr)) return std::nullopt;
      }
      Expr body = lets_.Wrap(scopes_.match_scopes.at(f.id)[k], memo_[rhs]);
      f.clauses.push_back(ir::MakeClause(match->clauses[k]->lhs, std::move(body)));
      ++f.stage;
    }
    return Compound(f, ir::MakeMatch(Result(f, 0), std::move(f.clauses), match->complete));
  }

  std::optional<Expr> StepFunction(Frame& f) {
    auto* func = static_cast<const ir::FunctionNode*>(f.node);
    Expr ret(f.node);
    if (!func->is_primitive()) {
      if (f.stage++ == 0) {
        ++function_nesting_;
        if (!Request(Child(f, func->params.size()), nullptr)) return std::nullopt;
      }
      --function_nesting_;
      Expr body = lets_.Wrap(scopes_.body_scope[f.id], Result(f, func->params.size()));
      if (!body.same_as(func->body)) {
        // TVM's WithFields: a copy keeping ret_type, attrs, checked type and span.
        ret = ir::CopyNode(ret);
        const_cast<ir::FunctionNode*>(ret.as<ir::FunctionNode>())->body = std::move(body);
      }
    }
    // A global function is bound in the module; a local one is let-bound.
    if (function_nesting_ == 0) return ret;
    return Compound(f, std::move(ret));
  }

  std::optional<Expr> StepLet(Frame& f) {
    auto* let = static_cast<const ir::LetNode*>(f.node);
    switch (f.stage) {
      case 0:
        ++f.stage;
        if (!Request(Child(f, 0), let->var)) return std::nullopt;
        [[fallthrough]];
      case 1:
        ++f.stage;
        if (!Request(Child(f, 2), nullptr)) return std::nullopt;
        [[fallthrough]];
      default: {
        // TVM binds the whole let to a variable, flattening it: the body scope's bindings move
        // to the let's scope, followed by `var = <body result>`.
        uint32_t scope = scopes_.scope[f.id];
        lets_.Splice(scopes_.body_scope[f.id], scope);
        if (!f.var && basic_block_ && !scopes_.lifted[f.id]) return Result(f, 2);
        ir::Var var = f.var ? f.var : GenSym();
        lets_.Push(scope, var, Result(f, 2));
        return Expr(var);
      }
    }
  }

  const bool basic_block_;
  const ScopeAnalysis& scopes_;
  const ir::PostOrderIndex& index_;
  LetLists lets_;
  std::vector<Expr> memo_;  // by node id
  std::vector<Frame> stack_;
  int function_nesting_ = 0;
};

}  // namespace

ir::Var GenSym(ir::Type annotation) {
  uint64_t id = next_gensym_id.fetch_add(1, std::memory_order_relaxed);
  return ir::MakeVar("x_" + std::to_string(id), std::move(annotation));
}

uint64_t NextGenSymId() {
  return next_gensym_id.load(std::memory_order_relaxed);
}

Expr ToANormalForm(const Expr& expr) {
  ScopeAnalysis scopes = ScopeAnalysis::Run(expr, false);
  return Filler(scopes, false).Run();
}

Expr ToBasicBlockNormalForm(const Expr& expr) {
  ScopeAnalysis scopes = ScopeAnalysis::Run(expr, true);
  return Filler(scopes, true).Run();
}

std::vector<Expr> BasicBlockNormalFormViolations(const Expr& expr) {
  ScopeAnalysis scopes = ScopeAnalysis::Run(expr, true);
  std::vector<Expr> out;
  for (uint32_t id : scopes.index.post_order()) {
    if (scopes.lifted[id]) out.push_back(Expr(scopes.index.node(id)));
  }
  return out;
}

transform::Pass ToANormalForm() {
  auto pass_func = [](const ir::IRModule& mod, const transform::PassContext&) {
    ir::IRModule result = mod;
    for (const auto& [gv, func] : mod.functions()) {
      const ir::AttrValue* compiler = func->attrs.find("Compiler");
      if (compiler && !compiler->is_null()) continue;
      result.Add(gv, ToANormalForm(func).downcast<ir::FunctionNode>());
    }
    return result;
  };
  return transform::CreateModulePass(pass_func, 1, "ToANormalForm");
}

void RegisterToANormalForm(transform::PassRegistry& registry) {
  registry.Register({"ToANormalForm",
                     {},
                     [](const transform::PassOptions&) { return ToANormalForm(); },
                     "binds every intermediate expression to a let variable"});
}

}  // namespace relaypass::passes
