#include "relaypass/passes/defunctionalization.h"

#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using ir::Expr;
using ir::Type;
using TypeMap = std::unordered_map<const ir::TypeNode*, Type>;

[[noreturn]] void Fail(const std::string& what) {
  throw InternalError("Defunctionalization: " + what);
}

// Type helpers. Types nest as deep as a user writes them, not as deep as the program is long:
// these recurse on a type's structure only.
bool HasFuncType(const Type& t) {
  if (!t) return false;
  switch (t->kind) {
    case ir::TypeKind::kFunc:
      return true;
    case ir::TypeKind::kTuple:
      for (const Type& f : t.as<ir::TupleTypeNode>()->fields) {
        if (HasFuncType(f)) return true;
      }
      return false;
    case ir::TypeKind::kRef:
      return HasFuncType(t.as<ir::RefTypeNode>()->value);
    case ir::TypeKind::kTypeCall:
      for (const Type& a : t.as<ir::TypeCallNode>()->args) {
        if (HasFuncType(a)) return true;
      }
      return false;
    default:
      return false;
  }
}

bool HasTypeVar(const Type& t) {
  if (!t) return false;
  switch (t->kind) {
    case ir::TypeKind::kTypeVar:
      return true;
    case ir::TypeKind::kFunc: {
      auto* f = t.as<ir::FuncTypeNode>();
      for (const Type& a : f->arg_types) {
        if (HasTypeVar(a)) return true;
      }
      return HasTypeVar(f->ret_type);
    }
    case ir::TypeKind::kTuple:
      for (const Type& f : t.as<ir::TupleTypeNode>()->fields) {
        if (HasTypeVar(f)) return true;
      }
      return false;
    case ir::TypeKind::kRef:
      return HasTypeVar(t.as<ir::RefTypeNode>()->value);
    case ir::TypeKind::kTypeCall:
      for (const Type& a : t.as<ir::TypeCallNode>()->args) {
        if (HasTypeVar(a)) return true;
      }
      return false;
    default:
      return false;
  }
}

// TVM's TypeSubst.
Type Subst(const Type& t, const TypeMap& map) {
  if (!t || map.empty()) return t;
  switch (t->kind) {
    case ir::TypeKind::kTypeVar: {
      auto it = map.find(t.get());
      return it == map.end() ? t : it->second;
    }
    case ir::TypeKind::kFunc: {
      auto* f = t.as<ir::FuncTypeNode>();
      std::vector<Type> args;
      for (const Type& a : f->arg_types) args.push_back(Subst(a, map));
      return ir::FuncType(std::move(args), Subst(f->ret_type, map), f->type_params);
    }
    case ir::TypeKind::kTuple: {
      std::vector<Type> fields;
      for (const Type& a : t.as<ir::TupleTypeNode>()->fields) fields.push_back(Subst(a, map));
      return ir::TupleType(std::move(fields));
    }
    case ir::TypeKind::kRef:
      return ir::RefType(Subst(t.as<ir::RefTypeNode>()->value, map));
    case ir::TypeKind::kTypeCall: {
      auto* call = t.as<ir::TypeCallNode>();
      std::vector<Type> args;
      for (const Type& a : call->args) args.push_back(Subst(a, map));
      return ir::TypeCall(call->func, std::move(args));
    }
    default:
      return t;
  }
}

// Binds the type variables of `pattern` (a polymorphic signature) to the parts of `concrete`
// (a checked type at a call) in the same place. relaypass's calls do not record their type
// arguments (TVM's call->type_args, filled by its type inference): this recovers them. The
// checked type of a polymorphic argument (`fn [A](A) -> A`) says nothing and is skipped.
void MatchType(const Type& pattern, const Type& concrete, TypeMap& map) {
  if (!pattern || !concrete) return;
  switch (pattern->kind) {
    case ir::TypeKind::kTypeVar:
      map.emplace(pattern.get(), concrete);
      return;
    case ir::TypeKind::kFunc: {
      auto* p = pattern.as<ir::FuncTypeNode>();
      auto* c = concrete.as<ir::FuncTypeNode>();
      if (c == nullptr || !c->type_params.empty() || c->arg_types.size() != p->arg_types.size()) {
        return;
      }
      MatchType(p->ret_type, c->ret_type, map);
      for (size_t i = 0; i < p->arg_types.size(); ++i) {
        MatchType(p->arg_types[i], c->arg_types[i], map);
      }
      return;
    }
    case ir::TypeKind::kTuple: {
      auto* p = pattern.as<ir::TupleTypeNode>();
      auto* c = concrete.as<ir::TupleTypeNode>();
      if (c == nullptr || c->fields.size() != p->fields.size()) return;
      for (size_t i = 0; i < p->fields.size(); ++i) MatchType(p->fields[i], c->fields[i], map);
      return;
    }
    case ir::TypeKind::kRef:
      if (auto* c = concrete.as<ir::RefTypeNode>()) {
        MatchType(pattern.as<ir::RefTypeNode>()->value, c->value, map);
      }
      return;
    case ir::TypeKind::kTypeCall: {
      auto* p = pattern.as<ir::TypeCallNode>();
      auto* c = concrete.as<ir::TypeCallNode>();
      if (c == nullptr || c->args.size() != p->args.size()) return;
      for (size_t i = 0; i < p->args.size(); ++i) MatchType(p->args[i], c->args[i], map);
      return;
    }
    default:
      return;
  }
}

Type TypeOf(const ir::Var& v) {
  return v->type_annotation ? v->type_annotation : v->checked_type;
}

// A global function's type, with its type parameters.
const ir::FuncTypeNode* SignatureOf(const ir::Function& f, Type& holder) {
  if (f->checked_type && f->checked_type.as<ir::FuncTypeNode>()) {
    holder = f->checked_type;
  } else {
    std::vector<Type> args;
    for (const ir::Var& p : f->params) args.push_back(TypeOf(p));
    holder = ir::FuncType(std::move(args), f->ret_type, f->type_params);
  }
  return holder.as<ir::FuncTypeNode>();
}

// TVM's InstFuncType: the signature with `map` applied and no type parameters.
Type Instantiate(const ir::FuncTypeNode* f, const TypeMap& map) {
  std::vector<Type> args;
  for (const Type& a : f->arg_types) args.push_back(Subst(a, map));
  return ir::FuncType(std::move(args), Subst(f->ret_type, map));
}

bool IsHigherOrder(const ir::FuncTypeNode* f) {
  for (const Type& a : f->arg_types) {
    if (HasFuncType(a)) return true;
  }
  return HasFuncType(f->ret_type);
}

struct Specialization {
  ir::GlobalVar specialized;
  ir::GlobalVar original;
  std::vector<Type> type_args;
};

class FunctionRewriter;

// The module-wide state of TVM's DefuncMutator: the ADT per function type, the apply global per
// function type, the specialized clones (queued here and built one after another instead of
// recursively), the constructor counter.
class Defunctionalizer {
 public:
  explicit Defunctionalizer(ir::IRModule& mod) : mod_(mod) {}

  ir::Function Run(const ir::Function& func);

  ir::IRModule& mod() { return mod_; }

  // TVM's GetFuncEncode: the ADT `Defunc<t>` encoding functions of type `t`.
  Type FuncEncoding(const Type& t) {
    const std::string name = "Defunc" + ir::TypeToString(t);
    auto it = encodings_.find(name);
    if (it == encodings_.end()) {
      it = encodings_.emplace(name, ir::GlobalTypeVar(name, ir::TypeVarKind::kAdtHandle)).first;
    }
    original_types_[it->second.get()] = t;
    return it->second;
  }

  // TVM's GetUnencodedType: the function type an encoded type stands for.
  Type Unencoded(const Type& t) {
    auto* call = t ? t.as<ir::TypeCallNode>() : nullptr;
    if (call == nullptr) Fail("expected type call when getting original type from encoded type");
    auto it = original_types_.find(call->func.get());
    if (it == original_types_.end()) {
      Fail("reverse mapping from encoded type to original type not found");
    }
    return it->second;
  }

  // TVM's GetApplyFunction.
  ir::GlobalVar ApplyFunction(const Type& t) {
    const std::string name = "apply" + ir::TypeToString(t);
    auto it = applies_.find(name);
    if (it == applies_.end()) it = applies_.emplace(name, ir::MakeGlobalVar(name)).first;
    return it->second;
  }

  // The clone of `gv` specialized to `type_args` (`<name><instantiated type>`), queued the first
  // time it is asked for.
  ir::GlobalVar Specialized(const ir::GlobalVar& gv, const Type& instantiated,
                            std::vector<Type> type_args) {
    const std::string name = gv->name_hint + ir::TypeToString(instantiated);
    auto it = specialized_.find(name);
    if (it != specialized_.end()) return it->second;
    ir::GlobalVar out = ir::MakeGlobalVar(name);
    specialized_.emplace(name, out);
    pending_.push_back({out, gv, std::move(type_args)});
    return out;
  }

  Expr EncodeArg(const Expr& arg, const Type& type);

 private:
  void AddConstructor(const Type& adt, const ir::Constructor& c) {
    auto* var = adt.as<ir::GlobalTypeVarNode>();
    if (!mod_.ContainGlobalTypeVar(var->name_hint)) {
      mod_.AddTypeDef(adt, ir::MakeTypeData(adt, {}, {c}));
    } else {
      ir::TypeData data = mod_.LookupTypeDef(adt);
      std::vector<ir::Constructor> constructors = data->constructors;
      constructors.push_back(c);
      mod_.AddTypeDef(adt, ir::MakeTypeData(data->header, data->type_vars, constructors), true);
    }
  }

  // TVM's AddApplyCase: `apply<ft>(%x, %y...)` gets the clause `c(patterns) => expr(%y...)`.
  void AddApplyCase(const ir::GlobalVar& apply, const ir::FuncTypeNode* ft,
                    const ir::Constructor& c, const Expr& expr,
                    const std::vector<ir::Pattern>& patterns) {
    if (!mod_.Contains(apply->name_hint)) {
      ir::Var x = ir::MakeVar("x", ir::TypeCall(c->belong_to, {}));
      std::vector<ir::Var> params{x};
      std::vector<Expr> args;
      for (const Type& t : ft->arg_types) {
        ir::Var y = ir::MakeVar("y", t);
        params.push_back(y);
        args.push_back(y);
      }
      ir::Clause clause =
          ir::MakeClause(ir::MakePatternConstructor(c, patterns), ir::MakeCall(expr, args));
      mod_.Add(apply, ir::MakeFunction(params, ir::MakeMatch(x, {clause}), ft->ret_type));
      return;
    }
    ir::Function f = mod_.Lookup(apply->name_hint);
    auto* match = f->body.as<ir::MatchNode>();
    if (match == nullptr) {
      Fail("internal invariant broken; apply function body should be a match node");
    }
    std::vector<Expr> args(f->params.begin() + 1, f->params.end());
    std::vector<ir::Clause> clauses = match->clauses;
    clauses.push_back(
        ir::MakeClause(ir::MakePatternConstructor(c, patterns), ir::MakeCall(expr, args)));
    mod_.Add(apply, ir::MakeFunction(f->params, ir::MakeMatch(f->params[0], clauses), f->ret_type,
                                     f->attrs, f->type_params));
  }

  // TVM's EncodeGlobalVar: a constructor without fields standing for global `gv` at type `ft`.
  Expr EncodeGlobalVar(const ir::GlobalVar& gv, const Type& ft) {
    const std::string key = gv->name_hint + "\n" + ir::TypeToString(ft);
    auto it = global_constructors_.find(key);
    if (it == global_constructors_.end()) {
      Type adt = FuncEncoding(ft);
      ir::Constructor c = ir::MakeConstructor(std::to_string(counter_++), {}, adt);
      it = global_constructors_.emplace(key, c).first;
      AddConstructor(adt, c);
      AddApplyCase(ApplyFunction(ft), ft.as<ir::FuncTypeNode>(), c, gv, {});
    }
    return ir::MakeCall(it->second, {});
  }

  ir::Function BuildSpecialization(const Specialization& s);

  ir::IRModule& mod_;
  std::unordered_map<std::string, Type> encodings_;
  std::unordered_map<const ir::TypeNode*, Type> original_types_;
  std::unordered_map<std::string, ir::GlobalVar> applies_;
  std::unordered_map<std::string, ir::GlobalVar> specialized_;
  std::unordered_map<std::string, ir::Constructor> global_constructors_;
  std::deque<Specialization> pending_;
  uint64_t counter_ = 0;
};

// Rewrites one function (iteratively, post-order): TVM's DefuncMutator::VisitExpr_(CallNode)
// at each call; in a specialized clone also TVM's DeDup (fresh variables) and Specialize (the
// type arguments substituted into annotations).
class FunctionRewriter : public ir::ExprMutator {
 public:
  FunctionRewriter(Defunctionalizer& d, bool fresh_vars, TypeMap types)
      : d_(d), fresh_vars_(fresh_vars), types_(std::move(types)) {}

  void Seed(const ir::VarNode* var, ir::Var replacement) { vars_.emplace(var, replacement); }
  const TypeMap& types() const { return types_; }

 protected:
  Expr RewriteVar(const ir::VarNode* pre, const Expr& post) override {
    auto it = vars_.find(pre);
    if (it != vars_.end()) return it->second;
    if (!fresh_vars_) return post;
    // TVM's type inference leaves every variable annotated; DeDup copies the annotation.
    ir::Var fresh = ir::MakeVar(pre->name_hint, Subst(TypeOf(ir::Var(pre)), types_));
    vars_.emplace(pre, fresh);
    return fresh;
  }

  Expr RewriteFunction(const ir::FunctionNode* pre, const Expr& post) override {
    if (types_.empty() || !pre->ret_type) return post;
    auto* fn = post.as<ir::FunctionNode>();
    return ir::MakeFunction(fn->params, fn->body, Subst(fn->ret_type, types_), fn->attrs,
                            fn->type_params);
  }

  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    switch (pre->op->kind) {
      case ir::ExprKind::kGlobalVar:
        return GlobalCall(pre, call);
      case ir::ExprKind::kFunction: {
        // Reduction: the lambda's body with its parameters bound to the arguments.
        auto* fn = call->op.as<ir::FunctionNode>();
        std::unordered_map<const ir::VarNode*, Expr> bindings;
        for (size_t i = 0; i < fn->params.size() && i < call->args.size(); ++i) {
          bindings.emplace(fn->params[i].get(), call->args[i]);
        }
        return ir::Bind(fn->body, bindings);
      }
      case ir::ExprKind::kVar: {
        // A function parameter, now encoded: called through apply<its type>.
        auto* var = call->op.as<ir::VarNode>();
        std::vector<Expr> args{call->op};
        args.insert(args.end(), call->args.begin(), call->args.end());
        return ir::MakeCall(d_.ApplyFunction(d_.Unencoded(var->type_annotation)), std::move(args));
      }
      default:
        return post;
    }
  }

 private:
  Expr GlobalCall(const ir::CallNode* pre, const ir::CallNode* call) {
    auto* gv = pre->op.as<ir::GlobalVarNode>();
    if (!d_.mod().Contains(gv->name_hint)) return Expr(call);
    Type holder;
    const ir::FuncTypeNode* signature = SignatureOf(d_.mod().Lookup(gv->name_hint), holder);
    // The call's type arguments, from the checked types TVM's inference would have recorded.
    TypeMap inferred;
    MatchType(signature->ret_type, pre->checked_type, inferred);
    for (size_t i = 0; i < pre->args.size() && i < signature->arg_types.size(); ++i) {
      MatchType(signature->arg_types[i], pre->args[i]->checked_type, inferred);
    }
    std::vector<Type> type_args;
    TypeMap instantiation;
    for (const Type& tp : signature->type_params) {
      auto it = inferred.find(tp.get());
      if (it == inferred.end()) Fail("all type args must be explicit");
      type_args.push_back(Subst(it->second, types_));
      instantiation.emplace(tp.get(), type_args.back());
    }
    Type op_type = Instantiate(signature, instantiation);
    auto* ft = op_type.as<ir::FuncTypeNode>();
    if (HasTypeVar(op_type)) Fail("free type vars in instantiated");
    if (HasFuncType(ft->ret_type)) Fail("returning functions not supported");
    if (!IsHigherOrder(ft)) return Expr(call);
    std::vector<Expr> args;
    for (size_t i = 0; i < call->args.size(); ++i) {
      const Type& t = ft->arg_types[i];
      args.push_back(HasFuncType(t) ? d_.EncodeArg(call->args[i], t) : call->args[i]);
    }
    return ir::MakeCall(d_.Specialized(ir::GlobalVar(gv), op_type, std::move(type_args)),
                        std::move(args));
  }

  Defunctionalizer& d_;
  bool fresh_vars_;
  TypeMap types_;
  std::unordered_map<const ir::VarNode*, ir::Var> vars_;
};

Expr Defunctionalizer::EncodeArg(const Expr& arg, const Type& type) {
  auto* ft = type.as<ir::FuncTypeNode>();
  if (ft == nullptr) Fail("assume no nested functions");
  switch (arg->kind) {
    case ir::ExprKind::kVar:
      return arg;  // a parameter of the enclosing specialized function: already encoded
    case ir::ExprKind::kGlobalVar:
      return EncodeGlobalVar(arg.downcast<ir::GlobalVarNode>(), type);
    case ir::ExprKind::kFunction: {
      // A lambda: a constructor holding its free variables, and an apply case running its body
      // with them bound to the constructor's fields.
      auto* fn = arg.as<ir::FunctionNode>();
      std::vector<Type> field_types;
      std::vector<ir::Pattern> patterns;
      std::vector<Expr> captured;
      std::unordered_map<const ir::VarNode*, Expr> rebinding;
      for (const ir::Var& free : ir::FreeVars(arg)) {
        field_types.push_back(TypeOf(free));
        ir::Var field = ir::MakeVar(free->name_hint, free->type_annotation);
        rebinding.emplace(free.get(), field);
        patterns.push_back(ir::MakePatternVar(field));
        captured.push_back(free);
      }
      Type adt = FuncEncoding(type);
      ir::Constructor c = ir::MakeConstructor(std::to_string(++counter_), field_types, adt);
      AddConstructor(adt, c);
      Expr body = ir::Bind(fn->body, rebinding);
      AddApplyCase(ApplyFunction(type), ft, c,
                   ir::MakeFunction(fn->params, body, fn->ret_type, fn->attrs, fn->type_params),
                   patterns);
      return ir::MakeCall(c, std::move(captured));
    }
    default:
      Fail("assume all first-order-parameters are identifiers or functions");
  }
}

// TVM's DeDup, Specialize and FirstifyVars of a global function: fresh variables, the type
// arguments substituted, function-typed parameters retyped as their encoding ADT.
ir::Function Defunctionalizer::BuildSpecialization(const Specialization& s) {
  ir::Function original = mod_.Lookup(s.original->name_hint);
  if (original->type_params.size() != s.type_args.size()) {
    Fail(
        "cannot specialize function with size mismatch between function type params and type "
        "args");
  }
  TypeMap types;
  for (size_t i = 0; i < s.type_args.size(); ++i) {
    types.emplace(original->type_params[i].get(), s.type_args[i]);
  }
  FunctionRewriter rewriter(*this, true, types);
  for (const ir::Var& p : original->params) {
    Type t = Subst(TypeOf(p), types);
    if (t && t.as<ir::FuncTypeNode>()) {
      rewriter.Seed(p.get(), ir::MakeVar(p->name_hint, ir::TypeCall(FuncEncoding(t), {})));
    } else if (HasFuncType(t)) {
      Fail("nested function type in parameter not supported yet");
    }
  }
  auto* out = rewriter.Mutate(original).as<ir::FunctionNode>();
  return ir::MakeFunction(out->params, out->body, Subst(original->ret_type, types), out->attrs);
}

ir::Function Defunctionalizer::Run(const ir::Function& func) {
  if (!func->type_params.empty()) Fail("no polymorphism supported for defunctionalization");
  for (const ir::Var& p : func->params) {
    if (HasFuncType(p->checked_type ? p->checked_type : p->type_annotation)) {
      Fail("program cannot have func type parameters");
    }
  }
  Type ret = func->ret_type;
  if (auto* t = func->checked_type ? func->checked_type.as<ir::FuncTypeNode>() : nullptr) {
    ret = t->ret_type;
  }
  if (HasFuncType(ret)) Fail("return type cannot contain function");
  FunctionRewriter main(*this, false, {});
  ir::Function out = main.Mutate(func).downcast<ir::FunctionNode>();
  while (!pending_.empty()) {
    Specialization s = std::move(pending_.front());
    pending_.pop_front();
    mod_.Add(s.specialized, BuildSpecialization(s));
  }
  return out;
}

}  // namespace

ir::Function Defunctionalization(const ir::Function& func, ir::IRModule& mod) {
  return Defunctionalizer(mod).Run(func);
}

}  // namespace relaypass::passes
