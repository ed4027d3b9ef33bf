// TVM's FTVMQnnLegalize rewrites of qnn.conv2d and qnn.dense (python/tvm/relay/qnn/op/
// legalizations.py), chosen by the current target's keys as TVM's generic functions dispatch:
//  - x86 ("cpu") with fast int8 (an -mcpu with SSE4.2 or later): operands made uint8 x int8;
//    without: the nn op on int16 operands minus their zero points (no qnn op left).
//  - ARM ("arm_cpu"): with dot products (+dotprod), or an NHWC non-depthwise conv2d: operands made
//    the same dtype; without: the int16 nn op as above.
//  - CUDA ("cuda", "gpu"): both operands made int8.
//  - Hexagon ("hexagon"): NCHW / OIHW int8 convolutions get their input channels padded to a
//    multiple of 4 and their output channels to a multiple of 32 (a strided_slice takes the
//    result back), dense layers their units to a multiple of 32; vector kernel zero points and
//    scales are extended with 0 and 1.0. One deviation: with both zero points non-zero the
//    padded input channels hold the input zero point, not 0 (see HexagonConv2D).
// The implementation is the one of the target's first key that has one, as TVM's generic
// functions dispatch.
// Making an operand uint8 adds 128 to it and its zero point, int8 subtracts 128.
#include <set>

#include "canonicalize.h"
#include "legalize_hooks.h"
#include "lowering.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/passes/target.h"
#include "relaypass/relay.h"

namespace relaypass::qnn {

namespace {

using Args = std::vector<ir::Expr>;
using Types = std::vector<ir::Type>;

DataType DTypeOf(const ir::Type& type) {
  return TensorTypeOf(type, "qnn legalize").dtype;
}

// (data + shift, zero_point + shift) with shift +128 towards uint8 and -128 towards int8.
std::pair<Expr, Expr> Shift(const Expr& data, const Expr& zero_point, const std::string& to) {
  const int shift = to == "uint8" ? 128 : -128;
  Expr shifted = relay::cast(
      relay::add(relay::cast(data, "int32"), ScalarConst(DataType::Int(32), shift)), to);
  Expr zp;
  if (const auto* c = zero_point.as<ir::ConstantNode>(); c && c->data.size() == 1) {
    zp = ScalarConst(DataType::Int(32), c->data.GetAsDouble(0) + shift);
  } else {
    zp = relay::add(zero_point, ScalarConst(DataType::Int(32), shift));
  }
  return {shifted, zp};
}

Expr QnnCall(const std::string& op, Expr data, Expr kernel, Expr izp, Expr kzp, const Args& args,
             const ir::Attrs& attrs) {
  return ir::MakeCall(ir::GetOp(op), {data, kernel, izp, kzp, args[4], args[5]}, attrs);
}

// helper_change_dtypes_to_uint8_int8
Expr ToUint8Int8(const std::string& op, const ir::Attrs& attrs, const Args& args,
                 const Types& types) {
  const DataType data_dtype = DTypeOf(types[0]);
  const DataType kernel_dtype = DTypeOf(types[1]);
  if (data_dtype == DataType::UInt(8) && kernel_dtype == DataType::Int(8)) return nullptr;
  Expr data = args[0], kernel = args[1], izp = args[2], kzp = args[3];
  if (data_dtype == DataType::Int(8)) std::tie(data, izp) = Shift(data, izp, "uint8");
  if (kernel_dtype == DataType::UInt(8)) std::tie(kernel, kzp) = Shift(kernel, kzp, "int8");
  return QnnCall(op, data, kernel, izp, kzp, args, attrs);
}

// helper_change_dtypes_to_be_same: the data shifted to the kernel's dtype.
Expr ToSameDType(const std::string& op, const ir::Attrs& attrs, const Args& args,
                 const Types& types) {
  const DataType data_dtype = DTypeOf(types[0]);
  const DataType kernel_dtype = DTypeOf(types[1]);
  if (data_dtype == kernel_dtype) return nullptr;
  if (data_dtype.bits() != 8 || kernel_dtype.bits() != 8) return nullptr;
  auto [data, izp] = Shift(args[0], args[2], kernel_dtype.ToString());
  return QnnCall(op, data, args[1], izp, args[3], args, attrs);
}

// helper_change_dtypes_to_int8
Expr ToInt8(const std::string& op, const ir::Attrs& attrs, const Args& args, const Types& types) {
  Expr data = args[0], kernel = args[1], izp = args[2], kzp = args[3];
  if (DTypeOf(types[0]) == DataType::UInt(8)) std::tie(data, izp) = Shift(data, izp, "int8");
  if (DTypeOf(types[1]) == DataType::UInt(8)) std::tie(kernel, kzp) = Shift(kernel, kzp, "int8");
  return QnnCall(op, data, kernel, izp, kzp, args, attrs);
}

// helper_no_fast_int8_hw_legalization: the nn op on int16 (operand - zero point).
Expr NoFastInt8(const std::string& nn_op, const ir::Attrs& attrs, const Args& args,
                const Types& types, int kernel_output_axis) {
  Expr data = relay::subtract(relay::cast(args[0], "int16"), relay::cast(args[2], "int16"));
  Expr kzp = relay::cast(args[3], "int16");
  const ir::TensorTypeNode& kzp_type = TensorTypeOf(types[3], nn_op);
  const ir::TensorTypeNode& kernel_type = TensorTypeOf(types[1], nn_op);
  if (kzp_type.ndim() != 0) {
    kzp = ExpandToAxis(relay::reshape(kzp, {-1}), kernel_type.ndim(), kernel_output_axis);
  }
  Expr kernel = relay::subtract(relay::cast(args[1], "int16"), kzp);
  return ir::MakeCall(ir::GetOp(nn_op), {data, kernel}, attrs);
}

// TVM's target_has_sse42 (python/tvm/target/x86.py): the -mcpu values with SSE4.2 or later.
bool FastInt8OnIntel(const passes::Target& target) {
  static const std::set<std::string> kCpus = {"nehalem",
                                              "corei7",
                                              "westmere",
                                              "sandybridge",
                                              "corei7-avx",
                                              "ivybridge",
                                              "core-avx-i",
                                              "haswell",
                                              "core-avx2",
                                              "broadwell",
                                              "skylake",
                                              "skylake-avx512",
                                              "skx",
                                              "cascadelake",
                                              "cooperlake",
                                              "cannonlake",
                                              "icelake-client",
                                              "icelake-server",
                                              "tigerlake",
                                              "rocketlake",
                                              "alderlake",
                                              "sapphirerapids",
                                              "knl",
                                              "knm",
                                              "silvermont",
                                              "slm",
                                              "goldmont",
                                              "goldmont-plus",
                                              "tremont",
                                              "btver2",
                                              "bdver1",
                                              "bdver2",
                                              "bdver3",
                                              "bdver4",
                                              "znver1",
                                              "znver2",
                                              "znver3",
                                              "znver4",
                                              "x86-64-v2",
                                              "x86-64-v3",
                                              "x86-64-v4"};
  std::optional<std::string> mcpu = target.GetAttr("mcpu");
  return mcpu && kCpus.count(*mcpu) != 0;
}

bool HasDotProd(const passes::Target& target) {
  std::optional<std::string> mattr = target.GetAttr("mattr");
  return mattr && mattr->find("+dotprod") != std::string::npos;
}

// TVM's Hexagon legalizations (vrmpy tensorization): channel counts padded to vector lengths.
constexpr int64_t kInChannelVector = 4, kOutChannelVector = 32;

int64_t AlignUp(int64_t v, int64_t step) {
  return (v + step - 1) / step * step;
}

bool Int8Like(DataType dtype) {
  return dtype == DataType::Int(8) || dtype == DataType::UInt(8);
}

// A vector kernel zero point or scale (a constant) extended by `diff` values of `fill`; a scalar
// one as it is.
Expr PadChannelParam(const Expr& param, const ir::Type& type, int64_t diff, double fill,
                     DataType dtype) {
  if (TensorTypeOf(type, "qnn legalize").ndim() == 0) return param;
  std::vector<double> values = ConstValues(param, "qnn legalize", "a per-channel parameter");
  values.insert(values.end(), static_cast<size_t>(diff), fill);
  return VectorConst(dtype, values);
}

// The extent of a static axis, or -1.
int64_t StaticExtent(const ir::Type& type, size_t axis) {
  const ir::TensorTypeNode& t = TensorTypeOf(type, "qnn legalize");
  if (axis >= t.shape.size() || t.shape[axis] < 0) return -1;
  return t.shape[axis];
}

relay::Ints ShapeOf(const ir::Type& type) {
  const ir::TensorTypeNode& t = TensorTypeOf(type, "qnn legalize");
  return relay::Ints(t.shape.begin(), t.shape.end());
}

Expr HexagonConv2D(const ir::Attrs& attrs, const Args& args, const Types& types) {
  if (attrs->get_string("data_layout") != "NCHW" || attrs->get_string("kernel_layout") != "OIHW" ||
      !Int8Like(DTypeOf(types[0])) || !Int8Like(DTypeOf(types[1]))) {
    return nullptr;
  }
  const int64_t in_channel = StaticExtent(types[0], 1), out_channel = StaticExtent(types[1], 0);
  if (in_channel < 0 || out_channel < 0) return nullptr;
  Expr data = args[0], kernel = args[1], kernel_zp = args[3], kernel_scale = args[5];
  const bool ic_modified = in_channel % kInChannelVector != 0;
  if (ic_modified) {
    const int64_t diff = AlignUp(in_channel, kInChannelVector) - in_channel;
    const std::vector<relay::Ints> width = {{0, 0}, {0, diff}, {0, 0}, {0, 0}};
    // TVM pads the data with 0, which adds (0 - zp_d) * (0 - zp_w) per padded channel and tap
    // to every output when both zero points are non-zero (its test checks the graph only).
    // There the data is padded with its zero point, which adds nothing; elsewhere as TVM.
    const bool zero_pad_is_exact =
        IsAllZeros(args[3]) || IsEqualScalar(args[2], ScalarConst(DataType::Int(32), 0));
    data = zero_pad_is_exact ? relay::nn::pad(data, width) : relay::nn::pad(data, width, args[2]);
    kernel = relay::nn::pad(kernel, width);
  }
  const int64_t new_out_channel = AlignUp(out_channel, kOutChannelVector);
  const bool oc_modified = new_out_channel != out_channel;
  if (oc_modified) {
    const int64_t diff = new_out_channel - out_channel;
    kernel = relay::nn::pad(kernel, {{0, diff}, {0, 0}, {0, 0}, {0, 0}});
    kernel_zp = PadChannelParam(kernel_zp, types[3], diff, 0, DataType::Int(32));
    kernel_scale = PadChannelParam(kernel_scale, types[5], diff, 1.0, DataType::Float32());
  }
  if (!ic_modified && !oc_modified) return nullptr;
  const ir::Attrs new_attrs =
      oc_modified ? attrs->With("channels", ir::AttrValue::Int(new_out_channel)) : attrs;
  Expr out = ir::MakeCall(ir::GetOp("qnn.conv2d"),
                          {data, kernel, args[2], kernel_zp, args[4], kernel_scale}, new_attrs);
  if (!oc_modified) return out;
  return relay::strided_slice(out, {0, 0, 0, 0}, ShapeOf(types[6]), relay::Ints{1});
}

Expr HexagonDense(const ir::Attrs& attrs, const Args& args, const Types& types) {
  if (!Int8Like(DTypeOf(types[0])) || !Int8Like(DTypeOf(types[1]))) return nullptr;
  const int64_t n = StaticExtent(types[1], 0);
  if (n < 0 || n % kOutChannelVector == 0) return nullptr;
  const int64_t diff = AlignUp(n, kOutChannelVector) - n;
  Expr kernel = relay::nn::pad(args[1], {{0, diff}, {0, 0}});
  Expr kernel_zp = PadChannelParam(args[3], types[3], diff, 0, DataType::Int(32));
  Expr kernel_scale = PadChannelParam(args[5], types[5], diff, 1.0, DataType::Float32());
  // An explicit `units` gives the output shape: it grows with the weight.
  ir::Attrs new_attrs = attrs;
  if (!attrs->get("units").is_null())
    new_attrs = attrs->With("units", ir::AttrValue::Int(n + diff));
  Expr out = ir::MakeCall(ir::GetOp("qnn.dense"),
                          {args[0], kernel, args[2], kernel_zp, args[4], kernel_scale}, new_attrs);
  return relay::strided_slice(out, {0, 0}, ShapeOf(types[6]), relay::Ints{1});
}

// TVM's generic functions pick the implementation of the target's first key that has one.
enum class Family { kNone, kArm, kGpu, kCpu, kHexagon };

Family FamilyOf(const passes::Target& target) {
  for (const std::string& key : target.keys()) {
    if (key == "arm_cpu") return Family::kArm;
    if (key == "cuda" || key == "gpu") return Family::kGpu;
    if (key == "cpu") return Family::kCpu;
    if (key == "hexagon") return Family::kHexagon;
  }
  return Family::kNone;
}

Expr LegalizeConv2D(const ir::Attrs& attrs, const Args& args, const Types& types) {
  std::optional<passes::Target> target = passes::Target::Current();
  if (!target) return nullptr;
  const std::string& layout = attrs->get_string("kernel_layout");
  const int output_axis = static_cast<int>(layout.find('O'));
  switch (FamilyOf(*target)) {
    case Family::kArm: {
      const bool depthwise = attrs->get_int("groups") > 1;
      const bool int8_on_arm = !depthwise && attrs->get_string("data_layout") == "NHWC";
      if (int8_on_arm || HasDotProd(*target)) return ToSameDType("qnn.conv2d", attrs, args, types);
      return NoFastInt8("nn.conv2d", attrs, args, types, output_axis);
    }
    case Family::kGpu:
      return ToInt8("qnn.conv2d", attrs, args, types);
    case Family::kCpu:
      if (FastInt8OnIntel(*target)) return ToUint8Int8("qnn.conv2d", attrs, args, types);
      return NoFastInt8("nn.conv2d", attrs, args, types, output_axis);
    case Family::kHexagon:
      return HexagonConv2D(attrs, args, types);
    case Family::kNone:
      break;
  }
  return nullptr;
}

Expr LegalizeDense(const ir::Attrs& attrs, const Args& args, const Types& types) {
  std::optional<passes::Target> target = passes::Target::Current();
  if (!target) return nullptr;
  switch (FamilyOf(*target)) {
    case Family::kArm:
      if (HasDotProd(*target)) return ToSameDType("qnn.dense", attrs, args, types);
      return NoFastInt8("nn.dense", attrs, args, types, 0);
    case Family::kGpu:
      return ToInt8("qnn.dense", attrs, args, types);
    case Family::kCpu:
      if (FastInt8OnIntel(*target)) return ToUint8Int8("qnn.dense", attrs, args, types);
      return NoFastInt8("nn.dense", attrs, args, types, 0);
    case Family::kHexagon:
      return HexagonDense(attrs, args, types);
    case Family::kNone:
      break;
  }
  return nullptr;
}

}  // namespace

void RegisterTargetLegalizations(
    const std::function<void(const std::string&, passes::LegalizeFunc)>& add) {
  add("qnn.conv2d", LegalizeConv2D);
  add("qnn.dense", LegalizeDense);
  // TVM's generic legalization, for every target (and none): the int16 lowering.
  add("qnn.conv2d_transpose", LowerConv2DTranspose);
}

}  // namespace relaypass::qnn
