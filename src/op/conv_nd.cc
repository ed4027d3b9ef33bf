// More of the nn family: nn.conv1d, nn.conv3d, nn.conv1d_transpose, nn.conv2d_transpose,
// nn.conv3d_transpose, nn.max_pool1d/3d and nn.avg_pool1d/3d (TVM's attrs; channel-first
// layouts).
#include <algorithm>
#include <string>

#include "kernels/kernels.h"
#include "kernels/layout_permutation.h"
#include "layout_rules/layout_rules.h"
#include "nn_family.h"
#include "op_common.h"
#include "relaypass/relay.h"
#include "type_relations.h"

namespace relaypass::op {

namespace {

using ir::AttrsSchema;

const char* DataLayout(int s) {
  return s == 1 ? "NCW" : (s == 2 ? "NCHW" : "NCDHW");
}
const char* TransposeKernelLayout(int s) {
  return s == 1 ? "IOW" : (s == 2 ? "IOHW" : "IODHW");
}

const char* KernelLayout(int s) {
  return s == 1 ? "OIW" : (s == 2 ? "OIHW" : "OIDHW");
}

std::vector<ir::AttrField> ConvFields(int s) {
  const std::vector<int64_t> ones(s, 1), zeros(s == 1 ? 2 : s, 0);  // conv1d pads both sides
  return {
      AttrsSchema::IntArray("strides", ones),
      AttrsSchema::IntArray("padding", zeros),
      AttrsSchema::IntArray("dilation", ones),
      AttrsSchema::Int("groups", 1),
      AttrsSchema::IndexExpr("channels"),
      AttrsSchema::NullableIntArray("kernel_size"),
      AttrsSchema::String("data_layout", DataLayout(s)),
      AttrsSchema::String("kernel_layout", KernelLayout(s)),
      AttrsSchema::String("out_layout", ""),
      AttrsSchema::DType("out_dtype", ""),
  };
}
const AttrsSchema* ConvAttrs(int s) {
  static const AttrsSchema c1("relay.attrs.Conv1DAttrs", ConvFields(1));
  static const AttrsSchema c3("relay.attrs.Conv3DAttrs", ConvFields(3));
  return s == 1 ? &c1 : &c3;
}

std::vector<ir::AttrField> ConvTransposeFields(int s) {
  const std::vector<int64_t> ones(s, 1), zeros(s, 0);
  return {
      AttrsSchema::IndexExpr("channels"),
      AttrsSchema::NullableIntArray("kernel_size"),
      AttrsSchema::IntArray("strides", ones),
      AttrsSchema::IntArray("padding", zeros),
      AttrsSchema::IntArray("output_padding", zeros),
      AttrsSchema::IntArray("dilation", ones),
      AttrsSchema::Int("groups", 1),
      AttrsSchema::String("data_layout", DataLayout(s)),
      AttrsSchema::String("kernel_layout", TransposeKernelLayout(s)),
      AttrsSchema::String("out_layout", ""),
      AttrsSchema::DType("out_dtype", ""),
  };
}
const AttrsSchema* ConvTransposeAttrs(int s) {
  static const AttrsSchema c1("relay.attrs.Conv1DTransposeAttrs", ConvTransposeFields(1));
  static const AttrsSchema c2("relay.attrs.Conv2DTransposeAttrs", ConvTransposeFields(2));
  static const AttrsSchema c3("relay.attrs.Conv3DTransposeAttrs", ConvTransposeFields(3));
  return s == 1 ? &c1 : (s == 2 ? &c2 : &c3);
}

std::vector<ir::AttrField> PoolFields(int s, bool avg) {
  const std::vector<int64_t> ones(s, 1), zeros(s, 0);
  std::vector<ir::AttrField> f = {
      AttrsSchema::RequiredIntArray("pool_size"),   AttrsSchema::IntArray("strides", ones),
      AttrsSchema::IntArray("dilation", ones),      AttrsSchema::IntArray("padding", zeros),
      AttrsSchema::String("layout", DataLayout(s)), AttrsSchema::String("out_layout", ""),
      AttrsSchema::Bool("ceil_mode", false),
  };
  if (avg) f.push_back(AttrsSchema::Bool("count_include_pad", false));
  return f;
}
const AttrsSchema* MaxPoolAttrs(int s) {
  static const AttrsSchema p1("relay.attrs.MaxPool1DAttrs", PoolFields(1, false));
  static const AttrsSchema p3("relay.attrs.MaxPool3DAttrs", PoolFields(3, false));
  return s == 1 ? &p1 : &p3;
}
const AttrsSchema* AvgPoolAttrs(int s) {
  static const AttrsSchema p1("relay.attrs.AvgPool1DAttrs", PoolFields(1, true));
  static const AttrsSchema p3("relay.attrs.AvgPool3DAttrs", PoolFields(3, true));
  return s == 1 ? &p1 : &p3;
}

// `v` (1 or s values) as s values, or empty.
std::vector<int64_t> PerAxis(const std::vector<int64_t>& v, int s) {
  if (static_cast<int>(v.size()) == s) return v;
  if (v.size() == 1) return std::vector<int64_t>(s, v[0]);
  return {};
}
// Padding (1, s or 2s values) as s (before) + s (after) values, or empty.
std::vector<int64_t> PadsOf(const std::vector<int64_t>& p, int s) {
  if (static_cast<int>(p.size()) == 2 * s) return p;
  std::vector<int64_t> one = PerAxis(p, s);
  if (one.empty()) return {};
  one.insert(one.end(), one.begin(), one.end());
  return one;
}

struct Geometry {
  std::vector<int64_t> strides, dilation, pads;
};
Geometry GeometryOf(const TypeRelationCall& call, const ir::AttrsNode& attrs, int s) {
  Geometry g{PerAxis(IntsAttr(call, "strides"), s), PerAxis(IntsAttr(call, "dilation"), s),
             PadsOf(IntsAttr(call, "padding"), s)};
  if (g.strides.empty() || g.dilation.empty() || g.pads.empty()) {
    call.Fail(call.op_name() + ": strides, dilation or padding have the wrong length (" +
              attrs.get("strides").ToString() + ", " + attrs.get("dilation").ToString() + ", " +
              attrs.get("padding").ToString() + ")");
  }
  for (int i = 0; i < s; ++i) {
    if (g.strides[i] < 1 || g.dilation[i] < 1) {
      call.Fail("attribute '" + std::string(g.strides[i] < 1 ? "strides" : "dilation") +
                "' must have positive values, got " +
                attrs.get(g.strides[i] < 1 ? "strides" : "dilation").ToString());
    }
  }
  return g;
}

// The permutations from the call's data and kernel layouts to the canonical ones (any ordering
// of their axes; the output in the data's layout).
struct LayoutPerms {
  std::vector<int> data, kernel;
};
LayoutPerms ConvLayouts(const TypeRelationCall& call, const ir::AttrsNode& attrs,
                        const std::string& data, const std::string& kernel) {
  const std::string& data_layout = attrs.get_string("data_layout");
  const std::string& kernel_layout = attrs.get_string("kernel_layout");
  const std::string& out = attrs.get_string("out_layout");
  LayoutPerms perms{LayoutPermutation(data_layout, data), LayoutPermutation(kernel_layout, kernel)};
  if (perms.data.empty() || perms.kernel.empty() || (!out.empty() && out != data_layout)) {
    call.Fail(call.op_name() + ": data_layout " + data_layout + ", kernel_layout " + kernel_layout +
              " and out_layout " + out + " are not orderings of " + data + " and " + kernel +
              " (out_layout empty or the data's)");
  }
  return perms;
}

// nn.conv1d / nn.conv3d (TVM's Conv1DRel / Conv3DRel): any ordering of NCW / OIW and NCDHW /
// OIDHW (NWC, NDHWC / DHWIO, ...), computed on the canonical order.
template <int S>
bool ConvRel(TypeRelationCall& call) {
  TensorTypeRef data_type = TensorOf(call, 0);
  TensorTypeRef weight = TensorOf(call, 1);
  if (!data_type) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (data_type->ndim() != S + 2) {
    call.Fail(call.op_name() + ": data must be " + std::to_string(S + 2) + "-D, got " +
              TypeString(data_type));
  }
  const LayoutPerms perms = ConvLayouts(call, attrs, DataLayout(S), KernelLayout(S));
  const Shape dshape = Permuted(data_type->shape, perms.data);
  const Geometry g = GeometryOf(call, attrs, S);
  const int64_t groups = attrs.get_int("groups");
  if (groups < 1) call.Fail(call.op_name() + ": groups must be positive");
  Shape ksize;
  Dim channels;
  if (!attrs.get("kernel_size").is_null() && !attrs.get("channels").is_null()) {
    std::vector<int64_t> k = PerAxis(attrs.get_ints("kernel_size"), S);
    if (k.empty() || std::any_of(k.begin(), k.end(), [](int64_t v) { return v < 1; })) {
      call.Fail("attribute 'kernel_size' must have " + std::to_string(S) +
                " positive values, got " + attrs.get("kernel_size").ToString());
    }
    ksize.assign(k.begin(), k.end());
    channels = attrs.get_int("channels");
    Shape w = {channels, DimFloorDiv(dshape[1], groups)};
    w.insert(w.end(), ksize.begin(), ksize.end());
    call.Assign(1, ir::TensorType(Permuted(w, InversePermutation(perms.kernel)),
                                  weight ? weight->dtype : data_type->dtype));
  } else {
    if (!weight) return false;
    if (weight->ndim() != S + 2) {
      call.Fail(call.op_name() + ": weight must be " + std::to_string(S + 2) + "-D, got " +
                TypeString(weight));
    }
    const Shape wshape = Permuted(weight->shape, perms.kernel);
    channels = wshape[0];
    ksize.assign(wshape.begin() + 2, wshape.end());
    const Dim in_c = dshape[1];
    if (!IsAny(in_c) && !IsAny(wshape[1]) && in_c != CheckedMul(wshape[1], groups)) {
      call.Fail(call.op_name() + ": data " + TypeString(data_type) + " and weight " +
                TypeString(weight) +
                " disagree on input channels for groups=" + std::to_string(groups));
    }
  }
  Shape out = {dshape[0], channels};
  for (int i = 0; i < S; ++i) {
    const Dim in = dshape[2 + i];
    if (IsAny(in) || IsAny(ksize[i])) {
      out.push_back(kAnyDim);
      continue;
    }
    const int64_t span =
        CheckedSub(CheckedAdd(CheckedAdd(in, g.pads[i]), g.pads[S + i]),
                   CheckedAdd(CheckedMul(g.dilation[i], CheckedSub(ksize[i], 1)), 1));
    if (span < 0) call.Fail(call.op_name() + ": the kernel is larger than the padded input");
    out.push_back(span / g.strides[i] + 1);
  }
  call.AssignResult(ir::TensorType(Permuted(out, InversePermutation(perms.data)),
                                   DTypeOr(attrs.get("out_dtype"), data_type->dtype)));
  return true;
}

// nn.conv{1,2,3}d_transpose (TVM's Conv*TransposeRel on NC... / IO...): the weight is
// [in, out / groups, k...]; out = (in - 1) * stride - pads + dilation * (k - 1) + 1 +
// output_padding.
template <int S>
bool ConvTransposeRel(TypeRelationCall& call) {
  TensorTypeRef data_type = TensorOf(call, 0);
  TensorTypeRef weight = TensorOf(call, 1);
  if (!data_type) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  if (data_type->ndim() != S + 2) {
    call.Fail(call.op_name() + ": data must have rank " + std::to_string(S + 2) + ", got " +
              TypeString(data_type));
  }
  const LayoutPerms perms = ConvLayouts(call, attrs, DataLayout(S), TransposeKernelLayout(S));
  const Shape dshape = Permuted(data_type->shape, perms.data);
  Shape wshape;
  if (!weight) {
    // TVM's relation types the weight from kernel_size and channels when both are given:
    // [in channels, channels / groups, k...].
    if (attrs.get("kernel_size").is_null() || attrs.get("channels").is_null()) return false;
    const std::vector<int64_t> k = PerAxis(attrs.get_ints("kernel_size"), S);
    const int64_t groups = attrs.get_int("groups");
    if (k.empty() || std::any_of(k.begin(), k.end(), [](int64_t v) { return v < 1; }) ||
        groups < 1) {
      call.Fail(call.op_name() + ": cannot type the weight from kernel_size " +
                attrs.get("kernel_size").ToString() + " and groups " + std::to_string(groups) +
                " for data " + TypeString(data_type));
    }
    wshape = {dshape[1], DimFloorDiv(attrs.get_int("channels"), groups)};
    wshape.insert(wshape.end(), k.begin(), k.end());
    call.Assign(
        1, ir::TensorType(Permuted(wshape, InversePermutation(perms.kernel)), data_type->dtype));
  } else {
    if (weight->ndim() != S + 2) {
      call.Fail(call.op_name() + ": data and weight must have rank " + std::to_string(S + 2) +
                ", got " + TypeString(data_type) + " and " + TypeString(weight));
    }
    wshape = Permuted(weight->shape, perms.kernel);
  }
  const Geometry g = GeometryOf(call, attrs, S);
  // TVM reads output_padding's first S values (conv1d_transpose's tests pass two).
  std::vector<int64_t> output_padding = IntsAttr(call, "output_padding");
  if (output_padding.size() > static_cast<size_t>(S)) output_padding.resize(S);
  output_padding = PerAxis(output_padding, S);
  if (output_padding.empty()) call.Fail(call.op_name() + ": output_padding has the wrong length");
  const int64_t groups = attrs.get_int("groups");
  if (groups < 1) call.Fail(call.op_name() + ": groups must be positive");
  if (!IsAny(dshape[1]) && !IsAny(wshape[0]) && dshape[1] != wshape[0]) {
    call.Fail(call.op_name() + ": data " + TypeString(data_type) + " and weight " +
              (weight ? TypeString(weight) : ShapeToString(wshape)) +
              " disagree on input channels");
  }
  const ir::AttrValue& channels_attr = attrs.get("channels");
  const Dim channels = channels_attr.is_null() ? DimMul(wshape[1], groups) : channels_attr.as_int();
  Shape out = {dshape[0], channels};
  for (int i = 0; i < S; ++i) {
    const Dim in = dshape[2 + i], k = wshape[2 + i];
    if (IsAny(in) || IsAny(k)) {
      out.push_back(kAnyDim);
      continue;
    }
    const int64_t d = CheckedAdd(
        CheckedSub(CheckedSub(CheckedMul(CheckedSub(in, 1), g.strides[i]), g.pads[i]),
                   g.pads[S + i]),
        CheckedAdd(CheckedAdd(CheckedMul(g.dilation[i], CheckedSub(k, 1)), 1), output_padding[i]));
    if (d < 0) call.Fail(call.op_name() + ": the output would be empty");
    out.push_back(d);
  }
  call.AssignResult(ir::TensorType(Permuted(out, InversePermutation(perms.data)),
                                   DTypeOr(attrs.get("out_dtype"), data_type->dtype)));
  return true;
}

// nn.max_pool1d / avg_pool1d and nn.max_pool3d / avg_pool3d (TVM's Pool1DRel / Pool3DRel): any
// ordering of NCW / NCDHW (NWC, NDHWC, ...), computed on the canonical order; out_layout empty
// or the layout.
template <int S>
bool PoolRel(TypeRelationCall& call) {
  TensorTypeRef data_type = TensorOf(call, 0);
  if (!data_type) return false;
  const ir::AttrsNode& attrs = AttrsOf(call);
  const std::string& layout = attrs.get_string("layout");
  const std::string& out_layout = attrs.get_string("out_layout");
  const std::vector<int> perm = LayoutPermutation(layout, DataLayout(S));
  if (perm.empty() || (!out_layout.empty() && out_layout != layout)) {
    call.Fail(call.op_name() + ": layout " + layout + " and out_layout " + out_layout +
              " are not an ordering of " + DataLayout(S) + " (out_layout empty or the layout)");
  }
  if (data_type->ndim() != S + 2) {
    call.Fail(call.op_name() + ": data must be " + std::to_string(S + 2) + "-D, got " +
              TypeString(data_type));
  }
  const Shape dshape = Permuted(data_type->shape, perm);
  const Geometry g = GeometryOf(call, attrs, S);
  std::vector<int64_t> pool = PerAxis(IntsAttr(call, "pool_size"), S);
  if (pool.empty() || std::any_of(pool.begin(), pool.end(), [](int64_t p) { return p < 1; })) {
    call.Fail("attribute 'pool_size' must have " + std::to_string(S) + " positive values, got " +
              attrs.get("pool_size").ToString());
  }
  const bool ceil = attrs.get_bool("ceil_mode");
  Shape out = {dshape[0], dshape[1]};
  for (int i = 0; i < S; ++i) {
    const Dim in = dshape[2 + i];
    if (IsAny(in)) {
      out.push_back(kAnyDim);
      continue;
    }
    int64_t span = CheckedSub(CheckedAdd(CheckedAdd(in, g.pads[i]), g.pads[S + i]),
                              CheckedAdd(CheckedMul(g.dilation[i], CheckedSub(pool[i], 1)), 1));
    if (span < 0) call.Fail(call.op_name() + ": the pool is larger than the padded input");
    if (ceil) span = CheckedAdd(span, g.strides[i] - 1);
    out.push_back(span / g.strides[i] + 1);
  }
  call.AssignResult(ir::TensorType(Permuted(out, InversePermutation(perm)), data_type->dtype));
  return true;
}

}  // namespace

void RegisterConvNDOps(OpRegistry& registry) {
  OpDef& conv1d = RegisterOp(registry, "nn.conv1d", 2, OpPattern::kOutEWiseFusable, ConvRel<1>,
                             "1-D convolution (NCW data, OIW weight), groups and dilation.");
  conv1d.attrs_schema = ConvAttrs(1);
  conv1d.kernel = kernels::Conv1D;
  OpDef& conv3d = RegisterOp(registry, "nn.conv3d", 2, OpPattern::kOutEWiseFusable, ConvRel<3>,
                             "3-D convolution (NCDHW data, OIDHW weight), groups and dilation.");
  conv3d.attrs_schema = ConvAttrs(3);
  conv3d.kernel = kernels::Conv3D;
  conv3d.infer_layout = layout_rules::Conv2D;  // TVM's ConvInferCorrectLayout<Conv3DAttrs>
  struct Transposed {
    const char* name;
    int s;
    TypeRelation rel;
    kernels::KernelFn* kernel;
  };
  const Transposed transposed[] = {
      {"nn.conv1d_transpose", 1, ConvTransposeRel<1>, kernels::Conv1DTranspose},
      {"nn.conv2d_transpose", 2, ConvTransposeRel<2>, kernels::Conv2DTranspose},
      {"nn.conv3d_transpose", 3, ConvTransposeRel<3>, kernels::Conv3DTranspose},
  };
  for (const Transposed& t : transposed) {
    OpDef& def = RegisterOp(registry, t.name, 2, OpPattern::kOutEWiseFusable, t.rel,
                            "Transposed convolution (the gradient of a convolution).");
    def.attrs_schema = ConvTransposeAttrs(t.s);
    def.kernel = t.kernel;
    def.infer_layout = layout_rules::Conv2D;  // ConvInferCorrectLayout, as TVM's
  }
  struct Pool {
    const char* name;
    int s;
    bool avg;
    TypeRelation rel;
    kernels::KernelFn* kernel;
    const char* description;
  };
  const Pool pools[] = {
      {"nn.max_pool1d", 1, false, PoolRel<1>, kernels::MaxPool1D,
       "1-D max pooling on NCW data (or any ordering of its axes)."},
      {"nn.avg_pool1d", 1, true, PoolRel<1>, kernels::AvgPool1D,
       "1-D average pooling on NCW data (or any ordering of its axes)."},
      {"nn.max_pool3d", 3, false, PoolRel<3>, kernels::MaxPool3D,
       "3-D max pooling on NCDHW data (or any ordering of its axes)."},
      {"nn.avg_pool3d", 3, true, PoolRel<3>, kernels::AvgPool3D,
       "3-D average pooling on NCDHW data (or any ordering of its axes)."},
  };
  for (const Pool& p : pools) {
    OpDef& def = RegisterOp(registry, p.name, 1, OpPattern::kOutEWiseFusable, p.rel, p.description);
    def.attrs_schema = p.avg ? AvgPoolAttrs(p.s) : MaxPoolAttrs(p.s);
    def.kernel = p.kernel;
  }
}

}  // namespace relaypass::op

namespace relaypass::relay::nn {

using ir::AttrValue;
using op::CallOp;

namespace {
// TVM's get_pad_tuple3d: p -> 6 x p; (d, h, w) -> (d, h, w, d, h, w); 6 values unchanged.
Ints PadTuple(const Ints& p, size_t s) {
  if (p.size() == 1) return Ints(2 * s, p[0]);
  if (p.size() == s) {
    Ints out = p;
    out.insert(out.end(), p.begin(), p.end());
    return out;
  }
  return p;
}
Ints Spread(const Ints& v, size_t s) {
  return v.size() == 1 ? Ints(s, v[0]) : v;
}

Expr ConvTranspose(const char* name, size_t s, Expr data, Expr weight, const ConvTransposeArgs& a) {
  const Ints ones(s, 1), zeros(s, 0);
  const char* layouts[][2] = {{"NCW", "IOW"}, {"NCHW", "IOHW"}, {"NCDHW", "IODHW"}};
  Ints padding = a.padding.empty() ? zeros : a.padding;
  if (s > 1) padding = PadTuple(padding, s);
  return CallOp(
      name, {std::move(data), std::move(weight)},
      {{"channels", op::OptionalInt(a.channels)},
       {"kernel_size", op::OptionalInts(a.kernel_size)},
       {"strides", AttrValue::Ints(a.strides.empty() ? ones : Spread(a.strides, s))},
       {"padding", AttrValue::Ints(padding)},
       {"output_padding",
        AttrValue::Ints(a.output_padding.empty() ? zeros : Spread(a.output_padding, s))},
       {"dilation", AttrValue::Ints(a.dilation.empty() ? ones : Spread(a.dilation, s))},
       {"groups", AttrValue::Int(a.groups)},
       {"data_layout", AttrValue::Str(a.data_layout.empty() ? layouts[s - 1][0] : a.data_layout)},
       {"kernel_layout",
        AttrValue::Str(a.kernel_layout.empty() ? layouts[s - 1][1] : a.kernel_layout)},
       {"out_layout", AttrValue::Str(a.out_layout)},
       {"out_dtype", AttrValue::Str(a.out_dtype)}});
}

Expr Pool3D(const char* name, Expr x, const Pool3DArgs& a, bool avg) {
  op::AttrValues attrs = {{"pool_size", AttrValue::Ints(Spread(a.pool_size, 3))},
                          {"strides", AttrValue::Ints(Spread(a.strides, 3))},
                          {"dilation", AttrValue::Ints(Spread(a.dilation, 3))},
                          {"padding", AttrValue::Ints(a.padding)},
                          {"layout", AttrValue::Str(a.layout)},
                          {"out_layout", AttrValue::Str(a.out_layout)},
                          {"ceil_mode", AttrValue::Bool(a.ceil_mode)}};
  if (avg) attrs.push_back({"count_include_pad", AttrValue::Bool(a.count_include_pad)});
  return CallOp(name, {std::move(x)}, attrs);
}
}  // namespace

Expr conv3d(Expr data, Expr weight, const Conv3DArgs& a) {
  return CallOp("nn.conv3d", {std::move(data), std::move(weight)},
                {{"strides", AttrValue::Ints(Spread(a.strides, 3))},
                 {"padding", AttrValue::Ints(PadTuple(a.padding, 3))},
                 {"dilation", AttrValue::Ints(Spread(a.dilation, 3))},
                 {"groups", AttrValue::Int(a.groups)},
                 {"channels", op::OptionalInt(a.channels)},
                 {"kernel_size", op::OptionalInts(a.kernel_size)},
                 {"data_layout", AttrValue::Str(a.data_layout)},
                 {"kernel_layout", AttrValue::Str(a.kernel_layout)},
                 {"out_layout", AttrValue::Str(a.out_layout)},
                 {"out_dtype", AttrValue::Str(a.out_dtype)}});
}

Expr conv1d_transpose(Expr data, Expr weight, const ConvTransposeArgs& args) {
  return ConvTranspose("nn.conv1d_transpose", 1, std::move(data), std::move(weight), args);
}
Expr conv2d_transpose(Expr data, Expr weight, const ConvTransposeArgs& args) {
  return ConvTranspose("nn.conv2d_transpose", 2, std::move(data), std::move(weight), args);
}
Expr conv3d_transpose(Expr data, Expr weight, const ConvTransposeArgs& args) {
  return ConvTranspose("nn.conv3d_transpose", 3, std::move(data), std::move(weight), args);
}

Expr max_pool3d(Expr x, const Pool3DArgs& args) {
  return Pool3D("nn.max_pool3d", std::move(x), args, false);
}
Expr avg_pool3d(Expr x, const Pool3DArgs& args) {
  return Pool3D("nn.avg_pool3d", std::move(x), args, true);
}

}  // namespace relaypass::relay::nn
