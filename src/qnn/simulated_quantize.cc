// qnn.simulated_quantize and qnn.simulated_dequantize (TVM v0.13's simulated_quantize.cc,
// simulated_dequantize.cc and TOPI's nn/qnn.py): quantize / dequantize computed in floating
// point, the target dtype given at run time as a code tensor (0 disable, 1 int8, 2 uint8,
// 3 int32), scales and zero points one per channel of `axis` (indexed modulo their length, as
// TOPI's). Their kernel evaluates that directly; TVM has no lowering of them to other ops.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/registry.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

using ir::DataType;
using ir::NDArray;

// TVM's relation: any data and dtype-code tensors; the result has the data's type.
ir::TypeRelation SimulatedRel() {
  return [](ir::TypeRelationCall& call) {
    ir::Type data = call.Resolve(0);
    ir::Type code = call.Resolve(1);
    const auto* tensor = data ? data.as<ir::TensorTypeNode>() : nullptr;
    if (tensor == nullptr || !code || !code.as<ir::TensorTypeNode>()) return false;
    if (!tensor->dtype.is_float()) {
      call.Fail(call.op_name() + ": expected floating-point data, got " + tensor->dtype.ToString());
    }
    call.AssignResult(data);
    return true;
  };
}

struct Range {
  double min, max;
};

// The dtype code's range; nullopt-like `enabled = false` for code 0 (disable).
bool RangeOfCode(int64_t code, Range& range, const std::string& op) {
  switch (code) {
    case 0:
      return false;
    case 1:
      range = {-128.0, 127.0};
      return true;
    case 2:
      range = {0.0, 255.0};
      return true;
    case 3:
      range = {static_cast<double>(std::numeric_limits<int32_t>::min()),
               static_cast<double>(std::numeric_limits<int32_t>::max())};
      return true;
    default:
      throw ValueError(op +
                       ": the dtype code must be 0 (disable), 1 (int8), 2 (uint8) or 3 "
                       "(int32), got " +
                       std::to_string(code));
  }
}

// The element's channel along `axis` for row-major index `i`.
struct ChannelOf {
  int64_t inner = 1;   // elements after the axis
  int64_t extent = 1;  // the axis's length
  int64_t operator()(int64_t i) const { return (i / inner) % extent; }
};

ChannelOf ChannelIndexer(const NDArray& data, int64_t axis, const std::string& op) {
  ChannelOf of;
  const int ndim = data.ndim();
  if (ndim == 0) return of;
  if (axis < -ndim || axis >= ndim) {
    throw ValueError(op + ": axis " + std::to_string(axis) + " is out of range for rank " +
                     std::to_string(ndim));
  }
  const int a = static_cast<int>(axis < 0 ? axis + ndim : axis);
  of.extent = data.shape()[a];
  for (int d = a + 1; d < ndim; ++d) of.inner *= data.shape()[d];
  return of;
}

template <typename T>
void Store(NDArray& out, int64_t i, double value) {
  out.mutable_data<T>()[i] = static_cast<T>(value);
}

op::Kernel SimulatedKernel(bool quantize) {
  const std::string op = quantize ? "qnn.simulated_quantize" : "qnn.simulated_dequantize";
  return [op, quantize](const std::vector<NDArray>& in, const ir::Attrs& attrs,
                        const ir::Type&) -> std::vector<NDArray> {
    if (in.size() != 4) throw ValueError(op + ": expected 4 inputs");
    const NDArray& data = in[0];
    if (in[1].size() != 1) throw ValueError(op + ": the dtype code must be a single value");
    Range range{};
    if (!RangeOfCode(static_cast<int64_t>(in[1].GetAsDouble(0)), range, op)) return {data};
    const NDArray& scale = in[2];
    const NDArray& zero_point = in[3];
    if (scale.size() == 0 || zero_point.size() == 0) {
      throw ValueError(op + ": the scale and zero point must hold at least one value");
    }
    const ChannelOf channel = ChannelIndexer(data, attrs->get_int("axis"), op);
    NDArray out = NDArray::Uninitialized(data.shape(), data.dtype());
    const bool is_double = data.dtype() == DataType::Float(64);
    if (!is_double && data.dtype() != DataType::Float(32)) {
      throw ValueError(op + ": float32 or float64 data only, got " + data.dtype().ToString());
    }
    for (int64_t i = 0; i < data.size(); ++i) {
      const int64_t c = channel(i);
      const double s = scale.GetAsDouble(c % scale.size());
      const double zp = zero_point.GetAsDouble(c % zero_point.size());
      const double v = data.GetAsDouble(i);
      // TOPI's: max(min(round(v / s) + zp, max), min), round halving away from zero; and
      // (v - zp) * s back.
      const double r = quantize ? std::fmax(std::fmin(std::round(v / s) + zp, range.max), range.min)
                                : (v - zp) * s;
      if (is_double) {
        Store<double>(out, i, r);
      } else {
        Store<float>(out, i, r);
      }
    }
    return {out};
  };
}

}  // namespace

void RegisterSimulatedQuantizeOps(op::OpRegistry& registry) {
  static const ir::AttrsSchema quantize_attrs("relay.attrs.SimulatedQuantizeAttrs",
                                              {ir::AttrsSchema::Int("axis", -1)});
  for (bool quantize : {true, false}) {
    op::OpDef& def =
        registry.Register(quantize ? "qnn.simulated_quantize" : "qnn.simulated_dequantize");
    def.num_inputs = 4;
    def.type_relation = SimulatedRel();
    def.attrs_schema = quantize ? &quantize_attrs : registry.Find("qnn.dequantize")->attrs_schema;
    def.pattern = ir::OpPattern::kOpaque;
    def.description = quantize ? "Simulates qnn.quantize in floating point, the target dtype "
                                 "given at run time by a code (0 disable, 1 int8, 2 uint8, 3 "
                                 "int32)."
                               : "Simulates qnn.dequantize in floating point, the source dtype "
                                 "given at run time by a code.";
    def.kernel = SimulatedKernel(quantize);
  }
}

}  // namespace relaypass::qnn
