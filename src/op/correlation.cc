// nn.correlation (TVM v0.13's CorrelationAttrs and CorrelationRel): FlowNet's correlation of two
// NCHW feature maps, one output channel per displacement.
#include <string>

#include "kernels/correlation.h"
#include "nn_family.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* CorrelationAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.CorrelationAttrs",
      {AttrsSchema::Int("kernel_size", 1), AttrsSchema::Int("max_displacement", 1),
       AttrsSchema::Int("stride1", 1), AttrsSchema::Int("stride2", 1),
       AttrsSchema::IntArray("padding", {0, 0}), AttrsSchema::Bool("is_multiply", true),
       AttrsSchema::String("layout", "NCHW")});
  return &schema;
}

// [N, (2 * (max_displacement / stride2) + 1)^2, ceil((padded H - 2 * border) / stride1), ...
// W], border = max_displacement + (kernel_size - 1) / 2.
bool CorrelationRel(TypeRelationCall& call) {
  TensorTypeRef a = TensorOf(call, 0);
  TensorTypeRef b = TensorOf(call, 1);
  if (!a || !b) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (attrs.get_string("layout") != "NCHW") {
    call.Fail("nn.correlation: only support NCHW layout, got " + attrs.get_string("layout"));
  }
  if (a->ndim() != 4 || a->shape != b->shape || a->dtype != b->dtype) {
    call.Fail("nn.correlation: data1 " + TypeString(a) + " and data2 " + TypeString(b) +
              " must be 4-D tensors of one type");
  }
  const int64_t k = attrs.get_int("kernel_size"), md = attrs.get_int("max_displacement");
  const int64_t s1 = attrs.get_int("stride1"), s2 = attrs.get_int("stride2");
  if (k < 1 || k % 2 == 0 || md < 0 || s1 < 1 || s2 < 1) {
    call.Fail(
        "nn.correlation: kernel_size must be odd and positive, max_displacement not "
        "negative and the strides positive");
  }
  std::vector<int64_t> padding = IntsAttr(call, "padding");
  if (padding.size() == 1) padding.push_back(padding[0]);
  if (padding.size() != 2 || padding[0] < 0 || padding[1] < 0) {
    call.Fail("nn.correlation: padding must be 1 or 2 non-negative values");
  }
  const int64_t border = CheckedAdd(md, (k - 1) / 2);
  const int64_t grid = CheckedAdd(CheckedMul(md / s2, 2), 1);
  Shape out = {a->shape[0], CheckedMul(grid, grid), kAnyDim, kAnyDim};
  for (int i = 0; i < 2; ++i) {
    const Dim in = a->shape[2 + i];
    if (IsAny(in)) continue;
    const int64_t span =
        CheckedSub(CheckedAdd(in, CheckedMul(padding[i], 2)), CheckedMul(border, 2));
    if (span < 0) call.Fail("nn.correlation: the displacements exceed the padded input");
    out[2 + i] = span / s1 + (span % s1 != 0 ? 1 : 0);
  }
  call.AssignResult(ir::TensorType(out, a->dtype));
  return true;
}

}  // namespace

void RegisterCorrelationOp(OpRegistry& registry) {
  OpDef& op = RegisterOp(registry, "nn.correlation", 2, OpPattern::kOutEWiseFusable, CorrelationRel,
                         "Correlation of two NCHW feature maps (FlowNet).");
  op.attrs_schema = CorrelationAttrs();
  op.kernel = kernels::Correlation;
}

}  // namespace relaypass::op
