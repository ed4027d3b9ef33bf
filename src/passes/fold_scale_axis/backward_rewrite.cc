// The rewrite of backward folding: carries out the plan in one memoised post-order pass.
#include "backward.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"

namespace relaypass::passes::fold_scale_axis {

namespace {

using ir::Expr;

class BackwardRewriter : public ir::ExprMutator {
 public:
  BackwardRewriter(const NodeIndex& index, const NodeTable<BackwardStep>& plan)
      : index_(index), plan_(plan) {}

 protected:
  Expr RewriteCall(const ir::CallNode* pre, const Expr& post) override {
    const BackwardStep* step = plan_.find(index_.of(pre));
    if (!step) return post;
    if (step->replace_by_arg >= 0)
      return Lookup(pre->args[static_cast<size_t>(step->replace_by_arg)]);
    if (!step->scale) return post;
    std::vector<Expr> args;
    args.reserve(pre->args.size());
    for (size_t i = 0; i < pre->args.size(); ++i) {
      Expr arg = Lookup(pre->args[i]);
      bool has_factor = static_cast<int>(i) == step->factor_arg;
      args.push_back(has_factor ? relay::multiply(arg, step->factor) : arg);
    }
    return ir::MakeCall(pre->op, std::move(args), pre->attrs);
  }

 private:
  const NodeIndex& index_;
  const NodeTable<BackwardStep>& plan_;
};

}  // namespace

Expr BackwardFold(const Expr& root) {
  NodeIndex index(root);
  NodeTable<Message> messages = PrepareBackward(index);
  if (messages.empty()) return root;
  bool any_fired = false;
  NodeTable<BackwardStep> plan = PlanBackward(index, messages, &any_fired);
  if (!any_fired) return root;
  return BackwardRewriter(index, plan).Mutate(root);
}

}  // namespace relaypass::passes::fold_scale_axis
