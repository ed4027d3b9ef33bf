#include "kernel_util.h"

#include <cstring>
#include <optional>
#include <type_traits>

#include "element_ops.h"
#include "relaypass/support/float16.h"

namespace relaypass::op::kernels {

void Fail(const std::string& message) {
  throw Error(message);
}

bool IsHalf(DataType dtype) {
  return dtype.lanes() == 1 && dtype.bits() == 16 &&
         (dtype.code() == DataType::Code::kFloat || dtype.code() == DataType::Code::kBFloat);
}

namespace {

NDArray HalfToFloat32(const NDArray& x) {
  NDArray out = NDArray::Uninitialized(x.shape(), DataType::Float32());
  const auto* in = x.data<uint16_t>();
  float* o = out.mutable_data<float>();
  const int64_t n = x.size();
  if (x.dtype().code() == DataType::Code::kBFloat) {
    for (int64_t i = 0; i < n; ++i) o[i] = support::BFloat16ToFloat(in[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = support::HalfToFloat(in[i]);
  }
  return out;
}

NDArray Float32ToHalf(const NDArray& x, DataType dtype) {
  NDArray out = NDArray::Uninitialized(x.shape(), dtype);
  const float* in = x.data<float>();
  auto* o = out.mutable_data<uint16_t>();
  const int64_t n = x.size();
  if (dtype.code() == DataType::Code::kBFloat) {
    for (int64_t i = 0; i < n; ++i) o[i] = support::FloatToBFloat16(in[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) o[i] = support::FloatToHalf(in[i]);
  }
  return out;
}

}  // namespace

NDArray CastArray(const NDArray& x, DataType dtype) {
  if (x.dtype() == dtype) return x;
  if (IsHalf(x.dtype())) return CastArray(HalfToFloat32(x), dtype);
  if (IsHalf(dtype)) return Float32ToHalf(CastArray(x, DataType::Float32()), dtype);
  NDArray out = NDArray::Uninitialized(x.shape(), dtype);
  const int64_t n = x.size();
  DispatchNumeric(x.dtype(), "cast", [&](auto from) {
    using From = typename decltype(from)::type;
    DispatchNumeric(dtype, "cast", [&](auto to) {
      using To = typename decltype(to)::type;
      const From* in = x.data<From>();
      To* o = out.mutable_data<To>();
      for (int64_t i = 0; i < n; ++i) o[i] = Convert<To>(in[i]);
    });
  });
  return out;
}

NDArray Reshaped(const NDArray& x, const Shape& shape) {
  if (NumElements(shape) != x.size()) {
    Fail("cannot reshape " + ShapeString(x.shape()) + " to " + ShapeString(shape));
  }
  NDArray out = NDArray::Uninitialized(shape, x.dtype());
  if (x.nbytes()) std::memcpy(out.mutable_raw_data(), x.raw_data(), x.nbytes());
  return out;
}

Arrays PromoteHalf(const Arrays& inputs, const ir::Type& out_type,
                   const std::function<Arrays(const Arrays&)>& impl) {
  std::optional<DataType> half;
  for (const NDArray& x : inputs) {
    if (IsHalf(x.dtype())) {
      half = x.dtype();
      break;
    }
  }
  if (!half) return impl(inputs);
  Arrays widened;
  widened.reserve(inputs.size());
  for (const NDArray& x : inputs) widened.push_back(IsHalf(x.dtype()) ? HalfToFloat32(x) : x);
  Arrays outputs = impl(widened);
  std::vector<ir::Type> out_types;
  if (const auto* tuple = out_type.as<ir::TupleTypeNode>()) {
    out_types = tuple->fields;
  } else if (out_type) {
    out_types = {out_type};
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].dtype() != DataType::Float32()) continue;
    DataType want = *half;
    if (i < out_types.size()) {
      if (const auto* t = out_types[i].as<ir::TensorTypeNode>()) want = t->dtype;
    }
    outputs[i] = CastArray(outputs[i], want);
  }
  return outputs;
}

Shape Strides(const Shape& shape) {
  Shape strides(shape.size());
  int64_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    s *= shape[i];
  }
  return strides;
}

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string ShapeString(const Shape& shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

int NormalizeAxis(int64_t axis, int ndim, const std::string& what) {
  if (axis < -ndim || axis >= ndim) {
    Fail(what + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

void CheckInputs(const Arrays& inputs, size_t n, const char* op) {
  if (inputs.size() != n) {
    Fail(std::string(op) + " expects " + std::to_string(n) + " inputs, got " +
         std::to_string(inputs.size()));
  }
  for (const NDArray& x : inputs) {
    if (!x.defined()) Fail(std::string(op) + ": an input is undefined");
  }
}

const ir::AttrsNode& AttrsOf(const ir::Attrs& attrs, const char* op) {
  if (!attrs) Fail(std::string(op) + ": the call has no attrs");
  return *attrs;
}

std::vector<int64_t> Padding4(const std::vector<int64_t>& p, const char* op) {
  switch (p.size()) {
    case 1:
      return {p[0], p[0], p[0], p[0]};
    case 2:
      return {p[0], p[1], p[0], p[1]};
    case 4:
      return p;
    default:
      Fail(std::string(op) + ": padding must have 1, 2 or 4 values, got " +
           std::to_string(p.size()));
  }
}

DataType DTypeAttr(const ir::AttrsNode& attrs, const std::string& name, DataType fallback) {
  const ir::AttrValue& v = attrs.get(name);
  if (v.is_null() || v.as_string().empty()) return fallback;
  std::optional<DataType> parsed = DataType::Parse(v.as_string());
  if (!parsed) Fail("invalid dtype \"" + v.as_string() + "\" in attribute " + name);
  return parsed->is_void() ? fallback : *parsed;
}

NDArray GatherAxes(const NDArray& data, NDArray out,
                   const std::vector<std::vector<int64_t>>& source, const void* fill) {
  if (out.size() == 0) return out;
  const Shape& out_shape = out.shape();
  const int nd = data.ndim();
  const Shape strides = Strides(data.shape());
  const size_t elem = data.dtype().bytes();
  const auto* src = static_cast<const uint8_t*>(data.raw_data());
  auto* dst = static_cast<uint8_t*>(out.mutable_raw_data());
  if (nd == 0) {
    std::memcpy(dst, src, elem);
    return out;
  }
  // The innermost axis as runs: consecutive source indices (one memcpy each) or fill (-1).
  struct Run {
    int64_t begin, length, source;  // source -1: fill
  };
  std::vector<Run> runs;
  const std::vector<int64_t>& inner = source[nd - 1];
  for (int64_t i = 0; i < out_shape[nd - 1]; ++i) {
    const int64_t s = inner[i] < 0 ? -1 : inner[i];
    if (!runs.empty()) {
      Run& last = runs.back();
      const bool extends =
          s < 0 ? last.source < 0 : last.source >= 0 && last.source + last.length == s;
      if (extends) {
        ++last.length;
        continue;
      }
    }
    runs.push_back({i, 1, s});
  }
  const int64_t row = out_shape[nd - 1];
  auto fill_elements = [&](uint8_t* at, int64_t count) {
    for (int64_t k = 0; k < count; ++k) std::memcpy(at + k * elem, fill, elem);
  };
  std::vector<int64_t> idx(nd, 0);
  for (int64_t o = 0; o < out.size(); o += row) {
    int64_t offset = 0;
    for (int d = 0; d + 1 < nd && offset >= 0; ++d) {
      const int64_t s = source[d][idx[d]];
      offset = s < 0 ? -1 : offset + s * strides[d];
    }
    uint8_t* out_row = dst + o * elem;
    for (const Run& r : runs) {
      if (offset < 0 || r.source < 0) {
        fill_elements(out_row + r.begin * elem, r.length);
      } else {
        std::memcpy(out_row + r.begin * elem, src + (offset + r.source * strides[nd - 1]) * elem,
                    static_cast<size_t>(r.length) * elem);
      }
    }
    for (int d = nd - 2; d >= 0; --d) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace relaypass::op::kernels
