// The sparse family: sparse_to_dense and sparse_fill_empty_rows (TVM's relations: the latter's
// results have as many rows as the values decide, `?`, and are int64).
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* SparseToDenseAttrs() {
  static const AttrsSchema schema("relay.attrs.SparseToDenseAttrs",
                                  {AttrsSchema::RequiredIntArray("output_shape")});
  return &schema;
}

bool SparseToDenseRel(TypeRelationCall& call) {
  TensorTypeRef indices = TensorOf(call, 0);
  TensorTypeRef values = TensorOf(call, 1);
  TensorTypeRef fill = TensorOf(call, 2);
  if (!indices || !values || !fill) return false;
  if (!indices->dtype.is_int() && !indices->dtype.is_uint()) {
    call.Fail("sparse_to_dense: sparse_indices must be tensor of integers");
  }
  if (indices->shape.size() > 2) {
    call.Fail("sparse_to_dense: sparse_indices must be a tensor of either 0D, 1D or 2D");
  }
  if (values->shape.size() > 1) {
    call.Fail("sparse_to_dense: sparse_values must be a tensor of either 0D, 1D");
  }
  if (!fill->shape.empty()) call.Fail("sparse_to_dense: default_value should be a scalar");
  std::vector<int64_t> shape = IntsAttr(call, "output_shape");
  for (int64_t d : shape) {
    if (d < 0) call.Fail("sparse_to_dense: output_shape has a negative extent");
  }
  call.AssignResult(ir::TensorType(Shape(shape.begin(), shape.end()), values->dtype));
  return true;
}

bool SparseFillEmptyRowsRel(TypeRelationCall& call) {
  TensorTypeRef indices = TensorOf(call, 0);
  if (!indices) return false;
  if (indices->shape.size() != 2) {
    call.Fail("sparse_fill_empty_rows: sparse_indices must be 2-D, got " + TypeString(indices));
  }
  const ir::DataType i64 = ir::DataType::Int64();
  call.AssignResult(
      ir::TupleType({ir::TensorType({kAnyDim, indices->shape[1]}, i64),
                     ir::TensorType({kAnyDim}, i64), ir::TensorType({kAnyDim}, i64)}));
  return true;
}

}  // namespace

void RegisterSparseOps(OpRegistry& registry) {
  OpDef& to_dense = RegisterOp(registry, "sparse_to_dense", 3, OpPattern::kOpaque, SparseToDenseRel,
                               "A dense tensor of output_shape: default_value except at the "
                               "sparse indices, which take the sparse values.");
  to_dense.attrs_schema = SparseToDenseAttrs();
  to_dense.kernel = kernels::SparseToDense;
  OpDef& fill =
      RegisterOp(registry, "sparse_fill_empty_rows", 4, OpPattern::kOpaque, SparseFillEmptyRowsRel,
                 "Sparse entries with a default entry added for every empty row, and "
                 "the indicator of those rows.");
  fill.kernel = kernels::SparseFillEmptyRows;
}

}  // namespace relaypass::op
