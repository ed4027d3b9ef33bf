// nn.matmul (TVM v0.13's MatmulAttrs and MatmulRel): tensor_a [.., M, K] (transpose_a: [.., K,
// M]) times tensor_b [K, N] (transpose_b: [N, K]). TVM's relay.nn.matmul builds nn.dense for the
// (not transpose_a, transpose_b) case itself.
#include <string>

#include "kernels/kernels.h"
#include "nn_family.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* MatmulAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.MatmulAttrs",
      {AttrsSchema::IndexExpr("units"), AttrsSchema::DType("out_dtype", ""),
       AttrsSchema::Bool("transpose_a", false), AttrsSchema::Bool("transpose_b", false)});
  return &schema;
}

bool MatmulRel(TypeRelationCall& call) {
  TensorTypeRef a = TensorOf(call, 0);
  TensorTypeRef b = TensorOf(call, 1);
  if (!a) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const bool transpose_a = attrs.get_bool("transpose_a");
  const bool transpose_b = attrs.get_bool("transpose_b");
  if (a->ndim() < (transpose_a ? 2 : 1)) {
    call.Fail("nn.matmul: tensor_a " + TypeString(a) + " has too few dimensions");
  }
  Shape out = a->shape;
  Dim reduce = a->shape.back();
  if (transpose_a) {
    reduce = a->shape[a->shape.size() - 2];
    out[out.size() - 2] = a->shape.back();
  }
  const ir::AttrValue& units = attrs.get("units");
  if (!units.is_null()) {
    const Shape w = transpose_b ? Shape{units.as_int(), reduce} : Shape{reduce, units.as_int()};
    call.Assign(1, ir::TensorType(w, b ? b->dtype : a->dtype));
    out.back() = units.as_int();
  } else {
    if (!b) return false;
    if (b->ndim() != 2) call.Fail("nn.matmul: tensor_b must be 2-D, got " + TypeString(b));
    const Dim b_reduce = transpose_b ? b->shape[1] : b->shape[0];
    if (!IsAny(reduce) && !IsAny(b_reduce) && reduce != b_reduce) {
      call.Fail("nn.matmul: input dimension doesn't match, tensor_a " + TypeString(a) +
                ", tensor_b " + TypeString(b));
    }
    out.back() = transpose_b ? b->shape[0] : b->shape[1];
  }
  call.AssignResult(ir::TensorType(out, DTypeOr(attrs.get("out_dtype"), a->dtype)));
  return true;
}

}  // namespace

void RegisterMatmulOp(OpRegistry& registry) {
  OpDef& matmul = RegisterOp(registry, "nn.matmul", 2, OpPattern::kOutEWiseFusable, MatmulRel,
                             "tensor_a times tensor_b, either optionally transposed.");
  matmul.attrs_schema = MatmulAttrs();
  matmul.kernel = kernels::Matmul;
}

}  // namespace relaypass::op
