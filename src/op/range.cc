// Ranges and grids: arange and meshgrid (TVM v0.13's ArangeRel and MeshgridRel, transform.cc).
// TVM's ArangeAttrs also keep start, stop and step as expressions, from which its relation reads
// constant values; relaypass's attributes hold no expressions, so the relation reads the call's
// arguments (TypeRelationCall::arg_expr) instead, and the attrs carry the dtype only.
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "families.h"
#include "kernels/kernel_util.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* ArangeAttrs() {
  static const AttrsSchema schema("relay.attrs.ArangeAttrs", {AttrsSchema::RequiredDType("dtype")});
  return &schema;
}
const AttrsSchema* MeshgridAttrs() {
  static const AttrsSchema schema("relay.attrs.MeshgridAttrs",
                                  {AttrsSchema::String("indexing", "ij")});
  return &schema;
}

// The value of argument `index` when it is a one-element constant.
std::optional<double> ConstantScalar(const TypeRelationCall& call, size_t index) {
  const ir::Expr* e = call.arg_expr(index);
  if (!e) return std::nullopt;
  const auto* c = e->as<ir::ConstantNode>();
  if (!c || c->data.size() != 1) return std::nullopt;
  return kernels::CastArray(c->data, ir::DataType::Float(64)).data<double>()[0];
}

// [start, stop, step] scalars of the attrs' dtype; the result is (n) with n = ceil((stop - start)
// / step) when all three are constants (TVM requires n > 0), else (?).
bool ArangeRel(TypeRelationCall& call) {
  const ir::DataType dtype = DTypeOr(AttrsOf(call).get("dtype"), ir::DataType::Float32());
  for (size_t i = 0; i < 3; ++i) call.Assign(i, ir::TensorType({}, dtype));
  const std::optional<double> start = ConstantScalar(call, 0);
  const std::optional<double> stop = ConstantScalar(call, 1);
  const std::optional<double> step = ConstantScalar(call, 2);
  if (!start || !stop || !step) {
    call.AssignResult(ir::TensorType({kAnyDim}, dtype));
    return true;
  }
  const double n = std::ceil((*stop - *start) / *step);
  // TVM casts n to int32 and requires it positive; a NaN or an overflowing n fails too.
  if (!(n > 0) || n > 2147483647.0) {
    call.Fail("arange: Invalid arange attributes (start, stop, step): " + std::to_string(*start) +
              ", " + std::to_string(*stop) + ", " + std::to_string(*step));
  }
  call.AssignResult(ir::TensorType({static_cast<Dim>(n)}, dtype));
  return true;
}

// A tuple of scalars or 1-D tensors of one dtype: as many grids, each of the extents in order
// ("xy" swaps the first two).
bool MeshgridRel(TypeRelationCall& call) {
  ir::Type arg = call.arg(0);
  if (!arg || arg.as<ir::IncompleteTypeNode>()) return false;
  const auto* tuple = arg.as<ir::TupleTypeNode>();
  if (!tuple) {
    call.Fail("meshgrid requires a tuple of tensors as the first argument, found " +
              ir::TypeToString(arg));
  }
  if (tuple->fields.empty()) call.Fail("meshgrid requires at least one tensor");
  Shape grid;
  ir::DataType dtype;
  for (const ir::Type& f : tuple->fields) {
    if (!f || f.as<ir::IncompleteTypeNode>()) return false;
    TensorTypeRef t = f.downcast<ir::TensorTypeNode>();
    if (!t) call.Fail("meshgrid requires tensors, got " + ir::TypeToString(f));
    if (grid.empty()) dtype = t->dtype;
    if (t->dtype != dtype) call.Fail("relay.meshgrid requires all tensors have the same dtype");
    if (t->ndim() > 1) {
      call.Fail("relay.meshgrid requires all tensors be either scalars or 1-D vectors.");
    }
    grid.push_back(t->ndim() == 0 ? 1 : t->shape[0]);
  }
  const std::string& indexing = AttrsOf(call).get_string("indexing");
  if (indexing != "ij" && indexing != "xy") {
    call.Fail("meshgrid: indexing must be \"ij\" or \"xy\", got \"" + indexing + "\"");
  }
  if (indexing == "xy" && grid.size() >= 2) std::swap(grid[0], grid[1]);
  std::vector<ir::Type> grids(tuple->fields.size(), ir::TensorType(grid, dtype));
  call.AssignResult(ir::TupleType(std::move(grids)));
  return true;
}

}  // namespace

void RegisterRangeOps(OpRegistry& registry) {
  OpDef& arange = RegisterOp(registry, "arange", 3, OpPattern::kOpaque, ArangeRel,
                             "Returns evenly spaced values within a given interval.");
  arange.attrs_schema = ArangeAttrs();
  arange.kernel = kernels::Arange;
  OpDef& meshgrid = RegisterOp(registry, "meshgrid", 1, OpPattern::kInjective, MeshgridRel,
                               "Create coordinate matrices from coordinate vectors.");
  meshgrid.attrs_schema = MeshgridAttrs();
  meshgrid.kernel = kernels::Meshgrid;
}

}  // namespace relaypass::op
