#include "literal.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace relaypass::text {

namespace {

std::optional<int> ParseWidth(std::string_view width, int default_width) {
  if (width.empty()) return default_width;
  int bits = 0;
  auto [end, ec] = std::from_chars(width.data(), width.data() + width.size(), bits);
  if (ec != std::errc() || end != width.data() + width.size()) return std::nullopt;
  return bits;
}

std::optional<std::string> ParseFloat(std::string_view number, std::string_view width,
                                      NumberLiteral* out) {
  std::string text(number);
  auto bits = ParseWidth(width, 32);
  if (!bits || (*bits != 16 && *bits != 32 && *bits != 64)) {
    return "invalid float literal '" + text + "f" + std::string(width) +
           "': the width must be 16, 32 or 64";
  }
  double value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (end != number.data() + number.size()) return "invalid number literal '" + text + "'";
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves `value` unset: an overflow (no exponent, or a positive one) is an error,
    // an underflow such as 1e-400 becomes 0, as in C.
    size_t e = number.find_first_of("eE");
    if (e == std::string_view::npos || number[e + 1] != '-') {
      return "float literal '" + text + "' is out of range";
    }
    value = 0;
  } else if (ec != std::errc()) {
    return "invalid number literal '" + text + "'";
  }
  double max = *bits == 16   ? 65520.0  // rounds to 65504, the largest finite half
               : *bits == 32 ? std::numeric_limits<float>::max()
                             : std::numeric_limits<double>::max();
  if (std::isfinite(value) && std::fabs(value) > max) {
    return "float literal '" + text + "' is out of range for float" + std::to_string(*bits);
  }
  out->is_float = true;
  out->float_value = value;
  out->dtype = ir::DataType::Float(*bits);
  return std::nullopt;
}

std::optional<std::string> ParseInt(std::string_view number, char suffix, std::string_view width,
                                    NumberLiteral* out) {
  std::string text(number);
  std::string spelled = text + (suffix ? std::string(1, suffix) + std::string(width) : "");
  auto bits = ParseWidth(width, 0);
  if (suffix && (!bits || (*bits != 8 && *bits != 16 && *bits != 32 && *bits != 64))) {
    return "invalid integer literal '" + spelled + "': the width must be 8, 16, 32 or 64";
  }
  int64_t value = 0;
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return "integer literal '" + spelled + "' is out of range for int64";
  }
  if (ec != std::errc() || end != number.data() + number.size()) {
    return "invalid number literal '" + spelled + "'";
  }
  int width_bits = suffix ? *bits : 32;
  if (width_bits < 64) {
    int64_t limit = int64_t{1} << (width_bits - 1);
    if (value < -limit || value >= limit) {
      if (suffix) {
        return "integer literal '" + spelled + "' is out of range for int" +
               std::to_string(width_bits);
      }
      width_bits = 64;  // an unsuffixed literal too large for int32 is int64
    }
  }
  out->is_float = false;
  out->int_value = value;
  out->dtype = ir::DataType::Int(width_bits);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> ParseNumberLiteral(std::string_view number, char suffix,
                                              std::string_view width, NumberLiteral* out) {
  if (suffix == 'f') return ParseFloat(number, width, out);
  if (number.find_first_of(".eE") != std::string_view::npos) {
    std::string text = std::string(number) + (suffix ? suffix + std::string(width) : "");
    if (suffix) return "invalid integer literal '" + text + "': it has a fraction or exponent";
    return "float literal '" + text + "' needs a type suffix, e.g. '" + std::string(number) +
           "f' for float32";
  }
  return ParseInt(number, suffix, width, out);
}

}  // namespace relaypass::text
