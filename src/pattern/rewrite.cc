// TVM's PatternRewriter and PatternPartitioner: a post-order rewrite (ir::ExprMutator, TVM's
// MixedModeMutator) that replaces each group's root once its children are rewritten.
#include "grouper.h"
#include "relaypass/ir/structural.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::pattern {

namespace {

// The node map of `group` with each matched node replaced by its rewritten form.
NodeMap PostNodeMap(const PatternGroup& group, const ir::ExprMutator& mutator) {
  NodeMap out;
  for (const auto& [pattern, exprs] : group.matched_nodes) {
    std::vector<ir::Expr>& list = out[pattern];
    for (const ir::Expr& e : exprs) {
      ir::Expr post = mutator.Lookup(e);
      list.push_back(post ? post : e);
    }
  }
  return out;
}

class CallbackRewriter : public ir::ExprMutator {
 public:
  CallbackRewriter(const DFPatternCallback& callback, const PatternGrouper& grouper)
      : callback_(callback), grouper_(grouper) {}

 protected:
  ir::Expr Rewrite(const ir::Expr& pre, const ir::Expr& post) override {
    ir::Expr out = ir::ExprMutator::Rewrite(pre, post);
    if (const PatternGroup* group = grouper_.GroupAt(pre.get())) {
      return callback_.function(pre, out, PostNodeMap(*group, *this));
    }
    return out;
  }

 private:
  const DFPatternCallback& callback_;
  const PatternGrouper& grouper_;
};

class Partitioner : public ir::ExprMutator {
 public:
  Partitioner(const PatternGrouper& grouper, const ir::DictAttrs& attrs,
              const std::function<bool(const ir::Expr&)>& check)
      : grouper_(grouper), attrs_(attrs), check_(check) {}

 protected:
  ir::Expr Rewrite(const ir::Expr& pre, const ir::Expr& post) override {
    ir::Expr out = ir::ExprMutator::Rewrite(pre, post);
    const PatternGroup* group = grouper_.GroupAt(pre.get());
    if (!group || (check_ && !check_(pre))) return out;
    std::vector<ir::Expr> args;
    for (const ir::Expr& a : group->args) {
      ir::Expr rewritten = Lookup(a);
      args.push_back(rewritten ? rewritten : a);
    }
    ir::DictAttrs fn_attrs = group->function->attrs;
    fn_attrs.Set("PartitionedFromPattern", ir::AttrValue::Str(group->name));
    for (const auto& [key, value] : attrs_.entries()) fn_attrs.Set(key, value);
    const ir::FunctionNode* fn = group->function.get();
    return ir::MakeCall(
        ir::MakeFunction(fn->params, fn->body, fn->ret_type, fn_attrs, fn->type_params),
        std::move(args));
  }

 private:
  const PatternGrouper& grouper_;
  const ir::DictAttrs& attrs_;
  const std::function<bool(const ir::Expr&)>& check_;
};

// TVM's InferTypeWithModule: the expression typed in the context of `mod`'s globals.
ir::Expr InferTypeWithModule(const ir::Expr& expr, const ir::IRModule& mod) {
  return ir::InferExprTypes(expr, mod);
}

}  // namespace

ir::Expr Rewrite(const std::vector<DFPatternCallback>& callbacks, const ir::Expr& expr,
                 const ir::IRModule& mod) {
  if (callbacks.empty()) return expr;
  ir::Expr post = expr;
  int count = 0;
  bool equal = true;
  const DFPatternCallback* last_callback = nullptr;
  do {
    ir::Expr last = post;
    for (const DFPatternCallback& callback : callbacks) {
      last_callback = &callback;
      if (callback.require_type) post = InferTypeWithModule(post, mod);
      PatternGrouper grouper;
      grouper.GroupMatches(callback.pattern, post);
      CallbackRewriter rewriter(callback, grouper);
      post = rewriter.Mutate(post);
      ++count;
    }
    equal = post.same_as(last) || ir::StructuralEqual(last, post);
  } while (!equal && count < 100 && !last_callback->rewrite_once);
  if (count >= 100) {
    throw InternalError("Observed 100 rewrite passes, possible conflicting passes?");
  }
  return post;
}

ir::Expr Partition(const DFPattern& pattern, const ir::Expr& expr, const ir::DictAttrs& attrs,
                   const std::function<bool(const ir::Expr&)>& check) {
  if (pattern.as<FunctionPatternNode>()) return expr;  // TVM warns and skips
  PatternGrouper grouper;
  grouper.GroupMatches(pattern, expr);
  Partitioner partitioner(grouper, attrs, check);
  return partitioner.Mutate(expr);
}

}  // namespace relaypass::pattern
