// DynamicToStatic (TVM v0.13's src/relay/transforms/dynamic_to_static.cc): a dyn.* call whose
// shape arguments are constants becomes the static op its static form names (op::StaticForm, the
// same mapping the dyn kernels run). As TVM's, constants are folded first, so that shapes computed
// from static ones (shape_of of a static tensor) count as constants, and the result is folded and
// typed again; the rewrite repeats while it makes static calls that expose more constants.
#include "relaypass/passes/dynamic_to_static.h"

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

class DynamicToStaticRewriter : public ir::ExprMutator {
 public:
  int rewritten = 0;

 protected:
  Expr RewriteCall(const ir::CallNode* /*pre*/, const Expr& post) override {
    const auto* call = post.as<ir::CallNode>();
    const op::OpDef* def = op::Def(call->op_node());
    if (!def || !def->to_static) return post;
    std::vector<ir::NDArray> values(call->args.size());
    for (size_t i : def->value_args) {
      const auto* c = i < call->args.size() ? call->args[i].as<ir::ConstantNode>() : nullptr;
      if (!c) return post;
      values[i] = c->data;
    }
    op::StaticForm form;
    try {
      form = def->to_static(values, call->attrs);
    } catch (const Error&) {
      return post;  // values the static op cannot take: the dyn call reports them when it runs
    }
    std::vector<Expr> args;
    for (size_t i : form.args) args.push_back(call->args[i]);
    ++rewritten;
    return relay::call(form.op, std::move(args), form.attrs);
  }
};

}  // namespace

transform::Pass DynamicToStatic() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        std::string name;
        for (const auto& [gv, f] : mod.functions()) {
          if (f.same_as(func)) name = gv->name_hint;
        }
        if (name.empty()) return func;
        // PrepareInput: the module holding the function, folded and typed.
        ir::IRModule current = ir::InferTypes(FoldConstant()(ir::InferTypes(mod)));
        // Each round makes at least one call static, so the rounds are at most the dyn calls.
        while (true) {
          DynamicToStaticRewriter rewriter;
          Expr body = rewriter.Mutate(current.Lookup(name));
          if (rewriter.rewritten == 0) break;
          // The return type the first typing filled in is the dyn one: re-inferred, unless the
          // function came with its own annotation.
          const auto* f = body.as<ir::FunctionNode>();
          ir::IRModule next = current;
          next.Add(name,
                   ir::MakeFunction(f->params, f->body, func->ret_type, f->attrs, f->type_params));
          current = ir::InferTypes(FoldConstant()(ir::InferTypes(next)));
        }
        return current.Lookup(name);
      },
      2, "DynamicToStatic");
}

void RegisterDynamicToStatic(transform::PassRegistry& registry) {
  registry.Register({"DynamicToStatic",
                     {},
                     [](const transform::PassOptions&) { return DynamicToStatic(); },
                     "makes dyn.* operators whose shape arguments are constants static and folds "
                     "constants"});
}

}  // namespace relaypass::passes
