// The vision family: vision.roi_align (TVM v0.13's ROIAlignAttrs and ROIAlignRel): data [N, C, H,
// W] (or NHWC) and rois [R, 5] (batch index, x1, y1, x2, y2) give [R, C, PH, PW] (or NHWC).
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* ROIAlignAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ROIAlignAttrs",
      {AttrsSchema::RequiredIntArray("pooled_size"), AttrsSchema::RequiredDouble("spatial_scale"),
       AttrsSchema::Int("sample_ratio", -1), AttrsSchema::String("layout", "NCHW"),
       AttrsSchema::String("mode", "avg")});
  return &schema;
}

bool ROIAlignRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef rois = TensorOf(call, 1);
  if (!data || !rois) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& layout = attrs.get_string("layout");
  if (layout != "NCHW" && layout != "NHWC") {
    call.Fail("vision.roi_align: layout must be NCHW or NHWC, got " + layout);
  }
  const std::string& mode = attrs.get_string("mode");
  if (mode != "avg" && mode != "max") call.Fail("vision.roi_align: mode must be avg or max");
  if (data->ndim() != 4) call.Fail("vision.roi_align: data must be 4-D, got " + TypeString(data));
  if (rois->ndim() != 2 || (!IsAny(rois->shape[1]) && rois->shape[1] != 5)) {
    call.Fail("vision.roi_align: rois must be [num_roi, 5], got " + TypeString(rois));
  }
  const std::vector<int64_t> pooled = IntsAttr(call, "pooled_size");
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1) {
    call.Fail("vision.roi_align: pooled_size must be 2 positive values");
  }
  const Dim channels = data->shape[layout == "NCHW" ? 1 : 3];
  const Shape out = layout == "NCHW" ? Shape{rois->shape[0], channels, pooled[0], pooled[1]}
                                     : Shape{rois->shape[0], pooled[0], pooled[1], channels};
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterVisionOps(OpRegistry& registry) {
  OpDef& roi_align = RegisterOp(registry, "vision.roi_align", 2, OpPattern::kOutEWiseFusable,
                                ROIAlignRel, "ROI Align operator.");
  roi_align.attrs_schema = ROIAlignAttrs();
  roi_align.kernel = kernels::ROIAlign;
  RegisterNMSOps(registry);
}

}  // namespace relaypass::op
