#include "op_common.h"

#include "relaypass/support/error.h"

namespace relaypass::op {

OpDef& RegisterOp(OpRegistry& registry, const std::string& name, int num_inputs, OpPattern pattern,
                  TypeRelation relation, std::string description) {
  OpDef& def = registry.Register(name);
  def.num_inputs = num_inputs;
  def.pattern = pattern;
  def.type_relation = std::move(relation);
  def.description = std::move(description);
  return def;
}

ir::Call CallOp(const std::string& name, std::vector<ir::Expr> args, const AttrValues& attrs) {
  ir::Op op = GetOp(name);
  ir::Attrs made;
  if (op->def->attrs_schema) {
    made = ir::MakeAttrs(*op->def->attrs_schema, attrs);
  } else if (!attrs.empty()) {
    throw InternalError("operator " + name + " takes no attributes");
  }
  return ir::MakeCall(op, std::move(args), std::move(made));
}

ir::AttrValue OptionalInt(const std::optional<int64_t>& v) {
  return v ? ir::AttrValue::Int(*v) : ir::AttrValue::Null();
}

ir::AttrValue OptionalInts(const std::optional<std::vector<int64_t>>& v) {
  return v ? ir::AttrValue::Ints(*v) : ir::AttrValue::Null();
}

std::vector<int64_t> NormalizePair(const std::vector<int64_t>& v) {
  return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v;
}

}  // namespace relaypass::op
