// reshape_like (TVM v0.13's ReshapeLikeAttrs and ReshapeLikeRel): data reshaped to a shape
// spliced from data's dimensions and those of a second tensor.
#include <optional>
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* ReshapeLikeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ReshapeLikeAttrs",
      {AttrsSchema::Int("lhs_begin", 0), AttrsSchema::IndexExpr("lhs_end"),
       AttrsSchema::Int("rhs_begin", 0), AttrsSchema::IndexExpr("rhs_end")});
  return &schema;
}

bool ReshapeLikeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef like = TensorOf(call, 1);
  if (!data || !like) return false;
  std::string error;
  const auto shape = kernels::ReshapeLikeShape(data->shape, like->shape, AttrsOf(call), &error);
  if (!shape) call.Fail("reshape_like: " + error);
  // TVM checks the element counts only when data's shape is static (and then the result's must
  // be too).
  if (data->is_static()) {
    Dim in = 1, out = 1;
    bool known = true;
    for (Dim d : data->shape) in = CheckedMul(in, d);
    for (Dim d : *shape) {
      known = known && !IsAny(d);
      if (known) out = CheckedMul(out, d);
    }
    if (!known || in != out) {
      call.Fail("reshape_like: inputs' sizes should be compatible, but found data_shape " +
                ShapeToString(data->shape) + " not same as output_shape " + ShapeToString(*shape));
    }
  }
  call.AssignResult(ir::TensorType(*shape, data->dtype));
  return true;
}

}  // namespace

void RegisterReshapeLikeOp(OpRegistry& registry) {
  OpDef& reshape_like =
      RegisterOp(registry, "reshape_like", 2, OpPattern::kInjective, ReshapeLikeRel,
                 "Reshapes data to a shape spliced from data's and shape_like's dimensions.");
  reshape_like.attrs_schema = ReshapeLikeAttrs();
  reshape_like.kernel = kernels::ReshapeLike;
}

}  // namespace relaypass::op
