#include "relaypass/transform/option_value.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "relaypass/support/error.h"
#include "text_cursor.h"

namespace relaypass::transform {

namespace {

[[noreturn]] void WrongKind(const char* wanted, OptionValue::Kind got) {
  throw PassError(std::string("expected a value of type ") + wanted + ", got " +
                  OptionKindName(got));
}

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

OptionValue OptionValue::Bool(bool v) {
  OptionValue o;
  o.kind_ = Kind::kBool;
  o.bool_ = v;
  return o;
}

OptionValue OptionValue::Int(int64_t v) {
  OptionValue o;
  o.kind_ = Kind::kInt;
  o.int_ = v;
  return o;
}

OptionValue OptionValue::Float(double v) {
  OptionValue o;
  o.kind_ = Kind::kFloat;
  o.float_ = v;
  return o;
}

OptionValue OptionValue::Str(std::string v) {
  OptionValue o;
  o.kind_ = Kind::kString;
  o.string_ = std::move(v);
  return o;
}

OptionValue OptionValue::MakeList(List v) {
  OptionValue o;
  o.kind_ = Kind::kList;
  o.list_ = std::move(v);
  return o;
}

OptionValue OptionValue::MakeDict(Dict v) {
  OptionValue o;
  o.kind_ = Kind::kDict;
  o.dict_ = std::move(v);
  return o;
}

bool OptionValue::as_bool() const {
  if (kind_ != Kind::kBool) WrongKind("bool", kind_);
  return bool_;
}

int64_t OptionValue::as_int() const {
  if (kind_ != Kind::kInt) WrongKind("int", kind_);
  return int_;
}

double OptionValue::as_float() const {
  if (kind_ == Kind::kInt) return static_cast<double>(int_);
  if (kind_ != Kind::kFloat) WrongKind("float", kind_);
  return float_;
}

const std::string& OptionValue::as_string() const {
  if (kind_ != Kind::kString) WrongKind("str", kind_);
  return string_;
}

const OptionValue::List& OptionValue::as_list() const {
  if (kind_ != Kind::kList) WrongKind("list", kind_);
  return list_;
}

const OptionValue::Dict& OptionValue::as_dict() const {
  if (kind_ != Kind::kDict) WrongKind("dict", kind_);
  return dict_;
}

const OptionValue* OptionValue::find(const std::string& key) const {
  for (const auto& [k, v] : as_dict()) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string OptionValue::ToString() const {
  switch (kind_) {
    case Kind::kNone:
      return "None";
    case Kind::kBool:
      return bool_ ? "True" : "False";
    case Kind::kInt:
      return std::to_string(int_);
    case Kind::kFloat:
      return PythonFloatRepr(float_);
    case Kind::kString:
      return QuoteString(string_);
    case Kind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < list_.size(); ++i) {
        if (i) out += ", ";
        out += list_[i].ToString();
      }
      return out + "]";
    }
    case Kind::kDict: {
      std::string out = "{";
      for (size_t i = 0; i < dict_.size(); ++i) {
        if (i) out += ", ";
        out += QuoteString(dict_[i].first) + ": " + dict_[i].second.ToString();
      }
      return out + "}";
    }
  }
  return "None";
}

bool operator==(const OptionValue& a, const OptionValue& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case OptionValue::Kind::kNone:
      return true;
    case OptionValue::Kind::kBool:
      return a.bool_ == b.bool_;
    case OptionValue::Kind::kInt:
      return a.int_ == b.int_;
    case OptionValue::Kind::kFloat:
      return a.float_ == b.float_;
    case OptionValue::Kind::kString:
      return a.string_ == b.string_;
    case OptionValue::Kind::kList:
      return a.list_ == b.list_;
    case OptionValue::Kind::kDict:
      return a.dict_ == b.dict_;
  }
  return false;
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

const char* OptionKindName(OptionValue::Kind kind) {
  switch (kind) {
    case OptionValue::Kind::kNone:
      return "NoneType";
    case OptionValue::Kind::kBool:
      return "bool";
    case OptionValue::Kind::kInt:
      return "int";
    case OptionValue::Kind::kFloat:
      return "float";
    case OptionValue::Kind::kString:
      return "str";
    case OptionValue::Kind::kList:
      return "list";
    case OptionValue::Kind::kDict:
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
      return value.kind() == K::kFloat || value.kind() == K::kInt;
    case OptionType::kString:
      return value.kind() == K::kString;
    case OptionType::kList:
      return value.kind() == K::kList;
    case OptionType::kDict:
      return value.kind() == K::kDict;
  }
  return false;
}

OptionValue ConvertOptionValue(const OptionValue& value, OptionType type) {
  if (type == OptionType::kFloat && value.kind() == OptionValue::Kind::kInt) {
    return OptionValue::Float(value.as_float());
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
