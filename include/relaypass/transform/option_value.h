// OptionValue: a pass option or PassContext config value, written as a Python literal
// (`2`, `0.5`, `True`, `"NHWC"`, `["NHWC", "default"]`, `{"nn.conv2d": ["NHWC", "default"]}`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace relaypass::transform {

class OptionValue {
 public:
  enum class Kind : uint8_t { kNone, kBool, kInt, kFloat, kString, kList, kDict };
  using List = std::vector<OptionValue>;
  using Dict = std::vector<std::pair<std::string, OptionValue>>;  // in written order

  OptionValue() = default;  // None
  static OptionValue None() { return {}; }
  static OptionValue Bool(bool v);
  static OptionValue Int(int64_t v);
  static OptionValue Float(double v);
  static OptionValue Str(std::string v);
  static OptionValue MakeList(List v);
  static OptionValue MakeDict(Dict v);

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::kNone; }
  // Accessors throw PassError when the value is of another kind; as_float accepts ints.
  bool as_bool() const;
  int64_t as_int() const;
  double as_float() const;
  const std::string& as_string() const;
  const List& as_list() const;
  const Dict& as_dict() const;
  // The entry of a dict value, or null.
  const OptionValue* find(const std::string& key) const;

  /// The value as a Python literal, strings in double quotes; ParseOptionValue reads it back.
  std::string ToString() const;

  friend bool operator==(const OptionValue& a, const OptionValue& b);
  friend bool operator!=(const OptionValue& a, const OptionValue& b) { return !(a == b); }

 private:
  Kind kind_ = Kind::kNone;
  bool bool_ = false;
  int64_t int_ = 0;
  double float_ = 0;
  std::string string_;
  List list_;
  Dict dict_;
};

/// The type an option or config entry accepts.
enum class OptionType : uint8_t { kBool, kInt, kFloat, kString, kList, kDict };

/// "bool", "int", "float", "str", "list", "dict" (Python's names).
const char* OptionTypeName(OptionType type);
/// Python's name of the value's kind ("NoneType" for None).
const char* OptionKindName(OptionValue::Kind kind);

/// True if `value` is acceptable for `type` (an int is an acceptable float).
bool OptionValueFits(const OptionValue& value, OptionType type);
/// `value` converted to `type` (ints become floats for kFloat); the caller checked it fits.
OptionValue ConvertOptionValue(const OptionValue& value, OptionType type);

/// Parses one Python literal: an int, a float, True/False/None, a string in double (or single)
/// quotes, a list `[...]` or a dict `{"key": value, ...}` with string keys. Throws PassError
/// naming the column of the first problem.
OptionValue ParseOptionValue(std::string_view text);

}  // namespace relaypass::transform
