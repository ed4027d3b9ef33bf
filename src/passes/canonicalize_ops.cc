#include "relaypass/passes/canonicalize_ops.h"

#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

class BiasAddSimplifier : public ir::ExprMutator {
 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    auto* op = pre->op_node();
    if (op == nullptr || op->name != "nn.bias_add") return post;
    auto* data_type = pre->args[0]->checked_type.as<ir::TensorTypeNode>();
    if (data_type == nullptr) return post;
    auto* call = post.as<ir::CallNode>();
    const int ndim = data_type->ndim();
    int axis = static_cast<int>(call->attrs->get_int("axis"));
    if (axis < 0) axis += ndim;
    // TVM's ExpandBiasToMatchAxis: the bias gets the axes after `axis`.
    Expr bias = call->args[1];
    if (int num_newaxis = ndim - axis - 1; num_newaxis > 0) {
      bias = relay::expand_dims(bias, 1, num_newaxis);
    }
    return ir::WithCheckedType(relay::add(call->args[0], bias), pre->checked_type);
  }
};

}  // namespace

transform::Pass CanonicalizeOps() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule& mod, const transform::PassContext&) {
        // The rewrite reads the data's type; a pass called directly may see an untyped function.
        ir::Function typed =
            func->checked_type ? func : ir::InferExprTypes(func, mod).downcast<ir::FunctionNode>();
        return BiasAddSimplifier().Mutate(typed).downcast<ir::FunctionNode>();
      },
      3, "CanonicalizeOps", {"InferType"});
}

void RegisterCanonicalizeOps(transform::PassRegistry& registry) {
  registry.Register({"CanonicalizeOps",
                     {},
                     [](const transform::PassOptions&) { return CanonicalizeOps(); },
                     "rewrites nn.bias_add into expand_dims and add"});
}

}  // namespace relaypass::passes
