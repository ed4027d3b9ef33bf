// The vision NMS operators (TVM v0.13's GetValidCountsAttrs, NonMaximumSuppressionAttrs,
// AllClassNonMaximumSuppressionAttrs and their relations): vision.get_valid_counts,
// vision.non_max_suppression and vision.all_class_non_max_suppression.
#include <string>

#include "families.h"
#include "kernels/nms.h"
#include "op_common.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* GetValidCountsAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.GetValidCountsAttrs",
      {AttrsSchema::Int("id_index", 0), AttrsSchema::Int("score_index", 1)});
  return &schema;
}
const AttrsSchema* NonMaximumSuppressionAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.NonMaximumSuppressionAttrs",
      {AttrsSchema::Bool("force_suppress", false), AttrsSchema::Int("top_k", -1),
       AttrsSchema::Int("coord_start", 2), AttrsSchema::Int("score_index", 1),
       AttrsSchema::Int("id_index", 0), AttrsSchema::Bool("return_indices", true),
       AttrsSchema::Bool("invalid_to_bottom", false)});
  return &schema;
}
const AttrsSchema* AllClassNonMaximumSuppressionAttrs() {
  static const AttrsSchema schema("relay.attrs.AllClassNonMaximumSuppressionAttrs",
                                  {AttrsSchema::String("output_format", "onnx")});
  return &schema;
}

// A known row length `k` must hold the attribute's field (`extra` more values after it).
void CheckField(TypeRelationCall& call, Dim k, const char* attr, int64_t extra,
                bool allow_disabled) {
  const int64_t v = AttrsOf(call).get_int(attr);
  if (allow_disabled && v < 0) return;
  if (v < 0 || (!IsAny(k) && v > k - 1 - extra)) {
    call.Fail(call.op_name() + ": " + attr + " = " + std::to_string(v) + " does not fit rows of " +
              (IsAny(k) ? std::string("?") : std::to_string(k)) + " values");
  }
}

// A scalar-valued input (a threshold or a limit): one element.
bool ScalarInput(TypeRelationCall& call, size_t i, const char* what) {
  TensorTypeRef t = TensorOf(call, i);
  if (!t) return false;
  for (Dim d : t->shape) {
    if (!IsAny(d) && d != 1) {
      call.Fail(call.op_name() + ": " + what + " must be a scalar, got " + TypeString(t));
    }
  }
  return true;
}

// TVM's GetValidCountRel: data [batch, anchors, k] gives (valid_count [batch] int32, data's
// type, indices [batch, anchors] int32).
bool GetValidCountRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  if (data->ndim() != 3) call.Fail("vision.get_valid_counts: Input data should be 3-D.");
  if (!ScalarInput(call, 1, "score_threshold")) return false;
  CheckField(call, data->shape[2], "score_index", 0, false);
  CheckField(call, data->shape[2], "id_index", 0, true);
  const ir::DataType i32 = ir::DataType::Int(32);
  call.AssignResult(ir::TupleType({ir::TensorType({data->shape[0]}, i32), ir::Type(data),
                                   ir::TensorType({data->shape[0], data->shape[1]}, i32)}));
  return true;
}

// TVM's NMSRel: (indices [batch, anchors] int32, count [batch, 1] int32) with return_indices,
// otherwise data's type.
bool NMSRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef valid_count = TensorOf(call, 1);
  TensorTypeRef indices = TensorOf(call, 2);
  if (!data || !valid_count || !indices) return false;
  if (data->ndim() != 3) call.Fail("vision.non_max_suppression: Input data should be 3-D.");
  if (valid_count->ndim() != 1) {
    call.Fail("vision.non_max_suppression: Input valid count should be 1-D.");
  }
  if (indices->ndim() != 2) call.Fail("vision.non_max_suppression: indices should be 2-D.");
  if (!ScalarInput(call, 3, "max_output_size") || !ScalarInput(call, 4, "iou_threshold")) {
    return false;
  }
  const Dim k = data->shape[2];
  CheckField(call, k, "coord_start", 3, false);
  CheckField(call, k, "score_index", 0, false);
  CheckField(call, k, "id_index", 0, true);
  if (AttrsOf(call).get_bool("return_indices")) {
    const ir::DataType i32 = ir::DataType::Int(32);
    call.AssignResult(ir::TupleType({ir::TensorType({data->shape[0], data->shape[1]}, i32),
                                     ir::TensorType({data->shape[0], 1}, i32)}));
  } else {
    call.AssignResult(ir::Type(data));
  }
  return true;
}

// TVM's AllClassNMSRel: onnx gives (selected [batch * classes * boxes (`?` when batch or boxes
// is), 3] int64, count [1] int64); tensorflow (indices [batch, classes * boxes, 2] int64,
// scores [batch, classes * boxes] float32, counts [batch] int64).
bool AllClassNMSRel(TypeRelationCall& call) {
  TensorTypeRef boxes = TensorOf(call, 0);
  TensorTypeRef scores = TensorOf(call, 1);
  if (!boxes || !scores) return false;
  if (boxes->ndim() != 3) call.Fail(call.op_name() + ": Input boxes should be 3-D.");
  if (scores->ndim() != 3) call.Fail(call.op_name() + ": Input scores count should be 3-D.");
  for (size_t i = 2; i < 5; ++i) {
    if (!ScalarInput(call, i,
                     i == 2 ? "max_output_boxes_per_class"
                            : (i == 3 ? "iou_threshold" : "score_threshold"))) {
      return false;
    }
  }
  const std::string& format = AttrsOf(call).get_string("output_format");
  const Dim batch = boxes->shape[0], classes = scores->shape[1], num_boxes = boxes->shape[1];
  const ir::DataType i64 = ir::DataType::Int(64);
  if (format == "onnx") {
    const Dim total = DimMul(DimMul(batch, classes), num_boxes);
    call.AssignResult(ir::TupleType({ir::TensorType({total, 3}, i64), ir::TensorType({1}, i64)}));
  } else if (format == "tensorflow") {
    const Dim per_batch = DimMul(classes, num_boxes);
    call.AssignResult(ir::TupleType({ir::TensorType({batch, per_batch, 2}, i64),
                                     ir::TensorType({batch, per_batch}, ir::DataType::Float(32)),
                                     ir::TensorType({batch}, i64)}));
  } else {
    call.Fail(call.op_name() + ": output_format must be onnx or tensorflow, got \"" + format +
              "\"");
  }
  return true;
}

}  // namespace

void RegisterNMSOps(OpRegistry& registry) {
  OpDef& counts =
      RegisterOp(registry, "vision.get_valid_counts", 2, OpPattern::kOpaque, GetValidCountRel,
                 "Moves the boxes scoring above score_threshold to the top.");
  counts.attrs_schema = GetValidCountsAttrs();
  counts.kernel = kernels::GetValidCounts;
  OpDef& nms = RegisterOp(registry, "vision.non_max_suppression", 5, OpPattern::kOpaque, NMSRel,
                          "Non-maximum suppression of [class_id, score, box] rows.");
  nms.attrs_schema = NonMaximumSuppressionAttrs();
  nms.kernel = kernels::NonMaxSuppression;
  OpDef& all_class =
      RegisterOp(registry, "vision.all_class_non_max_suppression", 5, OpPattern::kOpaque,
                 AllClassNMSRel, "Non-maximum suppression of each class separately.");
  all_class.attrs_schema = AllClassNonMaximumSuppressionAttrs();
  all_class.kernel = kernels::AllClassNonMaxSuppression;
}

}  // namespace relaypass::op
