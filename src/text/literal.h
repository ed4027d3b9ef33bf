// Values of numeric literals: `3` (int32), `3i64`, `2f`, `1e-05f`, `2f16`, `inff`
// (relay_semantics.md 1.5, 1.9).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "relaypass/ir/dtype.h"

namespace relaypass::text {

struct NumberLiteral {
  bool is_float = false;
  int64_t int_value = 0;
  double float_value = 0;
  ir::DataType dtype;
};

// Converts a literal split into its numeric part (`-1e-05`, with a sign if any), suffix letter
// ('f', 'i' or 0 for none) and suffix width digits (`64`, or empty). Returns the error message
// if the literal is malformed or out of range for its type.
std::optional<std::string> ParseNumberLiteral(std::string_view number, char suffix,
                                              std::string_view width, NumberLiteral* out);

}  // namespace relaypass::text
