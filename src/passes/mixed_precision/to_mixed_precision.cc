// ToMixedPrecision: TVM v0.13's MixedPrecisionPass as a post-order rewrite (ir::ExprMutator
// gives each call its rewritten arguments, as TVM's MixedModeMutator does).
//
// Types: a rewritten call's type is inferred on its own, with its arguments replaced by
// variables of their (new) types, as TVM's MakeAnalogousSubgraph does, so the pass stays linear
// in the graph. The pass keeps those types in its own table; a node it did not rebuild keeps the
// checked type of the typed input.
#include <cstdio>
#include <iostream>
#include <map>
#include <unordered_map>

#include "conversion_rules.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/to_mixed_precision.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using ir::DataType;
using ir::Expr;
using ir::Type;

// TVM's DataType::is_float(): IEEE floats only (bfloat16 is a separate code there).
bool IsIeeeFloat(DataType d) {
  return d.is_float() && d.code() != DataType::Code::kBFloat;
}

// The attrs that carry an accumulation dtype: TVM's GetNewAttrs.
const char* const kOutDTypeAttrs[] = {
    "relay.attrs.Conv1DAttrs",
    "relay.attrs.Conv1DTransposeAttrs",
    "relay.attrs.Conv2DAttrs",
    "relay.attrs.Conv2DTransposeAttrs",
    "relay.attrs.Conv2DWinogradAttrs",
    "relay.attrs.Conv2DWinogradNNPACKWeightTransformAttrs",
    "relay.attrs.DeformableConv2DAttrs",
    "relay.attrs.Conv3DAttrs",
    "relay.attrs.Conv3DTransposeAttrs",
    "relay.attrs.Conv3DWinogradAttrs",
    "relay.attrs.DenseAttrs",
    "relay.attrs.BatchMatmulAttrs",
};

// One call's type relation run on complete argument types (TVM's InferTypeLocal for a call
// whose arguments are typed): the result type, or null when the relation cannot settle it alone.
class LocalRelationCall : public op::TypeRelationCall {
 public:
  LocalRelationCall(const ir::OpNode* op, const std::vector<Type>& args, const ir::Attrs& attrs)
      : op_(op), types_(args), attrs_(attrs) {
    types_.push_back(ir::IncompleteType());
  }
  size_t num_args() const override { return types_.size() - 1; }
  Type Resolve(size_t index) const override { return types_[index]; }
  void Assign(size_t index, const Type& type) override {
    if (index == num_args()) {
      if (!ir::IsComplete(types_[index]) || ir::TypeEqual(types_[index], type)) {
        types_[index] = type;
        return;
      }
    } else if (ir::TypeEqual(types_[index], type)) {
      return;
    }
    conflict_ = true;  // a unification this simple solver does not do
  }
  const ir::Attrs& attrs() const override { return attrs_; }
  const std::string& op_name() const override { return op_->name; }
  bool conflict() const { return conflict_; }

 protected:
  void ThrowTypeError(const std::string& message) const override {
    throw TypeError(op_->name + ": " + message);
  }

 private:
  const ir::OpNode* op_;
  std::vector<Type> types_;
  ir::Attrs attrs_;
  bool conflict_ = false;
};

Type LocalCallType(const ir::OpNode* op, const std::vector<Type>& args, const ir::Attrs& attrs) {
  if (!op->def || !op->def->type_relation) return nullptr;
  for (const Type& t : args) {
    if (!ir::IsComplete(t)) return nullptr;
  }
  LocalRelationCall call(op, args, attrs);
  if (!op->def->type_relation(call) || call.conflict()) return nullptr;
  Type result = call.result();
  return ir::IsComplete(result) ? result : nullptr;
}

// A value of the rewritten graph with its type.
struct Typed {
  Expr expr;
  Type type;
};

class MixedPrecisionRewriter : public ir::ExprMutator {
 public:
  explicit MixedPrecisionRewriter(DataType mixed) : mixed_(mixed) {}

  ir::Function Run(const ir::Function& func) {
    ir::post_order_visit(func, [&](const Expr& e) {
      if (const auto* let = e.as<ir::LetNode>()) let_values_[let->var.get()] = let->value.get();
    });
    return Mutate(func).downcast<ir::FunctionNode>();
  }

  const std::map<std::string, int>& missing_ops() const { return missing_ops_; }

 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    const auto* call = post.as<ir::CallNode>();
    const ir::Expr& callee = call->op;
    if (callee->kind != ir::ExprKind::kOp && callee->kind != ir::ExprKind::kFunction) {
      // TVM's check: "Algebraic Data Types (ADT) are not supported yet for mixed precision".
      throw TypeError(
          "ToMixedPrecision: calls of global functions, variables, constructors and other "
          "computed callees (recursion, ADTs, closures) are not supported, as in TVM",
          pre->span);
    }
    MixedPrecisionCategory category;
    DataType accumulation = DataType::Float32(), output = DataType::Float32();
    if (callee->kind == ir::ExprKind::kFunction) {
      category = MixedPrecisionCategory::kNever;  // keep function signatures
    } else {
      const auto* op = call->op_node();
      const MixedPrecisionRule* rule = Rule(op);
      if (rule) {
        const MixedPrecisionConversion c =
            (*rule)(ir::Call(const_cast<ir::CallNode*>(pre)), mixed_name_);
        category = c.category;
        accumulation = ParseDType(c.accumulation_dtype, op->name);
        output = ParseDType(c.output_dtype, op->name);
      } else {
        missing_ops_[op->name] += 1;
        category = MixedPrecisionCategory::kFollow;
        accumulation = output = mixed_;
      }
    }
    // The arguments' ids: the call's children after the callee.
    const auto children = index().children(current_id());
    std::vector<Typed> args;
    bool all_mixed = true;
    for (size_t i = 0; i < call->args.size(); ++i) {
      args.push_back({call->args[i], ResultType(children[i + 1])});
      if (category == MixedPrecisionCategory::kFollow && all_mixed) {
        const ir::ExprKind kind = call->args[i]->kind;
        all_mixed = IsMixedType(args.back().type) || kind == ir::ExprKind::kVar ||
                    kind == ir::ExprKind::kConstant;
      }
    }
    if (category == MixedPrecisionCategory::kFollow) {
      category = all_mixed ? MixedPrecisionCategory::kAlways : MixedPrecisionCategory::kNever;
    }
    const DataType wanted =
        category == MixedPrecisionCategory::kAlways ? mixed_ : DataType::Float32();
    bool changed = false;
    std::vector<Type> arg_types;
    std::vector<Expr> new_args;
    for (size_t i = 0; i < args.size(); ++i) {
      Typed cast = CastArg(args[i], wanted, children[i + 1]);
      changed |= cast.expr.get() != args[i].expr.get();
      new_args.push_back(std::move(cast.expr));
      arg_types.push_back(std::move(cast.type));
    }
    ir::Attrs attrs = call->attrs;
    if (category == MixedPrecisionCategory::kAlways) attrs = NewAttrs(call->attrs, accumulation);
    changed |= attrs.get() != call->attrs.get();
    Typed out{post, nullptr};
    if (changed) {
      out.expr = ir::MakeCall(call->op, std::move(new_args), std::move(attrs));
      out.type = CallType(out.expr.as<ir::CallNode>(), arg_types);
    } else {
      out.type = post.get() == pre ? pre->checked_type : CallType(call, arg_types);
    }
    if (category == MixedPrecisionCategory::kAlways && accumulation != output) {
      out = CastArg(out, output, ir::PostOrderIndex::kNone);
    }
    SetResultType(out.type);
    return out.expr;
  }

  Expr RewriteTuple(const ir::TupleNode* pre, const Expr& post) override {
    if (post.get() != pre) {
      std::vector<Type> fields;
      for (ir::PostOrderIndex::Id child : index().children(current_id())) {
        fields.push_back(ResultType(child));
      }
      SetResultType(ir::TupleType(std::move(fields)));
    }
    return post;
  }
  Expr RewriteTupleGetItem(const ir::TupleGetItemNode* pre, const Expr& post) override {
    if (post.get() != pre) {
      SetResultType(FieldType(ResultType(index().children(current_id())[0]), pre->index, pre));
    }
    return post;
  }
  // A let-bound variable takes the type of its rewritten value (TVM re-annotates the variable
  // in place; here it is a new variable, which every use then refers to). The value is
  // rewritten before the variable (ForEachVisitChild's order for Let).
  Expr RewriteVar(const ir::VarNode* pre, const Expr& post) override {
    auto it = let_values_.find(pre);
    if (it == let_values_.end()) return post;
    Type value_type = ResultType(index().find(it->second));
    if (ir::TypeEqual(value_type, pre->checked_type)) return post;
    ir::Var fresh = ir::MakeVar(pre->name_hint, value_type);
    const_cast<ir::VarNode*>(fresh.get())->checked_type = value_type;  // new, not yet shared
    SetResultType(value_type);
    return fresh;
  }
  Expr RewriteLet(const ir::LetNode* pre, const Expr& post) override {
    const auto children = index().children(current_id());  // value, var, body
    if (post.get() != pre) SetResultType(ResultType(children[2]));
    return post;
  }
  Expr RewriteIf(const ir::IfNode* pre, const Expr& post) override {
    if (post.get() != pre) SetResultType(ResultType(index().children(current_id())[1]));
    return post;
  }
  Expr RewriteFunction(const ir::FunctionNode* pre, const Expr& post) override {
    // As TVM: the return type annotation is dropped, for type inference to recompute.
    const auto* fn = post.as<ir::FunctionNode>();
    if (post.get() == pre && !fn->ret_type) return post;
    Expr out = ir::MakeFunction(fn->params, fn->body, nullptr, fn->attrs, fn->type_params);
    SetResultType(ir::InferExprTypes(out)->checked_type);
    return out;
  }

 private:
  static DataType ParseDType(const std::string& text, const std::string& op) {
    std::optional<DataType> d = DataType::Parse(text);
    if (!d) throw PassError("ToMixedPrecision: the rule of " + op + " gives dtype '" + text + "'");
    return *d;
  }

  // The op's rule, looked up once per op (the registry takes a lock).
  const MixedPrecisionRule* Rule(const ir::OpNode* op) {
    auto [it, inserted] = rules_.try_emplace(op);
    if (inserted) it->second = mixed_precision::FindRule(op->name);
    return it->second ? &*it->second : nullptr;
  }

  // Whether every tensor of `t` has the mixed type (TVM's IsMixedPrecisionType with
  // ignore_non_float, which rejects non-float tensors all the same).
  bool IsMixedType(const Type& t) const {
    if (const auto* tensor = t.as<ir::TensorTypeNode>()) return tensor->dtype == mixed_;
    if (const auto* tuple = t.as<ir::TupleTypeNode>()) {
      for (const Type& f : tuple->fields) {
        if (!IsMixedType(f)) return false;
      }
      return true;
    }
    throw TypeError("ToMixedPrecision: unsupported type " + ir::TypeToString(t));
  }

  // The type of node `id`'s rewrite: recorded when the pass rebuilt it, else the input's.
  Type ResultType(ir::PostOrderIndex::Id id) const {
    if (id < result_types_.size() && result_types_[id]) return result_types_[id];
    const ir::ExprNode* node = index().node(id);
    if (!node->checked_type) {
      throw TypeError("ToMixedPrecision: the input is not typed (run InferType first)", node->span);
    }
    return node->checked_type;
  }
  void SetResultType(Type t) {
    if (result_types_.size() <= current_id()) result_types_.resize(index().size());
    result_types_[current_id()] = std::move(t);
  }

  static Type FieldType(const Type& tuple_type, int i, const ir::ExprNode* where) {
    const auto* tuple = tuple_type.as<ir::TupleTypeNode>();
    if (!tuple || i < 0 || i >= static_cast<int>(tuple->fields.size())) {
      throw TypeError("ToMixedPrecision: a get-item of a non-tuple", where->span);
    }
    return tuple->fields[static_cast<size_t>(i)];
  }

  // A rebuilt call's type: the op's relation alone on its argument types (linear in the
  // graph); for a relation that needs the solver or a function callee, the call inferred on
  // its own with variables of those types as arguments (TVM's MakeAnalogousSubgraph).
  static Type CallType(const ir::CallNode* call, const std::vector<Type>& arg_types) {
    if (const auto* op = call->op_node()) {
      if (Type t = LocalCallType(op, arg_types, call->attrs)) return t;
    }
    std::vector<Expr> dummies;
    for (const Type& t : arg_types) dummies.push_back(ir::MakeVar("dummy_temp", t));
    return ir::InferExprTypes(ir::MakeCall(call->op, std::move(dummies), call->attrs))
        ->checked_type;
  }

  // TVM's CachedCast: one cast per (value, dtype), and a cast cast back is its input. `id`
  // numbers the value when it is a node's rewrite (kNone for a value this pass made).
  Typed CachedCast(const Typed& value, DataType wanted, ir::PostOrderIndex::Id id) {
    const auto* tensor = value.type.as<ir::TensorTypeNode>();
    const DataType from = tensor->dtype;
    // TVM's CachedCast casts floats and bfloat16 (`is_float() || is_bfloat16()`).
    if (!from.is_float() || from == wanted) return value;
    std::vector<CastEntry>* entries = nullptr;
    if (id != ir::PostOrderIndex::kNone) {
      if (casts_by_id_.size() <= id) casts_by_id_.resize(index().size());
      entries = &casts_by_id_[id];
    } else {
      entries = &casts_by_node_[value.expr.get()];
    }
    for (const CastEntry& e : *entries) {
      if (e.dtype == wanted) return e.cast;
    }
    Typed cast{relay::cast(value.expr, wanted.ToString()), ir::TensorType(tensor->shape, wanted)};
    entries->push_back({wanted, cast});
    if (id == ir::PostOrderIndex::kNone) {
      // The reverse, as TVM's cache: an output cast (accumulation -> output dtype) cast back is
      // the call itself. (Casts of arguments are never arguments themselves.)
      casts_by_node_[cast.expr.get()].push_back({from, value});
      kept_.push_back(cast.expr);
    }
    return cast;
  }

  Typed CastArg(const Typed& value, DataType wanted, ir::PostOrderIndex::Id id) {
    if (value.type.as<ir::TensorTypeNode>()) return CachedCast(value, wanted, id);
    if (const auto* tuple = value.type.as<ir::TupleTypeNode>()) {
      std::vector<Expr> fields;
      std::vector<Type> types;
      bool same = true;
      for (size_t i = 0; i < tuple->fields.size(); ++i) {
        Typed field = Field(value, static_cast<int>(i));
        Typed cast = CastArg(field, wanted, ir::PostOrderIndex::kNone);
        same &= cast.expr.get() == field.expr.get();
        fields.push_back(std::move(cast.expr));
        types.push_back(std::move(cast.type));
      }
      if (same) return value;
      return {ir::MakeTuple(std::move(fields)), ir::TupleType(std::move(types))};
    }
    throw TypeError("ToMixedPrecision: cannot cast an argument of type " +
                    ir::TypeToString(value.type));
  }

  // Field i of a tuple value (TVM's GetField: the field itself for a Tuple node).
  Typed Field(const Typed& value, int i) {
    Type type = FieldType(value.type, i, value.expr.get());
    if (const auto* tuple = value.expr.as<ir::TupleNode>()) {
      return {tuple->fields[static_cast<size_t>(i)], type};
    }
    Expr item = ir::MakeTupleGetItem(value.expr, i);
    kept_.push_back(item);
    return {item, type};
  }

  // TVM's GetNewAttrs: the accumulation dtype into out_dtype (convolutions, dense,
  // batch_matmul) or dtype (zeros, ones, full), when it is a float or unset.
  ir::Attrs NewAttrs(const ir::Attrs& attrs, DataType accumulation) const {
    if (!attrs) return attrs;
    const std::string& key = attrs->schema->type_key();
    const char* field = nullptr;
    for (const char* k : kOutDTypeAttrs) {
      if (key == k) field = "out_dtype";
    }
    if (key == "relay.attrs.InitOpAttrs") field = "dtype";
    if (!field || attrs->schema->FieldIndex(field) < 0) return attrs;
    const std::string& current = attrs->get_string(field);
    std::optional<DataType> d = current.empty() ? DataType::Void() : DataType::Parse(current);
    if (!d || !(IsIeeeFloat(*d) || d->is_void())) return attrs;
    return attrs->With(field, ir::AttrValue::Str(accumulation.ToString()));
  }

  struct CastEntry {
    DataType dtype;
    Typed cast;
  };

  DataType mixed_;
  std::string mixed_name_ = mixed_.ToString();
  std::vector<Type> result_types_;                   // by node number
  std::vector<std::vector<CastEntry>> casts_by_id_;  // casts of node number i's rewrite
  std::unordered_map<const ir::ExprNode*, std::vector<CastEntry>> casts_by_node_;
  std::unordered_map<const ir::OpNode*, std::optional<MixedPrecisionRule>> rules_;
  std::unordered_map<const ir::VarNode*, const ir::ExprNode*> let_values_;
  std::vector<Expr> kept_;  // nodes keyed by address above stay alive
  std::map<std::string, int> missing_ops_;
};

}  // namespace

transform::Pass ToMixedPrecision(const std::string& mixed_precision_type, int missing_op_mode) {
  std::optional<DataType> mixed = DataType::Parse(mixed_precision_type);
  if (!mixed || !mixed->is_float()) {
    throw PassError(
        "ToMixedPrecision: only IEEE floating point mixed precision types and bfloat16 are "
        "supported, but got '" +
        mixed_precision_type + "'");
  }
  if (missing_op_mode < 0 || missing_op_mode > 2) {
    throw PassError("ToMixedPrecision: missing_op_mode must be either 0, 1, or 2 got " +
                    std::to_string(missing_op_mode));
  }
  const DataType type = *mixed;
  return transform::CreateFunctionPass(
      [type, missing_op_mode](const ir::Function& func, const ir::IRModule& mod,
                              const transform::PassContext&) {
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        MixedPrecisionRewriter rewriter(type);
        ir::Function out = rewriter.Run(typed);
        if (missing_op_mode != 2) {
          for (const auto& [op, count] : rewriter.missing_ops()) {
            std::cerr << "Warning: Op \"" << op
                      << "\" not registered FTVMMixedPrecisionConversionType appears " << count
                      << " times in graph.\n";
          }
        }
        if (missing_op_mode == 0 && !rewriter.missing_ops().empty()) {
          throw PassError("ToMixedPrecision: missing ops were found (missing_op_mode=0): " +
                          rewriter.missing_ops().begin()->first + " and " +
                          std::to_string(rewriter.missing_ops().size() - 1) + " more");
        }
        return out;
      },
      0, "ToMixedPrecision", {});
}

void RegisterToMixedPrecision(transform::PassRegistry& registry) {
  registry.Register(
      {"ToMixedPrecision",
       {{"mixed_precision_type", transform::OptionType::kString,
         transform::OptionValue::Str("float16"), "the lower-precision float type"},
        {"missing_op_mode", transform::OptionType::kInt, transform::OptionValue::Int(1),
         "operators without a rule: 0 error, 1 warn, 2 ignore"}},
       [](const transform::PassOptions& options) {
         return ToMixedPrecision(options.GetString("mixed_precision_type"),
                                 static_cast<int>(options.GetInt("missing_op_mode")));
       },
       "computes convolutions, dense and what follows them in float16, with casts"});
}

}  // namespace relaypass::passes
