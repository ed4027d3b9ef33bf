#include "relaypass/passes/label_ops.h"

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"

namespace relaypass::passes {

namespace {

using ir::Expr;

// The layout attributes of the operator calls directly in `func`'s body (not in nested
// functions), in the order first met.
std::vector<std::pair<std::string, ir::AttrValue>> BodyLayoutAttrs(const ir::FunctionNode* func) {
  std::vector<std::pair<std::string, ir::AttrValue>> found;
  ir::PostOrderIndex index;
  index.Add(func->body, [](const ir::ExprNode* e) { return e->kind != ir::ExprKind::kFunction; });
  for (ir::PostOrderIndex::Id id : index.post_order()) {
    const ir::ExprNode* node = index.node(id);
    if (node->kind != ir::ExprKind::kCall) continue;
    const auto* call = static_cast<const ir::CallNode*>(node);
    if (!call->attrs || !call->op.as<ir::OpNode>()) continue;
    const ir::AttrsSchema* schema = call->attrs->schema;
    for (size_t i = 0; i < schema->fields().size(); ++i) {
      const std::string& name = schema->fields()[i].name;
      const ir::AttrValue& value = call->attrs->values[i];
      if (name.find("layout") == std::string::npos) continue;
      if (value.kind() != ir::AttrValue::Kind::kString) continue;
      bool seen = false;
      for (const auto& entry : found) seen = seen || entry.first == name;
      if (!seen) found.emplace_back(name, value);
    }
  }
  return found;
}

std::string HexHash(size_t hash) {
  char text[2 * sizeof(size_t) + 1];
  std::snprintf(text, sizeof(text), "%016zx", hash);
  return text;
}

class Labeler : public ir::ExprMutator {
 protected:
  Expr RewriteFunction(const ir::FunctionNode*, const Expr& post) override {
    const auto* func = post.as<ir::FunctionNode>();
    ir::DictAttrs attrs = func->attrs;
    attrs.Set("hash", ir::AttrValue::Str(HexHash(ir::StructuralHash(post))));
    for (auto& [name, value] : BodyLayoutAttrs(func)) attrs.Set(name, std::move(value));
    ir::Function labelled =
        ir::MakeFunction(func->params, func->body, func->ret_type, attrs, func->type_params);
    const_cast<ir::FunctionNode*>(labelled.get())->checked_type = func->checked_type;  // fresh
    const_cast<ir::FunctionNode*>(labelled.get())->span = func->span;
    return labelled;
  }
};

}  // namespace

transform::Pass LabelOps() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return Labeler().Mutate(func).downcast<ir::FunctionNode>();
      },
      1, "LabelOps", {});
}

void RegisterLabelOps(transform::PassRegistry& registry) {
  registry.Register({"LabelOps",
                     {},
                     [](const transform::PassOptions&) { return LabelOps(); },
                     "labels every function with its structural hash and its calls' layouts"});
}

}  // namespace relaypass::passes
