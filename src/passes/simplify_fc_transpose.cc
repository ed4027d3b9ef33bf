#include "relaypass/passes/simplify_fc_transpose.h"

#include <unordered_set>

#include "relaypass/ir/visitor.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

class FCTransposeRewriter : public ir::ExprMutator {
 public:
  explicit FCTransposeRewriter(const std::vector<std::string>& targets)
      : dense_(op::GetOp("nn.dense").get()),
        transpose_(op::GetOp("transpose").get()),
        targets_(targets.begin(), targets.end()) {}

 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    if (pre->op_node() != dense_ || pre->args.size() != 2) return post;
    auto* weight = pre->args[1].as<ir::CallNode>();
    if (weight == nullptr || weight->op_node() != transpose_) return post;
    auto* var = weight->args[0].as<ir::VarNode>();
    if (var == nullptr) return post;
    if (!targets_.count(var->name_hint)) {
      throw PassError("SimplifyFCTranspose: the transposed weight %" + var->name_hint +
                      " is not in target_weight");
    }
    ir::Type type = var->type_annotation ? var->type_annotation : var->checked_type;
    auto* tensor = type.as<ir::TensorTypeNode>();
    if (tensor == nullptr || tensor->shape.size() != 2) {
      throw PassError("SimplifyFCTranspose: %" + var->name_hint + " needs a 2-D tensor type");
    }
    ir::Var wt = ir::MakeVar(var->name_hint + ".T",
                             ir::TensorType({tensor->shape[1], tensor->shape[0]}, tensor->dtype));
    return ir::MakeCall(pre->op, {post.as<ir::CallNode>()->args[0], wt}, pre->attrs);
  }

 private:
  const ir::OpNode* dense_;
  const ir::OpNode* transpose_;
  std::unordered_set<std::string> targets_;
};

// TVM's parameter list: FreeVars of (fn(wt_params) body) then wt_params, wt_params being the
// free variables of the rewritten function.
ir::Function WithNewParams(const ir::Function& func) {
  std::vector<ir::Var> wt_params = ir::FreeVars(func);
  std::unordered_set<const ir::VarNode*> new_vars;
  for (const ir::Var& v : wt_params) new_vars.insert(v.get());
  std::vector<ir::Var> params;
  for (const ir::Var& v : ir::FreeVars(func->body)) {
    if (!new_vars.count(v.get())) params.push_back(v);
  }
  params.insert(params.end(), wt_params.begin(), wt_params.end());
  ir::Function out = ir::MakeFunction(std::move(params), func->body, func->ret_type, func->attrs,
                                      func->type_params);
  const_cast<ir::FunctionNode*>(out.get())->span = func->span;  // fresh, not yet shared
  return out;
}

}  // namespace

transform::Pass SimplifyFCTranspose(std::vector<std::string> target_weight) {
  return transform::CreateFunctionPass(
      [target_weight](const ir::Function& func, const ir::IRModule&,
                      const transform::PassContext&) {
        ir::Function rewritten =
            FCTransposeRewriter(target_weight).Mutate(func).downcast<ir::FunctionNode>();
        return WithNewParams(rewritten);
      },
      4, "SimplifyFCTranspose", {"DeadCodeElimination"});
}

void RegisterSimplifyFCTranspose(transform::PassRegistry& registry) {
  registry.Register(
      {"SimplifyFCTranspose",
       {{"target_weight", transform::OptionType::kList, std::nullopt,
         "names of the weight variables whose transpose feeds a dense"}},
       [](const transform::PassOptions& options) {
         std::vector<std::string> names;
         for (const transform::OptionValue& v : options.Get("target_weight").as_array()) {
           names.push_back(v.as_string());
         }
         return SimplifyFCTranspose(std::move(names));
       },
       "rewrites nn.dense(x, transpose(w)) to nn.dense(x, w.T) with a new transposed weight"});
}

}  // namespace relaypass::passes
