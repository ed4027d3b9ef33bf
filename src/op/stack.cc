// stack (TVM v0.13's src/relay/op/tensor/transform.cc): joins a tuple of tensors of one shape
// along a new axis. CombineParallelDense(to_batch=True) stacks the dense inputs and weights with
// it.
#include <cstring>

#include "families.h"
#include "kernels/kernel_util.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

const ir::AttrsSchema* StackAttrs() {
  static const ir::AttrsSchema schema("relay.attrs.StackAttrs", {ir::AttrsSchema::Int("axis", 0)});
  return &schema;
}

// TVM's StackRel: every field a tensor of the same rank and dtype (and, where known, the same
// shape); axis in [-ndim-1, ndim]; the result has the number of fields inserted at `axis`.
bool StackRel(TypeRelationCall& call) {
  ir::Type arg = call.arg(0);
  if (!arg || arg.as<ir::IncompleteTypeNode>()) return false;
  const auto* tuple = arg.as<ir::TupleTypeNode>();
  if (!tuple) call.Fail("stack requires a tuple of tensors, got " + ir::TypeToString(arg));
  if (tuple->fields.empty()) call.Fail("stack needs at least one tensor");
  std::vector<TensorTypeRef> fields;
  for (const ir::Type& f : tuple->fields) {
    if (!f || f.as<ir::IncompleteTypeNode>()) return false;
    TensorTypeRef t = f.downcast<ir::TensorTypeNode>();
    if (!t) call.Fail("stack requires tensors, got " + ir::TypeToString(f));
    fields.push_back(t);
  }
  const TensorTypeRef& first = fields[0];
  const int ndim = first->ndim();
  for (const TensorTypeRef& t : fields) {
    if (t->ndim() != ndim || t->dtype != first->dtype) {
      call.Fail("stack requires all tensors to have the same rank and dtype, got " +
                ir::TypeToString(arg));
    }
  }
  const int axis = NormalizeAxis(call, AttrsOf(call).get_int("axis"), ndim + 1, "stack: axis");
  Shape out;
  for (int i = 0; i < ndim; ++i) {
    Dim d = kAnyDim;
    for (const TensorTypeRef& t : fields) {
      const Dim e = t->shape[i];
      if (IsAny(e)) continue;
      if (!IsAny(d) && d != e) {
        call.Fail("stack requires all tensors to have the same shape, got " +
                  ir::TypeToString(arg));
      }
      d = e;
    }
    if (i == axis) out.push_back(static_cast<Dim>(fields.size()));
    out.push_back(d);
  }
  if (axis == ndim) out.push_back(static_cast<Dim>(fields.size()));
  call.AssignResult(ir::TensorType(out, first->dtype));
  return true;
}

std::vector<ir::NDArray> StackKernel(const std::vector<ir::NDArray>& in, const ir::Attrs& attrs,
                                     const ir::Type&) {
  if (in.empty()) kernels::Fail("stack: no inputs");
  const ir::NDArray& first = in[0];
  for (const ir::NDArray& a : in) {
    if (a.shape() != first.shape() || a.dtype() != first.dtype()) {
      kernels::Fail("stack: the inputs differ in shape or dtype");
    }
  }
  const int axis = kernels::NormalizeAxis(kernels::AttrsOf(attrs, "stack").get_int("axis"),
                                          first.ndim() + 1, "stack: axis");
  ir::Shape shape = first.shape();
  shape.insert(shape.begin() + axis, static_cast<int64_t>(in.size()));
  int64_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= first.shape()[i];
  const size_t block = outer == 0 ? 0 : first.nbytes() / static_cast<size_t>(outer);
  ir::NDArray out = ir::NDArray::Uninitialized(shape, first.dtype());
  auto* dst = static_cast<char*>(out.mutable_raw_data());
  for (int64_t o = 0; o < outer; ++o) {
    for (const ir::NDArray& a : in) {
      std::memcpy(dst, static_cast<const char*>(a.raw_data()) + o * block, block);
      dst += block;
    }
  }
  return {out};
}

}  // namespace

void RegisterStackOp(OpRegistry& registry) {
  OpDef& stack = RegisterOp(registry, "stack", 1, OpPattern::kInjective, StackRel,
                            "Joins a tuple of tensors of one shape along a new `axis`.");
  stack.attrs_schema = StackAttrs();
  stack.kernel = StackKernel;
}

}  // namespace relaypass::op
