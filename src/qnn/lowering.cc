#include "lowering.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "relaypass/ir/ndarray.h"
#include "relaypass/qnn/qnn.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

const ir::ConstantNode* AsConstant(const Expr& e) {
  return e ? e.as<ir::ConstantNode>() : nullptr;
}

void SetElement(ir::NDArray& array, int64_t i, double value) {
  const DataType dtype = array.dtype();
  if (dtype == DataType::Int(8)) {
    array.mutable_data<int8_t>()[i] = static_cast<int8_t>(value);
  } else if (dtype == DataType::UInt(8)) {
    array.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(value);
  } else if (dtype == DataType::Int(16)) {
    array.mutable_data<int16_t>()[i] = static_cast<int16_t>(value);
  } else if (dtype == DataType::UInt(16)) {
    array.mutable_data<uint16_t>()[i] = static_cast<uint16_t>(value);
  } else if (dtype == DataType::Int(32)) {
    array.mutable_data<int32_t>()[i] = static_cast<int32_t>(value);
  } else if (dtype == DataType::Int(64)) {
    array.mutable_data<int64_t>()[i] = static_cast<int64_t>(value);
  } else if (dtype == DataType::Float(32)) {
    array.mutable_data<float>()[i] = static_cast<float>(value);
  } else if (dtype == DataType::Float(64)) {
    array.mutable_data<double>()[i] = value;
  } else {
    throw InternalError("qnn: no constant of dtype " + dtype.ToString());
  }
}

Expr Int64(double v) {
  return ScalarConst(DataType::Int(64), v);
}

}  // namespace

bool IsConstScalar(const Expr& e) {
  const ir::ConstantNode* c = AsConstant(e);
  return c != nullptr && c->is_scalar();
}

// The constant under `e`'s integer casts (the importers write zero points as cast(constant,
// int32)), or null.
const ir::ConstantNode* ConstantUnderCasts(const Expr& e) {
  const ir::Expr* x = &e;
  while (const auto* call = x->as<ir::CallNode>()) {
    const auto* op = call->op_node();
    const auto* type =
        call->checked_type.defined() ? call->checked_type.as<ir::TensorTypeNode>() : nullptr;
    if (!op || op->name != "cast" || call->args.size() != 1 || !type || type->dtype.is_float()) {
      return nullptr;
    }
    x = &call->args[0];
  }
  const auto* c = x->as<ir::ConstantNode>();
  return c && !c->data.dtype().is_float() ? c : nullptr;
}

// Whether `e` is a constant (under casts) whose every value is 0.
bool IsAllZeros(const Expr& e) {
  const ir::ConstantNode* c = ConstantUnderCasts(e);
  if (!c) return false;
  for (int64_t i = 0; i < c->data.size(); ++i) {
    if (c->data.GetAsDouble(i) != 0) return false;
  }
  return true;
}

bool IsEqualScalar(const Expr& a, const Expr& b) {
  const ir::ConstantNode* ca = AsConstant(a);
  const ir::ConstantNode* cb = AsConstant(b);
  if (!ca || !cb || !ca->is_scalar() || !cb->is_scalar()) return false;
  return ca->data.dtype() == cb->data.dtype() && ca->data.GetAsDouble(0) == cb->data.GetAsDouble(0);
}

double ScalarValue(const Expr& e, const std::string& op, const std::string& what) {
  const ir::ConstantNode* c = AsConstant(e);
  if (c == nullptr) {
    throw ValueError(op + ": " + what + " must be a constant to be lowered");
  }
  if (c->data.size() != 1) {
    throw ValueError(op + ": " + what + " must hold one value, got " +
                     std::to_string(c->data.size()));
  }
  return c->data.GetAsDouble(0);
}

std::vector<double> ConstValues(const Expr& e, const std::string& op, const std::string& what) {
  const ir::ConstantNode* c = AsConstant(e);
  if (c == nullptr) throw ValueError(op + ": " + what + " must be a constant to be lowered");
  std::vector<double> values(static_cast<size_t>(c->data.size()));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = c->data.GetAsDouble(static_cast<int64_t>(i));
  }
  return values;
}

int64_t QMin(DataType dtype) {
  if (dtype.is_uint()) return 0;
  if (dtype.is_int()) return -(int64_t{1} << (dtype.bits() - 1));
  throw InternalError("qnn: " + dtype.ToString() + " is not an integer dtype");
}

int64_t QMax(DataType dtype) {
  if (dtype.is_uint()) {
    return dtype.bits() >= 64 ? std::numeric_limits<int64_t>::max()
                              : (int64_t{1} << dtype.bits()) - 1;
  }
  if (dtype.is_int())
    return dtype.bits() >= 64 ? std::numeric_limits<int64_t>::max()
                              : (int64_t{1} << (dtype.bits() - 1)) - 1;
  throw InternalError("qnn: " + dtype.ToString() + " is not an integer dtype");
}

Expr ScalarConst(DataType dtype, double value) {
  ir::NDArray array = ir::NDArray::Empty({}, dtype);
  SetElement(array, 0, value);
  return relay::const_(array);
}

Expr VectorConst(DataType dtype, const std::vector<double>& values) {
  ir::NDArray array = ir::NDArray::Empty({static_cast<int64_t>(values.size())}, dtype);
  for (size_t i = 0; i < values.size(); ++i) SetElement(array, static_cast<int64_t>(i), values[i]);
  return relay::const_(array);
}

Expr ExpandToAxis(const Expr& vec, int ndim, int axis) {
  const int trailing = ndim - axis - 1;
  return trailing > 0 ? relay::expand_dims(vec, 1, trailing) : vec;
}

const ir::TensorTypeNode& TensorTypeOf(const ir::Type& type, const std::string& op) {
  const auto* tensor = type ? type.as<ir::TensorTypeNode>() : nullptr;
  if (tensor == nullptr) {
    throw ValueError(op + ": type information missing; run InferType before lowering");
  }
  return *tensor;
}

std::pair<int32_t, int32_t> FixedPointMultiplierShift(double multiplier) {
  if (multiplier == 0.) return {0, 0};
  int exponent = 0;
  const double significand = std::frexp(multiplier, &exponent);
  auto fixed = static_cast<int64_t>(std::round(significand * static_cast<double>(1ll << 31)));
  if (fixed == (1ll << 31)) {
    fixed /= 2;
    ++exponent;
  }
  return {static_cast<int32_t>(fixed), exponent};
}

Expr FixedPointMultiply(const Expr& tensor, const std::vector<double>& multipliers, int ndim,
                        int axis, const std::string& rounding) {
  std::vector<double> fixed, left, total_right, pos_round, neg_round;
  bool any_left = false;
  for (double m : multipliers) {
    auto [significand, shift] = FixedPointMultiplierShift(m);
    const int lshift = shift > 0 ? shift : 0;
    const int rshift = (shift > 0 ? 0 : -shift) + 31;
    fixed.push_back(significand);
    left.push_back(lshift);
    any_left = any_left || lshift != 0;
    total_right.push_back(rshift);
    const int64_t half = int64_t{1} << (rshift - 1);
    pos_round.push_back(static_cast<double>(half));
    neg_round.push_back(static_cast<double>(half - 1));
  }
  const bool per_tensor = multipliers.size() == 1 && axis < 0;
  auto values = [&](const std::vector<double>& v) {
    return per_tensor ? Int64(v[0]) : ExpandToAxis(VectorConst(DataType::Int(64), v), ndim, axis);
  };
  Expr x = relay::cast(tensor, "int64");
  if (any_left) x = relay::call("left_shift", {x, values(left)});
  x = relay::multiply(x, values(fixed));
  Expr rounder = values(pos_round);
  if (rounding == "TONEAREST") {
    Expr non_negative = relay::call("greater_equal", {x, Int64(0)});
    rounder = relay::where(non_negative, rounder, values(neg_round));
  }
  x = relay::add(x, rounder);
  x = relay::call("right_shift", {x, values(total_right)});
  return relay::cast(x, "int32");
}

Expr ClipAndCast(const Expr& data, DataType dtype) {
  return relay::cast(
      relay::clip(data, static_cast<double>(QMin(dtype)), static_cast<double>(QMax(dtype))),
      dtype.ToString());
}

Expr RoundHalfAwayFromZero(const Expr& x, DataType) {
  return relay::round(x);
}

namespace {

// Rounding of a float tensor to integral values: "UPWARD" floor(x + 0.5), "TONEAREST" halves
// away from zero (TVM's Upward / Tonearest).
Expr RoundFloat(const Expr& x, DataType dtype, const std::string& rounding) {
  Expr half = ScalarConst(dtype, 0.5);
  if (rounding == "UPWARD") return relay::call("floor", {relay::add(x, half)});
  return RoundHalfAwayFromZero(x, dtype);
}

Expr RequantizeLowerFP(const Expr& data, const ir::TensorTypeNode& data_type,
                       const Expr& input_scale, const Expr& input_zero_point,
                       const Expr& output_scale, const Expr& output_zero_point, int axis,
                       const std::string& rounding, DataType fp, DataType out_dtype) {
  const std::string op = "qnn.requantize";
  const std::string fp_name = fp.ToString();
  const int ndim = data_type.ndim();
  Expr x = relay::cast(data, fp_name);
  Expr zero = ScalarConst(DataType::Int(32), 0);
  if (!IsEqualScalar(input_zero_point, zero)) {
    Expr zp = ExpandToAxis(relay::reshape(input_zero_point, {-1}), ndim, axis);
    x = relay::subtract(x, relay::cast(zp, fp_name));
  }
  const double out_scale = static_cast<float>(ScalarValue(output_scale, op, "output_scale"));
  if (IsConstScalar(input_scale)) {
    if (!IsEqualScalar(input_scale, output_scale)) {
      const double in_scale = static_cast<float>(ScalarValue(input_scale, op, "input_scale"));
      x = relay::multiply(ScalarConst(fp, in_scale / out_scale), x);
    }
  } else {
    std::vector<double> multipliers = ConstValues(input_scale, op, "input_scale");
    for (double& m : multipliers) m = static_cast<float>(m) / out_scale;
    x = relay::multiply(x, ExpandToAxis(VectorConst(fp, multipliers), ndim, axis));
  }
  if (!IsEqualScalar(output_zero_point, zero)) {
    x = relay::add(x, relay::cast(output_zero_point, fp_name));
  }
  x = relay::cast(RoundFloat(x, fp, rounding), "int32");
  if (out_dtype == DataType::Int(32)) return x;
  return ClipAndCast(x, out_dtype);
}

Expr RequantizeLowerInt(const Expr& data, const ir::TensorTypeNode& data_type,
                        const Expr& input_scale, const Expr& input_zero_point,
                        const Expr& output_scale, const Expr& output_zero_point, int axis,
                        const std::string& rounding, DataType out_dtype) {
  const std::string op = "qnn.requantize";
  const int ndim = data_type.ndim();
  Expr x = relay::cast(data, "int32");
  Expr zero = ScalarConst(DataType::Int(32), 0);
  if (!IsEqualScalar(input_zero_point, zero)) {
    Expr zp = ExpandToAxis(relay::reshape(input_zero_point, {-1}), ndim, axis);
    x = relay::subtract(x, relay::cast(zp, "int32"));
  }
  const double out_scale = static_cast<float>(ScalarValue(output_scale, op, "output_scale"));
  if (IsConstScalar(input_scale)) {
    if (!IsEqualScalar(input_scale, output_scale)) {
      const double in_scale = static_cast<float>(ScalarValue(input_scale, op, "input_scale"));
      x = FixedPointMultiply(x, {in_scale / out_scale}, ndim, -1, rounding);
    }
  } else {
    std::vector<double> multipliers = ConstValues(input_scale, op, "input_scale");
    for (double& m : multipliers) m = static_cast<float>(m) / out_scale;
    x = FixedPointMultiply(x, multipliers, ndim, axis, rounding);
  }
  if (!IsEqualScalar(output_zero_point, zero)) {
    x = relay::add(relay::cast(output_zero_point, "int32"), x);
  }
  if (out_dtype == DataType::Int(32)) return x;
  return ClipAndCast(x, out_dtype);
}

std::string Resolve(const std::string& argument, const std::string& configured) {
  return argument == "None" ? configured : argument;
}

}  // namespace

Expr RequantizeLower(const Expr& data, const ir::TensorTypeNode& data_type, const Expr& input_scale,
                     const Expr& input_zero_point, const Expr& output_scale,
                     const Expr& output_zero_point, int axis, const std::string& rounding,
                     const std::string& compute_dtype, DataType out_dtype) {
  const std::string op = "qnn.requantize";
  if (ScalarValue(output_scale, op, "output_scale") == 0.0) {
    throw ValueError("qnn.requantize: the output scale can not be equal to 0.0");
  }
  if (rounding != "UPWARD" && rounding != "TONEAREST") {
    throw ValueError("qnn.requantize supports two rounding modes - UPWARD and TONEAREST, got \"" +
                     rounding + "\"");
  }
  const int ndim = data_type.ndim();
  if (axis < 0) axis = ndim > 0 ? ndim + axis : 0;
  if (compute_dtype == "float32" || compute_dtype == "float64") {
    return RequantizeLowerFP(data, data_type, input_scale, input_zero_point, output_scale,
                             output_zero_point, axis, rounding,
                             compute_dtype == "float32" ? DataType::Float(32) : DataType::Float(64),
                             out_dtype);
  }
  if (compute_dtype != "int64") {
    throw ValueError(
        "qnn.requantize supports three compute_dtype variants - \"int64\", \"float32\" and "
        "\"float64\", got \"" +
        compute_dtype + "\"");
  }
  return RequantizeLowerInt(data, data_type, input_scale, input_zero_point, output_scale,
                            output_zero_point, axis, rounding, out_dtype);
}

Expr Requantize(const Expr& data, const ir::TensorTypeNode& data_type, const Expr& input_scale,
                const Expr& input_zero_point, const Expr& output_scale,
                const Expr& output_zero_point, DataType out_dtype, int axis) {
  const RequantizeConfig& config = CurrentRequantizeConfig();
  return RequantizeLower(data, data_type, input_scale, input_zero_point, output_scale,
                         output_zero_point, axis, Resolve("None", config.rounding),
                         Resolve("None", config.compute_dtype), out_dtype);
}

namespace {

// Two constants of one dtype and the same values (scalars, or per-channel vectors; a single value
// equals a vector that repeats it).
bool IsEqualConstant(const Expr& a, const Expr& b) {
  if (IsEqualScalar(a, b)) return true;
  const ir::ConstantNode* ca = AsConstant(a);
  const ir::ConstantNode* cb = AsConstant(b);
  if (!ca || !cb || ca->data.dtype() != cb->data.dtype()) return false;
  const int64_t na = ca->data.size(), nb = cb->data.size();
  if (na != nb && na != 1 && nb != 1) return false;
  for (int64_t i = 0; i < std::max(na, nb); ++i) {
    if (ca->data.GetAsDouble(na == 1 ? 0 : i) != cb->data.GetAsDouble(nb == 1 ? 0 : i)) {
      return false;
    }
  }
  return true;
}

}  // namespace

Expr RequantizeOrUpcast(const Expr& data, const ir::TensorTypeNode& data_type, const Expr& scale,
                        const Expr& zero_point, const Expr& target_scale,
                        const Expr& target_zero_point, int axis) {
  // TVM compares scalars only; equal per-channel parameters (a bias of the dense's scales) need
  // no requantize either, and one would need a scalar output scale.
  if (!IsEqualConstant(scale, target_scale) || !IsEqualConstant(zero_point, target_zero_point)) {
    return Requantize(data, data_type, scale, zero_point, target_scale, target_zero_point,
                      DataType::Int(32), axis);
  }
  return relay::cast(data, "int32");
}

}  // namespace relaypass::qnn
