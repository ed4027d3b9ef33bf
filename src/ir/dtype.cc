#include "relaypass/ir/dtype.h"

#include <charconv>

namespace relaypass::ir {

namespace {

std::optional<int> ParseNumber(std::string_view text) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value <= 0) return std::nullopt;
  return value;
}

}  // namespace

std::optional<DataType> DataType::Parse(std::string_view text) {
  if (text == "bool" || text == "uint1") return Bool();  // TVM's bool is uint1
  if (text == "void") return Void();
  int lanes = 1;
  if (auto x = text.find('x'); x != std::string_view::npos) {
    auto parsed = ParseNumber(text.substr(x + 1));
    if (!parsed) return std::nullopt;
    lanes = *parsed;
    text = text.substr(0, x);
  }
  struct Prefix {
    std::string_view name;
    Code code;
  };
  // "bfloat" before "float" and "uint" before "int" so the longer prefix wins.
  for (Prefix p : {Prefix{"bfloat", Code::kBFloat}, Prefix{"float", Code::kFloat},
                   Prefix{"uint", Code::kUInt}, Prefix{"int", Code::kInt}}) {
    if (text.substr(0, p.name.size()) != p.name) continue;
    // TVM's String2DLDataType: a name without bits takes the default width ("float" is float32)
    if (text.size() == p.name.size())
      return DataType(p.code, p.code == Code::kBFloat ? 16 : 32, lanes);
    auto bits = ParseNumber(text.substr(p.name.size()));
    if (!bits || *bits > 64) return std::nullopt;
    return DataType(p.code, *bits, lanes);
  }
  return std::nullopt;
}

std::string DataType::ToString() const {
  std::string out;
  AppendTo(out);
  return out;
}

void DataType::AppendTo(std::string& out) const {
  auto append_number = [&out](int value) {
    char digits[12];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
    out.append(digits, end);
  };
  switch (code_) {
    case Code::kVoid:
      out += "void";
      return;
    case Code::kBool:
      out += "bool";
      break;
    case Code::kInt:
      out += "int";
      append_number(bits_);
      break;
    case Code::kUInt:
      out += "uint";
      append_number(bits_);
      break;
    case Code::kFloat:
      out += "float";
      append_number(bits_);
      break;
    case Code::kBFloat:
      out += "bfloat";
      append_number(bits_);
      break;
  }
  if (lanes_ != 1) {
    out += 'x';
    append_number(lanes_);
  }
}

}  // namespace relaypass::ir
