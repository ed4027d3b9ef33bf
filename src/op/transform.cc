// The transform family: layout_transform, expand_dims, squeeze, reshape,
// contrib_reverse_reshape, shape_of, ndarray_size, transpose, concatenate, split, repeat and cast.
#include <algorithm>
#include <string>

#include "families.h"
#include "kernels/kernels.h"
#include "layout_rules/layout_rules.h"
#include "op_common.h"
#include "relaypass/ir/dim_expr.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const AttrsSchema* LayoutTransformAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.LayoutTransformAttrs",
      {AttrsSchema::RequiredString("src_layout"), AttrsSchema::RequiredString("dst_layout")});
  return &schema;
}
const AttrsSchema* ExpandDimsAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ExpandDimsAttrs",
      {AttrsSchema::RequiredInt("axis"), AttrsSchema::Int("num_newaxis", 1)});
  return &schema;
}
const AttrsSchema* SqueezeAttrs() {
  static const AttrsSchema schema("relay.attrs.SqueezeAttrs",
                                  {AttrsSchema::NullableIntArray("axis")});
  return &schema;
}
const AttrsSchema* ReshapeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ReshapeAttrs",
      {AttrsSchema::RequiredIntArray("newshape"), AttrsSchema::Bool("allowzero", false)});
  return &schema;
}
const AttrsSchema* ShapeOfAttrs() {
  static const AttrsSchema schema("relay.attrs.ShapeOfAttrs", {AttrsSchema::DType("dtype", "")});
  return &schema;
}
const AttrsSchema* NdarraySizeAttrs() {
  static const AttrsSchema schema("relay.attrs.NdarraySizeAttrs",
                                  {AttrsSchema::DType("dtype", "")});
  return &schema;
}
const AttrsSchema* TransposeAttrs() {
  static const AttrsSchema schema("relay.attrs.TransposeAttrs",
                                  {AttrsSchema::RequiredIntArray("axes")});
  return &schema;
}
const AttrsSchema* ConcatenateAttrs() {
  static const AttrsSchema schema("relay.attrs.ConcatenateAttrs", {AttrsSchema::Int("axis", 0)});
  return &schema;
}
const AttrsSchema* RepeatAttrs() {
  // TVM's RepeatAttrs: `axis` is an Integer defaulting to null, so it is always printed.
  static const AttrsSchema schema("relay.attrs.RepeatAttrs", {AttrsSchema::RequiredInt("repeats"),
                                                              AttrsSchema::IndexExpr("axis")});
  return &schema;
}
const AttrsSchema* SplitAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.SplitAttrs",
      {AttrsSchema::RequiredIntOrIntArray("indices_or_sections"), AttrsSchema::Int("axis", 0)});
  return &schema;
}
const AttrsSchema* CastAttrs() {
  static const AttrsSchema schema("relay.attrs.CastAttrs", {AttrsSchema::RequiredDType("dtype")});
  return &schema;
}

bool LayoutTransformRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& src = attrs.get_string("src_layout");
  const std::string& dst = attrs.get_string("dst_layout");
  BijectiveLayout layouts(ParseLayout(call, src), ParseLayout(call, dst));
  if (!layouts.defined()) call.Fail("layout_transform: cannot convert from " + src + " to " + dst);
  Shape out = ConvertShape(call, layouts, data->shape, true, "layout_transform: data shape");
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

constexpr int64_t kMaxNewAxes = 1 << 16;

bool ExpandDimsRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t ndim = data->ndim();
  const int64_t axis = attrs.get_int("axis");
  const int64_t num_newaxis = attrs.get_int("num_newaxis");
  if (num_newaxis < 0) {
    call.Fail("expand_dims: num_newaxis must be >= 0, got " + std::to_string(num_newaxis));
  }
  if (num_newaxis > kMaxNewAxes) {  // a rank that large is a malformed input, not a tensor
    call.Fail("expand_dims: num_newaxis " + std::to_string(num_newaxis) + " is larger than " +
              std::to_string(kMaxNewAxes));
  }
  if (axis < -ndim - 1 || axis > ndim) {
    call.Fail("expand_dims: axis " + std::to_string(axis) + " is out of range [" +
              std::to_string(-ndim - 1) + ", " + std::to_string(ndim) + "] for data " +
              TypeString(data));
  }
  const int64_t pivot = axis < 0 ? ndim + axis + 1 : axis;
  Shape out(data->shape.begin(), data->shape.begin() + pivot);
  out.insert(out.end(), num_newaxis, 1);
  out.insert(out.end(), data->shape.begin() + pivot, data->shape.end());
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

bool SqueezeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrValue& axis = AttrsOf(call).get("axis");
  Shape out;
  if (axis.is_null()) {
    for (Dim d : data->shape) {
      if (IsAny(d)) call.Fail("squeeze: axis must be given for data with `?` dims");
      if (d != 1) out.push_back(d);
    }
  } else {
    std::vector<bool> keep(data->ndim(), true);
    for (int64_t a : axis.as_ints()) {
      int i = NormalizeAxis(call, a, data->ndim(), "squeeze: axis");
      Dim d = data->shape[i];
      if (!IsAny(d) && d != 1) {
        call.Fail("squeeze: cannot squeeze axis " + std::to_string(a) + " of " + TypeString(data) +
                  ", whose dimension is not 1");
      }
      keep[i] = false;
    }
    for (int i = 0; i < data->ndim(); ++i) {
      if (keep[i]) out.push_back(data->shape[i]);
    }
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's InferNewShape: >0 literal, 0 copy (or literal 0 with allowzero), -1 infer, -2 copy the
// rest, -3 merge two, -4 split one into the next two values.
Shape InferNewShape(const TypeRelationCall& call, const Shape& in, const std::vector<int64_t>& spec,
                    bool allowzero) {
  auto fail = [&](const std::string& why) {
    call.Fail("reshape: " + why + " (newshape " + ir::AttrValue::Ints(spec).ToString() +
              ", data shape " + ShapeToString(in) + ")");
  };
  Shape out;
  std::vector<bool> used_in(in.size(), false);
  std::vector<bool> used_out;  // output positions taken from the input
  auto push = [&](Dim d, bool from_input) {
    out.push_back(d);
    used_out.push_back(from_input);
  };
  size_t src = 0;
  int infer = -1;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t v = spec[i];
    if (v > 0 || (v == 0 && allowzero)) {
      push(v, false);
      ++src;
    } else if (v == 0) {
      if (src >= in.size()) fail("0 has no input dimension to copy");
      used_in[src] = true;
      push(in[src++], true);
    } else if (v == -1) {
      if (infer >= 0) fail("only one dimension can be inferred");
      infer = static_cast<int>(out.size());
      push(1, false);
      ++src;
    } else if (v == -2) {
      while (src < in.size()) {
        used_in[src] = true;
        push(in[src++], true);
      }
    } else if (v == -3) {
      if (src + 1 >= in.size()) fail("-3 needs two input dimensions");
      used_in[src] = used_in[src + 1] = true;
      push(DimMul(in[src], in[src + 1]), true);
      src += 2;
    } else if (v == -4) {
      if (i + 2 >= spec.size()) fail("-4 must be followed by two values");
      if (src >= in.size()) fail("-4 has no input dimension to split");
      used_in[src] = true;
      Dim d0 = in[src++];
      int64_t d1 = spec[++i], d2 = spec[++i];
      if (d1 == -1 && d2 == -1) fail("split dims cannot both be -1");
      push(d1 == -1 ? DimFloorDiv(d0, d2) : d1, true);
      push(d2 == -1 ? DimFloorDiv(d0, d1) : d2, true);
    } else {
      fail("unsupported special value " + std::to_string(v));
    }
  }
  if (infer >= 0) {
    Dim d = 1;
    for (size_t i = 0; i < in.size(); ++i) {
      if (!used_in[i]) d = DimMul(d, in[i]);
    }
    for (size_t i = 0; i < out.size() && !IsAny(d); ++i) {
      if (used_out[i] || static_cast<int>(i) == infer) continue;
      if (IsAny(out[i]))
        d = kAnyDim;
      else if (out[i] == 0)
        fail("cannot infer -1 next to a 0 dimension");
      else
        d = DimFloorDiv(d, out[i]);
    }
    out[infer] = d;
  }
  return out;
}

int64_t NumElements(const Shape& s) {
  int64_t n = 1;
  for (Dim d : s) n = DimMul(n, d);
  return n;
}

bool ReshapeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  Shape out =
      InferNewShape(call, data->shape, IntsAttr(call, "newshape"), attrs.get_bool("allowzero"));
  ir::Type result = ir::TensorType(out, data->dtype);
  if (data->is_static() && result.as<ir::TensorTypeNode>()->is_static() &&
      NumElements(out) != NumElements(data->shape)) {
    call.Fail("reshape: input tensor shape " + ShapeToString(data->shape) + " and reshaped shape " +
              ShapeToString(out) + " are not compatible");
  }
  call.AssignResult(result);
  return true;
}

// TVM's ReverseReshapeRel: the special values apply from the right (newshape and the data shape
// reversed, inferred as reshape, the result reversed back).
bool ReverseReshapeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  std::vector<int64_t> spec = IntsAttr(call, "newshape");
  std::reverse(spec.begin(), spec.end());
  const Shape in(data->shape.rbegin(), data->shape.rend());
  Shape out = InferNewShape(call, in, spec, AttrsOf(call).get_bool("allowzero"));
  std::reverse(out.begin(), out.end());
  if (data->is_static() && std::none_of(out.begin(), out.end(), IsAny) &&
      NumElements(out) != NumElements(data->shape)) {
    call.Fail("contrib_reverse_reshape: input tensor shape " + ShapeToString(data->shape) +
              " and reshaped shape " + ShapeToString(out) + " are not compatible");
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

ir::DataType ShapeDType(const TypeRelationCall& call) {
  const ir::DataType dtype = DTypeOr(AttrsOf(call).get("dtype"), ir::DataType::Int32());
  if (!dtype.is_int() && !dtype.is_uint()) {
    call.Fail(call.op_name() + ": dtype must be an integer type, got " + dtype.ToString());
  }
  return dtype;
}

// shape_of: a 1-D tensor of the data's rank; ndarray_size: a scalar.
bool ShapeOfRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  call.AssignResult(ir::TensorType({static_cast<Dim>(data->ndim())}, ShapeDType(call)));
  return true;
}

bool NdarraySizeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  call.AssignResult(ir::TensorType({}, ShapeDType(call)));
  return true;
}

bool TransposeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrValue& axes = AttrsOf(call).get("axes");
  const int ndim = data->ndim();
  Shape out;
  if (axes.is_null()) {
    out.assign(data->shape.rbegin(), data->shape.rend());
  } else {
    std::vector<int64_t> perm = axes.as_ints();
    if (static_cast<int>(perm.size()) != ndim) {
      call.Fail("transpose: axes " + axes.ToString() + " has " + std::to_string(perm.size()) +
                " elements, but data " + TypeString(data) + " has rank " + std::to_string(ndim));
    }
    std::vector<bool> used(ndim, false);
    for (int64_t a : perm) {
      int i = NormalizeAxis(call, a, ndim, "transpose: axis");
      if (used[i])
        call.Fail("transpose: duplicate axis " + std::to_string(i) + " in " + axes.ToString());
      used[i] = true;
      out.push_back(data->shape[i]);
    }
  }
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

bool ConcatenateRel(TypeRelationCall& call) {
  ir::Type arg = call.arg(0);
  if (!arg || arg.as<ir::IncompleteTypeNode>()) return false;
  const auto* tuple = arg.as<ir::TupleTypeNode>();
  if (!tuple) {
    call.Fail("concatenate requires a tuple of tensors as its argument, got " +
              ir::TypeToString(arg));
  }
  if (tuple->fields.empty()) call.Fail("concatenate needs at least one tensor");
  std::vector<TensorTypeRef> fields;
  for (const ir::Type& f : tuple->fields) {
    if (!f || f.as<ir::IncompleteTypeNode>()) return false;
    TensorTypeRef t = f.downcast<ir::TensorTypeNode>();
    if (!t) call.Fail("concatenate requires tensors, got " + ir::TypeToString(f));
    fields.push_back(t);
  }
  const TensorTypeRef& first = fields[0];
  const int ndim = first->ndim();
  for (const TensorTypeRef& t : fields) {
    if (t->ndim() != ndim)
      call.Fail("concatenate requires all tensors to have the same rank, got " +
                ir::TypeToString(arg));
    if (t->dtype != first->dtype)
      call.Fail("concatenate requires all tensors to have the same dtype, got " +
                ir::TypeToString(arg));
  }
  const int axis = NormalizeAxis(call, AttrsOf(call).get_int("axis"), ndim, "concatenate: axis");
  // TVM v0.13's ConcatenateRel: the concatenated extent is `?` when any input's is ("dynamic
  // concat"); another axis takes the inputs' common static extent when all are static, or when
  // some are and the concat is dynamic, and is `?` otherwise. A symbolic extent counts as static
  // here (TVM tests for AnyNode only), and symbolic extents on the axis add up to TVM's
  // expression (`t + t`).
  bool dynamic_concat = false;
  for (const TensorTypeRef& t : fields)
    dynamic_concat = dynamic_concat || t->shape[axis] == kAnyDim;
  Shape out(ndim);
  for (int i = 0; i < ndim; ++i) {
    Dim d = i == axis ? first->shape[i] : kAnyDim;
    size_t num_static = 0;
    for (size_t k = 0; k < fields.size(); ++k) {
      Dim e = fields[k]->shape[i];
      num_static += e == kAnyDim ? 0 : 1;
      if (i == axis) {
        if (k > 0) d = ir::DimExprAdd(d, e);
      } else if (e != kAnyDim) {
        if (d != kAnyDim && d != e) {
          call.Fail(
              "concatenate requires all tensors to have the same shape on non-concatenating axes, "
              "got " +
              ir::TypeToString(arg));
        }
        d = e;
      }
    }
    if (i != axis && num_static != fields.size() && !(num_static > 0 && dynamic_concat)) {
      d = kAnyDim;
    }
    out[i] = d;
  }
  call.AssignResult(ir::TensorType(out, first->dtype));
  return true;
}

// TVM's RepeatRel: the `axis` dimension is multiplied by `repeats` (>= 1).
bool RepeatRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t repeats = attrs.get_int("repeats");
  if (repeats < 1) call.Fail("repeat: repeats must be >= 1, got " + std::to_string(repeats));
  const ir::AttrValue& axis = attrs.get("axis");
  if (axis.is_null()) call.Fail("repeat: axis must be given");
  const int i = NormalizeAxis(call, axis.as_int(), data->ndim(), "repeat: axis");
  Shape out = data->shape;
  out[i] = DimMul(out[i], repeats);
  call.AssignResult(ir::TensorType(out, data->dtype));
  return true;
}

// TVM's SplitRel: `n` equal sections (n must divide the axis), or pieces cut at ascending
// indices (the last piece runs to the end and must not be empty).
bool SplitRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int axis = NormalizeAxis(call, attrs.get_int("axis"), data->ndim(), "split: axis");
  const ir::AttrValue& spec = attrs.get("indices_or_sections");
  const Dim extent = data->shape[axis];
  std::vector<ir::Type> fields;
  auto piece = [&](Dim d) {
    Shape shape = data->shape;
    shape[axis] = d;
    fields.push_back(ir::TensorType(shape, data->dtype));
  };
  if (spec.kind() == ir::AttrValue::Kind::kInt) {
    const int64_t sections = spec.as_int();
    if (sections < 1) call.Fail("split: indices_or_sections must be >= 1 sections");
    if (sections > kMaxNewAxes) {
      call.Fail("split: " + std::to_string(sections) + " sections are more than " +
                std::to_string(kMaxNewAxes));
    }
    if (!IsAny(extent) && extent % sections != 0) {
      call.Fail("split: indices_or_sections need to be able to divide input.shape[axis] (" +
                std::to_string(sections) + " sections of " + std::to_string(extent) + ")");
    }
    for (int64_t i = 0; i < sections; ++i) piece(IsAny(extent) ? extent : extent / sections);
  } else {
    const std::vector<int64_t> indices = spec.as_ints();
    if (static_cast<int64_t>(indices.size()) >= kMaxNewAxes) {
      call.Fail("split: more than " + std::to_string(kMaxNewAxes) + " indices");
    }
    int64_t begin = 0;
    for (int64_t index : indices) {
      if (index <= begin)
        call.Fail("split: indices_or_sections need to be a sorted ascending list");
      piece(index - begin);
      begin = index;
    }
    if (!IsAny(extent) && begin >= extent) {
      call.Fail("split: the sum of sections must match the input.shape[axis]");
    }
    piece(IsAny(extent) ? extent : extent - begin);
  }
  call.AssignResult(ir::TupleType(std::move(fields)));
  return true;
}

bool CastRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const std::string& dtype = AttrsOf(call).get_string("dtype");
  std::optional<ir::DataType> parsed = ir::DataType::Parse(dtype);
  if (!parsed || parsed->is_void()) call.Fail("cast: invalid dtype \"" + dtype + "\"");
  call.AssignResult(ir::TensorType(data->shape, *parsed));
  return true;
}

}  // namespace

void RegisterTransformOps(OpRegistry& registry) {
  OpDef& layout_transform =
      RegisterOp(registry, "layout_transform", 1, OpPattern::kInjective, LayoutTransformRel,
                 "Converts data from src_layout to dst_layout (e.g. NCHW to NCHW16c).");
  layout_transform.attrs_schema = LayoutTransformAttrs();
  layout_transform.kernel = kernels::LayoutTransform;
  OpDef& expand_dims = RegisterOp(registry, "expand_dims", 1, OpPattern::kBroadcast, ExpandDimsRel,
                                  "Inserts num_newaxis axes of extent 1 at `axis`.");
  expand_dims.attrs_schema = ExpandDimsAttrs();
  expand_dims.is_reshape_op = true;
  expand_dims.kernel = kernels::ExpandDims;
  OpDef& squeeze = RegisterOp(registry, "squeeze", 1, OpPattern::kInjective, SqueezeRel,
                              "Removes axes of extent 1 (the listed ones, or all).");
  squeeze.attrs_schema = SqueezeAttrs();
  squeeze.is_reshape_op = true;
  squeeze.kernel = kernels::Squeeze;
  squeeze.infer_layout = layout_rules::Squeeze;
  OpDef& reshape = RegisterOp(registry, "reshape", 1, OpPattern::kInjective, ReshapeRel,
                              "Reshapes data to newshape (special values 0, -1, -2, -3, -4).");
  reshape.attrs_schema = ReshapeAttrs();
  reshape.is_reshape_op = true;
  reshape.kernel = kernels::Reshape;
  OpDef& reverse_reshape =
      RegisterOp(registry, "contrib_reverse_reshape", 1, OpPattern::kInjective, ReverseReshapeRel,
                 "Reshapes data with newshape's special values applied from the right.");
  reverse_reshape.attrs_schema = ReshapeAttrs();
  reverse_reshape.is_reshape_op = true;
  reverse_reshape.kernel = kernels::ReverseReshape;
  OpDef& shape_of = RegisterOp(registry, "shape_of", 1, OpPattern::kOpaque, ShapeOfRel,
                               "The shape of the data as a 1-D integer tensor.");
  shape_of.attrs_schema = ShapeOfAttrs();
  shape_of.kernel = kernels::ShapeOf;
  OpDef& ndarray_size = RegisterOp(registry, "ndarray_size", 1, OpPattern::kInjective,
                                   NdarraySizeRel, "The number of elements of the data.");
  ndarray_size.attrs_schema = NdarraySizeAttrs();
  ndarray_size.kernel = kernels::NdarraySize;
  OpDef& transpose = RegisterOp(registry, "transpose", 1, OpPattern::kInjective, TransposeRel,
                                "Permutes the axes (reverses them when axes is None).");
  transpose.attrs_schema = TransposeAttrs();
  transpose.kernel = kernels::Transpose;
  transpose.infer_layout = layout_rules::Transpose;
  OpDef& concatenate = RegisterOp(registry, "concatenate", 1, OpPattern::kInjective, ConcatenateRel,
                                  "Joins a tuple of tensors along `axis`.");
  concatenate.attrs_schema = ConcatenateAttrs();
  concatenate.kernel = kernels::Concatenate;
  concatenate.infer_layout = layout_rules::Concatenate;
  OpDef& repeat = RegisterOp(registry, "repeat", 1, OpPattern::kBroadcast, RepeatRel,
                             "Repeats each element `repeats` times along `axis`.");
  repeat.attrs_schema = RepeatAttrs();
  repeat.kernel = kernels::Repeat;
  OpDef& split = RegisterOp(registry, "split", 1, OpPattern::kInjective, SplitRel,
                            "Splits data along `axis` into equal sections or at indices.");
  split.attrs_schema = SplitAttrs();
  split.kernel = kernels::Split;
  split.infer_layout = layout_rules::Split;
  OpDef& cast = RegisterOp(registry, "cast", 1, OpPattern::kElemWise, CastRel,
                           "Converts every element to `dtype`.");
  cast.attrs_schema = CastAttrs();
  cast.kernel = kernels::Cast;
  cast.infer_layout = layout_rules::ElemwiseArbitrary;
}

}  // namespace relaypass::op

namespace relaypass::relay {

using ir::AttrValue;
using op::CallOp;

Expr cast(Expr x, const std::string& dtype) {
  return CallOp("cast", {std::move(x)}, {{"dtype", AttrValue::Str(dtype)}});
}

Expr expand_dims(Expr x, int axis, int num_newaxis) {
  return CallOp("expand_dims", {std::move(x)},
                {{"axis", AttrValue::Int(axis)}, {"num_newaxis", AttrValue::Int(num_newaxis)}});
}

Expr squeeze(Expr x, std::optional<Ints> axis) {
  return CallOp("squeeze", {std::move(x)}, {{"axis", op::OptionalInts(axis)}});
}

Expr repeat(Expr x, int repeats, int axis) {
  return CallOp("repeat", {std::move(x)},
                {{"repeats", AttrValue::Int(repeats)}, {"axis", AttrValue::Int(axis)}});
}

Expr split(Expr x, int sections, int axis) {
  return CallOp(
      "split", {std::move(x)},
      {{"indices_or_sections", AttrValue::Int(sections)}, {"axis", AttrValue::Int(axis)}});
}

Expr split(Expr x, const Ints& indices, int axis) {
  return CallOp(
      "split", {std::move(x)},
      {{"indices_or_sections", AttrValue::Ints(indices)}, {"axis", AttrValue::Int(axis)}});
}

Expr reshape(Expr x, const Ints& newshape) {
  return CallOp("reshape", {std::move(x)}, {{"newshape", AttrValue::Ints(newshape)}});
}

Expr reverse_reshape(Expr x, const Ints& newshape) {
  return CallOp("contrib_reverse_reshape", {std::move(x)},
                {{"newshape", AttrValue::Ints(newshape)}});
}

Expr shape_of(Expr x, const std::string& dtype) {
  return CallOp("shape_of", {std::move(x)}, {{"dtype", AttrValue::Str(dtype)}});
}

Expr ndarray_size(Expr x, const std::string& dtype) {
  return CallOp("ndarray_size", {std::move(x)}, {{"dtype", AttrValue::Str(dtype)}});
}

Expr transpose(Expr x, std::optional<Ints> axes) {
  return CallOp("transpose", {std::move(x)}, {{"axes", op::OptionalInts(axes)}});
}

Expr concatenate(std::vector<Expr> fields, int axis) {
  return CallOp("concatenate", {relay::tuple(std::move(fields))}, {{"axis", AttrValue::Int(axis)}});
}

Expr layout_transform(Expr x, const std::string& src_layout, const std::string& dst_layout) {
  return CallOp(
      "layout_transform", {std::move(x)},
      {{"src_layout", AttrValue::Str(src_layout)}, {"dst_layout", AttrValue::Str(dst_layout)}});
}

}  // namespace relaypass::relay
