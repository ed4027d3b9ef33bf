// TVM's FTVMQnnLegalize rewrites of qnn.conv2d and qnn.dense (python/tvm/relay/qnn/op/
// legalizations.py), chosen by the current target's keys as TVM's generic functions dispatch:
//  - x86 ("cpu") with fast int8 (an -mcpu with SSE4.2 or later): operands made uint8 x int8;
//    without: the nn op on int16 operands minus their zero points (no qnn op left).
//  - ARM ("arm_cpu"): with dot products (+dotprod), or an NHWC non-depthwise conv2d: operands made
//    the same dtype; without: the int16 nn op as above.
//  - CUDA ("cuda", "gpu"): both operands made int8.
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

bool HasKey(const passes::Target& target, const std::string& key) {
  for (const std::string& k : target.keys()) {
    if (k == key) return true;
  }
  return false;
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

Expr LegalizeConv2D(const ir::Attrs& attrs, const Args& args, const Types& types) {
  std::optional<passes::Target> target = passes::Target::Current();
  if (!target) return nullptr;
  const std::string& layout = attrs->get_string("kernel_layout");
  const int output_axis = static_cast<int>(layout.find('O'));
  if (HasKey(*target, "arm_cpu")) {
    const bool depthwise = attrs->get_int("groups") > 1;
    const bool int8_on_arm = !depthwise && attrs->get_string("data_layout") == "NHWC";
    if (int8_on_arm || HasDotProd(*target)) return ToSameDType("qnn.conv2d", attrs, args, types);
    return NoFastInt8("nn.conv2d", attrs, args, types, output_axis);
  }
  if (HasKey(*target, "cuda") || HasKey(*target, "gpu")) {
    return ToInt8("qnn.conv2d", attrs, args, types);
  }
  if (HasKey(*target, "cpu")) {
    if (FastInt8OnIntel(*target)) return ToUint8Int8("qnn.conv2d", attrs, args, types);
    return NoFastInt8("nn.conv2d", attrs, args, types, output_axis);
  }
  return nullptr;
}

Expr LegalizeDense(const ir::Attrs& attrs, const Args& args, const Types& types) {
  std::optional<passes::Target> target = passes::Target::Current();
  if (!target) return nullptr;
  if (HasKey(*target, "arm_cpu")) {
    if (HasDotProd(*target)) return ToSameDType("qnn.dense", attrs, args, types);
    return NoFastInt8("nn.dense", attrs, args, types, 0);
  }
  if (HasKey(*target, "cuda") || HasKey(*target, "gpu")) {
    return ToInt8("qnn.dense", attrs, args, types);
  }
  if (HasKey(*target, "cpu")) {
    if (FastInt8OnIntel(*target)) return ToUint8Int8("qnn.dense", attrs, args, types);
    return NoFastInt8("nn.dense", attrs, args, types, 0);
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
