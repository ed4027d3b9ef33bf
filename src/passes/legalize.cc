#include "relaypass/passes/legalize.h"

#include <utility>

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

OpHookTable<LegalizeFunc>& Table() {
  static OpHookTable<LegalizeFunc> table("RegisterLegalize", "FTVMLegalize");
  return table;
}

class Legalizer : public ir::ExprMutator {
 protected:
  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    auto* op = pre->op_node();
    if (op == nullptr) return post;
    LegalizeFunc hook = GetLegalize(op->name);
    if (!hook) return post;
    auto* call = post.as<ir::CallNode>();
    std::vector<ir::Type> types;
    for (const ir::Expr& arg : pre->args) types.push_back(arg->checked_type);
    types.push_back(pre->checked_type);
    ir::Expr legalized = hook(call->attrs, call->args, types);
    if (!legalized) return post;
    if (!legalized.as<ir::CallNode>()) {
      throw PassError("Legalize: the hook of " + op->name +
                      " can only replace the original operator with another call node");
    }
    return legalized;
  }
};

}  // namespace

LegalizeHook RegisterLegalize(const std::string& op_name, LegalizeFunc hook, int level) {
  return Table().Register(op_name, std::move(hook), level);
}

LegalizeFunc GetLegalize(const std::string& op_name) {
  return Table().Get(op_name);
}

transform::Pass Legalize() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        // The hooks read the original arguments' types.
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        return Legalizer().Mutate(typed).downcast<ir::FunctionNode>();
      },
      1, "Legalize", {"InferType"});
}

void RegisterLegalize(transform::PassRegistry& registry) {
  registry.Register({"Legalize",
                     {},
                     [](const transform::PassOptions&) { return Legalize(); },
                     "replaces operators through their registered legalize hooks"});
}

}  // namespace relaypass::passes
