// Ops whose results are sized by the data's values: argwhere (TVM's ArgWhereRel: (?, ndim) int32
// coordinates) and unique (TVM's UniqueRel: results padded to the data's length, with the count
// of unique values alongside).
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* UniqueAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.UniqueAttrs",
      {AttrsSchema::Bool("sorted", true), AttrsSchema::Bool("return_counts", false)});
  return &schema;
}

bool ArgWhereRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  call.AssignResult(ir::TensorType({kAnyDim, data->ndim()}, ir::DataType::Int32()));
  return true;
}

// [unique, indices, inverse_indices, num_unique(, counts)]: the data's 1-D shape each but
// num_unique, (1); the indices and counts int32.
bool UniqueRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  if (data->ndim() != 1) call.Fail("unique: input must be 1-D tensor, got " + TypeString(data));
  const ir::DataType i32 = ir::DataType::Int32();
  std::vector<ir::Type> fields = {ir::TensorType(data->shape, data->dtype),
                                  ir::TensorType(data->shape, i32),
                                  ir::TensorType(data->shape, i32), ir::TensorType({1}, i32)};
  if (AttrsOf(call).get_bool("return_counts")) fields.push_back(ir::TensorType(data->shape, i32));
  call.AssignResult(ir::TupleType(std::move(fields)));
  return true;
}

}  // namespace

void RegisterUniqueOps(OpRegistry& registry) {
  OpDef& argwhere =
      RegisterOp(registry, "argwhere", 1, OpPattern::kOpaque, ArgWhereRel,
                 "Find the indices of elements of a tensor that are non-zero, as rows of "
                 "int32 coordinates.");
  argwhere.kernel = kernels::ArgWhere;
  OpDef& unique = RegisterOp(registry, "unique", 1, OpPattern::kOpaque, UniqueRel,
                             "The unique elements of a 1-D tensor (padded to its length), the "
                             "index of each one's first occurrence, each element's index among "
                             "them, their number and optionally their counts.");
  unique.attrs_schema = UniqueAttrs();
  unique.kernel = kernels::Unique;
}

}  // namespace relaypass::op
