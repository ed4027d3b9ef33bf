#include "relaypass/passes/eta_expand.h"

#include "relaypass/ir/visitor.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

class EtaExpander : public ir::ExprMutator {
 public:
  explicit EtaExpander(const ir::IRModule& mod) : mod_(mod) {}

 protected:
  Expr RewriteGlobalVar(const ir::GlobalVarNode* pre, const Expr& post) override {
    if (!mod_.Contains(pre->name_hint)) return post;
    ir::Function func = mod_.Lookup(pre->name_hint);
    std::vector<ir::Var> params;
    std::vector<Expr> args;
    for (const ir::Var& p : func->params) {
      ir::Var v = ir::MakeVar("eta_expand_param", p->type_annotation);
      params.push_back(v);
      args.push_back(v);
    }
    return ir::MakeFunction(std::move(params), ir::MakeCall(post, std::move(args)), func->ret_type,
                            {}, func->type_params);
  }

 private:
  const ir::IRModule& mod_;
};

}  // namespace

transform::Pass EtaExpand(bool /*expand_constructor*/, bool expand_global_var) {
  return transform::CreateModulePass(
      [expand_global_var](const ir::IRModule& mod, const transform::PassContext&) {
        if (!expand_global_var) return mod;
        ir::IRModule out = mod;
        for (const auto& [gv, func] : mod.functions()) {
          Expr expanded = EtaExpander(mod).Mutate(func);
          if (!expanded.same_as(func)) out.Add(gv, expanded.downcast<ir::FunctionNode>());
        }
        return out;
      },
      1, "EtaExpand");
}

void RegisterEtaExpand(transform::PassRegistry& registry) {
  registry.Register(
      {"EtaExpand",
       {{"expand_constructor", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "expand constructors (not implemented yet: no effect)"},
        {"expand_global_var", transform::OptionType::kBool, transform::OptionValue::Bool(false),
         "expand references to global functions into closures calling them"}},
       [](const transform::PassOptions& o) {
         return EtaExpand(o.GetBool("expand_constructor"), o.GetBool("expand_global_var"));
       },
       "wraps references to global functions in closures (eta expansion)"});
}

}  // namespace relaypass::passes
