#include "scalar_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "relaypass/support/float16.h"

namespace relaypass::text {

namespace {

using ir::DataType;

// `os << value` with default flags is printf's "%g" (precision 6). Whole numbers below 1e6
// (the common `1f`, `2f`, `0f`) print as plain integers either way; skip printf for them.
void AppendG(double value, std::string& out) {
  char buf[32];
  if (std::fabs(value) < 1e6 && value == std::trunc(value) &&
      !(value == 0 && std::signbit(value))) {
    auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), static_cast<int64_t>(value));
    out.append(buf, end);
    return;
  }
  int n = std::snprintf(buf, sizeof(buf), "%g", value);
  out.append(buf, static_cast<size_t>(n));
}

}  // namespace

bool IsSimpleScalar(const ir::NDArray& data) {
  if (data.ndim() != 0) return false;
  DataType t = data.dtype();
  return t == DataType::Int(16) || t == DataType::Int32() || t == DataType::Int64() ||
         t == DataType::Float(16) || t == DataType::Float32() || t == DataType::Float(64) ||
         t == DataType::Bool();
}

void AppendScalarText(const ir::NDArray& data, std::string& out) {
  DataType t = data.dtype();
  if (t == DataType::Int(16)) {
    out += std::to_string(*data.data<int16_t>());
    out += "i16";
  } else if (t == DataType::Int32()) {
    out += std::to_string(*data.data<int32_t>());
  } else if (t == DataType::Int64()) {
    out += std::to_string(*data.data<int64_t>());
    out += "i64";
  } else if (t == DataType::Float(16)) {
    AppendG(support::HalfToFloat(*data.data<uint16_t>()), out);
    out += "f16";
  } else if (t == DataType::Float32()) {
    AppendG(*data.data<float>(), out);
    out += 'f';
  } else if (t == DataType::Float(64)) {
    AppendG(*data.data<double>(), out);
    out += "f64";
  } else if (t == DataType::Bool()) {
    out += *data.data<uint8_t>() ? "True" : "False";
  }
}

}  // namespace relaypass::text
