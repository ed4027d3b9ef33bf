// FakeQuantizationToInteger's rules, by op name (TVM v0.13's
// python/tvm/relay/transform/fake_quantization_to_integer.py): each rewrites a float op of a
// fake-quantized region into integer ops and states its result's scale and zero point.
#include <algorithm>
#include <cmath>
#include <map>

#include "fq2i.h"
#include "lowering.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/ir/structural.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn::fq2i {

using ir::AttrValue;
using ir::Expr;
using Result = std::pair<Expr, AffineType>;

Expr Fold(const Expr& e) {
  return passes::FoldConstantExpr(e);
}

bool ApproxEqual(const Expr& a, const Expr& b) {
  Expr fa = Fold(a), fb = Fold(b);
  const auto* ca = fa.as<ir::ConstantNode>();
  const auto* cb = fb.as<ir::ConstantNode>();
  if (!ca || !cb) return ir::StructuralEqual(fa, fb);
  const int64_t na = ca->data.size(), nb = cb->data.size();
  if (na != nb && na != 1 && nb != 1) return false;
  for (int64_t i = 0; i < std::max(na, nb); ++i) {
    const double x = ca->data.GetAsDouble(na == 1 ? 0 : i);
    const double y = cb->data.GetAsDouble(nb == 1 ? 0 : i);
    if (std::abs(x - y) > 1e-8 + 1e-5 * std::abs(y)) return false;  // numpy.allclose
  }
  return true;
}

Expr ZerosLike(const Expr& scale) {
  return Fold(relay::cast(relay::zeros_like(scale), "int32"));
}

namespace {

const ir::CallNode& CallOf(const Expr& e) {
  return *e.as<ir::CallNode>();
}

bool SameType(const AffineType& a, const AffineType& b) {
  return a.dtype == b.dtype && ApproxEqual(a.scale, b.scale) &&
         ApproxEqual(a.zero_point, b.zero_point);
}

Expr Requantize(const Expr& x, const AffineType& from, const Expr& scale, const Expr& zero_point,
                DataType out_dtype, int axis) {
  return relay::call(
      "qnn.requantize", {x, from.scale, from.zero_point, scale, zero_point},
      {{"axis", AttrValue::Int(axis)}, {"out_dtype", AttrValue::Str(out_dtype.ToString())}});
}

Expr Quantize(const Expr& x, const Expr& scale, const Expr& zero_point, DataType dtype,
              int axis = -1) {
  return relay::call(
      "qnn.quantize", {x, scale, zero_point},
      {{"out_dtype", AttrValue::Str(dtype.ToString())}, {"axis", AttrValue::Int(axis)}});
}

Expr WithArgs(const ir::CallNode& call, std::vector<Expr> args, ir::Attrs attrs = nullptr) {
  return ir::MakeCall(call.op, std::move(args), attrs ? attrs : call.attrs);
}

int RankOf(const Expr& call) {
  return TensorTypeOf(call->checked_type, "FakeQuantizationToInteger").ndim();
}

// Identity rules: the op works on the quantized values as they are.
Result Identity(const Expr& e, const AffineTypeMap& types) {
  return {e, types.At(CallOf(e).args[0], CallOf(e).op_node()->name)};
}

Result Dequantize(const Expr& e, const AffineTypeMap& types) {
  return {CallOf(e).args[0], types.At(e, "qnn.dequantize")};
}

Result QuantizeRule(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const Expr& arg = call.args[0];
  const AffineType& t = types.At(arg, "qnn.quantize");
  const DataType out_dtype =
      ir::DataType::Parse(call.attrs->get_string("out_dtype")).value_or(DataType::Int(8));
  const int axis = static_cast<int>(call.attrs->get_int("axis"));
  Expr out = arg;
  if (!(ApproxEqual(t.scale, call.args[1]) && ApproxEqual(t.zero_point, call.args[2]) &&
        t.dtype == out_dtype)) {
    AffineType folded = t;
    folded.scale = Fold(t.scale);
    folded.zero_point = Fold(t.zero_point);
    out = Requantize(arg, folded, call.args[1], call.args[2], out_dtype, t.axis);
  }
  return {out, {call.args[1], call.args[2], out_dtype, axis}};
}

Result Split(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& t = types.At(call.args[0], "split");
  const AttrValue& sections = call.attrs->get("indices_or_sections");
  const size_t n = sections.kind() == AttrValue::Kind::kArray
                       ? sections.as_array().size() + 1
                       : static_cast<size_t>(sections.as_int());
  AffineType tuple;
  tuple.is_tuple = true;
  tuple.fields.assign(n, t);
  return {e, tuple};
}

Result TopK(const Expr& e, const AffineTypeMap& types) {
  if (CallOf(e).attrs->get_string("ret_type") != "values") {
    throw ValueError("FakeQuantizationToInteger: topk must return values only");
  }
  return Identity(e, types);
}

// nn.conv2d / nn.conv2d_transpose -> the qnn op (int32, scale the product of the scales, the
// channel axis of the output layout).
Result ConvLike(const Expr& e, const AffineTypeMap& types, const std::string& nn_op,
                const std::string& qnn_op) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& x = types.At(call.args[0], nn_op);
  const AffineType& w = types.At(call.args[1], nn_op);
  Expr scale = Fold(relay::multiply(x.scale, w.scale));
  ir::Attrs attrs = call.attrs->With("out_dtype", AttrValue::Str("int32"));
  Expr out = ir::MakeCall(
      ir::GetOp(qnn_op), {call.args[0], call.args[1], x.zero_point, w.zero_point, x.scale, w.scale},
      attrs);
  std::string layout = call.attrs->get_string("out_layout");
  if (layout.empty()) layout = call.attrs->get_string("data_layout");
  const size_t c = layout.find('C');
  return {out,
          {scale, ZerosLike(scale), DataType::Int(32),
           c == std::string::npos ? 1 : static_cast<int>(c)}};
}

Result Conv2D(const Expr& e, const AffineTypeMap& types) {
  return ConvLike(e, types, "nn.conv2d", "qnn.conv2d");
}

Result Conv2DTranspose(const Expr& e, const AffineTypeMap& types) {
  return ConvLike(e, types, "nn.conv2d_transpose", "qnn.conv2d_transpose");
}

Result Dense(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& x = types.At(call.args[0], "nn.dense");
  const AffineType& w = types.At(call.args[1], "nn.dense");
  Expr scale = Fold(relay::multiply(x.scale, w.scale));
  ir::Attrs attrs = call.attrs->With("out_dtype", AttrValue::Str("int32"));
  Expr out = ir::MakeCall(
      ir::GetOp("qnn.dense"),
      {call.args[0], call.args[1], x.zero_point, w.zero_point, x.scale, w.scale}, attrs);
  return {out, {scale, ZerosLike(scale), DataType::Int(32), 1}};
}

Result BatchMatmul(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& x = types.At(call.args[0], "nn.batch_matmul");
  const AffineType& y = types.At(call.args[1], "nn.batch_matmul");
  Expr scale = Fold(relay::multiply(x.scale, y.scale));
  Expr out = relay::call("qnn.batch_matmul",
                         {call.args[0], call.args[1], x.zero_point, y.zero_point, x.scale, y.scale},
                         {{"out_dtype", AttrValue::Str("int32")},
                          {"transpose_a", AttrValue::Bool(false)},
                          {"transpose_b", AttrValue::Bool(true)}});
  return {out, {scale, ScalarConst(DataType::Int(32), 0), DataType::Int(32), x.axis}};
}

Result BiasAdd(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& x = types.At(call.args[0], "nn.bias_add");
  Expr b = call.args[1];
  if (types.Has(b)) {
    const AffineType& bt = types.At(b, "nn.bias_add");
    if (!SameType(x, bt)) b = Requantize(b, bt, Fold(x.scale), Fold(x.zero_point), x.dtype, 0);
  } else {
    if (!b.as<ir::ConstantNode>()) {
      throw ValueError(
          "FakeQuantizationToInteger: nn.bias_add's bias is neither quantized nor a "
          "constant");
    }
    b = Quantize(b, x.scale, x.zero_point, x.dtype, 0);
  }
  return {WithArgs(call, {call.args[0], b}), x};
}

Result Concatenate(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const auto* tuple = call.args[0].as<ir::TupleNode>();
  if (tuple == nullptr) {
    throw ValueError("FakeQuantizationToInteger: concatenate of a non-literal tuple");
  }
  std::vector<Expr> scales, zero_points;
  for (const Expr& field : tuple->fields) {
    const AffineType& t = types.At(field, "concatenate");
    scales.push_back(t.scale);
    zero_points.push_back(t.zero_point);
  }
  const AffineType& out_t = types.At(e, "concatenate");
  Expr out = ir::MakeCall(ir::GetOp("qnn.concatenate"),
                          {call.args[0], relay::tuple(scales), relay::tuple(zero_points),
                           out_t.scale, out_t.zero_point},
                          call.attrs);
  return {out, out_t};
}

// A per-channel vector of `values` broadcast along `axis` of `call`'s rank, or a scalar.
Expr AlongAxis(const std::vector<double>& values, DataType dtype, const Expr& call, int axis) {
  if (values.size() == 1) return ScalarConst(dtype, values[0]);
  const int rank = RankOf(call);
  if (axis < 0) axis += rank;
  Expr vec = Fold(relay::cast(VectorConst(DataType::Float(64), values), dtype.ToString()));
  return ExpandToAxis(vec, rank, axis);
}

Result Clip(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& t = types.At(call.args[0], "clip");
  std::vector<double> scales = ConstValues(Fold(t.scale), "clip", "scale");
  std::vector<double> zero_points = ConstValues(Fold(t.zero_point), "clip", "zero point");
  const double a_min = call.attrs->get_double("a_min");
  const double a_max = call.attrs->get_double("a_max");
  if (scales.size() == 1 && zero_points.size() == 1) {
    // TVM: int(a / scale + zero_point), Python's truncation.
    const double lo = std::trunc(a_min / scales[0] + zero_points[0]);
    const double hi = std::trunc(a_max / scales[0] + zero_points[0]);
    return {relay::clip(call.args[0], lo, hi), t};
  }
  const size_t n = std::max(scales.size(), zero_points.size());
  std::vector<double> lo(n), hi(n);
  for (size_t i = 0; i < n; ++i) {
    const double s = scales[scales.size() == 1 ? 0 : i];
    const double z = zero_points[zero_points.size() == 1 ? 0 : i];
    lo[i] = std::round(a_min / s + z);  // TVM: relay round, halves away from zero
    hi[i] = std::round(a_max / s + z);
  }
  Expr out = relay::minimum(relay::maximum(call.args[0], AlongAxis(lo, t.dtype, e, t.axis)),
                            AlongAxis(hi, t.dtype, e, t.axis));
  return {out, t};
}

Result Relu(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& t = types.At(call.args[0], "nn.relu");
  std::vector<double> zero_points = ConstValues(Fold(t.zero_point), "nn.relu", "zero point");
  return {relay::maximum(call.args[0], AlongAxis(zero_points, t.dtype, e, t.axis)), t};
}

Result Pad(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& t = types.At(call.args[0], "nn.pad");
  Expr pad_value = call.args[1];
  if (types.Has(pad_value)) {
    const AffineType& pt = types.At(pad_value, "nn.pad");
    if (!SameType(t, pt))
      pad_value = Requantize(pad_value, pt, t.scale, t.zero_point, t.dtype, pt.axis);
  } else {
    if (!pad_value.as<ir::ConstantNode>()) {
      throw ValueError(
          "FakeQuantizationToInteger: nn.pad's value is neither quantized nor a "
          "constant");
    }
    pad_value = Quantize(pad_value, t.scale, t.zero_point, t.dtype);
  }
  return {WithArgs(call, {call.args[0], pad_value}), t};
}

Result Mean(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  const AffineType& t = types.At(call.args[0], "mean");
  Expr out = WithArgs(call, {relay::cast(call.args[0], "int32")});
  return {relay::cast(out, t.dtype.ToString()), t};
}

// avg_pool2d, global_avg_pool2d, adaptive_avg_pool1d: the input requantized to the output's
// parameters in int32 (or cast), pooled; avg_pool2d clips and casts back.
Result AvgPool(const Expr& e, const AffineTypeMap& types, bool cast_back) {
  const ir::CallNode& call = CallOf(e);
  const std::string& name = call.op_node()->name;
  const AffineType& t = types.At(call.args[0], name);
  const AffineType& out_t = types.At(e, name);
  Expr arg = call.args[0];
  if (!SameType(t, out_t)) {
    arg = Requantize(arg, t, out_t.scale, out_t.zero_point, DataType::Int(32), t.axis);
  } else {
    arg = relay::cast(arg, "int32");
  }
  Expr out = WithArgs(call, {arg});
  if (!cast_back || out_t.dtype == DataType::Int(32)) {
    return {out, {out_t.scale, out_t.zero_point, DataType::Int(32), out_t.axis}};
  }
  return {ClipAndCast(out, out_t.dtype), out_t};
}

// The argument types of a binary op; a constant side is quantized with the other side's.
struct BinaryTypes {
  Expr left, right;
  AffineType left_t, right_t, out_t;
};

BinaryTypes GetBinaryTypes(const Expr& e, const AffineTypeMap& types) {
  const ir::CallNode& call = CallOf(e);
  BinaryTypes b{call.args[0], call.args[1], {}, {}, types.At(e, call.op_node()->name)};
  const bool has_left = types.Has(b.left), has_right = types.Has(b.right);
  if (!has_left && !has_right) throw ValueError("neither input is quantized!");
  if (has_left) b.left_t = types.At(b.left, "binary");
  if (has_right) b.right_t = types.At(b.right, "binary");
  auto quantize_constant = [](Expr& side, const AffineType& like) {
    if (!side.as<ir::ConstantNode>()) {
      throw ValueError("FakeQuantizationToInteger: an unquantized operand that is not a constant");
    }
    side = Quantize(side, like.scale, like.zero_point, like.dtype);
  };
  if (!has_left) {
    quantize_constant(b.left, b.right_t);
    b.left_t = b.right_t;
  }
  if (!has_right) {
    quantize_constant(b.right, b.left_t);
    b.right_t = b.left_t;
  }
  if (b.left_t.dtype != b.out_t.dtype) b.out_t = b.left_t;
  return b;
}

Rule BinaryQnn(const std::string& qnn_op) {
  return [qnn_op](const Expr& e, const AffineTypeMap& types) -> Result {
    BinaryTypes b = GetBinaryTypes(e, types);
    // TVM: an int32 add of operands and output with one scale and a zero zero point (a bias after
    // dense or conv2d, whose per-channel scales qnn.add could not take) stays a plain add.
    if (qnn_op == "qnn.add" && b.left_t.dtype == DataType::Int(32) &&
        b.right_t.dtype == DataType::Int(32) && ApproxEqual(b.left_t.scale, b.right_t.scale) &&
        ApproxEqual(b.left_t.zero_point, b.right_t.zero_point) &&
        ApproxEqual(b.left_t.scale, b.out_t.scale) &&
        ApproxEqual(b.left_t.zero_point, b.out_t.zero_point) &&
        ApproxEqual(b.out_t.zero_point, ScalarConst(DataType::Int(32), 0))) {
      return {relay::add(b.left, b.right), b.left_t};
    }
    Expr out = relay::call(qnn_op,
                           {b.left, b.right, b.left_t.scale, b.left_t.zero_point, b.right_t.scale,
                            b.right_t.zero_point, b.out_t.scale, b.out_t.zero_point},
                           {{"lhs_axis", AttrValue::Int(b.left_t.axis)},
                            {"rhs_axis", AttrValue::Int(b.right_t.axis)}});
    return {out, b.out_t};
  };
}

Result BinaryIdentity(const Expr& e, const AffineTypeMap& types) {
  BinaryTypes b = GetBinaryTypes(e, types);
  if (!SameType(b.left_t, b.out_t)) {
    b.left = Requantize(b.left, b.left_t, b.out_t.scale, b.out_t.zero_point, b.out_t.dtype,
                        b.left_t.axis);
  }
  if (!SameType(b.right_t, b.out_t)) {
    b.right = Requantize(b.right, b.right_t, b.out_t.scale, b.out_t.zero_point, b.out_t.dtype,
                         b.right_t.axis);
  }
  return {WithArgs(CallOf(e), {b.left, b.right}), b.out_t};
}

// nn.leaky_relu -> qnn.leaky_relu and (an optional rule) nn.softmax -> qnn.softmax: the op's
// own attributes, the input's and the region output's parameters.
Rule ActivationQnn(const std::string& qnn_op) {
  return [qnn_op](const Expr& e, const AffineTypeMap& types) -> Result {
    const ir::CallNode& call = CallOf(e);
    const AffineType& x = types.At(call.args[0], qnn_op);
    const AffineType& out_t = types.At(e, qnn_op);
    return {ir::MakeCall(ir::GetOp(qnn_op),
                         {call.args[0], x.scale, x.zero_point, out_t.scale, out_t.zero_point},
                         call.attrs),
            out_t};
  };
}

Rule UnaryQnn(const std::string& qnn_op) {
  return [qnn_op](const Expr& e, const AffineTypeMap& types) -> Result {
    const ir::CallNode& call = CallOf(e);
    const AffineType& x = types.At(call.args[0], qnn_op);
    const AffineType& out_t = types.At(e, qnn_op);
    return {
        relay::call(qnn_op, {call.args[0], x.scale, x.zero_point, out_t.scale, out_t.zero_point}),
        out_t};
  };
}

const std::map<std::string, Rule>& Rules() {
  static const std::map<std::string, Rule> rules = [] {
    std::map<std::string, Rule> r = {
        {"qnn.dequantize", Dequantize},
        {"qnn.quantize", QuantizeRule},
        {"split", Split},
        {"topk", TopK},
        {"nn.conv2d", Conv2D},
        {"nn.conv2d_transpose", Conv2DTranspose},
        {"nn.leaky_relu", ActivationQnn("qnn.leaky_relu")},
        {"nn.dense", Dense},
        {"nn.batch_matmul", BatchMatmul},
        {"nn.bias_add", BiasAdd},
        {"concatenate", Concatenate},
        {"clip", Clip},
        {"nn.relu", Relu},
        {"nn.pad", Pad},
        {"mean", Mean},
        {"nn.avg_pool2d",
         [](const Expr& e, const AffineTypeMap& t) { return AvgPool(e, t, true); }},
        {"nn.global_avg_pool2d",
         [](const Expr& e, const AffineTypeMap& t) { return AvgPool(e, t, false); }},
        {"nn.adaptive_avg_pool1d",
         [](const Expr& e, const AffineTypeMap& t) { return AvgPool(e, t, false); }},
        {"add", BinaryQnn("qnn.add")},
        {"multiply", BinaryQnn("qnn.mul")},
        {"subtract", BinaryQnn("qnn.subtract")},
        {"minimum", BinaryIdentity},
        {"maximum", BinaryIdentity},
    };
    for (const char* name : {"reshape", "squeeze", "strided_slice", "transpose", "expand_dims",
                             "nn.max_pool2d", "nn.batch_flatten", "nn.depth_to_space", "max", "min",
                             "image.resize2d", "broadcast_to", "take"}) {
      r.emplace(name, Identity);
    }
    for (const char* name :
         {"sqrt", "rsqrt", "exp", "erf", "sigmoid", "hardswish", "tanh", "abs", "log"}) {
      r.emplace(name, UnaryQnn(std::string("qnn.") + name));
    }
    return r;
  }();
  return rules;
}

// TVM's register_optional_fake_quantization_to_integer: rules used only for the ops a pass
// names in optional_qnn_ops.
const std::map<std::string, Rule>& OptionalRules() {
  static const std::map<std::string, Rule> rules = {
      {"nn.softmax", ActivationQnn("qnn.softmax")},
  };
  return rules;
}

}  // namespace

Rule FindRule(const std::string& op_name, const std::vector<std::string>& optional_ops) {
  auto it = Rules().find(op_name);
  if (it != Rules().end()) return it->second;
  if (std::find(optional_ops.begin(), optional_ops.end(), op_name) == optional_ops.end()) {
    return Rule();
  }
  auto optional = OptionalRules().find(op_name);
  return optional == OptionalRules().end() ? Rule() : optional->second;
}

}  // namespace relaypass::qnn::fq2i
