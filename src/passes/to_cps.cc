#include "relaypass/passes/to_cps.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using ir::Expr;
using ir::ExprKind;
using ir::Type;

// TVM's CheckFeature(f, FeatureSet::All() - fGraph): a node other than a variable, global,
// constant, operator or constructor reached from two places would be converted twice.
bool IsAtomic(const ir::ExprNode* e) {
  switch (e->kind) {
    case ExprKind::kVar:
    case ExprKind::kGlobalVar:
    case ExprKind::kConstant:
    case ExprKind::kOp:
    case ExprKind::kConstructor:
      return true;
    default:
      return false;
  }
}

void CheckNoSharing(const Expr& expr, const char* pass) {
  std::unordered_map<const ir::ExprNode*, int> uses;
  for (const Expr& e : ir::PostOrder(expr)) {
    ir::ForEachChild(e.get(), [&](const Expr& child) {
      if (!IsAtomic(child.get()) && ++uses[child.get()] > 1) {
        throw InternalError(std::string(pass) +
                            ": the expression has unsupported feature: [fGraph] (a node used "
                            "from two places)");
      }
    });
  }
}

Type Arrow(const Type& from, const Type& to) {
  return ir::FuncType({from}, to);
}

// TVM's CPSType: every function type `fn (a) -> b` inside `t` becomes
// `fn (a', fn (b') -> answer) -> answer`. Types nest shallowly (their depth is what a user
// writes), so this one recursion is on a type's nesting, not on the program's size.
Type CPSType(const Type& t, const Type& answer) {
  switch (t->kind) {
    case ir::TypeKind::kFunc: {
      auto* f = t.as<ir::FuncTypeNode>();
      std::vector<Type> args;
      for (const Type& a : f->arg_types) args.push_back(CPSType(a, answer));
      args.push_back(Arrow(CPSType(f->ret_type, answer), answer));
      return ir::FuncType(std::move(args), answer, f->type_params);
    }
    case ir::TypeKind::kTuple: {
      std::vector<Type> fields;
      for (const Type& a : t.as<ir::TupleTypeNode>()->fields) fields.push_back(CPSType(a, answer));
      return ir::TupleType(std::move(fields));
    }
    case ir::TypeKind::kRef:
      return ir::RefType(CPSType(t.as<ir::RefTypeNode>()->value, answer));
    case ir::TypeKind::kTypeCall: {
      auto* call = t.as<ir::TypeCallNode>();
      std::vector<Type> args;
      for (const Type& a : call->args) args.push_back(CPSType(a, answer));
      return ir::TypeCall(call->func, std::move(args));
    }
    default:
      return t;
  }
}

Type CheckedType(const ir::ExprNode* e, const std::string& what) {
  if (!e->checked_type) {
    throw InternalError("ToCPS: the type checker has not populated the checked_type of " + what +
                        ": run InferType first");
  }
  return e->checked_type;
}

// The meta-continuations of TVM's higher-order transform (an `Expr -> Expr` that builds the rest
// of the program around the value it is given), as data: one frame per pending step, in an arena
// that lives as long as one function's conversion (so a million nested frames are neither a
// recursion nor a recursive release).
enum class KKind : uint8_t {
  kCallVar,        // λv. held(v): a function's %k or a reified join point
  kLetBody,        // λv. let var' = v; CPS(body, parent)
  kRefCreate,      // λv. parent(ref(v))
  kRefRead,        // λv. let x = ref_read(v); parent(x)
  kRefWriteRef,    // λr. CPS(value, kRefWriteValue(r))
  kRefWriteValue,  // λv. let x = ref_write(held, v); parent(x)
  kTuple,          // collects fields, then parent((fields))
  kGetItem,        // λv. parent(v.index)
  kOpArgs,         // collects the arguments of an operator or constructor call
  kCallee,         // λf. the arguments of a call of f next
  kCallArgs,       // collects arguments, then the tail call held(args, fn (%arg) { parent(%arg) })
  kIf,             // λc. if (c) CPS(then, parent) else CPS(else, parent)
  kMatch,          // λd. match (d) { p => CPS(rhs, parent) ... }
};

struct KFrame {
  KKind kind;
  int parent;
  const ir::ExprNode* node;
  Expr held;
  std::vector<Expr> acc;
};

// The work of the machine: visit an expression under a continuation, apply a continuation to an
// atom, or assemble a node from results the earlier steps left on the result stack.
enum class TaskKind : uint8_t {
  kVisit,         // push CPS(node, k)
  kApply,         // push k(value)
  kWrapLet,       // pop body: let var = value; body
  kWrapLetValue,  // pop body, then value: let var = value; body
  kWrapArgFn,     // pop body: fn (%var) { body }
  kWrapTailCall,  // pop body: value(acc..., fn (%var) { body })
  kWrapIf,        // pop else, then: if (value) then else else
  kWrapMatch,     // pop one right-hand side per clause of node
  kFunctionDone,  // pop body: node converted (params', %var) ; then k(it), or the result if k < 0
};

struct Task {
  explicit Task(TaskKind t, const ir::ExprNode* n = nullptr, int cont = -1, Expr v = nullptr,
                ir::Var x = nullptr, std::vector<Expr> a = {})
      : kind(t), node(n), k(cont), value(std::move(v)), var(std::move(x)), acc(std::move(a)) {}
  TaskKind kind;
  const ir::ExprNode* node;
  int k;
  Expr value;
  ir::Var var;
  std::vector<Expr> acc;
};

class CPSConverter {
 public:
  CPSConverter(ir::IRModule& mod, std::unordered_map<std::string, ir::GlobalVar>& cps_globals,
               std::deque<std::pair<ir::GlobalVar, ir::GlobalVar>>& pending)
      : mod_(mod), cps_globals_(cps_globals), pending_(pending) {}

  // TVM's ToCPS(f, m, cm): a fresh answer type, every variable of `func` retyped, then the
  // conversion; `answer` ends the function's type parameters.
  ir::Function Convert(const ir::Function& func) {
    answer_ = ir::TypeVar("answer");
    RemapVars(func);
    RunFunction(func.get(), -1);
    auto* out = results_.back().as<ir::FunctionNode>();
    std::vector<Type> type_params = out->type_params;
    type_params.push_back(answer_);
    return ir::MakeFunction(out->params, out->body, out->ret_type, out->attrs,
                            std::move(type_params));
  }

 private:
  void RemapVars(const ir::Function& func) {
    auto add = [&](const ir::Var& v) {
      if (vars_.count(v.get())) return;
      Type t = CPSType(CheckedType(v.get(), "%" + v->name_hint), answer_);
      vars_.emplace(v.get(), ir::MakeVar(v->name_hint, t));
    };
    for (const Expr& e : ir::PostOrder(func)) {
      switch (e->kind) {
        case ExprKind::kVar:
          add(e.downcast<ir::VarNode>());
          break;
        case ExprKind::kFunction:
          for (const ir::Var& p : e.as<ir::FunctionNode>()->params) add(p);
          break;
        case ExprKind::kLet:
          add(e.as<ir::LetNode>()->var);
          break;
        case ExprKind::kMatch:
          for (const ir::Clause& c : e.as<ir::MatchNode>()->clauses) {
            for (const ir::Var& v : ir::PatternVars(c->lhs)) add(v);
          }
          break;
        default:
          break;
      }
    }
  }

  ir::Var Remap(const ir::Var& v) const {
    auto it = vars_.find(v.get());
    return it == vars_.end() ? v : it->second;
  }

  int NewFrame(KKind kind, int parent, const ir::ExprNode* node = nullptr, Expr held = nullptr) {
    frames_.push_back(KFrame{kind, parent, node, std::move(held), {}});
    return static_cast<int>(frames_.size()) - 1;
  }

  void Visit(const ir::ExprNode* e, int k) { tasks_.push_back(Task(TaskKind::kVisit, e, k)); }
  void Apply(int k, Expr value) {
    tasks_.push_back(Task(TaskKind::kApply, nullptr, k, std::move(value)));
  }
  // TVM's LetList::LetBind(e, k): let %x = e; k(%x).
  void LetBind(Expr value, int k) {
    ir::Var x = ir::MakeVar("x");
    tasks_.push_back(Task(TaskKind::kWrapLet, nullptr, -1, std::move(value), x));
    Apply(k, x);
  }
  // TVM's reify(k, cont): let %x = fn (%arg) { k(%arg) }; cont(λe. %x(e)), where cont visits
  // `e` under the continuation frame `join_kind`.
  void ReifyJoin(const ir::ExprNode* e, const Expr& scrutinee, KKind join_kind, int k) {
    ir::Var join = ir::MakeVar("x");
    ir::Var arg = ir::MakeVar("arg");
    const int call_join = NewFrame(KKind::kCallVar, -1, nullptr, join);
    tasks_.push_back(Task(TaskKind::kWrapLetValue, nullptr, -1, nullptr, join));
    Visit(scrutinee.get(), NewFrame(join_kind, call_join, e));
    tasks_.push_back(Task(TaskKind::kWrapArgFn, nullptr, -1, nullptr, arg));
    Apply(k, arg);
  }
  void RunFunction(const ir::FunctionNode* fn, int k) {
    StartFunction(fn, k);
    Run();
  }
  // The function case of TVM's CPSFunctor (and its inner ToCPS): the body under
  // `λv. %k(v)`, then the function with %k as its last parameter.
  void StartFunction(const ir::FunctionNode* fn, int k) {
    if (fn->is_primitive()) throw InternalError("ToCPS: primitive func not supported yet.");
    auto* type = CheckedType(fn, "a function").as<ir::FuncTypeNode>();
    if (type == nullptr) throw InternalError("ToCPS: a function's checked type is not a FuncType");
    ir::Var cont = ir::MakeVar("k", Arrow(CPSType(type->ret_type, answer_), answer_));
    tasks_.push_back(Task(TaskKind::kFunctionDone, fn, k, nullptr, cont));
    Visit(fn->body.get(), NewFrame(KKind::kCallVar, -1, nullptr, cont));
  }

  Expr PopResult() {
    Expr e = std::move(results_.back());
    results_.pop_back();
    return e;
  }

  void Run() {
    while (!tasks_.empty()) {
      Task task = std::move(tasks_.back());
      tasks_.pop_back();
      switch (task.kind) {
        case TaskKind::kVisit:
          VisitNode(task.node, task.k);
          break;
        case TaskKind::kApply:
          ApplyFrame(task.k, std::move(task.value));
          break;
        case TaskKind::kWrapLet:
          results_.push_back(ir::MakeLet(task.var, task.value, PopResult()));
          break;
        case TaskKind::kWrapLetValue: {
          Expr body = PopResult();
          Expr value = PopResult();
          results_.push_back(ir::MakeLet(task.var, value, body));
          break;
        }
        case TaskKind::kWrapArgFn:
          results_.push_back(ir::MakeFunction({task.var}, PopResult()));
          break;
        case TaskKind::kWrapTailCall: {
          std::vector<Expr> args = std::move(task.acc);
          args.push_back(ir::MakeFunction({task.var}, PopResult()));
          results_.push_back(ir::MakeCall(task.value, std::move(args)));
          break;
        }
        case TaskKind::kWrapIf: {
          Expr otherwise = PopResult();
          Expr then = PopResult();
          results_.push_back(ir::MakeIf(task.value, then, otherwise));
          break;
        }
        case TaskKind::kWrapMatch: {
          auto* match = static_cast<const ir::MatchNode*>(task.node);
          std::vector<ir::Clause> clauses(match->clauses.size());
          for (size_t i = clauses.size(); i-- > 0;) {
            const ir::Clause& c = match->clauses[i];
            std::vector<ir::Var> vars = ir::PatternVars(c->lhs);
            for (ir::Var& v : vars) v = Remap(v);
            clauses[i] = ir::MakeClause(ir::ReplacePatternVars(c->lhs, vars), PopResult());
          }
          results_.push_back(ir::MakeMatch(task.value, std::move(clauses), match->complete));
          break;
        }
        case TaskKind::kFunctionDone: {
          auto* fn = static_cast<const ir::FunctionNode*>(task.node);
          std::vector<ir::Var> params;
          for (const ir::Var& p : fn->params) params.push_back(Remap(p));
          params.push_back(task.var);
          Expr converted =
              ir::MakeFunction(std::move(params), PopResult(), answer_, fn->attrs, fn->type_params);
          if (task.k < 0) {
            results_.push_back(std::move(converted));
          } else {
            Apply(task.k, std::move(converted));
          }
          break;
        }
      }
    }
  }

  // The GlobalVar case of TVM's CPSFunctor: a global function is converted once, as
  // `<name>_cps` (queued here, converted by ToCPS after this function, instead of recursing).
  Expr ConvertGlobal(const ir::GlobalVarNode* gv) {
    auto it = cps_globals_.find(gv->name_hint);
    if (it != cps_globals_.end()) return it->second;
    if (!mod_.Contains(gv->name_hint)) {
      throw InternalError("ToCPS: Cannot find global var \"" + gv->name_hint + "\" in the Module");
    }
    ir::GlobalVar cps = ir::MakeGlobalVar(gv->name_hint + "_cps");
    cps_globals_.emplace(gv->name_hint, cps);
    pending_.emplace_back(ir::GlobalVar(gv), cps);
    return cps;
  }

  void VisitNode(const ir::ExprNode* e, int k) {
    switch (e->kind) {
      case ExprKind::kVar:
        Apply(k, Remap(ir::Var(static_cast<const ir::VarNode*>(e))));
        return;
      case ExprKind::kConstant:
        Apply(k, Expr(e));
        return;
      case ExprKind::kGlobalVar:
        Apply(k, ConvertGlobal(static_cast<const ir::GlobalVarNode*>(e)));
        return;
      case ExprKind::kFunction:
        StartFunction(static_cast<const ir::FunctionNode*>(e), k);
        return;
      case ExprKind::kLet:
        Visit(static_cast<const ir::LetNode*>(e)->value.get(), NewFrame(KKind::kLetBody, k, e));
        return;
      case ExprKind::kRefCreate:
        Visit(static_cast<const ir::RefCreateNode*>(e)->value.get(),
              NewFrame(KKind::kRefCreate, k, e));
        return;
      case ExprKind::kRefRead:
        Visit(static_cast<const ir::RefReadNode*>(e)->ref.get(), NewFrame(KKind::kRefRead, k, e));
        return;
      case ExprKind::kRefWrite:
        Visit(static_cast<const ir::RefWriteNode*>(e)->ref.get(),
              NewFrame(KKind::kRefWriteRef, k, e));
        return;
      case ExprKind::kTuple: {
        auto* tuple = static_cast<const ir::TupleNode*>(e);
        if (tuple->fields.empty()) {
          Apply(k, ir::MakeTuple({}));
        } else {
          Visit(tuple->fields[0].get(), NewFrame(KKind::kTuple, k, e));
        }
        return;
      }
      case ExprKind::kTupleGetItem:
        Visit(static_cast<const ir::TupleGetItemNode*>(e)->tuple.get(),
              NewFrame(KKind::kGetItem, k, e));
        return;
      case ExprKind::kIf:
        ReifyJoin(e, static_cast<const ir::IfNode*>(e)->cond, KKind::kIf, k);
        return;
      case ExprKind::kMatch:
        ReifyJoin(e, static_cast<const ir::MatchNode*>(e)->data, KKind::kMatch, k);
        return;
      case ExprKind::kCall: {
        auto* call = static_cast<const ir::CallNode*>(e);
        const ExprKind callee = call->op->kind;
        if (callee == ExprKind::kOp || callee == ExprKind::kConstructor) {
          if (call->args.empty()) {
            LetBind(ir::MakeCall(call->op, {}, call->attrs), k);
          } else {
            Visit(call->args[0].get(), NewFrame(KKind::kOpArgs, k, e));
          }
        } else {
          Visit(call->op.get(), NewFrame(KKind::kCallee, k, e));
        }
        return;
      }
      case ExprKind::kOp:
      case ExprKind::kConstructor:
        throw InternalError(
            "ToCPS: an operator or constructor used as a value (not called) is not supported");
    }
  }

  void ApplyFrame(int k, Expr v) {
    KFrame& f = frames_[k];
    switch (f.kind) {
      case KKind::kCallVar:
        results_.push_back(ir::MakeCall(f.held, {std::move(v)}));
        return;
      case KKind::kLetBody: {
        auto* let = static_cast<const ir::LetNode*>(f.node);
        tasks_.push_back(Task(TaskKind::kWrapLet, nullptr, -1, std::move(v), Remap(let->var)));
        Visit(let->body.get(), f.parent);
        return;
      }
      case KKind::kRefCreate:
        Apply(f.parent, ir::MakeRefCreate(std::move(v)));
        return;
      case KKind::kRefRead:
        LetBind(ir::MakeRefRead(std::move(v)), f.parent);
        return;
      case KKind::kRefWriteRef: {
        const int parent = f.parent;
        const ir::ExprNode* value = static_cast<const ir::RefWriteNode*>(f.node)->value.get();
        Visit(value, NewFrame(KKind::kRefWriteValue, parent, nullptr, std::move(v)));
        return;
      }
      case KKind::kRefWriteValue:
        LetBind(ir::MakeRefWrite(f.held, std::move(v)), f.parent);
        return;
      case KKind::kTuple: {
        auto* tuple = static_cast<const ir::TupleNode*>(f.node);
        f.acc.push_back(std::move(v));
        if (f.acc.size() == tuple->fields.size()) {
          Apply(f.parent, ir::MakeTuple(std::move(f.acc)));
        } else {
          Visit(tuple->fields[f.acc.size()].get(), k);
        }
        return;
      }
      case KKind::kGetItem:
        Apply(f.parent, ir::MakeTupleGetItem(
                            std::move(v), static_cast<const ir::TupleGetItemNode*>(f.node)->index));
        return;
      case KKind::kOpArgs: {
        auto* call = static_cast<const ir::CallNode*>(f.node);
        f.acc.push_back(std::move(v));
        if (f.acc.size() == call->args.size()) {
          LetBind(ir::MakeCall(call->op, std::move(f.acc), call->attrs), f.parent);
        } else {
          Visit(call->args[f.acc.size()].get(), k);
        }
        return;
      }
      case KKind::kCallee:
        f.held = std::move(v);
        f.kind = KKind::kCallArgs;
        if (!static_cast<const ir::CallNode*>(f.node)->args.empty()) {
          Visit(static_cast<const ir::CallNode*>(f.node)->args[0].get(), k);
          return;
        }
        TailCall(k);
        return;
      case KKind::kCallArgs: {
        auto* call = static_cast<const ir::CallNode*>(f.node);
        f.acc.push_back(std::move(v));
        if (f.acc.size() == call->args.size()) {
          TailCall(k);
        } else {
          Visit(call->args[f.acc.size()].get(), k);
        }
        return;
      }
      case KKind::kIf: {
        auto* node = static_cast<const ir::IfNode*>(f.node);
        const int join = f.parent;
        tasks_.push_back(Task(TaskKind::kWrapIf, nullptr, -1, std::move(v)));
        Visit(node->false_branch.get(), join);
        Visit(node->true_branch.get(), join);
        return;
      }
      case KKind::kMatch: {
        auto* match = static_cast<const ir::MatchNode*>(f.node);
        const int join = f.parent;
        tasks_.push_back(Task(TaskKind::kWrapMatch, match, -1, std::move(v)));
        // The first clause is converted first: its result ends up deepest on the stack.
        for (size_t i = match->clauses.size(); i-- > 0;) Visit(match->clauses[i]->rhs.get(), join);
        return;
      }
    }
  }

  // f(args..., fn (%arg) { k(%arg) }): the call of a non-operator, in tail position.
  void TailCall(int k) {
    KFrame& f = frames_[k];
    ir::Var arg = ir::MakeVar("arg");
    tasks_.push_back(Task(TaskKind::kWrapTailCall, nullptr, -1, f.held, arg, std::move(f.acc)));
    Apply(f.parent, arg);
  }

  ir::IRModule& mod_;
  std::unordered_map<std::string, ir::GlobalVar>& cps_globals_;
  std::deque<std::pair<ir::GlobalVar, ir::GlobalVar>>& pending_;
  Type answer_;
  std::unordered_map<const ir::VarNode*, ir::Var> vars_;
  std::vector<KFrame> frames_;
  std::vector<Task> tasks_;
  std::vector<Expr> results_;
};

}  // namespace

ir::Function ToCPS(const ir::Function& func, ir::IRModule& mod) {
  CheckNoSharing(func, "ToCPS");
  for (const auto& [gv, f] : mod.functions()) CheckNoSharing(f, "ToCPS");
  std::unordered_map<std::string, ir::GlobalVar> cps_globals;
  std::deque<std::pair<ir::GlobalVar, ir::GlobalVar>> pending;
  ir::Function out = CPSConverter(mod, cps_globals, pending).Convert(func);
  while (!pending.empty()) {
    auto [gv, cps] = pending.front();
    pending.pop_front();
    mod.Add(cps, CPSConverter(mod, cps_globals, pending).Convert(mod.Lookup(gv)));
  }
  return out;
}

ir::Function UnCPS(const ir::Function& func) {
  CheckNoSharing(func, "UnCPS");
  if (func->params.empty()) {
    throw InternalError(
        "UnCPS: Check failed: f->params.size() > 0: a CPS function ends with its "
        "continuation parameter");
  }
  std::vector<ir::Var> params;
  for (const ir::Var& p : func->params) {
    params.push_back(ir::MakeVar(p->name_hint, CheckedType(p.get(), "%" + p->name_hint)));
  }
  auto* cont_type = params.back()->type_annotation.as<ir::FuncTypeNode>();
  if (cont_type == nullptr || cont_type->arg_types.size() != 1) {
    throw InternalError("UnCPS: the last parameter is not a continuation of one argument");
  }
  params.pop_back();
  const Type ret_type = cont_type->arg_types[0];
  if (func->type_params.empty()) {
    throw InternalError("UnCPS: a CPS function has the answer type as its last type parameter");
  }
  std::vector<Type> type_params;
  for (const Type& tp : func->type_params) {
    auto* v = tp.as<ir::TypeVarNode>();
    type_params.push_back(ir::TypeVar(v->name_hint, v->var_kind));
  }
  type_params.pop_back();
  ir::Var x = ir::MakeVar("x", ret_type);
  std::vector<Expr> args(params.begin(), params.end());
  args.push_back(ir::MakeFunction({x}, x, ret_type));
  return ir::MakeFunction(params, ir::MakeCall(func, std::move(args)), ret_type, func->attrs,
                          std::move(type_params));
}

}  // namespace relaypass::passes
