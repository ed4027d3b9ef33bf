// AnnotateTarget (TVM v0.13, src/relay/transforms/annotate_target.cc): decides a target for each
// call (the first of `targets` whose `target.<name>` predicate accepts it, or whose name prefixes
// a composite function's Composite attribute; else "default"), and puts compiler_begin on each
// of its arguments and compiler_end on each argument that a call of some target produced. With
// include_non_call_ops, tuples and get-items take their arguments' target (or "default" when the
// arguments disagree) and are annotated the same way; without it, only their inputs get ends.
// Composite functions are not entered. Running it again keeps existing non-default annotations.
#include <unordered_map>
#include <utility>

#include "relaypass/ir/visitor.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::passes {

namespace {

class TargetAnnotator : public ir::ExprMutator {
 public:
  TargetAnnotator(const std::vector<std::string>& targets, bool include_non_call_ops)
      : targets_(targets), include_non_call_ops_(include_non_call_ops) {}

 protected:
  bool ShouldVisitChildren(const ir::Expr& expr) override {
    auto* fn = expr.as<ir::FunctionNode>();
    return !(fn && fn->attrs.find("Composite"));
  }

  ir::Expr RewriteCall(const ir::CallNode* pre, const ir::Expr& post) override {
    auto* call = post.as<ir::CallNode>();
    const ir::Expr pre_expr(pre);
    if (CompilerBeginTarget(pre_expr)) return call->args[0];  // re-annotated below
    if (const std::string* end = CompilerEndTarget(post)) {
      const ir::Expr& input = call->args[0];
      if (!TargetOf(input)) SetTarget(input, *end);
      return input;
    }
    if (!pre->args.empty()) {
      const std::string* first = CompilerBeginTarget(pre->args[0]);
      if (first && *first != "default") return post;  // annotated already
    }
    std::string target = "default";
    if (const ir::OpNode* op = pre->op_node()) {
      for (const std::string& t : targets_) {
        AnnotateTargetFunc pred = GetOpTargetAttr(op->name, "target." + t);
        if (pred && pred(pre_expr)) {
          target = t;
          break;
        }
      }
    } else if (auto* fn = pre->op.as<ir::FunctionNode>()) {
      if (const ir::AttrValue* comp = fn->attrs.find("Composite")) {
        const std::string& name = comp->as_string();
        const size_t dot = name.find('.');
        if (dot != std::string::npos) {
          for (const std::string& t : targets_) {
            if (t == name.substr(0, dot)) {
              target = t;
              break;
            }
          }
        }
      }
    }
    auto [unused, args] = AnnotateArgs(call->args, target);
    ir::Expr out = ir::MakeCall(call->op, std::move(args), call->attrs);
    SetTarget(out, target);
    return out;
  }

  ir::Expr RewriteTuple(const ir::TupleNode*, const ir::Expr& post) override {
    auto* tuple = post.as<ir::TupleNode>();
    if (!include_non_call_ops_) {
      std::vector<ir::Expr> fields;
      for (const ir::Expr& f : tuple->fields) fields.push_back(InsertEnd(f));
      return ir::MakeTuple(std::move(fields));
    }
    auto [target, fields] = AnnotateArgs(tuple->fields, "");
    ir::Expr out = ir::MakeTuple(std::move(fields));
    SetTarget(out, target);
    return out;
  }

  ir::Expr RewriteTupleGetItem(const ir::TupleGetItemNode*, const ir::Expr& post) override {
    auto* item = post.as<ir::TupleGetItemNode>();
    if (!include_non_call_ops_) return ir::MakeTupleGetItem(InsertEnd(item->tuple), item->index);
    auto [target, args] = AnnotateArgs({item->tuple}, "");
    ir::Expr out = ir::MakeTupleGetItem(args[0], item->index);
    SetTarget(out, target);
    return out;
  }

  ir::Expr RewriteFunction(const ir::FunctionNode* pre, const ir::Expr& post) override {
    if (pre->attrs.find("Composite")) return ir::Expr(pre);
    auto* fn = post.as<ir::FunctionNode>();
    return ir::MakeFunction(fn->params, InsertEnd(fn->body), fn->ret_type, fn->attrs,
                            fn->type_params);
  }

  ir::Expr RewriteLet(const ir::LetNode*, const ir::Expr& post) override {
    auto* let = post.as<ir::LetNode>();
    ir::Expr body = InsertEnd(let->body);
    if (!include_non_call_ops_ || let->value.as<ir::FunctionNode>()) {
      return ir::MakeLet(let->var, let->value, body);
    }
    auto [target, values] = AnnotateArgs({let->value}, "");
    return ir::MakeLet(let->var, values[0], body);
  }

  ir::Expr RewriteIf(const ir::IfNode*, const ir::Expr& post) override {
    auto* node = post.as<ir::IfNode>();
    return ir::MakeIf(InsertEnd(node->cond), InsertEnd(node->true_branch),
                      InsertEnd(node->false_branch));
  }

 private:
  const std::string* TargetOf(const ir::Expr& e) const {
    auto it = targets_of_.find(e.get());
    return it == targets_of_.end() ? nullptr : &it->second.second;
  }
  void SetTarget(const ir::Expr& e, std::string target) {
    targets_of_[e.get()] = {e, std::move(target)};
  }

  // TVM's InsertCompilerEndAndPropogateTarget.
  ir::Expr InsertEnd(const ir::Expr& e) {
    std::string target = "default";
    ir::Expr out = e;
    if (const std::string* t = TargetOf(e)) {
      target = *t;
      out = CompilerEnd(e, target);
    }
    SetTarget(out, target);
    return out;
  }

  // TVM's AnnotateArgs: the target the arguments agree on ("default" if they do not) and the
  // annotated arguments.
  std::pair<std::string, std::vector<ir::Expr>> AnnotateArgs(const std::vector<ir::Expr>& args,
                                                             const std::string& target) {
    std::string ref_target;
    std::vector<ir::Expr> begins, ends;
    for (const ir::Expr& arg : args) {
      std::string arg_target = "default";
      auto* call = arg.as<ir::CallNode>();
      if (const std::string* begin = CompilerBeginTarget(arg)) {
        if (*begin != "default") {
          begins.push_back(arg);
          continue;
        }
        if (const std::string* end = CompilerEndTarget(call->args[0])) arg_target = *end;
        ends.push_back(call->args[0]);
      } else if (const std::string* t = TargetOf(arg)) {
        arg_target = *t;
        // A call without arguments (zeros, ones) is an input.
        ends.push_back(call && call->args.empty() ? arg : CompilerEnd(arg, arg_target));
      } else {
        ends.push_back(arg);
      }
      if (ref_target.empty()) {
        ref_target = arg_target;
      } else if (ref_target != arg_target) {
        ref_target = "default";
      }
    }
    const std::string op_target = target.empty() ? ref_target : target;
    if (ref_target.empty()) return {op_target, args};
    for (const ir::Expr& end : ends) begins.push_back(CompilerBegin(end, op_target));
    return {op_target, std::move(begins)};
  }

  const std::vector<std::string>& targets_;
  bool include_non_call_ops_;
  // The target of each rewritten node (the node is held so its address stays unique).
  std::unordered_map<const ir::ExprNode*, std::pair<ir::Expr, std::string>> targets_of_;
};

}  // namespace

transform::Pass AnnotateTarget(std::vector<std::string> targets, bool include_non_call_ops) {
  transform::Pass annotate = transform::CreateFunctionPass(
      [targets = std::move(targets), include_non_call_ops](
          const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        TargetAnnotator annotator(targets, include_non_call_ops);
        return annotator.Mutate(func).downcast<ir::FunctionNode>();
      },
      0, "AnnotateTargetFunc", {"InferType"});
  return transform::Sequential({annotate, transform::InferType()}, "AnnotateTarget");
}

}  // namespace relaypass::passes
