#include "relaypass/passes/lambda_lift.h"

#include <string>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

bool IsPrimitive(const ir::ExprNode* e) {
  return e->kind == ir::ExprKind::kFunction &&
         static_cast<const ir::FunctionNode*>(e)->is_primitive();
}

// What TVM's top-down mutator knows when it reaches a node: how many functions enclose it (the
// global function counts) and the variable of the innermost let whose lambda value it is in.
struct Context {
  int nesting = 0;
  const ir::VarNode* letrec = nullptr;
};

std::string LiftedName(const ir::Function& func) {
  return "lifted_name" + std::to_string(ir::StructuralHash(Expr(func)));
}

class LambdaLifter : public ir::ExprMutator {
 public:
  explicit LambdaLifter(ir::IRModule& module) : module_(module) {}

  ir::Function Lift(const ir::Function& func) {
    Annotate(func);
    return Mutate(func).downcast<ir::FunctionNode>();
  }

 protected:
  bool ShouldVisitChildren(const Expr& e) override { return !IsPrimitive(e.get()); }

  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    auto* var = pre->op.as<ir::VarNode>();
    const Context* c = context_.find(pre);
    if (var == nullptr || c == nullptr || c->letrec != var) return post;
    auto it = lambda_map_.find(var);
    if (it == lambda_map_.end()) return post;
    auto* call = post.as<ir::CallNode>();
    return ir::MakeCall(it->second, call->args, call->attrs);
  }

  Expr RewriteFunction(const ir::FunctionNode* pre, const Expr& post) override {
    if (pre->is_primitive()) return Expr(pre);  // not transformed, as TVM
    const Context* c = context_.find(pre);
    if (c == nullptr || c->nesting <= 1) return post;  // the global function itself
    ir::Function func(pre);
    const std::string name = LiftedName(func);
    std::vector<ir::Var> captured = Captured(func, c->letrec);
    auto* body = post.as<ir::FunctionNode>();
    ir::Function lifted;
    if (captured.empty()) {
      lifted = ir::MakeFunction(body->params, body->body, body->ret_type, body->attrs,
                                body->type_params);
    } else {
      std::vector<ir::Var> typed;
      std::unordered_map<const ir::VarNode*, Expr> rebinding;
      for (const ir::Var& v : captured) {
        ir::Var fresh = ir::MakeVar(v->name_hint, v->checked_type);
        typed.push_back(fresh);
        rebinding.emplace(v.get(), fresh);
      }
      ir::Function inner = ir::MakeFunction(func->params, ir::Bind(body->body, rebinding),
                                            func->ret_type, func->attrs, func->type_params);
      lifted = ir::MakeFunction(std::move(typed), inner, FuncTypeAnnotation(func),
                                {{"Closure", ir::AttrValue::Int(1)}});
    }
    ir::GlobalVar global = Global(name);
    if (!module_.Contains(name)) module_.Add(global, lifted);
    if (captured.empty()) return global;
    return ir::MakeCall(global, std::vector<Expr>(captured.begin(), captured.end()));
  }

 private:
  // TVM's func_type_annotation when every parameter and the result are annotated, else none.
  static ir::Type FuncTypeAnnotation(const ir::Function& func) {
    std::vector<ir::Type> params;
    for (const ir::Var& p : func->params) {
      if (!p->type_annotation) return nullptr;
      params.push_back(p->type_annotation);
    }
    if (!func->ret_type) return nullptr;
    return ir::FuncType(std::move(params), func->ret_type);
  }

  static std::vector<ir::Var> Captured(const ir::Function& func, const ir::VarNode* letrec) {
    std::vector<ir::Var> captured;
    for (const ir::Var& v : ir::FreeVars(func)) {
      if (v.get() != letrec) captured.push_back(v);
    }
    return captured;
  }

  ir::GlobalVar Global(const std::string& name) {
    if (module_.Contains(name)) return module_.GetGlobalVar(name);
    auto [it, inserted] = globals_.emplace(name, ir::GlobalVar());
    if (inserted) it->second = ir::MakeGlobalVar(name);
    return it->second;
  }

  // The pre-order walk of TVM's mutator (each node once, in its first context): records the
  // context of functions and calls, and the lifted form of each recursive let-bound lambda
  // before anything inside it is rewritten.
  void Annotate(const ir::Function& root) {
    std::vector<std::pair<const ir::ExprNode*, Context>> stack{{root.get(), Context{}}};
    support::PointerSet visited;
    std::vector<const ir::ExprNode*> children;
    while (!stack.empty()) {
      auto [node, c] = stack.back();
      stack.pop_back();
      if (!visited.insert(node)) continue;
      if (node->kind == ir::ExprKind::kFunction) {
        auto* f = static_cast<const ir::FunctionNode*>(node);
        Context inner{c.nesting + 1, c.letrec};
        context_.emplace(node, inner);
        if (f->is_primitive()) continue;
        if (inner.nesting >= 2 && c.letrec != nullptr) {
          ir::Function func(f);
          bool recursive = false;
          for (const ir::Var& v : ir::FreeVars(func)) recursive |= v.get() == c.letrec;
          if (recursive && !lambda_map_.count(c.letrec)) {
            ir::GlobalVar global = Global(LiftedName(func));
            std::vector<ir::Var> captured = Captured(func, c.letrec);
            lambda_map_.emplace(
                c.letrec, captured.empty()
                              ? Expr(global)
                              : Expr(ir::MakeCall(
                                    global, std::vector<Expr>(captured.begin(), captured.end()))));
          }
        }
        stack.push_back({f->body.get(), inner});
        continue;
      }
      if (node->kind == ir::ExprKind::kLet) {
        auto* let = static_cast<const ir::LetNode*>(node);
        stack.push_back({let->body.get(), c});
        const bool lambda =
            let->value->kind == ir::ExprKind::kFunction && !IsPrimitive(let->value.get());
        stack.push_back({let->value.get(), lambda ? Context{c.nesting, let->var.get()} : c});
        continue;
      }
      if (node->kind == ir::ExprKind::kCall) context_.emplace(node, c);
      children.clear();
      ir::ForEachChild(node, [&](const Expr& child) {
        if (child) children.push_back(child.get());
      });
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back({*it, c});
    }
  }

  ir::IRModule& module_;
  support::PointerMap<Context> context_;
  std::unordered_map<const ir::VarNode*, Expr> lambda_map_;
  std::unordered_map<std::string, ir::GlobalVar> globals_;
};

}  // namespace

transform::Pass LambdaLift() {
  return transform::CreateModulePass(
      [](const ir::IRModule& mod, const transform::PassContext&) {
        ir::IRModule out = mod;
        for (const auto& [gv, func] : mod.functions()) {
          const ir::AttrValue* compiler = func->attrs.find("Compiler");
          if (compiler != nullptr && !compiler->is_null()) continue;
          ir::Function lifted = LambdaLifter(out).Lift(func);
          if (!lifted.same_as(func)) out.Add(gv, lifted);
        }
        return out;
      },
      1, "LambdaLift");
}

void RegisterLambdaLift(transform::PassRegistry& registry) {
  registry.Register({"LambdaLift",
                     {},
                     [](const transform::PassOptions&) { return LambdaLift(); },
                     "lifts nested functions to global functions (closures of their free vars)"});
}

}  // namespace relaypass::passes
