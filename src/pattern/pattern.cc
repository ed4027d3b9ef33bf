#include "relaypass/pattern/pattern.h"

#include "relaypass/ir/op_registry.h"

namespace relaypass::pattern {

using ir::make_ref;

DFPattern DFPattern::operator()(std::vector<DFPattern> args) const {
  return make_ref<CallPatternNode>(*this, true, std::move(args));
}
DFPattern DFPattern::CallAnyArgs() const {
  return make_ref<CallPatternNode>(*this, false, std::vector<DFPattern>{});
}
DFPattern DFPattern::operator|(const DFPattern& other) const {
  return make_ref<AltPatternNode>(*this, other);
}
DFPattern DFPattern::HasAttr(ir::DictAttrs attrs) const {
  return make_ref<AttrPatternNode>(*this, std::move(attrs));
}
DFPattern DFPattern::HasType(ir::Type type) const {
  return make_ref<TypePatternNode>(*this, std::move(type));
}
DFPattern DFPattern::HasDtype(ir::DataType dtype) const {
  return make_ref<DataTypePatternNode>(*this, dtype);
}
DFPattern DFPattern::HasShape(std::vector<ir::Dim> shape) const {
  return make_ref<ShapePatternNode>(*this, std::move(shape));
}
DFPattern DFPattern::Optional(const std::function<DFPattern(const DFPattern&)>& constructor) const {
  return *this | constructor(*this);
}
DFPattern DFPattern::Dominates(const DFPattern& parent, const DFPattern& path) const {
  return make_ref<DominatorPatternNode>(parent, path, *this);
}
DFPattern DFPattern::Dominates(const DFPattern& parent) const {
  return Dominates(parent, Wildcard());
}

DFPattern IsOp(const std::string& op_name) {
  return IsExpr(ir::GetOp(op_name));
}
DFPattern Wildcard() {
  return make_ref<WildcardPatternNode>();
}
DFPattern IsVar(const std::string& name) {
  return make_ref<VarPatternNode>(name);
}
DFPattern IsConstant() {
  return make_ref<ConstantPatternNode>();
}
DFPattern IsExpr(ir::Expr expr) {
  return make_ref<ExprPatternNode>(std::move(expr));
}
DFPattern IsTuple(std::vector<DFPattern> fields) {
  return make_ref<TuplePatternNode>(true, std::move(fields));
}
DFPattern IsTupleAny() {
  return make_ref<TuplePatternNode>(false, std::vector<DFPattern>{});
}
DFPattern IsTupleGetItem(DFPattern tuple, int index) {
  return make_ref<TupleGetItemPatternNode>(std::move(tuple), index);
}
DFPattern IsIf(DFPattern cond, DFPattern true_branch, DFPattern false_branch) {
  return make_ref<IfPatternNode>(std::move(cond), std::move(true_branch), std::move(false_branch));
}
DFPattern IsLet(DFPattern var, DFPattern value, DFPattern body) {
  return make_ref<LetPatternNode>(std::move(var), std::move(value), std::move(body));
}
DFPattern FunctionPattern(std::vector<DFPattern> params, DFPattern body) {
  return make_ref<FunctionPatternNode>(true, std::move(params), std::move(body));
}
DFPattern HasAttr(ir::DictAttrs attrs, DFPattern pattern) {
  return pattern.HasAttr(std::move(attrs));
}
DFPattern HasType(ir::Type type, DFPattern pattern) {
  return pattern.HasType(std::move(type));
}
DFPattern HasDtype(ir::DataType dtype, DFPattern pattern) {
  return pattern.HasDtype(dtype);
}
DFPattern HasShape(std::vector<ir::Dim> shape, DFPattern pattern) {
  return pattern.HasShape(std::move(shape));
}
DFPattern Dominates(DFPattern parent, DFPattern path, DFPattern child) {
  return child.Dominates(parent, path);
}

}  // namespace relaypass::pattern
