// The dyn.* operators (TVM's src/relay/op/dyn): reshape, broadcast_to, zeros, ones, full, tile,
// expand_dims, squeeze, strided_slice, one_hot, topk, sparse_to_dense, nn.pad, nn.upsampling(3d)
// and image.resize2d. Each takes as tensor arguments what its static operator takes as attributes;
// the type relations give `?` for every extent those values decide (as TVM's), and the kernels run
// the static operator their static form (static_forms.cc) makes of the values.
#include <optional>
#include <string>

#include "../families.h"
#include "../op_common.h"
#include "../type_relations.h"
#include "relaypass/op/layout.h"
#include "static_call.h"
#include "static_forms.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

// The attrs TVM's dyn ops carry where the static op's own would require a field the dyn op
// takes as an argument instead.
const AttrsSchema* DynReshapeAttrs() {
  static const AttrsSchema schema(
      "relay.attrs.ReshapeAttrs",
      {AttrsSchema::NullableIntArray("newshape"), AttrsSchema::Bool("allowzero", false)});
  return &schema;
}
const AttrsSchema* DynTileAttrs() {
  static const AttrsSchema schema("relay.attrs.TileAttrs", {AttrsSchema::NullableIntArray("reps")});
  return &schema;
}
const AttrsSchema* DynExpandDimsAttrs() {
  static const AttrsSchema schema("relay.attrs.DynExpandDimsAttrs",
                                  {AttrsSchema::Int("num_newaxis", 1)});
  return &schema;
}
const AttrsSchema* DynPadAttrs() {
  static const AttrsSchema schema("relay.attrs.PadAttrs",
                                  {AttrsSchema::String("pad_mode", "constant")});
  return &schema;
}

// The length of the 1-D argument `index` (a shape, reps, axes, begin); nullopt while its type is
// unknown. TVM requires it to be static (the output rank depends on it), not its dtype to be an
// integer one (its tests give float32 reps).
std::optional<int64_t> VectorLength(const TypeRelationCall& call, size_t index,
                                    const std::string& what) {
  TensorTypeRef t = TensorOf(call, index);
  if (!t) return std::nullopt;
  if (t->shape.size() != 1) {
    call.Fail(call.op_name() + ": " + what + " must be a 1-D tensor, got " + TypeString(t));
  }
  if (IsAny(t->shape[0])) {
    call.Fail(call.op_name() + ": " + what +
              " must have a static length (dynamic rank is not "
              "supported), got " +
              TypeString(t));
  }
  return t->shape[0];
}

// The argument `index` is known: a tensor holding one value, which the kernel checks (TVM's
// relations leave k, depth and the scales unchecked; its tests give k as a (1,) tensor).
bool ValueArg(const TypeRelationCall& call, size_t index) {
  return TensorOf(call, index) != nullptr;
}

// The argument `index` is a scalar (rank 0); false while its type is unknown.
bool ScalarArg(const TypeRelationCall& call, size_t index, const std::string& what) {
  TensorTypeRef t = TensorOf(call, index);
  if (!t) return false;
  if (!t->shape.empty()) {
    call.Fail(call.op_name() + ": " + what + " must be a scalar, got " + TypeString(t));
  }
  return true;
}

// A rank that large is a malformed input, not a tensor (the static expand_dims' bound).
constexpr int64_t kMaxRank = 1 << 16;

// `rank` extents, all `?`; fails the call for a rank beyond kMaxRank.
Shape AnyShape(const TypeRelationCall& call, int64_t rank) {
  if (rank > kMaxRank) {
    call.Fail(call.op_name() + ": a result of rank " + std::to_string(rank) + " is larger than " +
              std::to_string(kMaxRank));
  }
  return Shape(static_cast<size_t>(rank), kAnyDim);
}

// dyn.reshape and dyn.broadcast_to: [data, shape] -> rank len(shape), every extent `?`.
bool ShapeArgRel(TypeRelationCall& call, const char* what) {
  TensorTypeRef data = TensorOf(call, 0);
  std::optional<int64_t> rank = VectorLength(call, 1, what);
  if (!data || !rank) return false;
  call.AssignResult(ir::TensorType(AnyShape(call, *rank), data->dtype));
  return true;
}

// dyn.zeros and dyn.ones: [shape].
bool InitRel(TypeRelationCall& call) {
  std::optional<int64_t> rank = VectorLength(call, 0, "shape");
  if (!rank) return false;
  const ir::DataType dtype = DTypeOr(AttrsOf(call).get("dtype"), ir::DataType::Float32());
  call.AssignResult(ir::TensorType(AnyShape(call, *rank), dtype));
  return true;
}

// dyn.full: [fill_value, shape].
bool FullRel(TypeRelationCall& call) {
  TensorTypeRef fill = TensorOf(call, 0);
  std::optional<int64_t> rank = VectorLength(call, 1, "shape");
  if (!fill || !rank) return false;
  if (!fill->shape.empty()) {
    call.Fail("dyn.full: fill value should be a scalar but has dimension " +
              std::to_string(fill->shape.size()));
  }
  call.AssignResult(
      ir::TensorType(AnyShape(call, *rank), DTypeOr(AttrsOf(call).get("dtype"), fill->dtype)));
  return true;
}

// dyn.tile: [data, reps] -> rank max(ndim, len(reps)).
bool TileRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  std::optional<int64_t> reps = VectorLength(call, 1, "reps");
  if (!data || !reps) return false;
  const int64_t ndim = static_cast<int64_t>(data->shape.size());
  call.AssignResult(ir::TensorType(AnyShape(call, std::max(ndim, *reps)), data->dtype));
  return true;
}

// dyn.expand_dims: [data, axis] -> ndim + num_newaxis extents, all `?`.
bool ExpandDimsRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data || !ScalarArg(call, 1, "axis")) return false;
  const int64_t num_newaxis = AttrsOf(call).get_int("num_newaxis");
  if (num_newaxis < 0) call.Fail("dyn.expand_dims: num_newaxis must be non-negative");
  call.AssignResult(ir::TensorType(
      AnyShape(call, CheckedAdd(static_cast<int64_t>(data->shape.size()), num_newaxis)),
      data->dtype));
  return true;
}

// dyn.squeeze: [data, axes] -> ndim - len(axes) extents.
bool SqueezeRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  std::optional<int64_t> axes = VectorLength(call, 1, "axes");
  if (!data || !axes) return false;
  const int64_t rank = static_cast<int64_t>(data->shape.size()) - *axes;
  if (rank < 0) {
    call.Fail("dyn.squeeze: " + std::to_string(*axes) + " axes to squeeze from " +
              TypeString(data));
  }
  call.AssignResult(ir::TensorType(AnyShape(call, rank), data->dtype));
  return true;
}

// dyn.strided_slice: [data, begin, end, strides] -> the first len(begin) extents `?`.
bool StridedSliceRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  std::optional<int64_t> n = VectorLength(call, 1, "begin");
  std::optional<int64_t> end = VectorLength(call, 2, "end");
  std::optional<int64_t> strides = VectorLength(call, 3, "strides");
  if (!data || !n || !end || !strides) return false;
  if (*n > static_cast<int64_t>(data->shape.size())) {
    call.Fail("dyn.strided_slice: the number of axes to slice (" + std::to_string(*n) +
              ") is more than the data rank of " + TypeString(data));
  }
  Shape out = data->shape;
  for (int64_t i = 0; i < *n; ++i) out[static_cast<size_t>(i)] = kAnyDim;
  call.AssignResult(ir::TensorType(std::move(out), data->dtype));
  return true;
}

// dyn.one_hot: [indices, on_value, off_value, depth] -> indices' shape with `?` at axis.
bool OneHotRel(TypeRelationCall& call) {
  TensorTypeRef indices = TensorOf(call, 0);
  if (!indices || !ScalarArg(call, 1, "on_value") || !ScalarArg(call, 2, "off_value") ||
      !ValueArg(call, 3)) {
    return false;
  }
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int64_t ndim = static_cast<int64_t>(indices->shape.size());
  int64_t axis = attrs.get_int("axis");
  if (axis == -1) axis = ndim;
  if (axis < 0 || axis > ndim) {
    call.Fail("dyn.one_hot: axis " + std::to_string(attrs.get_int("axis")) +
              " is out of range for " + TypeString(indices));
  }
  Shape out = indices->shape;
  out.insert(out.begin() + axis, kAnyDim);
  call.AssignResult(ir::TensorType(std::move(out), DTypeOr(attrs.get("dtype"), indices->dtype)));
  return true;
}

// dyn.topk: [data, k] -> data's shape with `?` at axis; values, indices or both.
bool TopKRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data || !ValueArg(call, 1)) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const int ndim = static_cast<int>(data->shape.size());
  Shape out = data->shape;
  out[static_cast<size_t>(NormalizeAxis(call, attrs.get_int("axis"), ndim, "axis"))] = kAnyDim;
  const ir::Type values = ir::TensorType(out, data->dtype);
  const ir::Type indices = ir::TensorType(out, DTypeOr(attrs.get("dtype"), ir::DataType::Int32()));
  const std::string& ret_type = attrs.get_string("ret_type");
  if (ret_type == "both") {
    call.AssignResult(ir::TupleType({values, indices}));
  } else if (ret_type == "values") {
    call.AssignResult(values);
  } else if (ret_type == "indices") {
    call.AssignResult(indices);
  } else {
    call.Fail("dyn.topk: unsupported ret_type \"" + ret_type + "\"");
  }
  return true;
}

// dyn.sparse_to_dense: [sparse_indices, sparse_values, default_value, output_shape].
bool SparseToDenseRel(TypeRelationCall& call) {
  TensorTypeRef indices = TensorOf(call, 0);
  TensorTypeRef values = TensorOf(call, 1);
  std::optional<int64_t> rank = VectorLength(call, 3, "output_shape");
  if (!indices || !values || !rank || !ScalarArg(call, 2, "default_value")) return false;
  if (!indices->dtype.is_int() && !indices->dtype.is_uint()) {
    call.Fail("dyn.sparse_to_dense: sparse_indices must be tensor of integers");
  }
  if (indices->shape.size() > 2 || values->shape.size() > 1) {
    call.Fail(
        "dyn.sparse_to_dense: sparse_indices must be 0D, 1D or 2D and sparse_values 0D or 1D");
  }
  call.AssignResult(ir::TensorType(AnyShape(call, *rank), values->dtype));
  return true;
}

// dyn.nn.pad: [data, pad_width (ndim, 2), pad_value] -> every extent `?`.
bool PadRel(TypeRelationCall& call) {
  TensorTypeRef data = TensorOf(call, 0);
  TensorTypeRef width = TensorOf(call, 1);
  if (!data || !width || !ScalarArg(call, 2, "pad_value")) return false;
  const Dim ndim = static_cast<Dim>(data->shape.size());
  if (width->shape.size() != 2 || width->shape[0] != ndim || width->shape[1] != 2) {
    call.Fail(
        "dyn.nn.pad: pad width must have shape (N, 2), where N is the rank of input data, "
        "got " +
        TypeString(width) + " for " + TypeString(data));
  }
  call.AssignResult(ir::TensorType(AnyShape(call, ndim), data->dtype));
  return true;
}

// dyn.nn.upsampling, dyn.nn.upsampling3d and dyn.image.resize2d: the data with its H and W (and
// D) extents `?`.
bool SpatialAnyRel(TypeRelationCall& call, size_t num_scalars, const ir::AttrValue& out_dtype) {
  TensorTypeRef data = TensorOf(call, 0);
  if (!data) return false;
  const std::string& layout_name = AttrsOf(call).get_string("layout");
  const Layout layout(layout_name);
  const int h = layout.IndexOf('H');
  const int w = layout.IndexOf('W');
  if (!layout.defined() || h < 0 || w < 0 || layout.ndim() != data->shape.size()) {
    call.Fail(call.op_name() + ": the layout " + layout_name + " does not fit " + TypeString(data));
  }
  for (size_t i = 1; i <= num_scalars; ++i) {
    if (!ValueArg(call, i)) return false;
  }
  Shape out = data->shape;
  out[static_cast<size_t>(h)] = kAnyDim;
  out[static_cast<size_t>(w)] = kAnyDim;
  if (const int d = layout.IndexOf('D'); d >= 0) out[static_cast<size_t>(d)] = kAnyDim;
  call.AssignResult(ir::TensorType(std::move(out), DTypeOr(out_dtype, data->dtype)));
  return true;
}

bool UpSamplingRel(TypeRelationCall& call) {
  return SpatialAnyRel(call, 2, ir::AttrValue::Str(""));
}

// dyn.nn.upsampling3d: [data, scale_d, scale_h, scale_w] (TVM's DynUpSampling3DRel).
bool UpSampling3DRel(TypeRelationCall& call) {
  return SpatialAnyRel(call, 3, ir::AttrValue::Str(""));
}

// dyn.image.resize2d: [data, size (2,), roi (4,)].
bool Resize2DRel(TypeRelationCall& call) {
  std::optional<int64_t> size = VectorLength(call, 1, "size");
  if (!size) return false;
  if (*size != 2) call.Fail("dyn.image.resize2d: size must hold 2 values");
  if (!TensorOf(call, 2)) return false;
  return SpatialAnyRel(call, 0, AttrsOf(call).get("out_dtype"));
}

// The static op's attrs schema, for the dyn ops whose attrs are the static op's own.
const AttrsSchema* SchemaOf(OpRegistry& registry, const std::string& name) {
  const OpDef* def = registry.Find(name);
  return def ? def->attrs_schema : nullptr;
}

}  // namespace

void RegisterDynOps(OpRegistry& registry) {
  struct Entry {
    const char* name;
    int num_inputs;
    OpPattern pattern;
    TypeRelation relation;
    const AttrsSchema* schema;
    ToStaticForm form;
    std::vector<size_t> value_args;  // the arguments the form reads as values
    const char* description;
    bool is_reshape_op = false;  // TVM's TReshapeOp
  };
  const Entry entries[] = {
      {"dyn.reshape",
       2,
       OpPattern::kInjective,
       [](TypeRelationCall& c) { return ShapeArgRel(c, "newshape"); },
       DynReshapeAttrs(),
       dyn::ReshapeForm,
       {1},
       "Reshapes data to the shape held by the newshape tensor.",
       true},
      {"dyn.broadcast_to",
       2,
       OpPattern::kBroadcast,
       [](TypeRelationCall& c) { return ShapeArgRel(c, "shape"); },
       SchemaOf(registry, "broadcast_to"),
       dyn::BroadcastToForm,
       {1},
       "Broadcasts data to the shape held by the shape tensor."},
      {"dyn.zeros",
       1,
       OpPattern::kElemWise,
       InitRel,
       SchemaOf(registry, "zeros"),
       dyn::ZerosForm,
       {0},
       "Zeros of the shape held by the shape tensor."},
      {"dyn.ones",
       1,
       OpPattern::kElemWise,
       InitRel,
       SchemaOf(registry, "ones"),
       dyn::OnesForm,
       {0},
       "Ones of the shape held by the shape tensor."},
      {"dyn.full",
       2,
       OpPattern::kElemWise,
       FullRel,
       SchemaOf(registry, "full"),
       dyn::FullForm,
       {1},
       "fill_value in the shape held by the shape tensor."},
      {"dyn.tile",
       2,
       OpPattern::kInjective,
       TileRel,
       DynTileAttrs(),
       dyn::TileForm,
       {1},
       "Repeats the whole array the times the reps tensor holds."},
      {"dyn.expand_dims",
       2,
       OpPattern::kInjective,
       ExpandDimsRel,
       DynExpandDimsAttrs(),
       dyn::ExpandDimsForm,
       {1},
       "Inserts num_newaxis axes at the axis the axis tensor holds."},
      {"dyn.squeeze",
       2,
       OpPattern::kInjective,
       SqueezeRel,
       SchemaOf(registry, "squeeze"),
       dyn::SqueezeForm,
       {1},
       "Removes the axes of extent 1 the axes tensor lists.",
       true},
      {"dyn.strided_slice",
       4,
       OpPattern::kInjective,
       StridedSliceRel,
       SchemaOf(registry, "strided_slice"),
       dyn::StridedSliceForm,
       {1, 2, 3},
       "Strided slice with begin, end and strides given as tensors."},
      {"dyn.one_hot",
       4,
       OpPattern::kOutEWiseFusable,
       OneHotRel,
       SchemaOf(registry, "one_hot"),
       dyn::OneHotForm,
       {3},
       "One-hot encoding of a depth the depth tensor holds."},
      {"dyn.topk",
       2,
       OpPattern::kOpaque,
       TopKRel,
       SchemaOf(registry, "topk"),
       dyn::TopKForm,
       {1},
       "The k largest (or smallest) elements along axis, k given as a tensor."},
      {"dyn.sparse_to_dense",
       4,
       OpPattern::kOpaque,
       SparseToDenseRel,
       nullptr,
       dyn::SparseToDenseForm,
       {3},
       "sparse_to_dense with output_shape given as a tensor."},
      {"dyn.nn.pad",
       3,
       OpPattern::kInjective,
       PadRel,
       DynPadAttrs(),
       dyn::PadForm,
       {1},
       "Pads data by the (N, 2) pad_width tensor."},
      {"dyn.nn.upsampling",
       3,
       OpPattern::kInjective,
       UpSamplingRel,
       SchemaOf(registry, "nn.upsampling"),
       dyn::UpSamplingForm,
       {1, 2},
       "Scales H and W by the scale_h and scale_w tensors."},
      {"dyn.nn.upsampling3d",
       4,
       OpPattern::kInjective,
       UpSampling3DRel,
       SchemaOf(registry, "nn.upsampling3d"),
       dyn::UpSampling3DForm,
       {1, 2, 3},
       "Scales D, H and W by the scale_d, scale_h and scale_w tensors."},
      {"dyn.image.resize2d",
       3,
       OpPattern::kInjective,
       Resize2DRel,
       SchemaOf(registry, "image.resize2d"),
       dyn::Resize2DForm,
       {1, 2},
       "Resizes H and W to the size tensor's values."},
  };
  for (const Entry& e : entries) {
    OpDef& def = RegisterOp(registry, e.name, e.num_inputs, e.pattern, e.relation, e.description);
    def.attrs_schema = e.schema;
    def.kernel = dyn::DynKernel(e.name, e.form);
    def.to_static = e.form;
    def.value_args = e.value_args;
    def.is_reshape_op = e.is_reshape_op;
  }
}

}  // namespace relaypass::op
