// Pass options and PassContext config values, written as Python literals (`2`, `0.5`, `True`,
// `"NHWC"`, `["NHWC", "default"]`, `{"nn.conv2d": ["NHWC", "default"]}`): their types, checks,
// conversion, parsing and printing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "relaypass/ir/attrs.h"

namespace relaypass::transform {

/// A pass option or config value is an attribute value (ir::AttrValue): None, bool, int, float
/// (kDouble), str, list (kArray) or dict (kMap). Here it is written and printed as a Python
/// literal.
using OptionValue = ir::AttrValue;

/// The value as a Python literal (strings in double quotes, floats as Python's repr);
/// ParseOptionValue reads it back.
std::string OptionLiteral(const OptionValue& value);

/// The type an option or config entry accepts.
enum class OptionType : uint8_t { kBool, kInt, kFloat, kString, kList, kDict };

/// "bool", "int", "float", "str", "list", "dict" (Python's names).
const char* OptionTypeName(OptionType type);

/// True if `value` is acceptable for `type` (an int is an acceptable float).
bool OptionValueFits(const OptionValue& value, OptionType type);
/// `value` converted to `type` (ints become floats for kFloat); the caller checked it fits.
OptionValue ConvertOptionValue(const OptionValue& value, OptionType type);

/// Parses one Python literal: an int, a float, True/False/None, a string in double (or single)
/// quotes, a list `[...]` or a dict `{"key": value, ...}` with string keys. Throws PassError
/// naming the column of the first problem.
OptionValue ParseOptionValue(std::string_view text);

}  // namespace relaypass::transform
