// Relay expressions. Nodes are immutable and shared; a pass builds new nodes and reuses the
// unchanged ones. `checked_type` is set by type inference when it builds a node (never changed
// afterwards on a shared node).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/object.h"
#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::ir {

struct OpDef;  // relaypass/ir/op_registry.h

enum class ExprKind : uint8_t {
  kVar,
  kGlobalVar,
  kConstant,
  kOp,
  kCall,
  kTuple,
  kTupleGetItem,
  kFunction,
  kLet,
  kIf,
  kRefCreate,
  kRefRead,
  kRefWrite,
  kConstructor,
  kMatch,
};

struct ExprNode : Object {
  explicit ExprNode(ExprKind k) : kind(k) {}
  ExprNode(const ExprNode&) = default;
  const ExprKind kind;
  Type checked_type;  // null until type inference has run
  Span span;          // where the parser read it, if it came from text
};
using Expr = Ref<ExprNode>;

struct VarNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kVar;
  VarNode(std::string name, Type annotation)
      : ExprNode(kKind),
        name_hint(std::move(name)),
        type_annotation(std::move(annotation)),
        vid(NextVarId()) {}
  std::string name_hint;
  Type type_annotation;  // may be null
  /// The variable's identity (TVM's Var::vid): a retyped copy of a variable (what type inference
  /// makes of an unannotated or untyped one) keeps it, so that StructuralEqual finds a free
  /// variable equal to its typed copies, as TVM's does.
  uint64_t vid;
  /// Where the variable's value lives (TVM's virtual_device_, printed `%x {virtual_device=...}`);
  /// null is the fully unconstrained device. PlanDevices sets it on function parameters.
  VirtualDevice virtual_device;

 private:
  static uint64_t NextVarId();
};
using Var = Ref<VarNode>;

struct GlobalVarNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kGlobalVar;
  explicit GlobalVarNode(std::string name) : ExprNode(kKind), name_hint(std::move(name)) {}
  std::string name_hint;
};
using GlobalVar = Ref<GlobalVarNode>;

struct ConstantNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kConstant;
  explicit ConstantNode(NDArray d) : ExprNode(kKind), data(std::move(d)) {}
  NDArray data;
  /// The tensor type its data implies.
  Type tensor_type() const;
  bool is_scalar() const { return data.ndim() == 0; }
};
using Constant = Ref<ConstantNode>;

/// An operator; there is exactly one OpNode per registered name (see GetOp in op_registry.h).
struct OpNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kOp;
  OpNode(std::string n, const OpDef* d) : ExprNode(kKind), name(std::move(n)), def(d) {}
  std::string name;
  const OpDef* def;
};
using Op = Ref<OpNode>;

struct CallNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kCall;
  CallNode(Expr o, std::vector<Expr> a, Attrs at)
      : ExprNode(kKind), op(std::move(o)), args(std::move(a)), attrs(std::move(at)) {}
  Expr op;  // an Op, a Function, a GlobalVar or any expression of function type
  std::vector<Expr> args;
  Attrs attrs;  // null for ops without attrs and for non-op calls
  /// The callee's OpNode if it is an operator, else null.
  const OpNode* op_node() const { return op.as<OpNode>(); }
};
using Call = Ref<CallNode>;

struct TupleNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kTuple;
  explicit TupleNode(std::vector<Expr> f) : ExprNode(kKind), fields(std::move(f)) {}
  std::vector<Expr> fields;
};
using Tuple = Ref<TupleNode>;

struct TupleGetItemNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kTupleGetItem;
  TupleGetItemNode(Expr t, int i) : ExprNode(kKind), tuple(std::move(t)), index(i) {}
  Expr tuple;
  int index;
};
using TupleGetItem = Ref<TupleGetItemNode>;

struct FunctionNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kFunction;
  FunctionNode(std::vector<Var> p, Expr b, Type r, DictAttrs a, std::vector<Type> tp = {})
      : ExprNode(kKind),
        params(std::move(p)),
        body(std::move(b)),
        ret_type(std::move(r)),
        attrs(std::move(a)),
        type_params(std::move(tp)) {}
  std::vector<Var> params;
  Expr body;
  Type ret_type;  // may be null until type inference
  DictAttrs attrs;
  std::vector<Type> type_params;  // TypeVars of a polymorphic function: `fn [A](%x: A) -> A`
  /// Where the function's result lives (TVM's virtual_device_, printed as a `virtual_device=`
  /// attribute); null is the fully unconstrained device.
  VirtualDevice virtual_device;
  /// True for fused functions (`Primitive=1`).
  bool is_primitive() const { return attrs.GetInt("Primitive", 0) != 0; }
};
using Function = Ref<FunctionNode>;

struct LetNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kLet;
  LetNode(Var v, Expr val, Expr b)
      : ExprNode(kKind), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
  Var var;
  Expr value;
  Expr body;
};
using Let = Ref<LetNode>;

struct IfNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kIf;
  IfNode(Expr c, Expr t, Expr f)
      : ExprNode(kKind),
        cond(std::move(c)),
        true_branch(std::move(t)),
        false_branch(std::move(f)) {}
  Expr cond;
  Expr true_branch;
  Expr false_branch;
};
using If = Ref<IfNode>;

/// References (TVM's relay.RefCreate / RefRead / RefWrite): `ref(%v)` makes a new mutable cell
/// holding %v each time it is evaluated; `ref_read(%r)` is the cell's current content;
/// `ref_write(%r, %v)` replaces it and yields the empty tuple. They have side effects: a pass
/// that cannot reason about effects leaves them, and the order of their evaluation, alone.
struct RefCreateNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kRefCreate;
  explicit RefCreateNode(Expr v) : ExprNode(kKind), value(std::move(v)) {}
  Expr value;  // the initial content
};
using RefCreate = Ref<RefCreateNode>;

struct RefReadNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kRefRead;
  explicit RefReadNode(Expr r) : ExprNode(kKind), ref(std::move(r)) {}
  Expr ref;
};
using RefRead = Ref<RefReadNode>;

struct RefWriteNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kRefWrite;
  RefWriteNode(Expr r, Expr v) : ExprNode(kKind), ref(std::move(r)), value(std::move(v)) {}
  Expr ref;
  Expr value;  // the new content
};
using RefWrite = Ref<RefWriteNode>;

/// Algebraic data types (TVM's relay/adt.h).
///
/// A constructor of an ADT: `Cons` of `List`. Calling it with `inputs`-typed values builds an ADT
/// value whose tag is `tag` (its index in the TypeData's constructor list, set by
/// IRModule::AddTypeDef).
struct ConstructorNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kConstructor;
  ConstructorNode(std::string n, std::vector<Type> in, Type b)
      : ExprNode(kKind), name_hint(std::move(n)), inputs(std::move(in)), belong_to(std::move(b)) {}
  std::string name_hint;
  std::vector<Type> inputs;
  Type belong_to;  // the ADT's GlobalTypeVar
  int32_t tag = -1;
};
using Constructor = Ref<ConstructorNode>;

/// An ADT's definition (TVM's TypeData): `type List[A] { Cons(A, List[A]), Nil, }`.
struct TypeDataNode : TypeNode {
  static constexpr TypeKind kKind = TypeKind::kTypeData;
  TypeDataNode(Type h, std::vector<Type> tv, std::vector<Constructor> c);
  Type header;                            // GlobalTypeVar
  std::vector<Type> type_vars;            // TypeVars
  std::vector<Constructor> constructors;  // tags 0, 1, ... in this order
};
using TypeData = Ref<TypeDataNode>;

/// Patterns of a match clause (TVM's Pattern): not expressions, a small tree of their own.
enum class PatternKind : uint8_t { kWildcard, kVar, kConstructor, kTuple };
struct PatternNode : Object {
  explicit PatternNode(PatternKind k) : kind(k) {}
  const PatternKind kind;
};
using Pattern = Ref<PatternNode>;

struct PatternWildcardNode : PatternNode {
  static constexpr PatternKind kKind = PatternKind::kWildcard;
  PatternWildcardNode() : PatternNode(kKind) {}
};
/// Binds the matched value to `var`.
struct PatternVarNode : PatternNode {
  static constexpr PatternKind kKind = PatternKind::kVar;
  explicit PatternVarNode(Var v) : PatternNode(kKind), var(std::move(v)) {}
  Var var;
};
struct PatternConstructorNode : PatternNode {
  static constexpr PatternKind kKind = PatternKind::kConstructor;
  PatternConstructorNode(Constructor c, std::vector<Pattern> p)
      : PatternNode(kKind), constructor(std::move(c)), patterns(std::move(p)) {}
  Constructor constructor;
  std::vector<Pattern> patterns;
};
struct PatternTupleNode : PatternNode {
  static constexpr PatternKind kKind = PatternKind::kTuple;
  explicit PatternTupleNode(std::vector<Pattern> p) : PatternNode(kKind), patterns(std::move(p)) {}
  std::vector<Pattern> patterns;
};

/// `lhs => rhs` of a match.
struct ClauseNode : Object {
  ClauseNode(Pattern l, Expr r) : lhs(std::move(l)), rhs(std::move(r)) {}
  Pattern lhs;
  Expr rhs;
};
using Clause = Ref<ClauseNode>;

/// `match (%data) { clauses }`: the first clause whose pattern matches gives the value.
/// `complete` false is TVM's `match?`: the clauses need not cover every value.
struct MatchNode : ExprNode {
  static constexpr ExprKind kKind = ExprKind::kMatch;
  MatchNode(Expr d, std::vector<Clause> c, bool comp)
      : ExprNode(kKind), data(std::move(d)), clauses(std::move(c)), complete(comp) {}
  Expr data;
  std::vector<Clause> clauses;
  bool complete;
};
using Match = Ref<MatchNode>;

/// Constructors.
Var MakeVar(std::string name, Type annotation = nullptr);
GlobalVar MakeGlobalVar(std::string name);
Constant MakeConstant(NDArray data);
Call MakeCall(Expr op, std::vector<Expr> args, Attrs attrs = nullptr);
Tuple MakeTuple(std::vector<Expr> fields);
TupleGetItem MakeTupleGetItem(Expr tuple, int index);
Function MakeFunction(std::vector<Var> params, Expr body, Type ret_type = nullptr,
                      DictAttrs attrs = {}, std::vector<Type> type_params = {});
Let MakeLet(Var var, Expr value, Expr body);
If MakeIf(Expr cond, Expr true_branch, Expr false_branch);
RefCreate MakeRefCreate(Expr value);
RefRead MakeRefRead(Expr ref);
RefWrite MakeRefWrite(Expr ref, Expr value);
Constructor MakeConstructor(std::string name, std::vector<Type> inputs, Type belong_to);
TypeData MakeTypeData(Type header, std::vector<Type> type_vars,
                      std::vector<Constructor> constructors);
Pattern MakePatternWildcard();
Pattern MakePatternVar(Var var);
Pattern MakePatternConstructor(Constructor constructor, std::vector<Pattern> patterns);
Pattern MakePatternTuple(std::vector<Pattern> patterns);
Clause MakeClause(Pattern lhs, Expr rhs);
Match MakeMatch(Expr data, std::vector<Clause> clauses, bool complete = true);

/// The variables `pattern` binds, left to right (iterative: patterns can nest deeply).
std::vector<Var> PatternVars(const Pattern& pattern);
/// `pattern` with its variables replaced, left to right, by `vars` (as many as PatternVars
/// gives); `pattern` itself when none changed.
Pattern ReplacePatternVars(const Pattern& pattern, const std::vector<Var>& vars);

/// A shallow copy of `e` (same children) that callers may modify before sharing it; used to set
/// checked_type or span on a fresh node.
Expr CopyNode(const Expr& e);
/// `e` if it already has type `t`, else a copy of it carrying `t`.
Expr WithCheckedType(const Expr& e, Type t);

/// Calls fn(child) for each child of `e` in evaluation order: a call's callee then its arguments,
/// a tuple's fields, a get-item's tuple, a function's body, a let's value then body, an if's
/// condition then branches, a ref_create's value, a ref_read's ref, a ref_write's ref then value,
/// a match's data then each clause's right-hand side. Vars bound by functions, lets and patterns
/// are not children.
template <typename F>
void ForEachChild(const ExprNode* e, F&& fn) {
  switch (e->kind) {
    case ExprKind::kCall: {
      auto* call = static_cast<const CallNode*>(e);
      fn(call->op);
      for (const Expr& a : call->args) fn(a);
      break;
    }
    case ExprKind::kTuple:
      for (const Expr& f : static_cast<const TupleNode*>(e)->fields) fn(f);
      break;
    case ExprKind::kTupleGetItem:
      fn(static_cast<const TupleGetItemNode*>(e)->tuple);
      break;
    case ExprKind::kFunction:
      fn(static_cast<const FunctionNode*>(e)->body);
      break;
    case ExprKind::kLet: {
      auto* let = static_cast<const LetNode*>(e);
      fn(let->value);
      fn(let->body);
      break;
    }
    case ExprKind::kIf: {
      auto* node = static_cast<const IfNode*>(e);
      fn(node->cond);
      fn(node->true_branch);
      fn(node->false_branch);
      break;
    }
    case ExprKind::kRefCreate:
      fn(static_cast<const RefCreateNode*>(e)->value);
      break;
    case ExprKind::kRefRead:
      fn(static_cast<const RefReadNode*>(e)->ref);
      break;
    case ExprKind::kRefWrite: {
      auto* node = static_cast<const RefWriteNode*>(e);
      fn(node->ref);
      fn(node->value);
      break;
    }
    case ExprKind::kMatch: {
      auto* node = static_cast<const MatchNode*>(e);
      fn(node->data);
      for (const Clause& c : node->clauses) fn(c->rhs);
      break;
    }
    default:
      break;
  }
}

}  // namespace relaypass::ir
