#include "relaypass/passes/fast_math.h"

#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

class FastMathRewriter : public ir::ExprMutator {
 public:
  FastMathRewriter()
      : exp_(op::GetOp("exp").get()),
        erf_(op::GetOp("erf").get()),
        tanh_(op::GetOp("tanh").get()),
        softmax_(op::GetOp("nn.softmax").get()),
        fast_exp_(op::GetOp("fast_exp")),
        fast_erf_(op::GetOp("fast_erf")),
        fast_tanh_(op::GetOp("fast_tanh")),
        fast_softmax_(op::GetOp("nn.fast_softmax")) {}

 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    const ir::OpNode* op = pre->op_node();
    if (op == nullptr) return post;
    ir::Op replacement;
    if (op == exp_) {
      replacement = fast_exp_;
    } else if (op == erf_) {
      replacement = fast_erf_;
    } else if (op == tanh_) {
      replacement = fast_tanh_;
    } else if (op == softmax_) {
      replacement = fast_softmax_;
    } else {
      return post;
    }
    auto* call = post.as<ir::CallNode>();
    // TVM builds Call(fast_op, {arg}) (with the softmax's attrs); the type is the original's.
    ir::Attrs attrs = op == softmax_ ? call->attrs : ir::Attrs();
    return ir::WithCheckedType(ir::MakeCall(replacement, call->args, attrs), pre->checked_type);
  }

 private:
  const ir::OpNode* exp_;
  const ir::OpNode* erf_;
  const ir::OpNode* tanh_;
  const ir::OpNode* softmax_;
  ir::Op fast_exp_, fast_erf_, fast_tanh_, fast_softmax_;
};

}  // namespace

transform::Pass FastMath() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return FastMathRewriter().Mutate(func).downcast<ir::FunctionNode>();
      },
      4, "FastMath", {"InferType"});
}

void RegisterFastMath(transform::PassRegistry& registry) {
  registry.Register({"FastMath",
                     {},
                     [](const transform::PassOptions&) { return FastMath(); },
                     "replaces exp, erf, tanh and softmax by their fast approximations"});
}

}  // namespace relaypass::passes
