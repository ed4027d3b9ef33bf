#include "relaypass/eval/random.h"

#include <cmath>
#include <optional>
#include <string>

#include "relaypass/support/error.h"
#include "relaypass/support/float16.h"
#include "relaypass/support/resource_error.h"

namespace relaypass::eval {

namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1) with 24 random bits.
  float NextSigned() { return static_cast<float>(Next() >> 40) * (2.0f / 16777216.0f) - 1.0f; }

 private:
  uint64_t state_;
};

template <typename T>
void FillInts(ir::NDArray& out, SplitMix64& rng, int64_t lo, int64_t span) {
  T* data = out.mutable_data<T>();
  for (int64_t i = 0; i < out.size(); ++i) {
    data[i] = static_cast<T>(lo + static_cast<int64_t>(rng.Next() % static_cast<uint64_t>(span)));
  }
}

Value RandomValue(const ir::Type& type, uint64_t seed, const std::string& what) {
  if (const auto* t = type.as<ir::TensorTypeNode>()) {
    for (ir::Dim d : t->shape) {
      if (d < 0) throw Error("random inputs: " + what + " has a dynamic shape");
    }
    return Value(RandomTensor(t->shape, t->dtype, seed));
  }
  if (const auto* t = type.as<ir::TupleTypeNode>()) {
    std::vector<Value> fields;
    for (size_t i = 0; i < t->fields.size(); ++i) {
      fields.push_back(RandomValue(t->fields[i], seed * 31 + i + 1, what));
    }
    return Value::Tuple(std::move(fields));
  }
  throw Error("random inputs: " + what + " has no known tensor or tuple type" +
              (type ? " (" + ir::TypeToString(type) + ")" : std::string()) +
              "; run type inference first");
}

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// `shape` filled with `value` (0 or 1, exact in every float dtype).
ir::NDArray FilledTensor(const ir::Shape& shape, ir::DataType dtype, float value) {
  ir::NDArray out = ir::NDArray::Empty(shape, dtype);
  const int64_t n = out.size();
  if (dtype.code() == ir::DataType::Code::kBFloat) {
    auto* p = out.mutable_data<uint16_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = support::FloatToBFloat16(value);
  } else if (dtype.bits() == 16) {
    auto* p = out.mutable_data<uint16_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = support::FloatToHalf(value);
  } else if (dtype.bits() == 64) {
    double* p = out.mutable_data<double>();
    for (int64_t i = 0; i < n; ++i) p[i] = value;
  } else {
    float* p = out.mutable_data<float>();
    for (int64_t i = 0; i < n; ++i) p[i] = value;
  }
  return out;
}

// TVM's Xavier(rnd_type="uniform", factor_type="avg", magnitude=3) bound for a weight of
// `shape` (src/workloads/init.cc draws the same bound from NumPy's stream): sqrt(3 / factor),
// factor the mean of fan-in and fan-out, or the kernel area for a depthwise weight.
double XavierBound(const std::string& name, const ir::Shape& shape) {
  double hw = 1;
  for (size_t i = 2; i < shape.size(); ++i) hw *= static_cast<double>(shape[i]);
  double factor = (static_cast<double>(shape[0]) + static_cast<double>(shape[1])) * hw / 2.0;
  if (name.find("depthwise") != std::string::npos) factor = hw;
  return factor > 0 ? std::sqrt(3.0 / factor) : 1.0;
}

// `array` (floats of 16, 32 or 64 bits) times `scale`, in place.
void Scale(ir::NDArray& array, double scale) {
  const ir::DataType dtype = array.dtype();
  const int64_t n = array.size();
  if (dtype.code() == ir::DataType::Code::kBFloat) {
    auto* p = array.mutable_data<uint16_t>();
    for (int64_t i = 0; i < n; ++i) {
      p[i] = support::FloatToBFloat16(static_cast<float>(support::BFloat16ToFloat(p[i]) * scale));
    }
  } else if (dtype.bits() == 16) {
    auto* p = array.mutable_data<uint16_t>();
    for (int64_t i = 0; i < n; ++i)
      p[i] = support::FloatToHalf(static_cast<float>(support::HalfToFloat(p[i]) * scale));
  } else if (dtype.bits() == 64) {
    double* p = array.mutable_data<double>();
    for (int64_t i = 0; i < n; ++i) p[i] *= scale;
  } else {
    float* p = array.mutable_data<float>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<float>(p[i] * scale);
  }
}

}  // namespace

std::optional<float> BatchNormParamValue(const std::string& name) {
  if (EndsWith(name, "moving_var") || EndsWith(name, "gamma")) return 1.0f;
  if (EndsWith(name, "moving_mean") || EndsWith(name, "beta")) return 0.0f;
  return std::nullopt;
}

ir::NDArray RandomTensor(const ir::Shape& shape, ir::DataType dtype, uint64_t seed) {
  ir::NDArray out = ir::NDArray::Empty(shape, dtype);
  SplitMix64 rng(seed);
  const int64_t n = out.size();
  if (dtype.lanes() != 1) throw Error("random inputs: vector dtype " + dtype.ToString());
  switch (dtype.code()) {
    case ir::DataType::Code::kFloat:
      if (dtype.bits() == 32) {
        float* p = out.mutable_data<float>();
        for (int64_t i = 0; i < n; ++i) p[i] = rng.NextSigned();
        return out;
      }
      if (dtype.bits() == 64) {
        double* p = out.mutable_data<double>();
        for (int64_t i = 0; i < n; ++i) p[i] = rng.NextSigned();
        return out;
      }
      if (dtype.bits() == 16) {
        auto* p = out.mutable_data<uint16_t>();
        for (int64_t i = 0; i < n; ++i) p[i] = support::FloatToHalf(rng.NextSigned());
        return out;
      }
      break;
    case ir::DataType::Code::kBFloat: {
      auto* p = out.mutable_data<uint16_t>();
      for (int64_t i = 0; i < n; ++i) p[i] = support::FloatToBFloat16(rng.NextSigned());
      return out;
    }
    case ir::DataType::Code::kInt:
      switch (dtype.bits()) {
        case 8:
          FillInts<int8_t>(out, rng, -8, 17);
          return out;
        case 16:
          FillInts<int16_t>(out, rng, -8, 17);
          return out;
        case 32:
          FillInts<int32_t>(out, rng, -8, 17);
          return out;
        case 64:
          FillInts<int64_t>(out, rng, -8, 17);
          return out;
      }
      break;
    case ir::DataType::Code::kUInt:
      switch (dtype.bits()) {
        case 8:
          FillInts<uint8_t>(out, rng, 0, 17);
          return out;
        case 16:
          FillInts<uint16_t>(out, rng, 0, 17);
          return out;
        case 32:
          FillInts<uint32_t>(out, rng, 0, 17);
          return out;
        case 64:
          FillInts<uint64_t>(out, rng, 0, 17);
          return out;
      }
      break;
    case ir::DataType::Code::kBool:
      FillInts<uint8_t>(out, rng, 0, 2);
      return out;
    default:
      break;
  }
  throw Error("random inputs: unsupported dtype " + dtype.ToString());
}

namespace {

// The value of parameter `i` of a function (see RandomInputs).
Value RandomInput(const ir::Var& p, size_t i, uint64_t seed) {
  const ir::Type& type = p->type_annotation ? p->type_annotation : p->checked_type;
  // A distinct, well-mixed seed per parameter.
  const uint64_t param_seed = SplitMix64(seed ^ (0x632be59bd9b4e019ULL * (i + 1))).Next();
  const auto* tensor = type.as<ir::TensorTypeNode>();
  const std::optional<float> fixed = BatchNormParamValue(p->name_hint);
  const bool float_tensor =
      tensor && tensor->is_static() && tensor->dtype.is_float() && tensor->dtype.lanes() == 1 &&
      (tensor->dtype.bits() == 16 || tensor->dtype.bits() == 32 || tensor->dtype.bits() == 64);
  if (fixed && float_tensor) {
    return Value(FilledTensor(tensor->shape, tensor->dtype, *fixed));
  }
  if (float_tensor && tensor->ndim() >= 2 && EndsWith(p->name_hint, "weight")) {
    ir::NDArray weight = RandomTensor(tensor->shape, tensor->dtype, param_seed);
    Scale(weight, XavierBound(p->name_hint, tensor->shape));
    return Value(std::move(weight));
  }
  return RandomValue(type, param_seed, "parameter %" + p->name_hint);
}

}  // namespace

std::vector<Value> RandomInputs(const ir::Function& func, uint64_t seed) {
  std::vector<Value> out;
  for (size_t i = 0; i < func->params.size(); ++i) {
    try {
      out.push_back(RandomInput(func->params[i], i, seed));
    } catch (const ResourceError& e) {
      throw ResourceError("random input for parameter %" + func->params[i]->name_hint + ": " +
                          e.message());
    }
  }
  return out;
}

}  // namespace relaypass::eval
