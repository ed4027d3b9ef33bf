#include "relaypass/passes/lazy_gradient_init.h"

#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::passes {

namespace {

using ir::Expr;
using ir::Type;

// TVM's TypeMutator with VisitType_(TensorTypeNode) = GradCell[tensor]: every tensor type inside
// `t` becomes a GradCell of it. Recursion on a type's nesting only.
Type GradType(const Type& t, const Type& grad_cell) {
  if (!t) return t;
  switch (t->kind) {
    case ir::TypeKind::kTensor:
      return ir::TypeCall(grad_cell, {t});
    case ir::TypeKind::kTuple: {
      std::vector<Type> fields;
      for (const Type& f : t.as<ir::TupleTypeNode>()->fields) {
        fields.push_back(GradType(f, grad_cell));
      }
      return ir::TupleType(std::move(fields));
    }
    case ir::TypeKind::kFunc: {
      auto* f = t.as<ir::FuncTypeNode>();
      std::vector<Type> args;
      for (const Type& a : f->arg_types) args.push_back(GradType(a, grad_cell));
      return ir::FuncType(std::move(args), GradType(f->ret_type, grad_cell), f->type_params);
    }
    case ir::TypeKind::kRef:
      return ir::RefType(GradType(t.as<ir::RefTypeNode>()->value, grad_cell));
    case ir::TypeKind::kTypeCall: {
      auto* call = t.as<ir::TypeCallNode>();
      std::vector<Type> args;
      for (const Type& a : call->args) args.push_back(GradType(a, grad_cell));
      return ir::TypeCall(call->func, std::move(args));
    }
    default:
      return t;
  }
}

// TVM's type inference leaves every variable annotated and every function with its return type;
// relaypass's keeps them in checked_type.
Type TypeOf(const ir::Var& v) {
  return v->type_annotation ? v->type_annotation : v->checked_type;
}

Type ReturnTypeOf(const ir::FunctionNode* f) {
  if (f->ret_type) return f->ret_type;
  auto* t = f->checked_type ? f->checked_type.as<ir::FuncTypeNode>() : nullptr;
  return t != nullptr ? t->ret_type : nullptr;
}

// TVM's LazyGradientInitializer (an ExprMutator and TypeMutator), iterative.
class LazyGradientRewriter : public ir::ExprMutator {
 public:
  explicit LazyGradientRewriter(const ir::IRModule& mod)
      : grad_cell_(mod.GetGlobalTypeVar("GradCell")),
        raw_(mod.GetConstructor("GradCell", "Raw")),
        one_(mod.GetConstructor("GradCell", "One")),
        zero_(mod.GetConstructor("GradCell", "Zero")),
        from_(mod.GetGlobalVar("FromGradCell")),
        add_(mod.GetGlobalVar("AddGradCell")),
        multiply_(mod.GetGlobalVar("MultiplyGradCell")) {}

  // TVM's Transform: the rewritten function, called from a function of the original type that
  // wraps the inputs and unwraps the result.
  ir::Function Transform(const ir::Function& f) {
    auto rewritten = Mutate(f).downcast<ir::FunctionNode>();
    if (rewritten.same_as(f)) return f;
    std::vector<std::pair<ir::Var, Expr>> lets;
    auto push = [&](Expr value) {
      ir::Var x = ir::MakeVar("x");
      lets.emplace_back(x, std::move(value));
      return x;
    };
    std::vector<Expr> args;
    for (const ir::Var& p : f->params) {
      args.push_back(Wrap(p, p->checked_type ? p->checked_type : p->type_annotation, push));
    }
    ir::Var result = push(ir::MakeCall(rewritten, std::move(args)));
    Expr body = Unwrap(result, rewritten->ret_type, push);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
      body = ir::MakeLet(it->first, it->second, body);
    }
    return ir::MakeFunction(f->params, body, f->ret_type);
  }

 protected:
  Expr RewriteVar(const ir::VarNode* pre, const Expr& post) override {
    Type t = TypeOf(ir::Var(pre));
    Type grad = GradType(t, grad_cell_);
    if (!t || ir::TypeEqual(t, grad)) return post;
    return ir::MakeVar(pre->name_hint, grad);
  }

  Expr RewriteConstant(const ir::ConstantNode* pre, const Expr& post) override {
    return ir::MakeCall(raw_, {post});
  }

  Expr RewriteFunction(const ir::FunctionNode* pre, const Expr& post) override {
    Type ret = ReturnTypeOf(pre);
    Type grad = GradType(ret, grad_cell_);
    if (!ret || ir::TypeEqual(ret, grad)) return post;
    auto* fn = post.as<ir::FunctionNode>();
    return ir::MakeFunction(fn->params, fn->body, grad, fn->attrs, fn->type_params);
  }

  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    const ir::OpNode* op = pre->op_node();
    if (op == nullptr) return post;
    auto* call = post.as<ir::CallNode>();
    const std::string& name = op->name;
    if (name == "add" || name == "multiply") {
      return Overloaded(pre, call, name == "add" ? add_ : multiply_);
    }
    if (name == "ones" || name == "zeros" || name == "ones_like" || name == "zeros_like") {
      // A thunk computing the tensor: nothing is allocated until a Raw value needs it.
      Expr thunk = ir::MakeFunction({}, Primitive(pre, call), pre->checked_type);
      const bool ones = name == "ones" || name == "ones_like";
      return ir::MakeCall(ones ? one_ : zero_, {thunk});
    }
    return RawResult(pre, call);
  }

 private:
  // TVM's CallPrimitiveOp: the operator on its operands read back from their GradCells. An
  // operand of tuple type (concatenate's, or a batch_norm result) is read field by field, where
  // TVM would call @FromGradCell on the tuple and fail to type-check.
  Expr Primitive(const ir::CallNode* pre, const ir::CallNode* call) {
    std::vector<std::pair<ir::Var, Expr>> lets;
    std::vector<Expr> args;
    for (size_t i = 0; i < call->args.size(); ++i) {
      args.push_back(ReadBack(call->args[i], pre->args[i]->checked_type, lets));
    }
    return WithLets(lets, ir::MakeCall(call->op, std::move(args), call->attrs));
  }

  // The operator applied to plain values, its result as GradCells: Raw for a tensor, a tuple of
  // them for a tuple result (TVM wraps any result in Raw, which a tuple result cannot use).
  Expr RawResult(const ir::CallNode* pre, const ir::CallNode* call) {
    std::vector<std::pair<ir::Var, Expr>> lets;
    Expr wrapped = WrapResult(Primitive(pre, call), pre->checked_type, lets);
    return WithLets(lets, wrapped);
  }

  static Expr WithLets(const std::vector<std::pair<ir::Var, Expr>>& lets, Expr body) {
    for (auto it = lets.rbegin(); it != lets.rend(); ++it) {
      body = ir::MakeLet(it->first, it->second, body);
    }
    return body;
  }

  // Types nest as a user writes them: these recurse on a type's nesting only.
  Expr ReadBack(const Expr& e, const Type& t, std::vector<std::pair<ir::Var, Expr>>& lets) {
    auto* tuple = t ? t.as<ir::TupleTypeNode>() : nullptr;
    if (tuple == nullptr) {
      return t && !t.as<ir::TensorTypeNode>() ? e : Expr(ir::MakeCall(from_, {e}));
    }
    ir::Var v = ir::MakeVar("x");
    lets.emplace_back(v, e);
    std::vector<Expr> fields;
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      fields.push_back(
          ReadBack(ir::MakeTupleGetItem(v, static_cast<int>(i)), tuple->fields[i], lets));
    }
    return ir::MakeTuple(std::move(fields));
  }

  Expr WrapResult(const Expr& e, const Type& t, std::vector<std::pair<ir::Var, Expr>>& lets) {
    auto* tuple = t ? t.as<ir::TupleTypeNode>() : nullptr;
    if (tuple == nullptr) {
      return t && !t.as<ir::TensorTypeNode>() ? e : Expr(ir::MakeCall(raw_, {e}));
    }
    ir::Var v = ir::MakeVar("x");
    lets.emplace_back(v, e);
    std::vector<Expr> fields;
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      fields.push_back(
          WrapResult(ir::MakeTupleGetItem(v, static_cast<int>(i)), tuple->fields[i], lets));
    }
    return ir::MakeTuple(std::move(fields));
  }

  // TVM's CallGradCellFunction: @AddGradCell / @MultiplyGradCell with the operator as its
  // fallback when both operands have the same type, else the operator on plain tensors.
  Expr Overloaded(const ir::CallNode* pre, const ir::CallNode* call, const ir::GlobalVar& fn) {
    if (call->args.size() != 2 || !pre->args[0]->checked_type ||
        !ir::TypeEqual(pre->args[0]->checked_type, pre->args[1]->checked_type)) {
      return RawResult(pre, call);
    }
    Type t = pre->args[0]->checked_type;
    ir::Var lhs = ir::MakeVar("lhs", t);
    ir::Var rhs = ir::MakeVar("rhs", t);
    Expr fallback = ir::MakeFunction({lhs, rhs}, ir::MakeCall(call->op, {lhs, rhs}), t);
    return ir::MakeCall(fn, {fallback, call->args[0], call->args[1]});
  }

  template <typename Push>
  Expr Wrap(const Expr& e, const Type& t, Push& push) {
    if (t && t.as<ir::TensorTypeNode>()) return ir::MakeCall(raw_, {e});
    if (auto* tuple = t ? t.as<ir::TupleTypeNode>() : nullptr) {
      std::vector<Expr> fields;
      for (size_t i = 0; i < tuple->fields.size(); ++i) {
        fields.push_back(
            Wrap(push(ir::MakeTupleGetItem(e, static_cast<int>(i))), tuple->fields[i], push));
      }
      return ir::MakeTuple(std::move(fields));
    }
    return e;
  }

  template <typename Push>
  Expr Unwrap(const Expr& e, const Type& t, Push& push) {
    if (auto* call = t ? t.as<ir::TypeCallNode>() : nullptr) {
      return call->func.same_as(grad_cell_) ? Expr(ir::MakeCall(from_, {e})) : e;
    }
    if (auto* tuple = t ? t.as<ir::TupleTypeNode>() : nullptr) {
      std::vector<Expr> fields;
      for (size_t i = 0; i < tuple->fields.size(); ++i) {
        fields.push_back(
            Unwrap(push(ir::MakeTupleGetItem(e, static_cast<int>(i))), tuple->fields[i], push));
      }
      return ir::MakeTuple(std::move(fields));
    }
    return e;
  }

  Type grad_cell_;
  ir::Constructor raw_, one_, zero_;
  ir::GlobalVar from_, add_, multiply_;
};

bool IsGradCellFunction(const std::string& name) {
  return name == "FromGradCell" || name == "AddGradCell" || name == "MultiplyGradCell";
}

}  // namespace

transform::Pass LazyGradientInit() {
  return transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) {
        ir::IRModule out = mod;
        ImportGradCell(out);
        for (const auto& [gv, func] : mod.functions()) {
          if (IsGradCellFunction(gv->name_hint) || func->is_primitive()) continue;
          ir::Function rewritten = LazyGradientRewriter(out).Transform(func);
          if (!rewritten.same_as(func)) out.Add(gv, rewritten);
        }
        return ir::InferTypes(out);
      },
      2, "LazyGradientInit");
}

void RegisterLazyGradientInit(transform::PassRegistry& registry) {
  registry.Register({"LazyGradientInit",
                     {},
                     [](const transform::PassOptions&) { return LazyGradientInit(); },
                     "tensors as GradCell values, so AD's zeros and ones are built lazily"});
}

}  // namespace relaypass::passes
