// Type inference: constraint generation over each function (one iterative post-order sweep),
// op type relations solved to a fixpoint, then a rebuild that attaches the checked types.
#include "relaypass/ir/type_infer.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "relaypass/ir/match_exhaustion.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/post_order_index.h"
#include "relaypass/ir/visitor.h"
#include "type_solver.h"

namespace relaypass::ir {

namespace {

// One op call's relation over [args..., result].
struct RelationRecord {
  const CallNode* call;
  const OpDef* def;
  std::vector<Type> types;
};

// Most relations settle a call's result on their first run, so a result slot starts empty (null)
// instead of as a solver hole: the relation sees a shared "unknown" type there, and an Assign to
// an empty slot just fills it. Only a call left undecided gets a real hole.
const Type& UnknownType() {
  static const Type unknown = IncompleteType();
  return unknown;
}

// True if a tensor type in `type` (itself or inside tuples) has a dimension below -1 (`?`) that
// is not a symbolic dimension.
bool HasNegativeDim(const Type& type) {
  std::vector<const TypeNode*> stack{type.get()};
  while (!stack.empty()) {
    const TypeNode* t = stack.back();
    stack.pop_back();
    if (!t) continue;
    if (t->kind == TypeKind::kTensor) {
      for (Dim d : static_cast<const TensorTypeNode*>(t)->shape) {
        if (d < kAnyDim && !IsSymbolicDim(d)) return true;
      }
    } else if (t->kind == TypeKind::kTuple) {
      for (const Type& f : static_cast<const TupleTypeNode*>(t)->fields) stack.push_back(f.get());
    }
  }
  return false;
}

class RelationCall final : public TypeRelationCall {
 public:
  RelationCall(RelationRecord& record, TypeSolver& solver) : record_(record), solver_(solver) {}
  size_t num_args() const override { return record_.types.size() - 1; }
  Type Resolve(size_t index) const override {
    const Type& t = record_.types.at(index);
    return t ? solver_.Resolve(t) : UnknownType();
  }
  void Assign(size_t index, const Type& type) override {
    if (type.same_as(UnknownType())) return;  // says nothing
    // Shape arithmetic on extreme attributes (negative strides or padding) can compute a
    // dimension below zero; such a type would print as text that does not parse back.
    if (HasNegativeDim(type))
      Fail("the operator computes a negative dimension: " + TypeToString(type));
    Type& slot = record_.types.at(index);
    if (!slot) {
      slot = type;
      return;
    }
    std::string why;
    if (!solver_.Unify(record_.types.at(index), type, &why)) {
      std::string what = index == num_args() ? "result" : "argument " + std::to_string(index);
      Fail(what + " has type " + TypeToString(Resolve(index)) + " but the operator requires " +
           TypeToString(type));
    }
  }
  const Attrs& attrs() const override { return record_.call->attrs; }
  const std::string& op_name() const override { return record_.def->name; }
  const Expr* arg_expr(size_t index) const override {
    return index < record_.call->args.size() ? &record_.call->args[index] : nullptr;
  }
  void ThrowTypeError(const std::string& message) const override {
    const std::string& name = record_.def->name;
    const bool named = message.compare(0, name.size() + 2, name + ": ") == 0;
    throw TypeError(named ? message : name + ": " + message, record_.call->span);
  }
  // Runs the op's relation. A TypeError without a location (from shape arithmetic deep inside
  // the relation) is rethrown with the op's name and the call's location.
  bool Run() {
    try {
      return record_.def->type_relation(*this);
    } catch (const TypeError& e) {
      if (e.span().defined()) throw;
      Fail(e.message());
    }
  }

 private:
  RelationRecord& record_;
  TypeSolver& solver_;
};

// Infers the functions of one module; globals are inferred on demand (callee before caller).
class ModuleInferencer {
 public:
  explicit ModuleInferencer(const IRModule& mod) : mod_(mod) {}

  IRModule Run() {
    IRModule out = mod_;
    for (const auto& [gv, func] : mod_.functions()) {
      out.Add(gv, InferGlobal(gv->name_hint));
    }
    return out;
  }

  Expr InferStandalone(const Expr& expr);

 private:
  class FunctionInferencer;

  // The inferred function named `name` (inferring it first if needed).
  Function InferGlobal(const std::string& name);

  static bool HasFullSignature(const Function& f) {
    if (!f->ret_type || !IsComplete(f->ret_type)) return false;
    for (const Var& p : f->params) {
      if (!p->type_annotation || !IsComplete(p->type_annotation)) return false;
    }
    return true;
  }

  // The type of global `name` as seen by a caller.
  Type GlobalType(const GlobalVarNode* gv) {
    if (!mod_.Contains(gv->name_hint)) {
      throw TypeError("call to undefined global @" + gv->name_hint, gv->span);
    }
    if (standalone_) {
      // Typing one expression (a function pass's rewrite): a callee the module has typed is
      // taken at its checked type, as TVM's inferencer does, not inferred again with all its
      // own callees (a pass over N functions calling each other was O(N^2)).
      const Function& typed = mod_.Lookup(gv->name_hint);
      if (typed->checked_type && IsComplete(typed->checked_type)) return typed->checked_type;
    }
    // A function calling itself while it is inferred, with its parameters annotated but not
    // its return type: the call's result is a hole its inferencer unifies with the body's type
    // (as TVM infers such a function); other recursion needs the full signature (InferGlobal).
    if (in_progress_.count(gv->name_hint) && !inferring_.empty() &&
        inferring_.back().name == gv->name_hint) {
      const Function& f = mod_.Lookup(gv->name_hint);
      bool params_annotated = true;
      for (const Var& p : f->params) {
        params_annotated = params_annotated && p->type_annotation && IsComplete(p->type_annotation);
      }
      if (params_annotated && !HasFullSignature(f)) {
        std::vector<Type> args;
        for (const Var& p : f->params) args.push_back(p->type_annotation);
        return FuncType(std::move(args), inferring_.back().return_hole());
      }
    }
    Function f = InferGlobal(gv->name_hint);
    if (f->checked_type) return f->checked_type;
    std::vector<Type> args;
    for (const Var& p : f->params) args.push_back(p->type_annotation);
    return FuncType(std::move(args), f->ret_type, f->type_params);
  }

  // The definition of ADT `var` (a GlobalTypeVar), or a TypeError at `at`.
  TypeData TypeDefinition(const Type& var, const ExprNode* at) {
    auto* gtv = var.as<GlobalTypeVarNode>();
    if (!gtv || !mod_.ContainGlobalTypeVar(gtv->name_hint)) {
      throw TypeError("the module has no type definition of " + TypeToString(var), at->span);
    }
    return mod_.LookupTypeDef(gtv->name_hint);
  }

  // A kind error in an annotation (TVM's check_kind): a type call of one of the module's ADTs
  // with another number of arguments than the ADT has type parameters. A TypeError at `at`.
  // (An ADT the module does not define is left to the places that need its definition.)
  void CheckAnnotationKinds(const Type& annotation, const ExprNode* at) const {
    if (!annotation || annotation->kind == TypeKind::kTensor) return;  // the common case
    std::vector<const TypeNode*> stack = {annotation.get()};
    while (!stack.empty()) {
      const TypeNode* t = stack.back();
      stack.pop_back();
      if (!t) continue;
      switch (t->kind) {
        case TypeKind::kTypeCall: {
          auto* call = static_cast<const TypeCallNode*>(t);
          auto* gtv = call->func.as<GlobalTypeVarNode>();
          if (gtv && mod_.ContainGlobalTypeVar(gtv->name_hint)) {
            const size_t params = mod_.LookupTypeDef(gtv->name_hint)->type_vars.size();
            if (params != call->args.size()) {
              throw TypeError("kind error in the annotation " + TypeToString(annotation) + ": " +
                                  gtv->name_hint + " takes " + std::to_string(params) +
                                  " type argument" + (params == 1 ? "" : "s") + ", got " +
                                  std::to_string(call->args.size()),
                              at->span);
            }
          }
          for (const Type& a : call->args) stack.push_back(a.get());
          break;
        }
        case TypeKind::kTuple:
          for (const Type& f : static_cast<const TupleTypeNode*>(t)->fields) {
            stack.push_back(f.get());
          }
          break;
        case TypeKind::kFunc: {
          auto* f = static_cast<const FuncTypeNode*>(t);
          for (const Type& a : f->arg_types) stack.push_back(a.get());
          stack.push_back(f->ret_type.get());
          break;
        }
        case TypeKind::kRef:
          stack.push_back(static_cast<const RefTypeNode*>(t)->value.get());
          break;
        default:
          break;
      }
    }
  }

  // The global function a FunctionInferencer is inferring, and the hole of its return type
  // made when the function first calls itself (return_hole).
  struct Inferring {
    std::string name;
    std::function<Type()> return_hole;
  };

  const IRModule& mod_;
  std::vector<Inferring> inferring_;
  bool standalone_ = false;  // InferStandalone: typing one expression against the module
  std::unordered_map<std::string, Function> done_;
  std::unordered_set<std::string> in_progress_;
};

class ModuleInferencer::FunctionInferencer {
 public:
  explicit FunctionInferencer(ModuleInferencer& module) : module_(module) {}

  // One walk numbers the nodes; the three passes below work on arrays indexed by those numbers.
  // `global_name` names the global function `root` is (for its calls of itself).
  Expr Infer(const Expr& root, const std::string& global_name = "") {
    const PostOrderIndex::Id root_id = index_.Add(root);
    terms_.resize(index_.size());
    Type self_return;  // the hole of root's return type, if root calls itself
    if (!global_name.empty()) {
      module_.inferring_.push_back({global_name, [this, &self_return]() {
                                      if (!self_return) self_return = solver_.NewHole();
                                      return self_return;
                                    }});
    }
    struct Pop {
      ModuleInferencer& m;
      bool active;
      ~Pop() {
        if (active) m.inferring_.pop_back();
      }
    } pop{module_, !global_name.empty()};
    for (PostOrderIndex::Id id : index_.post_order()) {
      terms_[id] = Generate(Expr(index_.node(id)), index_.children(id));
    }
    if (self_return) {
      const auto* fn_type = terms_[root_id].as<FuncTypeNode>();
      Unify(self_return, fn_type->ret_type, root.get(), "the return type of @" + global_name);
    }
    Solve();
    return Attach(root_id);
  }

 private:
  using Children = std::span<const PostOrderIndex::Id>;

  [[noreturn]] static void Fail(const std::string& message, const ExprNode* at) {
    throw TypeError(message, at->span);
  }

  void Unify(const Type& a, const Type& b, const ExprNode* at, const std::string& context) {
    std::string why;
    if (!solver_.Unify(a, b, &why)) Fail(context + ": " + why, at);
  }

  // Pass 1: a type term for each node, with constraints. `kids` are e's children's numbers in
  // ForEachVisitChild order.
  Type Generate(const Expr& e, Children kids) {
    switch (e->kind) {
      case ExprKind::kVar: {
        auto* var = e.as<VarNode>();
        if (!var->type_annotation) return solver_.NewHole();
        module_.CheckAnnotationKinds(var->type_annotation, var);
        return var->type_annotation;
      }
      case ExprKind::kGlobalVar:
        return module_.GlobalType(e.as<GlobalVarNode>());
      case ExprKind::kConstant:
        return e.as<ConstantNode>()->tensor_type();
      case ExprKind::kOp:
        return nullptr;  // only meaningful as a callee
      case ExprKind::kCall:
        return GenerateCall(e.as<CallNode>(), kids);
      case ExprKind::kTuple: {
        std::vector<Type> fields;
        fields.reserve(kids.size());
        for (PostOrderIndex::Id f : kids) fields.push_back(ValueTerm(f, e.get()));
        // The node's checked type when its fields are those very types: re-checking a typed
        // graph then gives back the same type nodes, and comparing a deep tuple type with its
        // old self (Attach) stops at the top instead of walking it (a chain of N tuples was
        // O(N^2) to re-check).
        if (auto* old = e->checked_type.as<TupleTypeNode>()) {
          bool same = old->fields.size() == fields.size();
          for (size_t i = 0; same && i < fields.size(); ++i)
            same = old->fields[i].same_as(fields[i]);
          if (same) return e->checked_type;
        }
        return TupleType(std::move(fields));
      }
      case ExprKind::kTupleGetItem: {
        auto* item = e.as<TupleGetItemNode>();
        Type result = solver_.NewHole();
        pending_items_.push_back({item, ValueTerm(kids[0], item), result});
        TrySolveItem(pending_items_.back());
        return result;
      }
      case ExprKind::kFunction: {
        auto* fn = e.as<FunctionNode>();
        std::vector<Type> params;
        params.reserve(fn->params.size());
        for (size_t i = 0; i < fn->params.size(); ++i) params.push_back(ValueTerm(kids[i], fn));
        Type body = ValueTerm(kids[fn->params.size()], fn);
        if (fn->ret_type) Unify(fn->ret_type, body, fn, "function return type");
        return FuncType(std::move(params), body, fn->type_params);
      }
      // As TVM's: a constructor is a polymorphic function over its ADT's type variables,
      // from its inputs to the ADT applied to them.
      case ExprKind::kConstructor: {
        auto* ctor = e.as<ConstructorNode>();
        TypeData data = module_.TypeDefinition(ctor->belong_to, ctor);
        return FuncType(ctor->inputs, TypeCall(ctor->belong_to, data->type_vars), data->type_vars);
      }
      case ExprKind::kMatch:
        return GenerateMatch(e.as<MatchNode>(), kids);
      case ExprKind::kLet: {
        auto* let = e.as<LetNode>();
        Unify(ValueTerm(kids[1], let), ValueTerm(kids[0], let), let, "let %" + let->var->name_hint);
        return ValueTerm(kids[2], let);
      }
      case ExprKind::kIf: {
        auto* node = e.as<IfNode>();
        Unify(ValueTerm(kids[0], node), ScalarType(DataType::Bool()), node,
              "if condition must be a bool scalar");
        Type t = ValueTerm(kids[1], node);
        Unify(t, ValueTerm(kids[2], node), node, "if branches");
        return t;
      }
      // As TVM's type inferencer: a reference's type is ref(T) for the type T of its content.
      case ExprKind::kRefCreate:
        return RefType(ValueTerm(kids[0], e.get()));
      case ExprKind::kRefRead: {
        Type content = solver_.NewHole();
        Unify(ValueTerm(kids[0], e.get()), RefType(content), e.get(),
              "ref_read of a non-reference");
        return content;
      }
      case ExprKind::kRefWrite: {
        Type content = solver_.NewHole();
        Unify(ValueTerm(kids[0], e.get()), RefType(content), e.get(),
              "ref_write to a non-reference");
        Unify(ValueTerm(kids[1], e.get()), content, e.get(),
              "ref_write of a value of another type than the reference's");
        return TupleType({});
      }
    }
    return nullptr;
  }

  // The term of node `id` used as a value by `user` (an Op is not a value).
  Type ValueTerm(PostOrderIndex::Id id, const ExprNode* user) {
    if (id == PostOrderIndex::kNone) Fail("missing subexpression", user);
    const Type& t = terms_[id];
    if (!t) {
      const ExprNode* n = index_.node(id);
      Fail("operator " + static_cast<const OpNode*>(n)->name + " used as a value", user);
    }
    return t;
  }

  Type GenerateCall(const CallNode* call, Children kids) {
    if (auto* op = call->op.as<OpNode>()) {
      const OpDef* def = op->def;
      if (def->num_inputs >= 0 && static_cast<int>(call->args.size()) != def->num_inputs) {
        Fail(op->name + " expects " + std::to_string(def->num_inputs) + " argument" +
                 (def->num_inputs == 1 ? "" : "s") + " but got " +
                 std::to_string(call->args.size()),
             call);
      }
      if (!def->type_relation) Fail("operator " + op->name + " has no type relation", call);
      // Most relations finish at once: the record is built in a reused buffer and kept only if
      // the relation must run again (no allocation per call otherwise).
      RelationRecord& record = scratch_record_;
      record.call = call;
      record.def = def;
      record.types.clear();
      for (size_t i = 1; i < kids.size(); ++i) record.types.push_back(ValueTerm(kids[i], call));
      record.types.emplace_back();  // the result: empty until the relation assigns it
      RelationCall rel(record, solver_);
      const bool done = rel.Run();
      if (!record.types.back()) record.types.back() = solver_.NewHole();
      Type result = record.types.back();
      if (!done) relations_.push_back(record);
      return result;
    }
    Type callee = ValueTerm(kids[0], call);
    std::vector<Type> args;
    for (size_t i = 1; i < kids.size(); ++i) args.push_back(ValueTerm(kids[i], call));
    Type resolved = solver_.Resolve(callee);
    if (auto* poly = resolved.as<FuncTypeNode>(); poly && !poly->type_params.empty()) {
      // A polymorphic callee is instantiated at each call: fresh unknowns for its type
      // parameters (TVM's InstantiateFuncType).
      std::unordered_map<const TypeNode*, Type> fresh;
      for (const Type& p : poly->type_params) fresh[p.get()] = solver_.NewHole();
      std::vector<Type> arg_types;
      for (const Type& a : poly->arg_types) arg_types.push_back(SubstituteTypeVars(a, fresh));
      resolved = FuncType(std::move(arg_types), SubstituteTypeVars(poly->ret_type, fresh));
    }
    if (auto* fn = resolved.as<FuncTypeNode>()) {
      if (fn->arg_types.size() != args.size()) {
        Fail("function expects " + std::to_string(fn->arg_types.size()) + " arguments but got " +
                 std::to_string(args.size()),
             call);
      }
      for (size_t i = 0; i < args.size(); ++i) {
        Unify(fn->arg_types[i], args[i], call, "argument " + std::to_string(i));
      }
      return fn->ret_type;
    }
    Type result = solver_.NewHole();
    Unify(callee, FuncType(args, result), call, "callee");
    return result;
  }

  // A match's type: the data's type must fit each clause's pattern, whose variables take the
  // types of what they match; every clause's right-hand side has the match's type. `kids`:
  // the data, then per clause its pattern's variables and its right-hand side.
  Type GenerateMatch(const MatchNode* match, Children kids) {
    Type data = ValueTerm(kids[0], match);
    Type result = solver_.NewHole();
    size_t k = 1;
    for (const Clause& clause : match->clauses) {
      std::unordered_map<const VarNode*, Type> var_terms;
      for (const Var& v : PatternVars(clause->lhs))
        var_terms[v.get()] = ValueTerm(kids[k++], match);
      UnifyPattern(clause->lhs, data, var_terms, match);
      Unify(result, ValueTerm(kids[k++], match), match, "match clause");
    }
    if (match->complete) {
      // As TVM's: a complete match must cover every value of the data's type.
      std::vector<Pattern> missing = UnmatchedCases(Match(match), module_.mod_);
      if (!missing.empty()) {
        std::string cases;
        for (const Pattern& p : missing) cases += (cases.empty() ? "" : ", ") + PatternToString(p);
        Fail("match expression does not handle the following cases: " + cases, match);
      }
    }
    return result;
  }

  void UnifyPattern(const Pattern& root, const Type& root_type,
                    const std::unordered_map<const VarNode*, Type>& var_terms,
                    const MatchNode* match) {
    std::vector<std::pair<const PatternNode*, Type>> stack = {{root.get(), root_type}};
    while (!stack.empty()) {
      auto [p, expected] = std::move(stack.back());
      stack.pop_back();
      switch (p->kind) {
        case PatternKind::kWildcard:
          break;
        case PatternKind::kVar: {
          auto* var = static_cast<const PatternVarNode*>(p)->var.get();
          Unify(var_terms.at(var), expected, match, "pattern variable %" + var->name_hint);
          break;
        }
        case PatternKind::kConstructor: {
          auto* pc = static_cast<const PatternConstructorNode*>(p);
          const Constructor& ctor = pc->constructor;
          TypeData data = module_.TypeDefinition(ctor->belong_to, match);
          std::unordered_map<const TypeNode*, Type> fresh;
          std::vector<Type> args;
          for (const Type& tv : data->type_vars) {
            args.push_back(solver_.NewHole());
            fresh[tv.get()] = args.back();
          }
          Unify(expected, TypeCall(ctor->belong_to, std::move(args)), match,
                "pattern " + ctor->name_hint);
          if (pc->patterns.size() != ctor->inputs.size()) {
            Fail("the pattern " + ctor->name_hint + " has " + std::to_string(pc->patterns.size()) +
                     " fields but the constructor takes " + std::to_string(ctor->inputs.size()),
                 match);
          }
          for (size_t i = pc->patterns.size(); i-- > 0;) {
            stack.emplace_back(pc->patterns[i].get(), SubstituteTypeVars(ctor->inputs[i], fresh));
          }
          break;
        }
        case PatternKind::kTuple: {
          auto& fields = static_cast<const PatternTupleNode*>(p)->patterns;
          std::vector<Type> holes;
          for (size_t i = 0; i < fields.size(); ++i) holes.push_back(solver_.NewHole());
          Unify(expected, TupleType(holes), match, "tuple pattern");
          for (size_t i = fields.size(); i-- > 0;) stack.emplace_back(fields[i].get(), holes[i]);
          break;
        }
      }
    }
  }

  struct ItemRecord {
    const TupleGetItemNode* item;
    Type tuple;  // the term of item->tuple
    Type result;
  };

  // Returns true once the get-item's tuple type is known and the result assigned.
  bool TrySolveItem(const ItemRecord& r) {
    Type tuple = solver_.Resolve(r.tuple);
    auto* tt = tuple.as<TupleTypeNode>();
    if (!tt) {
      if (tuple.as<IncompleteTypeNode>()) return false;
      Fail("tuple get-item on a non-tuple of type " + TypeToString(tuple), r.item);
    }
    if (r.item->index < 0 || r.item->index >= static_cast<int>(tt->fields.size())) {
      Fail("tuple index " + std::to_string(r.item->index) + " out of range for a " +
               std::to_string(tt->fields.size()) + "-field tuple " + TypeToString(tuple),
           r.item);
    }
    Unify(r.result, tt->fields[r.item->index], r.item, "tuple get-item");
    return true;
  }

  // Pass 2: re-run each undecided relation or get-item when a hole it waits on changes, until
  // nothing is left or nothing can change. Re-running them all until a sweep makes no progress
  // was quadratic where dependencies run against generation order (a chain of calls of local
  // functions: each function's body is generated before the call that gives its parameters
  // their types, and one sweep solved one function).
  void Solve() {
    (void)solver_.TakeChanged();  // generation's changes: everything below is tried once anyway
    if (relations_.empty() && pending_items_.empty()) return;  // the common case: all decided
    // Work w < relations_.size() is a relation, the rest get-items.
    const size_t num_relations = relations_.size();
    const size_t num_work = num_relations + pending_items_.size();
    std::vector<char> done(num_work, 0), queued(num_work, 1);
    std::vector<size_t> ready(num_work);
    for (size_t w = 0; w < num_work; ++w) ready[w] = num_work - 1 - w;  // popped in order
    std::unordered_map<int, std::vector<size_t>> waiting;  // hole class -> work waiting on it
    std::vector<int> holes;
    while (!ready.empty()) {
      const size_t w = ready.back();
      ready.pop_back();
      queued[w] = 0;
      holes.clear();
      if (w < num_relations) {
        RelationRecord& r = relations_[w];
        RelationCall rel(r, solver_);
        done[w] = rel.Run();
        if (!done[w]) {
          for (const Type& t : r.types)
            if (t) solver_.UnboundHoles(t, &holes);
        }
      } else {
        const ItemRecord& r = pending_items_[w - num_relations];
        done[w] = TrySolveItem(r);
        if (!done[w]) solver_.UnboundHoles(r.tuple, &holes);
      }
      for (int h : holes) waiting[h].push_back(w);
      for (int changed : solver_.TakeChanged()) {
        auto it = waiting.find(changed);
        if (it == waiting.end()) continue;
        for (size_t v : it->second) {
          if (!done[v] && !queued[v]) {
            queued[v] = 1;
            ready.push_back(v);
          }
        }
        waiting.erase(it);
      }
    }
    size_t kept = 0;
    for (size_t w = 0; w < num_relations; ++w)
      if (!done[w]) relations_[kept++] = std::move(relations_[w]);
    relations_.resize(kept);
    kept = 0;
    for (size_t i = 0; i < pending_items_.size(); ++i)
      if (!done[num_relations + i]) pending_items_[kept++] = pending_items_[i];
    pending_items_.resize(kept);
    if (!relations_.empty()) {
      const RelationRecord& r = relations_.front();
      std::string types;
      for (size_t i = 0; i + 1 < r.types.size(); ++i) {
        types += (i ? ", " : "") + TypeToString(solver_.Resolve(r.types[i]));
      }
      Fail("unable to infer the type of this " + r.def->name + " call (argument types: " + types +
               ")",
           r.call);
    }
    if (!pending_items_.empty()) {
      Fail("unable to infer the tuple type of this get-item", pending_items_.front().item);
    }
  }

  // True if every unknown in `t` is an argument of an ADT (`List[_]`, the type of `Nil()` whose
  // element type nothing decides): TVM accepts those, as it only requires the top of a type to
  // be known.
  static bool UnknownsOnlyInAdtArguments(const Type& t) {
    std::vector<std::pair<const TypeNode*, bool>> stack = {{t.get(), false}};
    while (!stack.empty()) {
      auto [n, in_adt] = stack.back();
      stack.pop_back();
      if (!n || n->complete) continue;
      switch (n->kind) {
        case TypeKind::kIncomplete:
          if (!in_adt) return false;
          break;
        case TypeKind::kTypeCall:
          for (const Type& a : static_cast<const TypeCallNode*>(n)->args) {
            stack.emplace_back(a.get(), true);
          }
          break;
        case TypeKind::kTuple:
          for (const Type& f : static_cast<const TupleTypeNode*>(n)->fields) {
            stack.emplace_back(f.get(), in_adt);
          }
          break;
        case TypeKind::kFunc: {
          auto* f = static_cast<const FuncTypeNode*>(n);
          for (const Type& a : f->arg_types) stack.emplace_back(a.get(), in_adt);
          stack.emplace_back(f->ret_type.get(), in_adt);
          break;
        }
        case TypeKind::kRef:
          stack.emplace_back(static_cast<const RefTypeNode*>(n)->value.get(), in_adt);
          break;
        default:
          break;
      }
    }
    return true;
  }

  // The final type of node `id`; an error if anything is still unknown.
  Type FinalType(PostOrderIndex::Id id) {
    Type t = solver_.Resolve(terms_[id]);
    if (!IsComplete(t) && !UnknownsOnlyInAdtArguments(t)) {
      const ExprNode* e = index_.node(id);
      std::string what = "expression";
      if (e->kind == ExprKind::kVar)
        what = "variable %" + static_cast<const VarNode*>(e)->name_hint;
      Fail("unable to infer the type of " + what + " (only " + TypeToString(t) + " is known)", e);
    }
    return t;
  }

  // Pass 3: rebuild with checked types, filling var annotations and return types.
  Expr Attach(PostOrderIndex::Id root) {
    std::vector<Expr> results(index_.size());
    for (PostOrderIndex::Id id : index_.post_order()) {
      Expr pre(index_.node(id));
      results[id] = Typed(pre, RebuildOnChildren(pre, index_.children(id), results), id);
    }
    return results[root];
  }

  // `post` (pre rebuilt on typed children) with its checked type.
  Expr Typed(const Expr& pre, const Expr& post, PostOrderIndex::Id id) {
    // Constructors stay the module's nodes (patterns and tags refer to them): not copied to
    // carry a type.
    if (pre->kind == ExprKind::kOp || pre->kind == ExprKind::kGlobalVar ||
        pre->kind == ExprKind::kConstructor) {
      return post;
    }
    Type t = FinalType(id);
    if (auto* var = post.as<VarNode>()) {
      if (var->type_annotation && TypeEqual(var->checked_type, t) &&
          IsComplete(var->type_annotation)) {
        return post;
      }
      Type annotation =
          var->type_annotation && IsComplete(var->type_annotation) ? var->type_annotation : t;
      Var fresh = MakeVar(var->name_hint, annotation);
      auto* node = const_cast<VarNode*>(fresh.get());
      node->checked_type = t;
      node->span = var->span;
      node->vid = var->vid;  // the same variable, typed (TVM's copy keeps the Id)
      node->virtual_device = var->virtual_device;
      return fresh;
    }
    if (auto* fn = post.as<FunctionNode>()) {
      if (!fn->ret_type || !IsComplete(fn->ret_type)) {
        Function fresh = MakeFunction(fn->params, fn->body, t.as<FuncTypeNode>()->ret_type,
                                      fn->attrs, fn->type_params);
        auto* node = const_cast<FunctionNode*>(fresh.get());
        node->checked_type = t;
        node->span = fn->span;
        node->virtual_device = fn->virtual_device;
        return fresh;
      }
    }
    if (post.get() != pre.get() && post->use_count() == 1) {
      // A copy the rebuild just made and nobody else holds: type it in place.
      const_cast<ExprNode*>(post.get())->checked_type = std::move(t);
      return post;
    }
    return WithCheckedType(post, t);
  }

  ModuleInferencer& module_;
  TypeSolver solver_;
  PostOrderIndex index_;
  std::vector<Type> terms_;  // by node number
  std::vector<RelationRecord> relations_;
  RelationRecord scratch_record_{};
  std::vector<ItemRecord> pending_items_;
};

Expr ModuleInferencer::InferStandalone(const Expr& expr) {
  standalone_ = true;
  return FunctionInferencer(*this).Infer(expr);
}

Function ModuleInferencer::InferGlobal(const std::string& name) {
  if (auto it = done_.find(name); it != done_.end()) return it->second;
  if (in_progress_.count(name)) {
    Function f = mod_.Lookup(name);
    if (HasFullSignature(f)) return f;
    throw TypeError(
        "recursive function @" + name + " needs type annotations on its parameters and return type",
        f->span);
  }
  // Callees before callers, in an explicit depth-first walk over the call graph: a chain of
  // global calls as long as the module does not recurse (a function on the walk's stack is
  // "in progress": calling it back needs its full signature, as above).
  struct Frame {
    std::string name;
    std::vector<std::string> callees;
    size_t next = 0;
  };
  auto frame_for = [&](const std::string& fn_name) {
    Frame frame{fn_name, {}, 0};
    in_progress_.insert(fn_name);
    // In a module of one function the only possible callee is the function itself, which is in
    // progress: no walk needed (it costs a tenth of parsing resnet-50).
    if (mod_.size() == 1) return frame;
    std::unordered_set<std::string> seen;
    post_order_visit(mod_.Lookup(fn_name), [&](const Expr& e) {
      if (auto* gv = e.as<GlobalVarNode>()) {
        if (mod_.Contains(gv->name_hint) && seen.insert(gv->name_hint).second) {
          frame.callees.push_back(gv->name_hint);
        }
      }
    });
    return frame;
  };
  std::vector<Frame> stack;
  stack.push_back(frame_for(name));
  while (!stack.empty()) {
    if (stack.back().next < stack.back().callees.size()) {
      const std::string callee = stack.back().callees[stack.back().next++];
      if (!done_.count(callee) && !in_progress_.count(callee)) stack.push_back(frame_for(callee));
      continue;
    }
    const std::string fn_name = std::move(stack.back().name);
    stack.pop_back();
    Expr inferred = FunctionInferencer(*this).Infer(mod_.Lookup(fn_name), fn_name);
    in_progress_.erase(fn_name);
    done_[fn_name] = inferred.downcast<FunctionNode>();
  }
  return done_.at(name);
}

}  // namespace

IRModule InferTypes(const IRModule& mod) {
  // Already InferType's output, unchanged: checking it again would give it back as it is.
  if (mod.AllTypeInferred()) return mod;
  IRModule out = ModuleInferencer(mod).Run();
  out.MarkTypeInferred();
  return out;
}

Expr InferExprTypes(const Expr& expr, const IRModule& mod) {
  return ModuleInferencer(mod).InferStandalone(expr);
}

}  // namespace relaypass::ir
