#include "context.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "relaypass/frontend/onnx.h"
#include "relaypass/ir/expr.h"
#include "relaypass/relay.h"
#include "tensor.h"

namespace relaypass::frontend::onnx_import {

NodeContext::NodeContext(const onnx::NodeProto& node, int64_t index, int64_t opset,
                         std::vector<InputInfo> inputs)
    : node_(node), index_(index), opset_(opset), inputs_(std::move(inputs)) {}

const ir::Expr& NodeContext::input(size_t i) const {
  if (!has_input(i)) Fail("input " + std::to_string(i) + " is missing");
  return inputs_[i].expr;
}
const ir::Shape& NodeContext::shape(size_t i) const {
  input(i);
  return inputs_[i].shape;
}
ir::DataType NodeContext::dtype(size_t i) const {
  input(i);
  return inputs_[i].dtype;
}
const ir::NDArray* NodeContext::value(size_t i) const {
  if (!has_input(i) || !inputs_[i].value) return nullptr;
  return &*inputs_[i].value;
}

const ir::NDArray& NodeContext::RequireValue(size_t i, const std::string& what,
                                             bool bindable) const {
  const ir::NDArray* v = value(i);
  if (v) return *v;
  input(i);
  std::string message = "input " + std::to_string(i) + " ('" + inputs_[i].name + "', " + what +
                        ") must be known at import (a constant or an initializer)";
  OnnxError error(
      "node #" + std::to_string(index_) + " '" + node_.name() + "' (" + op_type() + "): " + message,
      index_, node_.name(), op_type(), true);
  // A value computed from graph inputs alone (shape arithmetic on an input) names the first of
  // them: binding the inputs one by one makes it known.
  const bool derived = !inputs_[i].is_graph_input && !inputs_[i].roots.empty();
  error.needs_input_value = bindable && (inputs_[i].is_graph_input || derived);
  error.input_name = derived ? inputs_[i].roots.front() : inputs_[i].name;
  throw error;
}

const ir::Shape& NodeContext::StaticShape(size_t i, const std::string& what) const {
  const ir::Shape& s = shape(i);
  for (int64_t d : s) {
    if (d < 0) Unsupported("input " + std::to_string(i) + " has `?` extents, which " + what);
  }
  return s;
}

bool NodeContext::AtRunTime(size_t i, const std::string& what) const {
  if (value(i)) return false;
  if (!dynamic_values_) RequireValue(i, what);
  return true;
}

Ints NodeContext::IntsValue(size_t i, const std::string& what, bool bindable) const {
  const ir::NDArray& v = RequireValue(i, what, bindable);
  Ints out(static_cast<size_t>(v.size()));
  try {
    for (int64_t k = 0; k < v.size(); ++k) out[k] = Int64Element(v, k, what);
  } catch (const OnnxError& e) {
    Fail(e.what());
  }
  return out;
}

Ints NodeContext::attr_ints_n(const std::string& name, size_t count, const Ints& fallback) const {
  Ints v = attr_ints(name, fallback);
  if (v.size() != count) {
    Fail("attribute '" + name + "' must have " + std::to_string(count) + " values, got " +
         std::to_string(v.size()));
  }
  return v;
}

Ints NodeContext::attr_positive_ints_n(const std::string& name, size_t count,
                                       const Ints& fallback) const {
  Ints v = attr_ints_n(name, count, fallback);
  for (int64_t x : v) {
    if (x < 1 || x > std::numeric_limits<int32_t>::max()) {
      Fail("attribute '" + name + "' must be positive (and below 2^31), got " + std::to_string(x));
    }
  }
  return v;
}

double NodeContext::ScalarValue(size_t i, const std::string& what) const {
  const ir::NDArray& v = RequireValue(i, what);
  if (v.size() != 1) Fail(what + " must have one element");
  return v.GetAsDouble(0);
}

const onnx::AttributeProto* NodeContext::attr(const std::string& name) const {
  for (const onnx::AttributeProto& a : node_.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}
bool NodeContext::has_attr(const std::string& name) const {
  return attr(name) != nullptr;
}

int64_t NodeContext::attr_int(const std::string& name, int64_t fallback) const {
  const onnx::AttributeProto* a = attr(name);
  return a ? a->i() : fallback;
}
int NodeContext::attr_int32(const std::string& name, int64_t fallback) const {
  return Int32(attr_int(name, fallback), "attribute " + name);
}
int NodeContext::Int32(int64_t value, const std::string& what) const {
  if (value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max()) {
    Fail(what + " is " + std::to_string(value) + ", which does not fit in a 32-bit int");
  }
  return static_cast<int>(value);
}
double NodeContext::attr_float(const std::string& name, double fallback) const {
  const onnx::AttributeProto* a = attr(name);
  return a ? a->f() : fallback;
}
std::string NodeContext::attr_string(const std::string& name, const std::string& fallback) const {
  const onnx::AttributeProto* a = attr(name);
  return a ? a->s() : fallback;
}
Ints NodeContext::attr_ints(const std::string& name, const Ints& fallback) const {
  const onnx::AttributeProto* a = attr(name);
  if (!a) return fallback;
  return Ints(a->ints().begin(), a->ints().end());
}
std::vector<float> NodeContext::attr_floats(const std::string& name) const {
  const onnx::AttributeProto* a = attr(name);
  if (!a) return {};
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

void NodeContext::Fail(const std::string& message) const {
  throw OnnxError(
      "node #" + std::to_string(index_) + " '" + node_.name() + "' (" + op_type() + "): " + message,
      index_, node_.name(), op_type(), false);
}
void NodeContext::Unsupported(const std::string& message) const {
  throw OnnxError("node #" + std::to_string(index_) + " '" + node_.name() + "' (" + op_type() +
                      "): not supported: " + message,
                  index_, node_.name(), op_type(), true);
}
void NodeContext::CheckInputs(size_t min, size_t max) const {
  size_t n = 0;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    if (has_input(i)) n = i + 1;
  }
  if (n < min || inputs_.size() > max) {
    Fail("expects " + std::to_string(min) + (min == max ? "" : " to " + std::to_string(max)) +
         " inputs, got " + std::to_string(inputs_.size()));
  }
  for (size_t i = 0; i < min; ++i) input(i);
}

void ConverterTable::Add(const std::string& op_type, int64_t since_version, Converter converter) {
  table_[op_type][since_version] = std::move(converter);
}

const Converter* ConverterTable::Find(const std::string& op_type, int64_t opset) const {
  auto it = table_.find(op_type);
  if (it == table_.end()) return nullptr;
  auto v = it->second.upper_bound(opset);
  if (v == it->second.begin()) return nullptr;
  return &std::prev(v)->second;
}

std::vector<std::string> ConverterTable::OpTypes() const {
  std::vector<std::string> out;
  for (const auto& [name, versions] : table_) out.push_back(name);
  return out;
}

const ConverterTable& ConverterTable::Global() {
  static const ConverterTable table = [] {
    ConverterTable t;
    RegisterElementwise(t);
    RegisterActivations(t);
    RegisterConv(t);
    RegisterPooling(t);
    RegisterNorm(t);
    RegisterMatMul(t);
    RegisterShapeOps(t);
    RegisterTensorOps(t);
    RegisterReduce(t);
    RegisterLoss(t);
    RegisterResize(t);
    RegisterQuantize(t);
    RegisterRecurrent(t);
    RegisterVision(t);
    RegisterUnique(t);
    RegisterTraining(t);
    RegisterSignal(t);
    RegisterTfIdf(t);
    RegisterQLinear(t);
    return t;
  }();
  return table;
}

ir::Expr RoundHalfToEven(const ir::Expr& x, ir::DataType dtype) {
  const ir::Expr half = ScalarConst(0.5, dtype);
  const ir::Expr tie =
      relay::call("equal", {relay::abs(relay::subtract(x, relay::call("trunc", {x}))), half});
  const ir::Expr even =
      relay::multiply(relay::round(relay::multiply(x, half)), ScalarConst(2, dtype));
  return relay::where(tie, even, relay::round(x));
}

ir::Expr ScalarConst(double value, ir::DataType dtype) {
  ir::NDArray a = ir::NDArray::Empty({}, dtype);
  switch (dtype.code()) {
    case ir::DataType::Code::kFloat:
      if (dtype.bits() == 64) {
        *a.mutable_data<double>() = value;
        return ir::MakeConstant(a);
      }
      if (dtype.bits() == 32) {
        // Beyond float's range the conversion is undefined: it rounds to infinity, as numpy's.
        constexpr double kFloatMax = std::numeric_limits<float>::max();
        constexpr float kInf = std::numeric_limits<float>::infinity();
        *a.mutable_data<float>() = std::isfinite(value) && std::fabs(value) > kFloatMax
                                       ? (value > 0 ? kInf : -kInf)
                                       : static_cast<float>(value);
        return ir::MakeConstant(a);
      }
      break;
    case ir::DataType::Code::kInt:
    case ir::DataType::Code::kUInt: {
      // An out-of-range (or NaN) double converted to an integer type is undefined behaviour.
      const int bits = dtype.bits();
      const bool is_signed = dtype.code() == ir::DataType::Code::kInt;
      const double limit = std::ldexp(1.0, is_signed ? bits - 1 : bits);
      if (!(value < limit && (is_signed ? value >= -limit : value > -1.0))) {
        std::ostringstream text;
        text << "the value " << value << " does not fit " << dtype.ToString();
        throw OnnxError(text.str());
      }
      break;
    }
    default:
      break;
  }
  switch (dtype.code()) {
    case ir::DataType::Code::kInt:
      if (dtype.bits() == 64) *a.mutable_data<int64_t>() = static_cast<int64_t>(value);
      if (dtype.bits() == 32) *a.mutable_data<int32_t>() = static_cast<int32_t>(value);
      if (dtype.bits() == 16) *a.mutable_data<int16_t>() = static_cast<int16_t>(value);
      if (dtype.bits() == 8) *a.mutable_data<int8_t>() = static_cast<int8_t>(value);
      return ir::MakeConstant(a);
    case ir::DataType::Code::kUInt:
      if (dtype.bits() == 64) *a.mutable_data<uint64_t>() = static_cast<uint64_t>(value);
      if (dtype.bits() == 32) *a.mutable_data<uint32_t>() = static_cast<uint32_t>(value);
      if (dtype.bits() == 16) *a.mutable_data<uint16_t>() = static_cast<uint16_t>(value);
      if (dtype.bits() == 8) *a.mutable_data<uint8_t>() = static_cast<uint8_t>(value);
      return ir::MakeConstant(a);
    case ir::DataType::Code::kBool:
      *a.mutable_data<bool>() = value != 0;
      return ir::MakeConstant(a);
    default:
      break;
  }
  throw OnnxError("a scalar constant of dtype " + dtype.ToString() + " is not supported", -1, "",
                  "", true);
}

int64_t NormalizeAxis(const NodeContext& ctx, int64_t axis, int64_t ndim, bool inclusive) {
  const int64_t hi = inclusive ? ndim + 1 : ndim;
  if (axis < -hi || axis >= hi) {
    ctx.Fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(ndim));
  }
  return axis < 0 ? axis + hi : axis;
}

}  // namespace relaypass::frontend::onnx_import
