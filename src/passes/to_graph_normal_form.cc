#include "relaypass/passes/to_graph_normal_form.h"

#include "relaypass/ir/post_order_index.h"

namespace relaypass::passes {

namespace {

using Id = ir::PostOrderIndex::Id;
constexpr Id kNone = ir::PostOrderIndex::kNone;

}  // namespace

ir::Expr ToGraphNormalForm(const ir::Expr& expr) {
  ir::PostOrderIndex index;
  const Id root = index.Add(expr);
  // The let binding each let variable (children of a let: value, var, body).
  std::vector<Id> bound_by(index.size(), kNone);
  for (Id id = 0; id < index.size(); ++id) {
    if (index.node(id)->kind == ir::ExprKind::kLet) bound_by[index.children(id)[1]] = id;
  }
  std::vector<uint8_t> recursive(index.size(), 0);
  std::vector<ir::Expr> results(index.size());
  for (Id id : index.post_order()) {
    const ir::ExprNode* node = index.node(id);
    if (node->kind == ir::ExprKind::kVar && bound_by[id] != kNone) {
      const Id value = index.children(bound_by[id])[0];
      // The variable is first reached after its value, unless the value uses it.
      if (results[value]) {
        results[id] = results[value];
      } else {
        recursive[bound_by[id]] = 1;
        results[id] = ir::Expr(node);
      }
      continue;
    }
    if (node->kind == ir::ExprKind::kLet && !recursive[id]) {
      results[id] = results[index.children(id)[2]];
      continue;
    }
    results[id] = ir::RebuildOnChildren(ir::Expr(node), index.children(id), results);
  }
  return results[root];
}

transform::Pass ToGraphNormalForm() {
  return transform::CreateFunctionPass(
      [](const ir::Function& func, const ir::IRModule&, const transform::PassContext&) {
        return ToGraphNormalForm(ir::Expr(func)).downcast<ir::FunctionNode>();
      },
      1, "ToGraphNormalForm");
}

void RegisterToGraphNormalForm(transform::PassRegistry& registry) {
  registry.Register({"ToGraphNormalForm",
                     {},
                     [](const transform::PassOptions&) { return ToGraphNormalForm(); },
                     "replaces let-bound variables by their values (a dataflow graph again)"});
}

}  // namespace relaypass::passes
