// nn.mirror_pad and nn.dilate (TVM's MirrorPadAttrs / DilateAttrs and relations): ops whose output
// element is one input element, or a fill value, chosen per axis.
#include <string>

#include "kernels/kernels.h"
#include "nn_family.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* MirrorPadAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.MirrorPadAttrs",
      {AttrsSchema::String("mode", "SYMMETRIC"), AttrsSchema::RequiredIntArrayArray("pad_width")});
  return &schema;
}
const AttrsSchema* DilateAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.DilateAttrs",
      {AttrsSchema::IntArray("strides", {1, 1}), AttrsSchema::Double("dilation_value", 0.0)});
  return &schema;
}

// TVM's MirrorPadRel: one non-negative [before, after] pair per axis. A known extent is checked
// against the mirror too (SYMMETRIC repeats the edge, so it may take up to the extent; REFLECT up
// to the extent - 1), as topi's one-fold mirror reads outside the data beyond that.
bool MirrorPadRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& mode = attrs.get_string("mode");
  if (mode != "SYMMETRIC" && mode != "REFLECT") {
    call.Fail("nn.mirror_pad: mode must be SYMMETRIC or REFLECT, got \"" + mode + "\"");
  }
  const std::vector<ir::AttrValue>& rows = attrs.get("pad_width").as_array();
  if (rows.size() != static_cast<size_t>(data->ndim())) {
    call.Fail(
        "nn.mirror_pad: There should be as many pad width pairs as shape dimensions but the "
        "shape has " +
        std::to_string(data->ndim()) + " dimensions and there are " + std::to_string(rows.size()) +
        " pad width pairs.");
  }
  Shape out = data->shape;
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::vector<int64_t> pair = rows[i].as_ints();
    if (pair.size() != 2) {
      call.Fail("nn.mirror_pad: Each pad width element should be a pair but at index " +
                std::to_string(i) + " there are " + std::to_string(pair.size()) + " elements.");
    }
    for (int64_t w : pair) {
      if (w < 0) {
        call.Fail("nn.mirror_pad: Param width elements should be positive but pad width at index " +
                  std::to_string(i) + " is " + std::to_string(w) + ".");
      }
      const int64_t most = mode == "SYMMETRIC" ? out[i] : out[i] - 1;
      if (!IsAny(out[i]) && w > most) {
        call.Fail("nn.mirror_pad: pad width " + std::to_string(w) + " at index " +
                  std::to_string(i) + " exceeds what " + mode + " mode can mirror of extent " +
                  std::to_string(out[i]));
      }
    }
    out[i] = DimAdd(out[i], CheckedAdd(pair[0], pair[1]));
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's DilateRel: each known extent d becomes (d - 1) * stride + 1; `?` stays `?`.
bool DilateRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const std::vector<int64_t> strides =
      PositiveIntsAttr(call, "strides", static_cast<size_t>(data->ndim()));
  Shape out = data->shape;
  for (size_t i = 0; i < out.size(); ++i) {
    if (IsAny(out[i])) continue;
    if (out[i] == 0) continue;  // nothing to dilate: topi's (0 - 1) * s + 1 is no extent
    out[i] = CheckedAdd(CheckedMul(out[i] - 1, strides[i]), 1);
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterPadLikeOps(OpRegistry& registry) {
  OpDef& mirror_pad = RegisterOp(registry, "nn.mirror_pad", 1, OpPattern::kInjective, MirrorPadRel,
                                 "Pads each axis with its mirror image (SYMMETRIC or REFLECT).");
  mirror_pad.attrs_schema = MirrorPadAttrs();
  mirror_pad.kernel = kernels::MirrorPad;
  OpDef& dilate = RegisterOp(registry, "nn.dilate", 1, OpPattern::kInjective, DilateRel,
                             "Inserts stride - 1 dilation_value elements between elements.");
  dilate.attrs_schema = DilateAttrs();
  dilate.kernel = kernels::Dilate;
}

}  // namespace relaypass::op
