#include "relations.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/ir/type.h"
#include "relaypass/support/error.h"

namespace relaypass::qnn {

namespace {

using ir::DataType;
using ir::TypeRelationCall;
using TensorRef = ir::Ref<ir::TensorTypeNode>;

bool IsAny(ir::Dim d) {
  return d < 0;  // `?` or symbolic
}

// The tensor type at `index`, or null while it is unknown.
TensorRef TensorAt(const TypeRelationCall& call, size_t index) {
  ir::Type type = call.Resolve(index);
  if (!type || type.as<ir::IncompleteTypeNode>()) return nullptr;
  auto* tensor = type.as<ir::TensorTypeNode>();
  if (tensor == nullptr) {
    call.Fail(call.op_name() + ": argument " + std::to_string(index) + " must be a tensor");
  }
  return type.downcast<ir::TensorTypeNode>();
}

DataType AttrDType(const TypeRelationCall& call, const std::string& name, DataType fallback) {
  const ir::AttrValue& value = call.attrs()->get(name);
  if (value.is_null() || value.as_string().empty()) return fallback;
  std::optional<DataType> parsed = DataType::Parse(value.as_string());
  if (!parsed)
    call.Fail(call.op_name() + ": " + name + " \"" + value.as_string() + "\" is no dtype");
  return *parsed;
}

void CheckDType(const TypeRelationCall& call, DataType dtype, std::vector<DataType> allowed,
                const std::string& what) {
  std::string names;
  for (DataType d : allowed) {
    if (d == dtype) return;
    names += (names.empty() ? "" : ", ") + d.ToString();
  }
  call.Fail(call.op_name() + ": expected " + what + " of dtype (" + names + ") but was " +
            dtype.ToString());
}

int64_t Elements(const ir::TensorTypeNode& t) {
  int64_t n = 1;
  for (ir::Dim d : t.shape) n = IsAny(d) ? -1 : (n < 0 ? -1 : n * d);
  return n;
}

std::string Shortest(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

// The values of a constant scale (float32) or output zero point (int32; `zp_range`: the output
// dtype it offsets). TVM reads them only when it lowers the op, where a scale that is not positive
// and finite divides by zero or flips every sign, and an output zero point outside the output
// dtype shifts values past what the dtype holds before the clip: silent wrong numbers. Here they
// are a TypeError at type inference. An input's or kernel's zero point is subtracted in int32 in
// TVM's lowering (no wrap), and TVM's own tests give int8 data a zero point in [0, 255]: those
// are not range-checked. A parameter computed at run time is not known here.
void CheckConstantExpr(const TypeRelationCall& call, const ir::Expr* arg, DataType dtype,
                       const std::string& what, std::optional<DataType> zp_range) {
  const auto* constant = arg ? arg->as<ir::ConstantNode>() : nullptr;
  if (constant == nullptr) return;
  const ir::NDArray& values = constant->data;
  const bool is_scale = dtype.is_float();
  if (!is_scale && !zp_range) return;
  double lo = 0, hi = 0;
  if (zp_range) {
    lo = zp_range->is_uint() ? 0.0 : -std::ldexp(1.0, zp_range->bits() - 1);
    hi = std::ldexp(1.0, zp_range->bits() - (zp_range->is_uint() ? 0 : 1)) - 1;
  }
  for (int64_t i = 0; i < values.size(); ++i) {
    const double v = values.GetAsDouble(i);
    if (is_scale && !(std::isfinite(v) && v > 0)) {
      call.Fail(call.op_name() + ": " + what + " must be positive and finite, got " + Shortest(v) +
                (values.size() > 1 ? " at " + std::to_string(i) : ""));
    }
    if (!is_scale && (v < lo || v > hi)) {
      call.Fail(call.op_name() + ": " + what + " " + std::to_string(static_cast<int64_t>(v)) +
                " is outside the range of " + zp_range->ToString() + " [" +
                std::to_string(static_cast<int64_t>(lo)) + ", " +
                std::to_string(static_cast<int64_t>(hi)) + "]" +
                (values.size() > 1 ? " at " + std::to_string(i) : ""));
    }
  }
}

void CheckConstantValues(const TypeRelationCall& call, size_t index, DataType dtype,
                         const std::string& what, std::optional<DataType> zp_range) {
  CheckConstantExpr(call, call.arg_expr(index), dtype, what, zp_range);
}

// A scale or zero point: `dtype`, and either one value (rank 0, or one element) or one per
// channel (`channels`, the size of the quantized axis; -1 when any count is allowed); a constant's
// values are checked too (CheckConstantValues). Returns false while its type is unknown.
bool CheckQParam(const TypeRelationCall& call, size_t index, DataType dtype, ir::Dim channels,
                 const std::string& what, std::optional<DataType> zp_range = std::nullopt) {
  TensorRef t = TensorAt(call, index);
  if (!t) return false;
  if (t->dtype != dtype) {
    call.Fail(call.op_name() + ": " + what + " must be " + dtype.ToString() + ", got " +
              t->dtype.ToString());
  }
  CheckConstantValues(call, index, dtype, what, zp_range);
  if (t->ndim() == 0 || Elements(*t) == 1) return true;
  if (t->ndim() != 1) {
    call.Fail(call.op_name() + ": " + what + " must be a scalar or a 1-D tensor, got rank " +
              std::to_string(t->ndim()));
  }
  if (channels >= 0 && !IsAny(t->shape[0]) && t->shape[0] != channels) {
    call.Fail(call.op_name() + ": " + what + " has " + std::to_string(t->shape[0]) +
              " values but the quantized axis has " + std::to_string(channels));
  }
  return true;
}

bool IsSingle(const TypeRelationCall& call, size_t index) {
  TensorRef t = TensorAt(call, index);
  return t && (t->ndim() == 0 || Elements(*t) == 1);
}

// A scalar parameter (one value for the whole tensor).
bool CheckScalarParam(const TypeRelationCall& call, size_t index, DataType dtype,
                      const std::string& what, std::optional<DataType> zp_range = std::nullopt) {
  TensorRef t = TensorAt(call, index);
  if (!t) return false;
  if (!IsSingle(call, index)) {
    call.Fail(call.op_name() + ": " + what + " must be a single value, got " +
              std::to_string(Elements(*t)) + " values");
  }
  return CheckQParam(call, index, dtype, 1, what, zp_range);
}

// The quantized axis of `data` normalised, with its size; fails if out of range.
std::pair<int, ir::Dim> QuantizedAxis(const TypeRelationCall& call, const ir::TensorTypeNode& data,
                                      int64_t axis) {
  const int rank = data.ndim();
  const int64_t normalized = axis < 0 ? (rank > 0 ? rank + axis : 0) : axis;
  if (normalized < 0 || normalized >= (rank > 0 ? rank : 1)) {
    call.Fail(call.op_name() + ": axis " + std::to_string(axis) + " is out of range for rank " +
              std::to_string(rank));
  }
  return {static_cast<int>(normalized), rank > 0 ? data.shape[normalized] : ir::Dim{1}};
}

// A per-channel scale/zero point pair at `scale_index`, `scale_index + 1` along `axis`.
// `always_check_axis`: the axis must be in range even for per-tensor parameters (TVM's
// QuantizeRel, DequantizeRel and RequantizeRel check it whatever the parameters are).
bool CheckAxisParams(const TypeRelationCall& call, const ir::TensorTypeNode& data, int64_t axis,
                     size_t scale_index, size_t zp_index, const std::string& prefix,
                     std::optional<DataType> zp_range, bool always_check_axis = false) {
  TensorRef scale = TensorAt(call, scale_index);
  TensorRef zp = TensorAt(call, zp_index);
  if (!scale || !zp) return false;
  ir::Dim channels = 1;
  if (always_check_axis) QuantizedAxis(call, data, axis);
  if (!(IsSingle(call, scale_index) && IsSingle(call, zp_index))) {
    channels = QuantizedAxis(call, data, axis).second;
  }
  return CheckQParam(call, scale_index, DataType::Float(32), channels, prefix + "scale") &&
         CheckQParam(call, zp_index, DataType::Int(32), channels, prefix + "zero point", zp_range);
}

// Runs an nn relation on some of the call's types: `map` lists the outer indices of the inner
// call's arguments, then of its result.
class SubCall : public TypeRelationCall {
 public:
  SubCall(TypeRelationCall& outer, std::vector<size_t> map) : outer_(outer), map_(std::move(map)) {}
  size_t num_args() const override { return map_.size() - 1; }
  ir::Type Resolve(size_t index) const override { return outer_.Resolve(map_.at(index)); }
  void Assign(size_t index, const ir::Type& type) override { outer_.Assign(map_.at(index), type); }
  const ir::Attrs& attrs() const override { return outer_.attrs(); }
  const std::string& op_name() const override { return outer_.op_name(); }

 protected:
  void ThrowTypeError(const std::string& message) const override { outer_.Fail(message); }

 private:
  TypeRelationCall& outer_;
  std::vector<size_t> map_;
};

ir::TypeRelation NNRelation(const ir::OpRegistry& registry, const std::string& name) {
  const ir::OpDef* def = registry.Find(name);
  if (def == nullptr || !def->type_relation) {
    throw InternalError("qnn: the op layer's " + name + " is not registered");
  }
  return def->type_relation;
}

const std::vector<DataType> kQuantized = {DataType::Int(8), DataType::UInt(8), DataType::Int(16)};

}  // namespace

ir::TypeRelation QuantizeRel() {
  return [](TypeRelationCall& call) {
    TensorRef data = TensorAt(call, 0);
    if (!data) return false;
    CheckDType(call, data->dtype, {DataType::Float(32), DataType::Float(16), DataType::Int(32)},
               "input");
    DataType out = AttrDType(call, "out_dtype", DataType::Int(8));
    CheckDType(call, out,
               {DataType::Int(8), DataType::UInt(8), DataType::Int(16), DataType::UInt(16),
                DataType::Int(32)},
               "output");
    if (!CheckAxisParams(call, *data, call.attrs()->get_int("axis"), 1, 2, "output ", out, true)) {
      return false;
    }
    call.AssignResult(ir::TensorType(data->shape, out));
    return true;
  };
}

ir::TypeRelation DequantizeRel() {
  return [](TypeRelationCall& call) {
    TensorRef data = TensorAt(call, 0);
    if (!data) return false;
    CheckDType(call, data->dtype,
               {DataType::Int(8), DataType::UInt(8), DataType::Int(16), DataType::Int(32)},
               "input");
    if (!CheckAxisParams(call, *data, call.attrs()->get_int("axis"), 1, 2, "input ", std::nullopt,
                         true)) {
      return false;
    }
    DataType out = AttrDType(call, "out_dtype", DataType::Float(32));
    CheckDType(call, out, {DataType::Float(32), DataType::Float(16)}, "output");
    call.AssignResult(ir::TensorType(data->shape, out));
    return true;
  };
}

ir::TypeRelation RequantizeRel() {
  return [](TypeRelationCall& call) {
    TensorRef data = TensorAt(call, 0);
    if (!data) return false;
    CheckDType(call, data->dtype,
               {DataType::Int(8), DataType::UInt(8), DataType::Int(16), DataType::Int(32),
                DataType::Int(64)},
               "input");
    DataType out = AttrDType(call, "out_dtype", DataType::Int(8));
    CheckDType(call, out,
               {DataType::Int(8), DataType::UInt(8), DataType::Int(16), DataType::UInt(16),
                DataType::Int(32), DataType::Int(64)},
               "output");
    // The input's zero point may be any int32 (an int32 accumulator's); the output's fits out.
    if (!CheckAxisParams(call, *data, call.attrs()->get_int("axis"), 1, 2, "input ", std::nullopt,
                         true) ||
        !CheckScalarParam(call, 3, DataType::Float(32), "output scale") ||
        !CheckScalarParam(call, 4, DataType::Int(32), "output zero point", out)) {
      return false;
    }
    call.AssignResult(ir::TensorType(data->shape, out));
    return true;
  };
}

ir::TypeRelation BinaryRel(const ir::OpRegistry& registry) {
  ir::TypeRelation broadcast = NNRelation(registry, "add");
  return [broadcast](TypeRelationCall& call) {
    TensorRef lhs = TensorAt(call, 0);
    TensorRef rhs = TensorAt(call, 1);
    if (!lhs || !rhs) return false;
    if (lhs->dtype != rhs->dtype) {
      call.Fail(call.op_name() + ": lhs and rhs must have one dtype, got " + lhs->dtype.ToString() +
                " and " + rhs->dtype.ToString());
    }
    const ir::AttrsNode& attrs = *call.attrs();
    // The output's parameters are per tensor, or per channel along the lhs axis (what
    // FakeQuantizationToInteger makes of a dense or conv2d plus its bias).
    if (!CheckAxisParams(call, *lhs, attrs.get_int("lhs_axis"), 2, 3, "lhs ", std::nullopt) ||
        !CheckAxisParams(call, *rhs, attrs.get_int("rhs_axis"), 4, 5, "rhs ", std::nullopt) ||
        !CheckAxisParams(call, *lhs, attrs.get_int("lhs_axis"), 6, 7, "output ", lhs->dtype)) {
      return false;
    }
    SubCall inner(call, {0, 1, 8});
    return broadcast(inner);
  };
}

namespace {

// qnn.dense / qnn.conv2d / qnn.batch_matmul: quantized operands, the input's scalar parameters,
// the kernel's per output channel (`channels` from the weight; -1 for any) and the nn shape rule.
bool MatmulLike(TypeRelationCall& call, const ir::TypeRelation& nn_rel, ir::Dim channels,
                bool per_channel_kernel) {
  TensorRef data = TensorAt(call, 0);
  TensorRef weight = TensorAt(call, 1);
  if (!data || !weight) return false;
  CheckDType(call, data->dtype, kQuantized, "input");
  CheckDType(call, weight->dtype, kQuantized, "weight");
  DataType out = AttrDType(call, "out_dtype", DataType::Int(32));
  CheckDType(call, out, {DataType::Int(16), DataType::Int(32), DataType::Int(64)}, "output");
  if (!CheckScalarParam(call, 2, DataType::Int(32), "input zero point") ||
      !CheckScalarParam(call, 4, DataType::Float(32), "input scale")) {
    return false;
  }
  const ir::Dim kernel_channels = per_channel_kernel ? channels : 1;
  if (!CheckQParam(call, 3, DataType::Int(32), kernel_channels, "kernel zero point") ||
      !CheckQParam(call, 5, DataType::Float(32), kernel_channels, "kernel scale")) {
    return false;
  }
  SubCall inner(call, {0, 1, 6});
  return nn_rel(inner);
}

}  // namespace

ir::TypeRelation DenseRel(const ir::OpRegistry& registry) {
  ir::TypeRelation dense = NNRelation(registry, "nn.dense");
  return [dense](TypeRelationCall& call) {
    TensorRef weight = TensorAt(call, 1);
    if (!weight) return false;
    if (weight->ndim() != 2) call.Fail("qnn.dense: weight must be 2-D");
    return MatmulLike(call, dense, weight->shape[0], true);
  };
}

ir::TypeRelation Conv2DRel(const ir::OpRegistry& registry) {
  ir::TypeRelation conv = NNRelation(registry, "nn.conv2d");
  return [conv](TypeRelationCall& call) {
    TensorRef weight = TensorAt(call, 1);
    if (!weight) return false;
    const std::string& layout = call.attrs()->get_string("kernel_layout");
    const size_t o = layout.find('O');
    if (weight->ndim() != 4 || o == std::string::npos || o >= 4) {
      call.Fail("qnn.conv2d: expected a 4-D kernel with an O axis in kernel_layout \"" + layout +
                "\"");
    }
    ir::Dim channels = weight->shape[o];
    // Depthwise kernels (OIHW with I = 1 and groups > 1, or HWOI) carry the channels in O * I.
    const size_t i = layout.find('I');
    if (i != std::string::npos && call.attrs()->get_int("groups") > 1 && !IsAny(channels) &&
        !IsAny(weight->shape[i])) {
      channels = channels * weight->shape[i];
    }
    if (call.attrs()->get_int("groups") > 1) channels = -1;
    return MatmulLike(call, conv, channels, true);
  };
}

// TVM's QnnConv2DTransposeRel: (u)int8 operands, int16 or int32 output, scalar zero points and
// input scale, the kernel scale scalar or one per output channel (O of kernel_layout; I * O with
// groups), then nn.conv2d_transpose's shape rule.
ir::TypeRelation Conv2DTransposeRel(const ir::OpRegistry& registry) {
  ir::TypeRelation conv_transpose = NNRelation(registry, "nn.conv2d_transpose");
  return [conv_transpose](TypeRelationCall& call) {
    TensorRef data = TensorAt(call, 0);
    TensorRef weight = TensorAt(call, 1);
    if (!data || !weight) return false;
    const std::vector<DataType> int8s = {DataType::Int(8), DataType::UInt(8)};
    CheckDType(call, data->dtype, int8s, "input");
    CheckDType(call, weight->dtype, int8s, "weight");
    DataType out = AttrDType(call, "out_dtype", DataType::Int(32));
    CheckDType(call, out, {DataType::Int(16), DataType::Int(32)}, "output");
    const std::string& layout = call.attrs()->get_string("kernel_layout");
    const size_t o = layout.find('O');
    const size_t i = layout.find('I');
    if (weight->ndim() != 4 || o == std::string::npos || i == std::string::npos || o >= 4 ||
        i >= 4) {
      call.Fail(
          "qnn.conv2d_transpose: expected a 4-D kernel with I and O axes in kernel_layout \"" +
          layout + "\"");
    }
    ir::Dim channels = weight->shape[o];
    if (call.attrs()->get_int("groups") != 1) {
      channels =
          IsAny(channels) || IsAny(weight->shape[i]) ? ir::Dim{-1} : channels * weight->shape[i];
    }
    if (!CheckScalarParam(call, 2, DataType::Int(32), "input zero point") ||
        !CheckScalarParam(call, 3, DataType::Int(32), "kernel zero point") ||
        !CheckScalarParam(call, 4, DataType::Float(32), "input scale") ||
        !CheckQParam(call, 5, DataType::Float(32), channels, "kernel scale")) {
      return false;
    }
    SubCall inner(call, {0, 1, 6});
    return conv_transpose(inner);
  };
}

ir::TypeRelation BatchMatmulRel(const ir::OpRegistry& registry) {
  ir::TypeRelation batch_matmul = NNRelation(registry, "nn.batch_matmul");
  return
      [batch_matmul](TypeRelationCall& call) { return MatmulLike(call, batch_matmul, 1, false); };
}

ir::TypeRelation ConcatenateRel(const ir::OpRegistry& registry) {
  ir::TypeRelation concatenate = NNRelation(registry, "concatenate");
  return [concatenate](TypeRelationCall& call) {
    ir::Type data = call.Resolve(0);
    if (!data || data.as<ir::IncompleteTypeNode>()) return false;
    auto* fields = data.as<ir::TupleTypeNode>();
    if (fields == nullptr) call.Fail("qnn.concatenate: data must be a tuple of tensors");
    for (size_t index : {size_t{1}, size_t{2}}) {
      ir::Type params = call.Resolve(index);
      if (!params || params.as<ir::IncompleteTypeNode>()) return false;
      auto* tuple = params.as<ir::TupleTypeNode>();
      const char* what = index == 1 ? "input_scales" : "input_zero_points";
      if (tuple == nullptr || tuple->fields.size() != fields->fields.size()) {
        call.Fail(std::string("qnn.concatenate: ") + what + " must be a tuple with one entry per " +
                  "input (" + std::to_string(fields->fields.size()) + ")");
      }
      for (const ir::Type& field : tuple->fields) {
        auto* t = field.as<ir::TensorTypeNode>();
        if (t == nullptr) return false;
        const DataType want = index == 1 ? DataType::Float(32) : DataType::Int(32);
        if (t->dtype != want) {
          call.Fail(std::string("qnn.concatenate: ") + what + " must be " + want.ToString());
        }
      }
      // Constant input scales (a tuple of constants) are checked as every scale is.
      const ir::Expr* arg = call.arg_expr(index);
      const auto* given = arg ? arg->as<ir::TupleNode>() : nullptr;
      for (size_t k = 0; index == 1 && given != nullptr && k < given->fields.size(); ++k) {
        CheckConstantExpr(call, &given->fields[k], DataType::Float(32),
                          "input scale " + std::to_string(k), std::nullopt);
      }
    }
    // The output takes the first input's dtype; its zero point must fit it.
    std::optional<DataType> out_dtype;
    if (!fields->fields.empty()) {
      if (auto* first = fields->fields[0].as<ir::TensorTypeNode>()) out_dtype = first->dtype;
    }
    if (!CheckScalarParam(call, 3, DataType::Float(32), "output scale") ||
        !CheckScalarParam(call, 4, DataType::Int(32), "output zero point", out_dtype)) {
      return false;
    }
    SubCall inner(call, {0, 5});
    return concatenate(inner);
  };
}

ir::TypeRelation UnaryRel() {
  return [](TypeRelationCall& call) {
    TensorRef data = TensorAt(call, 0);
    if (!data) return false;
    CheckDType(call, data->dtype, {DataType::Int(8), DataType::UInt(8)}, "input");
    if (!CheckScalarParam(call, 1, DataType::Float(32), "scale") ||
        !CheckScalarParam(call, 2, DataType::Int(32), "zero point") ||
        !CheckScalarParam(call, 3, DataType::Float(32), "output scale") ||
        !CheckScalarParam(call, 4, DataType::Int(32), "output zero point", data->dtype)) {
      return false;
    }
    call.AssignResult(ir::Type(data));
    return true;
  };
}

// TVM's QnnAvgPool2DRel: int8 or uint8 data, scalar scales and zero points, then
// nn.avg_pool2d's shape rule (the data's dtype kept).
ir::TypeRelation AvgPool2DRel(const ir::OpRegistry& registry) {
  ir::TypeRelation pool = NNRelation(registry, "nn.avg_pool2d");
  return [pool](TypeRelationCall& call) {
    TensorRef data = TensorAt(call, 0);
    if (!data) return false;
    CheckDType(call, data->dtype, {DataType::Int(8), DataType::UInt(8)}, "input");
    if (!CheckScalarParam(call, 1, DataType::Float(32), "input scale") ||
        !CheckScalarParam(call, 2, DataType::Int(32), "input zero point") ||
        !CheckScalarParam(call, 3, DataType::Float(32), "output scale") ||
        !CheckScalarParam(call, 4, DataType::Int(32), "output zero point", data->dtype)) {
      return false;
    }
    SubCall inner(call, {0, 5});
    return pool(inner);
  };
}

}  // namespace relaypass::qnn
