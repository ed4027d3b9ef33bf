// TVM v0.13's CPU vision NMS (topi.vision.get_valid_counts, non_max_suppression,
// all_class_non_max_suppression): boxes are [left, top, right, bottom] (any two opposite corners
// in that order), overlap is intersection over union, and a box is suppressed by a kept box when
// their IoU is at least iou_threshold.
#include <algorithm>
#include <cstring>
#include <numeric>

#include "kernel_util.h"
#include "nms.h"

namespace relaypass::op::kernels {

namespace {

// TVM's calculate_overlap of boxes a and b (4 coordinates each).
double Overlap(const double* a, const double* b) {
  const double w = std::max(0.0, std::min(a[2], b[2]) - std::max(a[0], b[0]));
  const double h = std::max(0.0, std::min(a[3], b[3]) - std::max(a[1], b[1]));
  const double i = w * h;
  const double u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i;
  return u <= 0.0 ? 0.0 : i / u;
}

// The first `count` of `order` sorted by score, highest first (ties keep their order).
void SortByScore(std::vector<int64_t>& order, const std::vector<double>& score) {
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t x, int64_t y) { return score[x] > score[y]; });
}

// A scalar input's value (thresholds and limits are tensors in TVM's NMS signatures).
double ScalarValue(const NDArray& x, const char* op, const char* what) {
  if (x.size() != 1) {
    Fail(std::string(op) + ": " + what + " must hold one value, got " + ShapeString(x.shape()));
  }
  return x.GetAsDouble(0);
}

// The element index of `attr` (score_index, id_index, coord_start + 3) checked against the row
// length; -1 is allowed where TVM disables the field.
int64_t FieldIndex(const ir::AttrsNode& a, const char* attr, int64_t extra, int64_t k,
                   bool allow_disabled, const char* op) {
  const int64_t v = a.get_int(attr);
  if (allow_disabled && v < 0) return -1;
  if (v < 0 || v > k - 1 - extra) {
    Fail(std::string(op) + ": " + attr + " = " + std::to_string(v) + " does not fit rows of " +
         std::to_string(k) + " values");
  }
  return v;
}

NDArray Int32Array(const Shape& shape, int32_t fill) {
  NDArray out = NDArray::Uninitialized(shape, DataType::Int(32));
  std::fill_n(out.mutable_data<int32_t>(), out.size(), fill);
  return out;
}

}  // namespace

// Per batch: the rows whose score beats score_threshold (and whose class id, if any, is not
// negative) moved to the top in their order, the rest -1; their count; their original indices.
Arrays GetValidCounts(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "vision.get_valid_counts";
  CheckInputs(in, 2, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const NDArray& data = in[0];
  if (data.ndim() != 3) Fail("vision.get_valid_counts: data must be 3-D");
  const int64_t batch = data.shape()[0], n = data.shape()[1], k = data.shape()[2];
  const double threshold = ScalarValue(in[1], op, "score_threshold");
  const int64_t score_index = FieldIndex(a, "score_index", 0, k, false, op);
  const int64_t id_index = FieldIndex(a, "id_index", 0, k, true, op);
  NDArray count = Int32Array({batch}, 0);
  NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
  NDArray out_indices = Int32Array({batch, n}, -1);
  if (out.size() > 0) {
    const NDArray minus_one =
        CastArray(NDArray::Scalar<double>(-1.0, DataType::Float(64)), data.dtype());
    const NDArray values = CastArray(data, DataType::Float(64));
    const double* pv = values.data<double>();
    const size_t elem = data.dtype().bytes();
    const auto* src = static_cast<const uint8_t*>(data.raw_data());
    auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
    for (int64_t b = 0; b < batch; ++b) {
      int32_t valid = 0;
      for (int64_t j = 0; j < n; ++j) {
        const double* row = pv + (b * n + j) * k;
        if (row[score_index] > threshold && (id_index < 0 || row[id_index] >= 0)) {
          std::memcpy(dst + ((b * n + valid) * k) * elem, src + ((b * n + j) * k) * elem, k * elem);
          out_indices.mutable_data<int32_t>()[b * n + valid] = static_cast<int32_t>(j);
          ++valid;
        }
      }
      for (int64_t j = valid; j < n; ++j) {
        for (int64_t e = 0; e < k; ++e) {
          std::memcpy(dst + ((b * n + j) * k + e) * elem, minus_one.raw_data(), elem);
        }
      }
      count.mutable_data<int32_t>()[b] = valid;
    }
  }
  return {count, out, out_indices};
}

// Per batch: the first valid_count rows sorted by score (the top_k best when top_k > 0), then the
// greedy pass: a row still valid is kept (at most max_output_size when that is positive) and
// suppresses the later rows of its class (any class with force_suppress) that overlap it enough.
// return_indices: the kept rows' `indices` values, compacted, and their count; otherwise the
// sorted rows with the suppressed ones' score (and class id) -1, optionally the kept ones on top.
Arrays NonMaxSuppression(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "vision.non_max_suppression";
  CheckInputs(in, 5, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const NDArray& data = in[0];
  if (data.ndim() != 3) Fail("vision.non_max_suppression: data must be 3-D");
  const int64_t batch = data.shape()[0], n = data.shape()[1], k = data.shape()[2];
  const NDArray valid_count = CastArray(in[1], DataType::Int(64));
  const NDArray indices = CastArray(in[2], DataType::Int(64));
  if (valid_count.ndim() != 1 || valid_count.shape()[0] != batch) {
    Fail("vision.non_max_suppression: valid_count must be [batch], got " +
         ShapeString(valid_count.shape()));
  }
  if (indices.ndim() != 2 || indices.shape()[0] != batch || indices.shape()[1] != n) {
    Fail("vision.non_max_suppression: indices must be [batch, num_anchors], got " +
         ShapeString(indices.shape()));
  }
  const double max_output = ScalarValue(in[3], op, "max_output_size");
  const double iou_threshold = ScalarValue(in[4], op, "iou_threshold");
  const bool force_suppress = a.get_bool("force_suppress");
  const int64_t top_k = a.get_int("top_k");
  const int64_t coord_start = FieldIndex(a, "coord_start", 3, k, false, op);
  const int64_t score_index = FieldIndex(a, "score_index", 0, k, false, op);
  const int64_t id_index = FieldIndex(a, "id_index", 0, k, true, op);
  const bool return_indices = a.get_bool("return_indices");
  const bool invalid_to_bottom = a.get_bool("invalid_to_bottom");

  NDArray rows = NDArray::Uninitialized(data.shape(), DataType::Float(64));
  NDArray box_indices = Int32Array({batch, n}, -1);
  NDArray kept_count = Int32Array({batch, 1}, 0);
  const NDArray values = CastArray(data, DataType::Float(64));
  const double* pv = values.data<double>();
  double* pr = rows.mutable_data<double>();
  std::vector<int64_t> order;
  std::vector<double> score(static_cast<size_t>(n));
  std::vector<char> kept(static_cast<size_t>(n));
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t valid = valid_count.data<int64_t>()[b];
    if (valid < 0 || valid > n) {
      Fail("vision.non_max_suppression: valid_count[" + std::to_string(b) +
           "] = " + std::to_string(valid) + " is outside [0, " + std::to_string(n) + "]");
    }
    const double* in_rows = pv + b * n * k;
    double* out_rows = pr + b * n * k;
    order.resize(static_cast<size_t>(valid));
    std::iota(order.begin(), order.end(), 0);
    for (int64_t j = 0; j < valid; ++j) score[j] = in_rows[j * k + score_index];
    SortByScore(order, score);
    const int64_t nkeep = top_k > 0 && top_k < valid ? top_k : valid;
    for (int64_t j = 0; j < n; ++j) {
      if (j < nkeep) {
        std::copy_n(in_rows + order[j] * k, k, out_rows + j * k);
      } else {
        std::fill_n(out_rows + j * k, k, -1.0);
      }
    }
    std::fill(kept.begin(), kept.end(), 0);
    int32_t num_kept = 0;
    for (int64_t j = 0; j < nkeep; ++j) {
      if (max_output > 0 && num_kept >= max_output) break;
      double* row_j = out_rows + j * k;
      if (!(row_j[score_index] > 0)) continue;
      kept[j] = 1;
      if (return_indices) {
        const int64_t original = indices.data<int64_t>()[b * n + order[j]];
        box_indices.mutable_data<int32_t>()[b * n + num_kept] = static_cast<int32_t>(original);
      }
      ++num_kept;
      for (int64_t m = j + 1; m < nkeep; ++m) {
        double* row_m = out_rows + m * k;
        if (!(row_m[score_index] > 0)) continue;
        if (!force_suppress && id_index >= 0 && row_m[id_index] != row_j[id_index]) continue;
        if (Overlap(row_j + coord_start, row_m + coord_start) >= iou_threshold) {
          row_m[score_index] = -1.0;
          if (id_index >= 0) row_m[id_index] = -1.0;
        }
      }
    }
    kept_count.mutable_data<int32_t>()[b] = num_kept;
    if (!return_indices && invalid_to_bottom) {
      // TVM's rearrange_box_out: rows whose score is not negative first, the rest -1.
      std::vector<double> moved(static_cast<size_t>(n * k), -1.0);
      int64_t top = 0;
      for (int64_t j = 0; j < n; ++j) {
        if (out_rows[j * k + score_index] >= 0) {
          std::copy_n(out_rows + j * k, k, moved.data() + top * k);
          ++top;
        }
      }
      std::copy(moved.begin(), moved.end(), out_rows);
    }
  }
  if (return_indices) return {box_indices, kept_count};
  return {CastArray(rows, data.dtype())};
}

// Per batch and class: the boxes whose score beats score_threshold, by score, kept greedily (at
// most max_output_boxes_per_class when that is positive) unless a kept box overlaps them enough.
// onnx: [batch * classes * boxes, 3] rows (batch, class, box), the selected ones first, and their
// count; tensorflow: per batch [classes * boxes, 2] rows (class, box) and their scores, and counts.
Arrays AllClassNonMaxSuppression(const Arrays& in, const ir::Attrs& attrs, const ir::Type&) {
  const char* op = "vision.all_class_non_max_suppression";
  CheckInputs(in, 5, op);
  const ir::AttrsNode& a = AttrsOf(attrs, op);
  const std::string& format = a.get_string("output_format");
  if (format != "onnx" && format != "tensorflow") {
    Fail("vision.all_class_non_max_suppression: output_format must be onnx or tensorflow");
  }
  const NDArray boxes = CastArray(in[0], DataType::Float(64));
  const NDArray scores = CastArray(in[1], DataType::Float(64));
  if (boxes.ndim() != 3 || boxes.shape()[2] != 4 || scores.ndim() != 3 ||
      scores.shape()[0] != boxes.shape()[0] || scores.shape()[2] != boxes.shape()[1]) {
    Fail(
        "vision.all_class_non_max_suppression: boxes must be [batch, num_boxes, 4] and scores "
        "[batch, num_classes, num_boxes], got " +
        ShapeString(boxes.shape()) + " and " + ShapeString(scores.shape()));
  }
  const int64_t batch = boxes.shape()[0], n = boxes.shape()[1], classes = scores.shape()[1];
  const double max_out = ScalarValue(in[2], op, "max_output_boxes_per_class");
  const double iou_threshold = ScalarValue(in[3], op, "iou_threshold");
  const double score_threshold = ScalarValue(in[4], op, "score_threshold");
  const bool onnx = format == "onnx";
  int64_t per_batch = 0, total = 0;
  if (__builtin_mul_overflow(classes, n, &per_batch) ||
      __builtin_mul_overflow(per_batch, batch, &total)) {
    Fail("vision.all_class_non_max_suppression: the output size overflows int64");
  }
  NDArray selected = onnx ? NDArray::Empty({total, 3}, DataType::Int(64))
                          : NDArray::Empty({batch, per_batch, 2}, DataType::Int(64));
  NDArray selected_scores =
      onnx ? NDArray() : NDArray::Empty({batch, per_batch}, DataType::Float(32));
  NDArray counts = NDArray::Empty({onnx ? int64_t{1} : batch}, DataType::Int(64));
  int64_t* ps = selected.mutable_data<int64_t>();
  int64_t* pc = counts.mutable_data<int64_t>();
  const double* pb = boxes.data<double>();
  const double* psc = scores.data<double>();
  std::vector<double> score(static_cast<size_t>(n));
  std::vector<int64_t> order, kept;
  int64_t onnx_rows = 0;
  for (int64_t b = 0; b < batch; ++b) {
    int64_t batch_rows = 0;
    for (int64_t c = 0; c < classes; ++c) {
      const double* cls = psc + (b * classes + c) * n;
      order.clear();
      for (int64_t j = 0; j < n; ++j) {
        score[j] = cls[j];
        if (cls[j] > score_threshold) order.push_back(j);
      }
      SortByScore(order, score);
      kept.clear();
      for (int64_t j : order) {
        if (max_out > 0 && static_cast<double>(kept.size()) >= max_out) break;
        const double* box = pb + (b * n + j) * 4;
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](int64_t m) {
          return Overlap(pb + (b * n + m) * 4, box) >= iou_threshold;
        });
        if (suppressed) continue;
        kept.push_back(j);
        if (onnx) {
          int64_t* row = ps + onnx_rows++ * 3;
          row[0] = b;
          row[1] = c;
          row[2] = j;
        } else {
          int64_t* row = ps + (b * per_batch + batch_rows) * 2;
          row[0] = c;
          row[1] = j;
          selected_scores.mutable_data<float>()[b * per_batch + batch_rows] =
              static_cast<float>(score[j]);
          ++batch_rows;
        }
      }
    }
    if (!onnx) pc[b] = batch_rows;
  }
  if (onnx) {
    pc[0] = onnx_rows;
    return {selected, counts};
  }
  return {selected, selected_scores, counts};
}

}  // namespace relaypass::op::kernels
