// The indexing family: take, strided_slice, broadcast_to (and its inverse collapse_sum_like /
// collapse_sum_to), tile, reverse, gather, gather_nd, one_hot, cumsum, topk, sort, argsort,
// searchsorted, trilu, einsum, scatter_elements, scatter_nd, reverse_sequence, sequence_mask,
// matrix_set_diag and slice_like (TVM's transform, algorithm and scan ops that read or write by
// index).
#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <map>
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* TakeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.TakeAttrs", {AttrsSchema::Int("batch_dims", 0), AttrsSchema::IndexExpr("axis"),
                                AttrsSchema::String("mode", "clip")});
  return &schema;
}
const AttrsSchema* StridedSliceAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.StridedSliceAttrs",
      // TVM declares begin, end, strides and axes without a default: all four always print.
      {AttrsSchema::UnsetIntArray("begin"), AttrsSchema::UnsetIntArray("end"),
       AttrsSchema::UnsetIntArray("strides"), AttrsSchema::String("slice_mode", "end"),
       AttrsSchema::UnsetIntArray("axes")});
  return &schema;
}
const AttrsSchema* InitOpAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.InitOpAttrs",
      {AttrsSchema::NullableIntArray("shape"), AttrsSchema::DType("dtype", "")});
  return &schema;
}
const AttrsSchema* TileAttrs() {
  static const AttrsSchema schema("relay.attrs.TileAttrs", {AttrsSchema::RequiredIntArray("reps")});
  return &schema;
}
const AttrsSchema* ReverseAttrs() {
  static const AttrsSchema schema("relay.attrs.ReverseAttrs", {AttrsSchema::IndexExpr("axis")});
  return &schema;
}
const AttrsSchema* GatherAttrs() {
  static const AttrsSchema schema("relay.attrs.GatherAttrs", {AttrsSchema::RequiredInt("axis")});
  return &schema;
}
const AttrsSchema* GatherNDAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.GatherNDAttrs",
      {AttrsSchema::Int("batch_dims", 0), AttrsSchema::IndexExpr("index_rank")});
  return &schema;
}
const AttrsSchema* OneHotAttrs() {
  static const AttrsSchema schema("relay.attrs.OneHotAttrs",
                                  {AttrsSchema::Int("depth", 1), AttrsSchema::Int("axis", -1),
                                   AttrsSchema::DType("dtype", "")});
  return &schema;
}
const AttrsSchema* ScanopAttrs() {
  static const AttrsSchema schema("relay.attrs.ScanopAttrs",
                                  {AttrsSchema::IndexExpr("axis"), AttrsSchema::DType("dtype", ""),
                                   AttrsSchema::IndexExpr("exclusive")});
  return &schema;
}
const AttrsSchema* TopKAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.TopKAttrs",
      {AttrsSchema::IndexExpr("k"), AttrsSchema::Int("axis", -1),
       AttrsSchema::String("ret_type", "both"), AttrsSchema::Bool("is_ascend", false),
       AttrsSchema::DType("dtype", "int32")});
  return &schema;
}
const AttrsSchema* ArgsortAttrs() {
  static const AttrsSchema schema("relay.attrs.ArgsortAttrs", {AttrsSchema::Int("axis", -1),
                                                               AttrsSchema::Bool("is_ascend", true),
                                                               AttrsSchema::DType("dtype", "")});
  return &schema;
}
const AttrsSchema* SearchSortedAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.SearchSortedAttrs",
      {AttrsSchema::Bool("right", false), AttrsSchema::DType("dtype", "int32")});
  return &schema;
}
const AttrsSchema* TriluAttrs() {
  static const AttrsSchema schema("relay.attrs.TriluAttrs", {AttrsSchema::Bool("upper", true)});
  return &schema;
}

const AttrsSchema* EinsumAttrs() {
  static const AttrsSchema schema("relay.attrs.EinsumAttrs",
                                  {AttrsSchema::RequiredString("equation")});
  return &schema;
}
const AttrsSchema* ScatterElementsAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ScatterElementsAttrs",
      {AttrsSchema::Int("axis", 0), AttrsSchema::String("reduction", "update")});
  return &schema;
}
const AttrsSchema* ScatterNDAttrs() {
  static const AttrsSchema schema("relay.attrs.ScatterNDAttrs",
                                  {AttrsSchema::String("mode", "update")});
  return &schema;
}
const AttrsSchema* ReverseSequenceAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ReverseSequenceAttrs",
      {AttrsSchema::Int("seq_axis", 1), AttrsSchema::Int("batch_axis", 0)});
  return &schema;
}

const AttrsSchema* SequenceMaskAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.SequenceMaskAttrs",
      {AttrsSchema::Double("mask_value", 0.0), AttrsSchema::Int("axis", 0)});
  return &schema;
}
const AttrsSchema* MatrixSetDiagAttrs() {
  static const AttrsSchema schema("relay.attrs.MatrixSetDiagAttrs",
                                  {AttrsSchema::Int("k1", 0), AttrsSchema::Int("k2", 0),
                                   AttrsSchema::Bool("super_diag_right_align", true),
                                   AttrsSchema::Bool("sub_diag_right_align", false)});
  return &schema;
}
const AttrsSchema* SliceLikeAttrs() {
  static const AttrsSchema schema("relay.attrs.SliceLikeAttrs",
                                  {AttrsSchema::NullableIntArray("axes")});
  return &schema;
}

void RequireIntegers(const TypeRelationCall& call, const TensorTypeRef& t,
                     const std::string& what) {
  if (!t->dtype.is_int() && !t->dtype.is_uint()) {
    call.Fail(call.op_name() + ": " + what + " must be an integer tensor, got " + TypeString(t));
  }
}

// TVM's TakeRel: axis None takes from the flattened data (the result has the indices' shape);
// otherwise data[:axis] + indices[batch_dims:] + data[axis + 1:].
bool TakeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef indices = TensorOf(call, 1);
  if (!data || !indices) return false;
  RequireIntegers(call, indices, "indices");
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& mode = attrs.get_string("mode");
  if (mode != "clip" && mode != "wrap" && mode != "fast") {
    call.Fail("take: mode must be clip, wrap or fast, got \"" + mode + "\"");
  }
  const ir::AttrValue& axis = attrs.get("axis");
  if (axis.is_null()) {
    call.AssignResult(ir::TensorType(indices->shape, data->dtype));
    return true;
  }
  const int a = NormalizeAxis(call, axis.as_int(), data->ndim(), "take: axis");
  int64_t batch_dims = attrs.get_int("batch_dims");
  if (batch_dims < 0) batch_dims += indices->ndim();
  if (batch_dims < 0 || batch_dims > a || batch_dims > indices->ndim()) {
    call.Fail("take: batch_dims " + std::to_string(attrs.get_int("batch_dims")) +
              " is out of range for axis " + std::to_string(a) + " and indices " +
              TypeString(indices));
  }
  // The batch dimensions index data and indices alike (each batch takes from its own slice).
  for (int64_t d = 0; d < batch_dims; ++d) {
    const ir::Dim di = indices->shape[d], dd = data->shape[d];
    if (!IsAny(di) && !IsAny(dd) && di != dd) {
      call.Fail("take: batch dimension " + std::to_string(d) + " of indices " +
                TypeString(indices) + " differs from the data's " + TypeString(data));
    }
  }
  Shape out(data->shape.begin(), data->shape.begin() + a);
  out.insert(out.end(), indices->shape.begin() + batch_dims, indices->shape.end());
  out.insert(out.end(), data->shape.begin() + a + 1, data->shape.end());
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

// TVM's strided_slice canonicalisation, shared with the kernel: per axis begin, stride and the
// element count.
std::vector<std::array<int64_t, 3>> StridedSlicePlan(const ir::AttrsNode& attrs,
                                                     const std::vector<int64_t>& shape,
                                                     std::string* error) {
  const size_t nd = shape.size();
  std::vector<std::array<int64_t, 3>> plan(nd);
  for (size_t i = 0; i < nd; ++i) plan[i] = {0, 1, shape[i]};
  auto ints = [&](const char* name) {
    const ir::AttrValue& v = attrs.get(name);
    return v.is_null() ? std::vector<int64_t>{} : v.as_ints();
  };
  const std::vector<int64_t> begin = ints("begin"), end = ints("end"), strides = ints("strides");
  std::vector<int64_t> axes = ints("axes");
  const bool size_mode = attrs.get_string("slice_mode") == "size";
  if (attrs.get_string("slice_mode") != "end" && !size_mode) {
    *error = "slice_mode must be end or size, got \"" + attrs.get_string("slice_mode") + "\"";
    return {};
  }
  if (axes.empty() && attrs.get("axes").is_null()) {
    for (size_t i = 0; i < std::max(begin.size(), end.size()); ++i) {
      axes.push_back(static_cast<int64_t>(i));
    }
  }
  for (size_t j = 0; j < axes.size(); ++j) {
    int64_t a = axes[j] < 0 ? axes[j] + static_cast<int64_t>(nd) : axes[j];
    if (a < 0 || a >= static_cast<int64_t>(nd)) {
      *error =
          "axis " + std::to_string(axes[j]) + " is out of range for rank " + std::to_string(nd);
      return {};
    }
    const int64_t extent = shape[a];
    int64_t stride = j < strides.size() ? strides[j] : 1;
    if (size_mode) stride = 1;
    if (stride == 0) {
      *error = "strides must not be 0";
      return {};
    }
    const int64_t lo = stride < 0 ? -1 : 0, hi = stride < 0 ? extent - 1 : extent;
    auto canon = [&](int64_t v) {
      if (v < 0) v += extent;
      return std::min(std::max(v, lo), hi);
    };
    int64_t b = j < begin.size() ? begin[j] : (stride < 0 ? extent - 1 : 0);
    b = canon(b);
    int64_t e;
    if (size_mode) {
      const int64_t size = j < end.size() ? end[j] : -1;
      e = size < 0 || size > extent - b ? extent : b + size;  // b + size may overflow
    } else if (j < end.size()) {
      // an end beyond int64's reach (ONNX's INT64_MAX) clamps as any other
      e = canon(end[j]);
    } else {
      e = stride < 0 ? -1 : extent;
    }
    // b and e lie in [-1, extent], so the span cannot overflow; the step is |stride| as an
    // unsigned number (|INT64_MIN| is 2^63) and the count 1 + (span - 1) / step, which
    // cannot overflow either (NumPy: x[0:5:2**63-1] is one element).
    const int64_t span = stride < 0 ? b - e : e - b;
    const uint64_t step =
        stride < 0 ? 0 - static_cast<uint64_t>(stride) : static_cast<uint64_t>(stride);
    const int64_t count =
        span <= 0 ? 0 : 1 + static_cast<int64_t>((static_cast<uint64_t>(span) - 1) / step);
    plan[a] = {b, stride, count};
  }
  return plan;
}

EinsumPlan MakeEinsumPlan(const std::string& equation,
                          const std::vector<std::vector<int64_t>>& shapes, std::string* error) {
  EinsumPlan plan;
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq += c;
  }
  const size_t arrow = eq.find("->");
  const std::string lhs = eq.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma == std::string::npos ? comma : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != shapes.size()) {
    *error = "the equation \"" + equation + "\" has " + std::to_string(terms.size()) +
             " operands, got " + std::to_string(shapes.size());
    return plan;
  }
  // Labels: letters by character; the ellipsis' axes as labels 256 + k (right-aligned).
  std::map<int, int> ids;
  size_t ellipsis_rank = 0;
  auto label = [&](int key) {
    auto it = ids.find(key);
    if (it != ids.end()) return it->second;
    const int id = static_cast<int>(plan.sizes.size());
    ids[key] = id;
    plan.sizes.push_back(1);
    return id;
  };
  std::vector<std::vector<int>> keys(terms.size());
  for (size_t t = 0; t < terms.size(); ++t) {
    const std::string& term = terms[t];
    const size_t dots = term.find("...");
    const size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
    if (letters > shapes[t].size() || (dots == std::string::npos && letters != shapes[t].size())) {
      *error = "operand " + std::to_string(t) + " has rank " + std::to_string(shapes[t].size()) +
               ", the equation's term \"" + term + "\" does not match";
      return plan;
    }
    const size_t span = shapes[t].size() - letters;
    ellipsis_rank = std::max(ellipsis_rank, span);
    for (size_t i = 0; i < term.size(); ++i) {
      if (dots != std::string::npos && i == dots) {
        for (size_t k = 0; k < span; ++k) keys[t].push_back(256 + static_cast<int>(span - k));
        i += 2;
      } else if (std::isalpha(static_cast<unsigned char>(term[i]))) {
        keys[t].push_back(term[i]);
      } else {
        *error = "unexpected character in \"" + equation + "\"";
        return plan;
      }
    }
  }
  std::map<int, int> counts;
  for (size_t t = 0; t < keys.size(); ++t) {
    std::vector<int> axes;
    for (size_t i = 0; i < keys[t].size(); ++i) {
      const int id = label(keys[t][i]);
      const int64_t d = shapes[t][i];
      int64_t& size = plan.sizes[id];
      if (size != d && size != 1 && d != 1) {
        *error =
            "label extents differ (" + std::to_string(size) + " and " + std::to_string(d) + ")";
        return plan;
      }
      if (d != 1) size = d;
      axes.push_back(id);
      ++counts[keys[t][i]];
    }
    plan.operands.push_back(axes);
  }
  std::vector<int> out_keys;
  if (arrow != std::string::npos) {
    const std::string rhs = eq.substr(arrow + 2);
    for (size_t i = 0; i < rhs.size(); ++i) {
      if (rhs.compare(i, 3, "...") == 0) {
        for (size_t k = 0; k < ellipsis_rank; ++k)
          out_keys.push_back(256 + static_cast<int>(ellipsis_rank - k));
        i += 2;
      } else {
        out_keys.push_back(rhs[i]);
      }
    }
  } else {
    for (size_t k = 0; k < ellipsis_rank; ++k)
      out_keys.push_back(256 + static_cast<int>(ellipsis_rank - k));
    for (const auto& [key, n] : counts) {
      if (key < 256 && n == 1) out_keys.push_back(key);
    }
  }
  for (size_t i = 0; i < out_keys.size(); ++i) {
    const int key = out_keys[i];
    // As NumPy: an output axis per label at most (a repeated one would have no defined value).
    if (std::find(out_keys.begin(), out_keys.begin() + static_cast<std::ptrdiff_t>(i), key) !=
        out_keys.begin() + static_cast<std::ptrdiff_t>(i)) {
      *error = "the equation \"" + equation + "\" includes output subscript " +
               (key < 256 ? "'" + std::string(1, static_cast<char>(key)) + "'" : "'...'") +
               " multiple times";
      return plan;
    }
    if (!ids.count(key)) {
      *error = "output label '" + std::string(1, static_cast<char>(key)) + "' is not an input's";
      return plan;
    }
    plan.output.push_back(ids[key]);
  }
  return plan;
}

namespace {

bool StridedSliceRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  // A `?` extent stays `?` in the result (TVM's output shape is dynamic there); the plan's checks
  // depend on the attributes and rank only, so it runs with a stand-in extent for those axes.
  std::vector<int64_t> extents(data->shape.begin(), data->shape.end());
  for (int64_t& d : extents) d = IsAny(d) ? 1 : d;
  std::string error;
  std::vector<std::array<int64_t, 3>> plan = StridedSlicePlan(AttrsOf(call), extents, &error);
  if (!error.empty()) call.Fail("strided_slice: " + error);
  Shape out;
  for (size_t i = 0; i < plan.size(); ++i)
    out.push_back(IsAny(data->shape[i]) ? kAnyDim : plan[i][2]);
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's BroadCastToRel: the data must broadcast to `shape`.
bool BroadcastToRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  std::vector<int64_t> shape = IntsAttr(call, "shape");
  Shape target(shape.begin(), shape.end());
  std::optional<Shape> b = BroadcastShape(data->shape, target);
  if (!b || *b != target) {
    call.Fail("broadcast_to: data " + TypeString(data) + " does not broadcast to " +
              ShapeToString(target));
  }
  call.AssignResult(ir::TensorType(target, DTypeOr(attrs.get("dtype"), data->dtype)));
  return true;
}

// TVM's BroadCastToLikeRel: like's shape, data's dtype (the data must broadcast to it).
bool BroadcastToLikeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef like = TensorOf(call, 1);
  if (!data || !like) return false;
  std::optional<Shape> b = BroadcastShape(data->shape, like->shape);
  if (!b || *b != like->shape) {
    call.Fail("broadcast_to_like: data " + TypeString(data) + " does not broadcast to " +
              TypeString(like));
  }
  call.AssignResult(ir::TensorType(like->shape, data->dtype));
  return true;
}

// TVM's CastLikeRel: data's shape, like's dtype.
bool CastLikeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef like = TensorOf(call, 1);
  if (!data || !like) return false;
  call.AssignResult(ir::TensorType(data->shape, like->dtype));
  return true;
}

// TVM's TileRel: reps and the data shape are left-padded with 1 to the same rank.
bool TileRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  std::vector<int64_t> reps = IntsAttr(call, "reps");
  Shape in = data->shape;
  while (in.size() < reps.size()) in.insert(in.begin(), 1);
  while (reps.size() < in.size()) reps.insert(reps.begin(), 1);
  Shape out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (reps[i] < 0) call.Fail("tile: reps must not be negative");
    out.push_back(DimMul(in[i], reps[i]));
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

bool ReverseRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrValue& axis = AttrsOf(call).get("axis");
  if (axis.is_null()) call.Fail("reverse: axis must be given");
  NormalizeAxis(call, axis.as_int(), data->ndim(), "reverse: axis");
  call.AssignResult(ir::Type(data));
  return true;
}

// TVM's GatherRel: data and indices have one rank; the result has the indices' shape.
bool GatherRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef indices = TensorOf(call, 1);
  if (!data || !indices) return false;
  RequireIntegers(call, indices, "indices");
  NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), "gather: axis");
  if (indices->ndim() != data->ndim()) {
    call.Fail("gather: data " + TypeString(data) + " and indices " + TypeString(indices) +
              " must have the same rank");
  }
  call.AssignResult(ir::TensorType(indices->shape, data->dtype));
  return true;
}

// TVM's GatherNDRel: indices (M, Y...) index the first M axes after batch_dims; the result is
// Y... + data.shape[batch_dims + M:].
bool GatherNDRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef indices = TensorOf(call, 1);
  if (!data || !indices) return false;
  RequireIntegers(call, indices, "indices");
  if (indices->ndim() < 1) call.Fail("gather_nd: indices must have rank >= 1");
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t batch_dims = attrs.get_int("batch_dims");
  const ir::AttrValue& index_rank = attrs.get("index_rank");
  const Dim m = index_rank.is_null() ? indices->shape[0] : index_rank.as_int();
  if (IsAny(m)) call.Fail("gather_nd: the index rank must be known");
  // Compared without adding: batch_dims and the index rank are user values up to INT64_MAX.
  if (batch_dims < 0 || m < 0 || batch_dims > data->ndim() || m > data->ndim() - batch_dims) {
    call.Fail("gather_nd: index rank " + std::to_string(m) + " and batch_dims " +
              std::to_string(batch_dims) + " exceed data " + TypeString(data));
  }
  Shape out(indices->shape.begin() + 1, indices->shape.end());
  out.insert(out.end(), data->shape.begin() + batch_dims + m, data->shape.end());
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's OneHotRel: indices with `depth` inserted at `axis` (-1: last).
bool OneHotRel(TypeRelationCall& call) {
  TensorTypeRef indices = TensorOf(call, 0);
  if (!indices) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t depth = attrs.get_int("depth");
  if (depth < 0) call.Fail("one_hot: depth must not be negative");
  const int64_t nd = indices->ndim();
  int64_t axis = attrs.get_int("axis");
  if (axis == -1) axis = nd;
  if (axis < 0 || axis > nd) call.Fail("one_hot: axis " + std::to_string(axis) + " out of range");
  TensorTypeRef on = TensorOf(call, 1);
  ir::DataType dtype = DTypeOr(attrs.get("dtype"), on ? on->dtype : ir::DataType::Float32());
  Shape out = indices->shape;
  out.insert(out.begin() + axis, depth);
  call.AssignResult(ir::TensorType(out, dtype));
  return true;
}

// TVM's ScanopRel (cumsum): axis None scans the flattened data.
bool ScanopRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const ir::DataType dtype = DTypeOr(attrs.get("dtype"), data->dtype);
  if (attrs.get("axis").is_null()) {
    Dim n = 1;
    for (Dim d : data->shape) n = DimMul(n, d);
    call.AssignResult(ir::TensorType({n}, dtype));
  } else {
    NormalizeAxis(call, attrs.get_int("axis"), data->ndim(), call.op_name() + ": axis");
    call.AssignResult(ir::TensorType(data->shape, dtype));
  }
  return true;
}

// TVM's TopKRel: the `axis` extent becomes k (k < 1: the whole axis); values, indices or both.
// sort: the data's type; argsort: its shape with the index dtype (int32 when unset).
bool SortRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), call.op_name() + ": axis");
  if (call.op_name() == "sort") {
    call.AssignResult(ir::Type(data));
  } else {
    call.AssignResult(
        ir::TensorType(data->shape, DTypeOr(AttrsOf(call).get("dtype"), ir::DataType::Int32())));
  }
  return true;
}

// TVM's SearchSortedRel: a sorted_sequence of rank > 1 has the values' rank and leading dims;
// the result has the values' shape and `dtype`.
bool SearchSortedRel(TypeRelationCall& call) {
  TensorTypeRef seq = TensorOf(call, 0);
  TensorTypeRef values = TensorOf(call, 1);
  if (!seq || !values) return false;
  if (seq->ndim() < 1 || values->ndim() < 1) {
    call.Fail("searchsorted: sorted_sequence and values must have rank >= 1");
  }
  if (seq->dtype != values->dtype) {
    call.Fail("searchsorted: sorted_sequence " + TypeString(seq) + " and values " +
              TypeString(values) + " differ in dtype");
  }
  if (seq->ndim() > 1) {
    bool ok = seq->ndim() == values->ndim();
    for (int d = 0; ok && d + 1 < seq->ndim(); ++d) {
      const Dim a = seq->shape[d], b = values->shape[d];
      ok = IsAny(a) || IsAny(b) || a == b;
    }
    if (!ok) {
      call.Fail("searchsorted: sorted_sequence " + TypeString(seq) + " and values " +
                TypeString(values) + " differ in their leading dimensions");
    }
  }
  const ir::DataType dtype = DTypeOr(AttrsOf(call).get("dtype"), ir::DataType::Int32());
  if (!dtype.is_int() && !dtype.is_uint()) {
    call.Fail("searchsorted: dtype must be an integer type, got " + dtype.ToString());
  }
  call.AssignResult(ir::TensorType(values->shape, dtype));
  return true;
}

bool TopKRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int axis = NormalizeAxis(call, attrs.get_int("axis"), data->ndim(), "topk: axis");
  const ir::AttrValue& k = attrs.get("k");
  Shape out = data->shape;
  if (!k.is_null() && k.as_int() >= 1) {
    out[axis] = IsAny(out[axis]) ? k.as_int() : std::min<Dim>(k.as_int(), out[axis]);
  }
  const ir::DataType index_dtype = DTypeOr(attrs.get("dtype"), ir::DataType::Int32());
  ir::Type values = ir::TensorType(out, data->dtype);
  ir::Type indices = ir::TensorType(out, index_dtype);
  const std::string& ret = attrs.get_string("ret_type");
  if (ret == "both") {
    call.AssignResult(ir::TupleType({values, indices}));
  } else if (ret == "values") {
    call.AssignResult(values);
  } else if (ret == "indices") {
    call.AssignResult(indices);
  } else {
    call.Fail("topk: ret_type must be both, values or indices, got \"" + ret + "\"");
  }
  return true;
}

// trilu(data, k): data of rank >= 2 and a scalar integer k.
bool TriluRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef k = TensorOf(call, 1);
  if (!data || !k) return false;
  if (data->ndim() < 2) call.Fail("trilu: data must have rank >= 2, got " + TypeString(data));
  RequireIntegers(call, k, "k");
  call.AssignResult(ir::Type(data));
  return true;
}

bool EinsumRel(TypeRelationCall& call) {
  ir::Type arg = call.arg(0);
  if (!arg || arg.as<ir::IncompleteTypeNode>()) return false;
  const auto* tuple = arg.as<ir::TupleTypeNode>();
  if (!tuple || tuple->fields.empty()) call.Fail("einsum takes a non-empty tuple of tensors");
  std::vector<std::vector<int64_t>> shapes;
  ir::DataType dtype;
  for (const ir::Type& f : tuple->fields) {
    if (!f || f.as<ir::IncompleteTypeNode>()) return false;
    const auto* t = f.as<ir::TensorTypeNode>();
    if (!t) call.Fail("einsum takes tensors, got " + ir::TypeToString(f));
    for (Dim d : t->shape) {
      if (IsAny(d)) call.Fail("einsum: `?` dims are not supported");
    }
    shapes.emplace_back(t->shape.begin(), t->shape.end());
    dtype = t->dtype;
  }
  std::string error;
  EinsumPlan plan = MakeEinsumPlan(AttrsOf(call).get_string("equation"), shapes, &error);
  if (!error.empty()) call.Fail("einsum: " + error);
  Shape out;
  for (int l : plan.output) out.push_back(plan.sizes[l]);
  call.AssignResult(ir::TensorType(out, dtype));
  return true;
}

// scatter_elements / scatter_nd: the data's type; updates and indices checked loosely.
bool ScatterRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef indices = TensorOf(call, 1);
  TensorTypeRef updates = TensorOf(call, 2);
  if (!data || !indices || !updates) return false;
  RequireIntegers(call, indices, "indices");
  if (updates->dtype != data->dtype) {
    call.Fail(call.op_name() + ": updates " + TypeString(updates) + " and data " +
              TypeString(data) + " differ in dtype");
  }
  if (call.op_name() == "scatter_elements") {
    if (indices->shape != updates->shape || indices->ndim() != data->ndim()) {
      call.Fail("scatter_elements: indices " + TypeString(indices) + " and updates " +
                TypeString(updates) + " must have one shape, of the data's rank");
    }
    NormalizeAxis(call, AttrsOf(call).get_int("axis"), data->ndim(), "scatter_elements: axis");
  }
  call.AssignResult(ir::Type(data));
  return true;
}

bool ReverseSequenceRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef lengths = TensorOf(call, 1);
  if (!data || !lengths) return false;
  RequireIntegers(call, lengths, "seq_lengths");
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int seq = NormalizeAxis(call, attrs.get_int("seq_axis"), data->ndim(), "seq_axis");
  const int batch = NormalizeAxis(call, attrs.get_int("batch_axis"), data->ndim(), "batch_axis");
  if (seq == batch) call.Fail("reverse_sequence: seq_axis and batch_axis must differ");
  call.AssignResult(ir::Type(data));
  return true;
}

// TVM's CollapseSumLikeRel / CollapseSumToRel: the target shape must broadcast to the data's
// (the sum undoes that broadcast); the result has the target shape and the data's dtype.
void CheckCollapse(const TypeRelationCall& call, const TensorTypeRef& data, const Shape& target) {
  std::optional<Shape> b = BroadcastShape(data->shape, target);
  if (!b || *b != data->shape) {
    call.Fail(call.op_name() + ": " + ShapeToString(target) + " does not broadcast to data " +
              TypeString(data));
  }
}

bool CollapseSumLikeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef like = TensorOf(call, 1);
  if (!data || !like) return false;
  if (like->dtype != data->dtype) {
    call.Fail("collapse_sum_like: data " + TypeString(data) + " and collapse_type " +
              TypeString(like) + " differ in dtype");
  }
  CheckCollapse(call, data, like->shape);
  call.AssignResult(ir::Type(like));
  return true;
}

bool CollapseSumToRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef shape = TensorOf(call, 1);
  if (!data || !shape) return false;
  RequireIntegers(call, shape, "shape");
  if (shape->ndim() != 1 || IsAny(shape->shape[0])) {
    call.Fail("collapse_sum_to: shape must be a 1-D tensor of static length, got " +
              TypeString(shape));
  }
  const ir::AttrValue& attr = AttrsOf(call).get("shape");
  Shape target;
  if (attr.is_null()) {
    target.assign(shape->shape[0], kAnyDim);
  } else {
    const std::vector<int64_t> values = attr.as_ints();
    target.assign(values.begin(), values.end());
    if (static_cast<Dim>(target.size()) != shape->shape[0]) {
      call.Fail("collapse_sum_to: the shape attribute and the shape input differ in length");
    }
  }
  CheckCollapse(call, data, target);
  call.AssignResult(ir::TensorType(target, data->dtype));
  return true;
}

// TVM's SequenceMaskRel: axis 0 or 1, valid_length one value per batch (the other axis).
bool SequenceMaskRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef length = TensorOf(call, 1);
  if (!data || !length) return false;
  const int64_t axis = AttrsOf(call).get_int("axis");
  if (axis != 0 && axis != 1) call.Fail("sequence_mask: axis must be 0 or 1");
  if (data->ndim() < 2)
    call.Fail("sequence_mask: data must have rank >= 2, got " + TypeString(data));
  const Dim batch = data->shape[1 - axis];
  if (length->ndim() != 1 ||
      (!IsAny(length->shape[0]) && !IsAny(batch) && length->shape[0] != batch)) {
    call.Fail("sequence_mask: valid_length " + TypeString(length) + " must have shape (" +
              std::to_string(batch) + ",)");
  }
  call.AssignResult(ir::Type(data));
  return true;
}

// The extent of the longest diagonal among k1..k2 of an m x n matrix.
Dim MaxDiagLen(Dim m, Dim n, int64_t k1, int64_t k2) {
  if (IsAny(m) || IsAny(n)) return kAnyDim;
  return std::min(m + std::min<int64_t>(k2, 0), n - std::max<int64_t>(k1, 0));
}

// matrix_set_diag: the data's type; the diagonal is (..., max_diag_len) for one diagonal, else
// (..., k2 - k1 + 1, max_diag_len).
bool MatrixSetDiagRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef diag = TensorOf(call, 1);
  if (!data || !diag) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t k1 = attrs.get_int("k1"), k2 = attrs.get_int("k2");
  const int nd = data->ndim();
  if (nd < 2) call.Fail("matrix_set_diag: data must have rank >= 2, got " + TypeString(data));
  if (diag->dtype != data->dtype) {
    call.Fail("matrix_set_diag: diagonal " + TypeString(diag) + " and data " + TypeString(data) +
              " differ in dtype");
  }
  const Dim m = data->shape[nd - 2], n = data->shape[nd - 1];
  if (k1 > k2) call.Fail("matrix_set_diag: k1 must not exceed k2");
  if (!IsAny(m) && !IsAny(n) && (k1 <= -m || k2 >= n)) {
    call.Fail("matrix_set_diag: diagonals k1..k2 fall outside the matrix");
  }
  Shape want(data->shape.begin(), data->shape.end() - 2);
  if (k1 != k2) want.push_back(k2 - k1 + 1);
  want.push_back(MaxDiagLen(m, n, k1, k2));
  bool ok = diag->ndim() == static_cast<int>(want.size());
  for (size_t i = 0; ok && i < want.size(); ++i) {
    ok = IsAny(want[i]) || IsAny(diag->shape[i]) || want[i] == diag->shape[i];
  }
  if (!ok) {
    call.Fail("matrix_set_diag: diagonal " + TypeString(diag) + " must have shape " +
              ShapeToString(want));
  }
  call.AssignResult(ir::Type(data));
  return true;
}

// TVM's SliceLikeRel: on each of `axes` (default: every axis both have) the data's extent is
// replaced by shape_like's, which must not exceed it.
bool SliceLikeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef like = TensorOf(call, 1);
  if (!data || !like) return false;
  const ir::AttrValue& axes = AttrsOf(call).get("axes");
  Shape out = data->shape;
  auto take = [&](int i) {
    const Dim t = like->shape[i];
    if (!IsAny(t) && !IsAny(data->shape[i]) && t > data->shape[i]) {
      call.Fail("slice_like: end index of axis " + std::to_string(i) + " exceeds input shape: " +
                std::to_string(t) + " vs " + std::to_string(data->shape[i]));
    }
    out[i] = t;
  };
  if (axes.is_null()) {
    for (int i = 0; i < std::min(data->ndim(), like->ndim()); ++i) take(i);
  } else {
    if (axes.as_array().empty()) call.Fail("slice_like: axes cannot be empty");
    for (int64_t a : axes.as_ints()) {
      const int i = NormalizeAxis(call, a, data->ndim(), "slice_like: axis");
      if (i >= like->ndim()) {
        call.Fail("slice_like: axis " + std::to_string(a) + " exceeds the rank of shape_like " +
                  TypeString(like));
      }
      take(i);
    }
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

}  // namespace

void RegisterIndexingOps(OpRegistry& registry) {
  OpDef& einsum = RegisterOp(registry, "einsum", 1, OpPattern::kInjective, EinsumRel,
                             "Einstein summation over a tuple of operands.");
  einsum.attrs_schema = EinsumAttrs();
  einsum.kernel = kernels::Einsum;
  OpDef& scatter_elements =
      RegisterOp(registry, "scatter_elements", 3, OpPattern::kOpaque, ScatterRel,
                 "data with updates written (or reduced) at indices along an axis.");
  scatter_elements.attrs_schema = ScatterElementsAttrs();
  scatter_elements.kernel = kernels::ScatterElements;
  OpDef& scatter_nd = RegisterOp(registry, "scatter_nd", 3, OpPattern::kOpaque, ScatterRel,
                                 "data with update slices written (or reduced) at index tuples.");
  scatter_nd.attrs_schema = ScatterNDAttrs();
  scatter_nd.kernel = kernels::ScatterND;
  OpDef& reverse_sequence =
      RegisterOp(registry, "reverse_sequence", 2, OpPattern::kInjective, ReverseSequenceRel,
                 "Reverses the first seq_lengths[b] elements along seq_axis of each batch b.");
  reverse_sequence.attrs_schema = ReverseSequenceAttrs();
  reverse_sequence.kernel = kernels::ReverseSequence;
  OpDef& collapse_sum_like =
      RegisterOp(registry, "collapse_sum_like", 2, OpPattern::kCommReduce, CollapseSumLikeRel,
                 "Sums data over the axes broadcasting added to the second input's shape.");
  collapse_sum_like.kernel = kernels::CollapseSumLike;
  OpDef& collapse_sum_to =
      RegisterOp(registry, "collapse_sum_to", 2, OpPattern::kCommReduce, CollapseSumToRel,
                 "Sums data over the axes broadcasting added to a (constant) shape.");
  collapse_sum_to.attrs_schema = InitOpAttrs();
  collapse_sum_to.kernel = kernels::CollapseSumTo;
  OpDef& sequence_mask =
      RegisterOp(registry, "sequence_mask", 2, OpPattern::kInjective, SequenceMaskRel,
                 "Sets positions at or past each batch's valid length to mask_value.");
  sequence_mask.attrs_schema = SequenceMaskAttrs();
  sequence_mask.kernel = kernels::SequenceMask;
  OpDef& matrix_set_diag =
      RegisterOp(registry, "matrix_set_diag", 2, OpPattern::kInjective, MatrixSetDiagRel,
                 "Replaces diagonals k1..k2 of the innermost matrices with the given ones.");
  matrix_set_diag.attrs_schema = MatrixSetDiagAttrs();
  matrix_set_diag.kernel = kernels::MatrixSetDiag;
  OpDef& slice_like = RegisterOp(registry, "slice_like", 2, OpPattern::kInjective, SliceLikeRel,
                                 "Slices data from the start to the second input's extents.");
  slice_like.attrs_schema = SliceLikeAttrs();
  slice_like.kernel = kernels::SliceLike;
  OpDef& take = RegisterOp(registry, "take", 2, OpPattern::kInjective, TakeRel,
                           "Takes elements of data along an axis at the given indices.");
  take.attrs_schema = TakeAttrs();
  take.kernel = kernels::Take;
  OpDef& strided_slice =
      RegisterOp(registry, "strided_slice", 1, OpPattern::kInjective, StridedSliceRel,
                 "A slice with begin, end (or size) and strides per axis.");
  strided_slice.attrs_schema = StridedSliceAttrs();
  strided_slice.kernel = kernels::StridedSlice;
  OpDef& broadcast_to = RegisterOp(registry, "broadcast_to", 1, OpPattern::kBroadcast,
                                   BroadcastToRel, "Broadcasts data to a static shape.");
  broadcast_to.attrs_schema = InitOpAttrs();
  broadcast_to.kernel = kernels::BroadcastTo;
  OpDef& broadcast_to_like =
      RegisterOp(registry, "broadcast_to_like", 2, OpPattern::kBroadcast, BroadcastToLikeRel,
                 "Broadcasts data to the shape of the second input.");
  broadcast_to_like.kernel = kernels::BroadcastToLike;
  OpDef& cast_like = RegisterOp(registry, "cast_like", 2, OpPattern::kElemWise, CastLikeRel,
                                "Casts data to the dtype of the second input.");
  cast_like.kernel = kernels::CastLike;
  OpDef& tile = RegisterOp(registry, "tile", 1, OpPattern::kInjective, TileRel,
                           "Repeats the whole data reps[i] times along each axis.");
  tile.attrs_schema = TileAttrs();
  tile.kernel = kernels::Tile;
  OpDef& reverse = RegisterOp(registry, "reverse", 1, OpPattern::kInjective, ReverseRel,
                              "Reverses the order of elements along an axis.");
  reverse.attrs_schema = ReverseAttrs();
  reverse.kernel = kernels::Reverse;
  OpDef& gather = RegisterOp(registry, "gather", 2, OpPattern::kInjective, GatherRel,
                             "out[..i..] = data[..indices[..i..]..] along an axis.");
  gather.attrs_schema = GatherAttrs();
  gather.kernel = kernels::Gather;
  OpDef& gather_nd = RegisterOp(registry, "gather_nd", 2, OpPattern::kInjective, GatherNDRel,
                                "Gathers slices of data at index tuples (indices' first axis).");
  gather_nd.attrs_schema = GatherNDAttrs();
  gather_nd.kernel = kernels::GatherND;
  OpDef& one_hot = RegisterOp(registry, "one_hot", 3, OpPattern::kOutEWiseFusable, OneHotRel,
                              "on_value where the new axis equals the index, off_value elsewhere.");
  one_hot.attrs_schema = OneHotAttrs();
  one_hot.kernel = kernels::OneHot;
  OpDef& cumsum = RegisterOp(registry, "cumsum", 1, OpPattern::kOpaque, ScanopRel,
                             "Cumulative sum along an axis (inclusive, or exclusive).");
  cumsum.attrs_schema = ScanopAttrs();
  cumsum.kernel = kernels::CumSum;
  OpDef& topk = RegisterOp(registry, "topk", 1, OpPattern::kOpaque, TopKRel,
                           "The k largest (or smallest) values along an axis and their indices.");
  topk.attrs_schema = TopKAttrs();
  topk.kernel = kernels::TopK;
  OpDef& sort = RegisterOp(registry, "sort", 1, OpPattern::kOpaque, SortRel,
                           "The data sorted along an axis (stable).");
  sort.attrs_schema = ArgsortAttrs();
  sort.kernel = kernels::Sort;
  OpDef& argsort = RegisterOp(registry, "argsort", 1, OpPattern::kOpaque, SortRel,
                              "The positions that sort the data along an axis (stable).");
  argsort.attrs_schema = ArgsortAttrs();
  argsort.kernel = kernels::ArgSort;
  OpDef& searchsorted =
      RegisterOp(registry, "searchsorted", 2, OpPattern::kOpaque, SearchSortedRel,
                 "Where each value would be inserted in the sorted sequence's innermost axis.");
  searchsorted.attrs_schema = SearchSortedAttrs();
  searchsorted.kernel = kernels::SearchSorted;
  OpDef& trilu = RegisterOp(registry, "trilu", 2, OpPattern::kInjective, TriluRel,
                            "The upper or lower triangle of the last two axes, from diagonal k.");
  trilu.attrs_schema = TriluAttrs();
  trilu.kernel = kernels::Trilu;
}

}  // namespace relaypass::op

namespace relaypass::relay {

using ir::AttrValue;
using op::CallOp;

namespace {
// An Array<Integer> attribute keeping int64 values that do not fit int32 (ONNX's INT64_MAX ends).
AttrValue Integers(const Ints& v) {
  std::vector<AttrValue> out;
  for (int64_t x : v) {
    const bool fits =
        x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max();
    out.push_back(AttrValue::Int(x, fits ? ir::DataType::Int32() : ir::DataType::Int64()));
  }
  return AttrValue::Array(std::move(out));
}
}  // namespace

Expr take(Expr data, Expr indices, std::optional<int64_t> axis, int batch_dims,
          const std::string& mode) {
  return CallOp("take", {std::move(data), std::move(indices)},
                {{"batch_dims", AttrValue::Int(batch_dims)},
                 {"axis", op::OptionalInt(axis)},
                 {"mode", AttrValue::Str(mode)}});
}

Expr strided_slice(Expr data, const Ints& begin, const Ints& end, std::optional<Ints> strides,
                   std::optional<Ints> axes, const std::string& slice_mode) {
  return CallOp("strided_slice", {std::move(data)},
                {{"begin", Integers(begin)},
                 {"end", Integers(end)},
                 {"strides", Integers(strides ? *strides : Ints{1})},
                 {"slice_mode", AttrValue::Str(slice_mode)},
                 {"axes", axes ? Integers(*axes) : AttrValue::Null()}});
}

Expr broadcast_to(Expr data, const Ints& shape) {
  return CallOp("broadcast_to", {std::move(data)}, {{"shape", AttrValue::Ints(shape)}});
}

Expr broadcast_to_like(Expr data, Expr like) {
  return CallOp("broadcast_to_like", {std::move(data), std::move(like)});
}

Expr cast_like(Expr data, Expr like) {
  return CallOp("cast_like", {std::move(data), std::move(like)});
}

Expr tile(Expr data, const Ints& reps) {
  return CallOp("tile", {std::move(data)}, {{"reps", AttrValue::Ints(reps)}});
}

Expr reverse(Expr data, int axis) {
  return CallOp("reverse", {std::move(data)}, {{"axis", AttrValue::Int(axis)}});
}

Expr gather(Expr data, int axis, Expr indices) {
  return CallOp("gather", {std::move(data), std::move(indices)}, {{"axis", AttrValue::Int(axis)}});
}

Expr gather_nd(Expr data, Expr indices, int batch_dims, std::optional<int64_t> index_rank) {
  return CallOp(
      "gather_nd", {std::move(data), std::move(indices)},
      {{"batch_dims", AttrValue::Int(batch_dims)}, {"index_rank", op::OptionalInt(index_rank)}});
}

Expr one_hot(Expr indices, Expr on_value, Expr off_value, int depth, int axis,
             const std::string& dtype) {
  return CallOp("one_hot", {std::move(indices), std::move(on_value), std::move(off_value)},
                {{"depth", AttrValue::Int(depth)},
                 {"axis", AttrValue::Int(axis)},
                 {"dtype", AttrValue::Str(dtype)}});
}

Expr cumsum(Expr data, std::optional<int64_t> axis, const std::string& dtype,
            std::optional<bool> exclusive) {
  return CallOp(
      "cumsum", {std::move(data)},
      {{"axis", op::OptionalInt(axis)},
       {"dtype", AttrValue::Str(dtype)},
       {"exclusive", exclusive ? AttrValue::Int(*exclusive ? 1 : 0) : AttrValue::Null()}});
}

Expr topk(Expr data, int k, int axis, const std::string& ret_type, bool is_ascend,
          const std::string& dtype) {
  return CallOp("topk", {std::move(data)},
                {{"k", AttrValue::Int(k)},
                 {"axis", AttrValue::Int(axis)},
                 {"ret_type", AttrValue::Str(ret_type)},
                 {"is_ascend", AttrValue::Bool(is_ascend)},
                 {"dtype", AttrValue::Str(dtype)}});
}

Expr einsum(std::vector<Expr> operands, const std::string& equation) {
  return CallOp("einsum", {relay::tuple(std::move(operands))},
                {{"equation", AttrValue::Str(equation)}});
}

Expr scatter_elements(Expr data, Expr indices, Expr updates, int axis,
                      const std::string& reduction) {
  return CallOp("scatter_elements", {std::move(data), std::move(indices), std::move(updates)},
                {{"axis", AttrValue::Int(axis)}, {"reduction", AttrValue::Str(reduction)}});
}

Expr scatter_nd(Expr data, Expr indices, Expr updates, const std::string& mode) {
  return CallOp("scatter_nd", {std::move(data), std::move(indices), std::move(updates)},
                {{"mode", AttrValue::Str(mode)}});
}

Expr reverse_sequence(Expr data, Expr seq_lengths, int seq_axis, int batch_axis) {
  return CallOp(
      "reverse_sequence", {std::move(data), std::move(seq_lengths)},
      {{"seq_axis", AttrValue::Int(seq_axis)}, {"batch_axis", AttrValue::Int(batch_axis)}});
}

Expr collapse_sum_like(Expr data, Expr like) {
  return CallOp("collapse_sum_like", {std::move(data), std::move(like)});
}

Expr collapse_sum_to(Expr data, const Ints& shape) {
  ir::NDArray array =
      ir::NDArray::Uninitialized({static_cast<int64_t>(shape.size())}, ir::DataType::Int32());
  for (size_t i = 0; i < shape.size(); ++i) {
    array.mutable_data<int32_t>()[i] = static_cast<int32_t>(shape[i]);
  }
  return CallOp("collapse_sum_to", {std::move(data), ir::MakeConstant(std::move(array))},
                {{"shape", AttrValue::Ints(shape)}});
}

Expr sequence_mask(Expr data, Expr valid_length, double mask_value, int axis) {
  return CallOp("sequence_mask", {std::move(data), std::move(valid_length)},
                {{"mask_value", AttrValue::Double(mask_value)}, {"axis", AttrValue::Int(axis)}});
}

Expr matrix_set_diag(Expr data, Expr diagonal, int k1, int k2, bool super_diag_right_align,
                     bool sub_diag_right_align) {
  return CallOp("matrix_set_diag", {std::move(data), std::move(diagonal)},
                {{"k1", AttrValue::Int(k1)},
                 {"k2", AttrValue::Int(k2)},
                 {"super_diag_right_align", AttrValue::Bool(super_diag_right_align)},
                 {"sub_diag_right_align", AttrValue::Bool(sub_diag_right_align)}});
}

Expr slice_like(Expr data, Expr shape_like, std::optional<Ints> axes) {
  return CallOp("slice_like", {std::move(data), std::move(shape_like)},
                {{"axes", op::OptionalInts(axes)}});
}

Expr sort(Expr data, int axis, bool is_ascend) {
  return CallOp("sort", {std::move(data)},
                {{"axis", AttrValue::Int(axis)}, {"is_ascend", AttrValue::Bool(is_ascend)}});
}

Expr argsort(Expr data, int axis, bool is_ascend, const std::string& dtype) {
  return CallOp("argsort", {std::move(data)},
                {{"axis", AttrValue::Int(axis)},
                 {"is_ascend", AttrValue::Bool(is_ascend)},
                 {"dtype", AttrValue::Str(dtype)}});
}

Expr searchsorted(Expr sorted_sequence, Expr values, bool right, const std::string& dtype) {
  return CallOp("searchsorted", {std::move(sorted_sequence), std::move(values)},
                {{"right", AttrValue::Bool(right)}, {"dtype", AttrValue::Str(dtype)}});
}

Expr trilu(Expr data, Expr k, bool upper) {
  return CallOp("trilu", {std::move(data), std::move(k)}, {{"upper", AttrValue::Bool(upper)}});
}

}  // namespace relaypass::relay
