// qnn.dense, qnn.batch_matmul and qnn.conv2d: sum((Q_d - zp_d) * (Q_w - zp_w)) in int32.
//
// TVM expands the product into four terms (the nn op on the raw operands, minus each zero point
// times the other operand's window sums, plus the product of the zero points), which lets it run
// the nn op on int8; the result is the same integer. Here, when the kernel's zero point is 0
// (symmetric weights: what ONNX Runtime's and PyTorch's quantizers write) and the input's is a
// constant scalar, conv2d and dense take that form: the nn op on the int8 / uint8 operands
// (the evaluator's int8 GEMM), the data padded with its zero point as TVM's Conv2DPadInput, minus
// zp_d times each output channel's weight sum (a constant once folded). Otherwise the zero
// points are subtracted first and the nn op (same attrs) runs on the int32 differences: an input
// zero point then pads correctly by itself (padding with 0 after the subtraction is padding with
// zp_d before it).
#include "canonicalize.h"
#include "lowering.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

// Arguments: data, weight, input_zero_point, kernel_zero_point, input_scale, kernel_scale.
Expr Shifted(const Expr& x, const Expr& zero_point) {
  Expr wide = relay::cast(x, "int32");
  if (IsEqualScalar(zero_point, ScalarConst(DataType::Int(32), 0))) return wide;
  return relay::subtract(wide, zero_point);
}

// The kernel's zero point broadcast along its output-channel axis `axis` (of `ndim`).
Expr KernelZeroPoint(const Expr& zero_point, const ir::Type& type, int ndim, int axis) {
  const auto* t = type ? type.as<ir::TensorTypeNode>() : nullptr;
  if (IsConstScalar(zero_point) || (t && t->ndim() == 0)) return zero_point;
  return ExpandToAxis(relay::reshape(zero_point, {-1}), ndim, axis);
}

Expr NNCall(const std::string& op, Expr data, Expr weight, const ir::Attrs& attrs) {
  return ir::MakeCall(ir::GetOp(op), {std::move(data), std::move(weight)}, attrs);
}

bool IsInt8(DataType dtype) {
  return dtype == DataType::Int(8) || dtype == DataType::UInt(8);
}

// The input zero point of the int8 form (see the top of the file), or false if the call does not
// take that form: int8 / uint8 operands, an int32 result, a constant scalar input zero point and
// an all-zero kernel zero point.
bool Int8Form(const ir::Attrs& attrs, const Args& args, const Types& types, int64_t* zp_d) {
  const auto* data = types[0] ? types[0].as<ir::TensorTypeNode>() : nullptr;
  const auto* weight = types[1] ? types[1].as<ir::TensorTypeNode>() : nullptr;
  const ir::ConstantNode* zp = ConstantUnderCasts(args[2]);
  if (!data || !weight || !IsInt8(data->dtype) || !IsInt8(weight->dtype) || !zp ||
      zp->data.size() != 1 || !IsAllZeros(args[3]) || attrs->get_string("out_dtype") != "int32") {
    return false;
  }
  *zp_d = static_cast<int64_t>(zp->data.GetAsDouble(0));
  return true;
}

// zp_d times the sum of the weight over every axis but `o` (a 1-D int32 tensor of the output
// channels).
Expr ZeroPointTimesWeightSums(const Expr& weight, int ndim, int o, int64_t zp_d) {
  relay::Ints axes;
  for (int d = 0; d < ndim; ++d) {
    if (d != o) axes.push_back(d);
  }
  Expr sums = relay::sum(relay::cast(weight, "int32"), axes);
  return relay::multiply(sums, ScalarConst(DataType::Int(32), static_cast<double>(zp_d)));
}

// TVM's get_pad_tuple2d: padding of 1, 2 or 4 values as (top, left, bottom, right).
std::vector<int64_t> PadTuple2D(const std::vector<int64_t>& p) {
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  return p;
}

Expr Conv2DOnInt8(const ir::Attrs& attrs, const Args& args, int o, int64_t zp_d) {
  const std::string& layout = attrs->get_string("data_layout");
  const std::string& out_layout_attr = attrs->get_string("out_layout");
  const std::string& out_layout = out_layout_attr.empty() ? layout : out_layout_attr;
  const size_t h = layout.find('H'), w = layout.find('W'), c = out_layout.find('C');
  if (layout.size() != 4 || out_layout.size() != 4 || h == std::string::npos ||
      w == std::string::npos || c == std::string::npos) {
    return nullptr;
  }
  const std::vector<int64_t> pad = PadTuple2D(attrs->get_ints("padding"));
  if (pad.size() != 4) return nullptr;
  Expr data = args[0];
  ir::Attrs conv_attrs = attrs;
  const bool padded = pad[0] || pad[1] || pad[2] || pad[3];
  if (zp_d != 0 && padded) {
    // Padding with the zero point, as TVM's Conv2DPadInput: the padded places then count as 0.
    std::vector<relay::Ints> width(4, relay::Ints{0, 0});
    width[h] = {pad[0], pad[2]};
    width[w] = {pad[1], pad[3]};
    data = relay::nn::pad(data, width, ScalarConst(DataType::Int(32), static_cast<double>(zp_d)));
    conv_attrs = attrs->With("padding", ir::AttrValue::Ints({0, 0, 0, 0}));
  }
  Expr conv = NNCall("nn.conv2d", data, args[1], conv_attrs);
  if (zp_d == 0) return conv;
  Expr term = ZeroPointTimesWeightSums(args[1], 4, o, zp_d);
  return relay::subtract(conv, ExpandToAxis(term, 4, static_cast<int>(c)));
}

}  // namespace

Expr LowerDense(const ir::Attrs& attrs, const Args& args, const Types& types) {
  if (int64_t zp_d = 0; Int8Form(attrs, args, types, &zp_d)) {
    Expr dense = NNCall("nn.dense", args[0], args[1], attrs);
    if (zp_d == 0) return dense;
    return relay::subtract(dense, ZeroPointTimesWeightSums(args[1], 2, 0, zp_d));
  }
  Expr data = Shifted(args[0], args[2]);
  Expr weight = Shifted(args[1], KernelZeroPoint(args[3], types[3], 2, 0));
  return NNCall("nn.dense", data, weight, attrs);
}

Expr LowerBatchMatmul(const ir::Attrs& attrs, const Args& args, const Types& types) {
  (void)types;
  Expr x = Shifted(args[0], args[2]);
  Expr y = Shifted(args[1], args[3]);
  return NNCall("nn.batch_matmul", x, y, attrs);
}

Expr LowerConv2D(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const std::string& layout = attrs->get_string("kernel_layout");
  const size_t o = layout.find('O');
  if (o == std::string::npos || layout.size() != 4) {
    throw ValueError("qnn.conv2d: kernel_layout \"" + layout + "\" has no O axis");
  }
  if (int64_t zp_d = 0; Int8Form(attrs, args, types, &zp_d)) {
    if (Expr e = Conv2DOnInt8(attrs, args, static_cast<int>(o), zp_d)) return e;
  }
  Expr data = Shifted(args[0], args[2]);
  Expr weight = Shifted(args[1], KernelZeroPoint(args[3], types[3], 4, static_cast<int>(o)));
  return NNCall("nn.conv2d", data, weight, attrs);
}

namespace {

// x cast to int16 minus its zero point: subtract for a scalar, else bias_add of the negated
// zero point along axis 1 (TVM's; the kernel's O axis in IOHW).
Expr ShiftedInt16(const Expr& x, const Expr& zero_point, const ir::Type& zero_point_type) {
  Expr wide = relay::cast(x, "int16");
  const auto* t = zero_point_type ? zero_point_type.as<ir::TensorTypeNode>() : nullptr;
  if (t == nullptr || t->ndim() == 0) {
    return relay::subtract(wide, relay::cast(zero_point, "int16"));
  }
  return relay::nn::bias_add(wide, relay::negative(relay::cast(zero_point, "int16")), 1);
}

}  // namespace

Expr LowerConv2DTranspose(const ir::Attrs& attrs, const Args& args, const Types& types) {
  Expr data = ShiftedInt16(args[0], args[2], types[2]);
  Expr weight = ShiftedInt16(args[1], args[3], types[3]);
  return NNCall("nn.conv2d_transpose", data, weight, attrs);
}

}  // namespace relaypass::qnn
