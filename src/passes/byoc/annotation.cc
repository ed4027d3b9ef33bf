// Builders and readers of annotation.compiler_begin / compiler_end.
#include "relaypass/op/registry.h"
#include "relaypass/passes/byoc.h"

namespace relaypass::passes {

namespace {

ir::Expr Annotate(const char* op_name, ir::Expr expr, const std::string& compiler) {
  ir::Op op = op::GetOp(op_name);
  ir::Attrs attrs =
      ir::MakeAttrs(*op->def->attrs_schema, {{"compiler", ir::AttrValue::Str(compiler)}});
  return ir::MakeCall(op, {std::move(expr)}, std::move(attrs));
}

const std::string* Target(const ir::Expr& expr, const char* op_name) {
  auto* call = expr.as<ir::CallNode>();
  const ir::OpNode* op = call ? call->op_node() : nullptr;
  if (!op || op->name != op_name || !call->attrs) return nullptr;
  return &call->attrs->get_string("compiler");
}

}  // namespace

ir::Expr CompilerBegin(ir::Expr expr, const std::string& compiler) {
  return Annotate("annotation.compiler_begin", std::move(expr), compiler);
}
ir::Expr CompilerEnd(ir::Expr expr, const std::string& compiler) {
  return Annotate("annotation.compiler_end", std::move(expr), compiler);
}
const std::string* CompilerBeginTarget(const ir::Expr& expr) {
  return Target(expr, "annotation.compiler_begin");
}
const std::string* CompilerEndTarget(const ir::Expr& expr) {
  return Target(expr, "annotation.compiler_end");
}

}  // namespace relaypass::passes
