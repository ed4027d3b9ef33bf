#include "relaypass/transform/option_value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "relaypass/support/error.h"
#include "text_cursor.h"

namespace relaypass::transform {

namespace {

// Python's repr of a float: shortest round-trip digits, fixed notation for exponents in
// [-4, 16), else d.ddde+XX.
std::string PythonFloatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exp = std::atoi(sci.c_str() + e + 1);
  std::string out;
  if (mantissa[0] == '-') {
    out = "-";
    mantissa.erase(0, 1);
  }
  std::string digits;
  for (char ch : mantissa) {
    if (ch != '.') digits += ch;
  }
  if (exp >= -4 && exp < 16) {
    if (exp >= 0) {
      size_t int_len = static_cast<size_t>(exp) + 1;
      if (digits.size() <= int_len) {
        out += digits + std::string(int_len - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, int_len) + "." + digits.substr(int_len);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exp - 1), '0') + digits;
    }
    return out;
  }
  out += digits[0];
  if (digits.size() > 1) out += "." + digits.substr(1);
  out += exp < 0 ? "e-" : "e+";
  int mag = std::abs(exp);
  if (mag < 10) out += '0';
  return out + std::to_string(mag);
}

std::string QuoteString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

}  // namespace

std::string OptionLiteral(const OptionValue& value) {
  using K = OptionValue::Kind;
  switch (value.kind()) {
    case K::kNull:
      return "None";
    case K::kBool:
      return value.as_bool() ? "True" : "False";
    case K::kInt:
      return std::to_string(value.as_int());
    case K::kDouble:
      return PythonFloatRepr(value.as_double());
    case K::kString:
      return QuoteString(value.as_string());
    case K::kArray: {
      std::string out = "[";
      for (const OptionValue& item : value.as_array()) {
        out += (out.size() > 1 ? ", " : "") + OptionLiteral(item);
      }
      return out + "]";
    }
    case K::kMap: {
      std::string out = "{";
      for (const auto& [key, item] : value.as_map()) {
        out += (out.size() > 1 ? ", " : "") + QuoteString(key) + ": " + OptionLiteral(item);
      }
      return out + "}";
    }
    case K::kVirtualDevice:  // PlanDevices' config: TVM's repr (not read back as an option)
      return value.ToString();
  }
  return "None";
}

const char* OptionTypeName(OptionType type) {
  switch (type) {
    case OptionType::kBool:
      return "bool";
    case OptionType::kInt:
      return "int";
    case OptionType::kFloat:
      return "float";
    case OptionType::kString:
      return "str";
    case OptionType::kList:
      return "list";
    case OptionType::kDict:
      return "dict";
  }
  return "?";
}

bool OptionValueFits(const OptionValue& value, OptionType type) {
  using K = OptionValue::Kind;
  switch (type) {
    case OptionType::kBool:
      return value.kind() == K::kBool;
    case OptionType::kInt:
      return value.kind() == K::kInt;
    case OptionType::kFloat:
      return value.kind() == K::kDouble || value.kind() == K::kInt;
    case OptionType::kString:
      return value.kind() == K::kString;
    case OptionType::kList:
      return value.kind() == K::kArray;
    case OptionType::kDict:
      return value.kind() == K::kMap;
  }
  return false;
}

OptionValue ConvertOptionValue(const OptionValue& value, OptionType type) {
  if (type == OptionType::kFloat && value.kind() == OptionValue::Kind::kInt) {
    return OptionValue::Double(value.as_double());
  }
  return value;
}

OptionValue ParseOptionValue(std::string_view text) {
  detail::TextCursor cursor(text, "option value");
  OptionValue value = cursor.Literal();
  cursor.SkipSpace();
  if (!cursor.AtEnd()) cursor.Fail("unexpected text after the value");
  return value;
}

}  // namespace relaypass::transform
