// nn.group_norm and nn.l2_normalize (TVM v0.13's GroupNormAttrs / L2NormalizeAttrs and
// relations). SimplifyInference unpacks both into arithmetic, as TVM's does.
#include <string>

#include "kernels/kernels.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* GroupNormAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.GroupNormAttrs",
      {AttrsSchema::Int("num_groups", 0), AttrsSchema::Int("axis", 1),
       AttrsSchema::Double("epsilon", 1e-5), AttrsSchema::Bool("center", true),
       AttrsSchema::Bool("scale", true)});
  return &schema;
}

const AttrsSchema* L2NormalizeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.L2NormalizeAttrs",
      {AttrsSchema::RequiredDouble("eps"), AttrsSchema::NullableIntArray("axis")});
  return &schema;
}

// TVM's GroupNormRel: gamma and beta are [data.shape[axis]]; here num_groups must also divide
// that extent (TVM's lowering reshapes by it).
bool GroupNormRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int axis = NormalizeAxis(call, attrs.get_int("axis"), data->ndim(), "nn.group_norm: axis");
  const int64_t groups = attrs.get_int("num_groups");
  const Dim channels = data->shape[axis];
  if (groups < 1 || (!IsAny(channels) && channels % groups != 0)) {
    call.Fail("nn.group_norm: num_groups=" + std::to_string(groups) +
              " must be positive and divide the " + std::to_string(channels) + " channels of " +
              TypeString(data));
  }
  ir::Type vec = ir::TensorType({channels}, data->dtype);
  call.Assign(1, vec);
  call.Assign(2, vec);
  call.AssignResult(ir::Type(data));
  return true;
}

// TVM's L2NormalizeRel: the data's type; the axes must be in range.
bool L2NormalizeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrValue& axis = AttrsOf(call).get("axis");
  if (!axis.is_null()) {
    for (int64_t a : AttrsOf(call).get_ints("axis")) {
      NormalizeAxis(call, a, data->ndim(), "nn.l2_normalize: axis");
    }
  }
  call.AssignResult(ir::Type(data));
  return true;
}

}  // namespace

void RegisterGroupNormOps(OpRegistry& registry) {
  OpDef& group_norm =
      RegisterOp(registry, "nn.group_norm", 3, OpPattern::kOpaque, GroupNormRel,
                 "Normalizes each group of channels (with the remaining axes), then scales and "
                 "shifts per channel.");
  group_norm.attrs_schema = GroupNormAttrs();
  group_norm.kernel = kernels::GroupNorm;
  OpDef& l2 = RegisterOp(registry, "nn.l2_normalize", 1, OpPattern::kOutEWiseFusable,
                         L2NormalizeRel, "x / sqrt(max(sum(x * x, axis), eps)).");
  l2.attrs_schema = L2NormalizeAttrs();
  l2.kernel = kernels::L2Normalize;
}

}  // namespace relaypass::op
