// adv_index (TVM v0.13's AdvIndexRel): numpy's advanced indexing of data's leading axes by a
// tuple (data, index, ...): the indices' broadcast shape, then data's axes not indexed.
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

bool AdvIndexRel(TypeRelationCall& call) {
  ir::Type arg = call.arg(0);
  if (!arg || arg.as<ir::IncompleteTypeNode>()) return false;
  const auto* tuple = arg.as<ir::TupleTypeNode>();
  if (!tuple || tuple->fields.size() < 2) {
    call.Fail("adv_index requires a tuple of the data and at least one index tensor, got " +
              ir::TypeToString(arg));
  }
  std::vector<TensorTypeRef> fields;
  for (const ir::Type& f : tuple->fields) {
    if (!f || f.as<ir::IncompleteTypeNode>()) return false;
    TensorTypeRef t = f.downcast<ir::TensorTypeNode>();
    if (!t) call.Fail("adv_index requires tensors, got " + ir::TypeToString(f));
    fields.push_back(t);
  }
  const TensorTypeRef& data = fields[0];
  const size_t num_indices = fields.size() - 1;
  if (num_indices > static_cast<size_t>(data->ndim())) call.Fail("too many indices for data!");
  Shape shape = fields[1]->shape;
  for (size_t i = 1; i < fields.size(); ++i) {
    if (!fields[i]->dtype.is_int() && !fields[i]->dtype.is_uint()) {
      call.Fail("adv_index: indices must be integers, got " + TypeString(fields[i]));
    }
    std::optional<Shape> b = BroadcastShape(shape, fields[i]->shape);
    if (!b) call.Fail("adv_index: the indices' shapes do not broadcast: " + ir::TypeToString(arg));
    shape = *b;
  }
  for (size_t d = num_indices; d < static_cast<size_t>(data->ndim()); ++d) {
    shape.push_back(data->shape[d]);
  }
  call.AssignResult(ir::TensorType(shape, data->dtype));
  return true;
}

}  // namespace

void RegisterAdvIndexOp(OpRegistry& registry) {
  RegisterOp(registry, "adv_index", 1, OpPattern::kInjective, AdvIndexRel,
             "Numpy style advanced indexing. Index with a list of tensors.")
      .kernel = kernels::AdvIndex;
}

}  // namespace relaypass::op
