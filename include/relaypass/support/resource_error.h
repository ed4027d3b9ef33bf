// ResourceError: the input asks for more than can be done. A size that overflows int64, a tensor
// over the memory budget (support/memory_budget.h), a call nest deeper than the evaluator's
// limit. Like every relaypass::Error, its what() is one line (support::OneLine).
#pragma once

#include <string>
#include <string_view>

#include "relaypass/support/error.h"

namespace relaypass {

class ResourceError : public Error {
 public:
  using Error::Error;
};

namespace support {
/// `text` as one line of at most about 400 characters: newlines, tabs, NUL, other control bytes
/// and bytes that are not valid UTF-8 are escaped (\n, \t, \0, \xNN); a longer text keeps its
/// first 300 and last 80 characters around "...". Valid UTF-8 is kept as it is. Every Error's
/// what() is made so (a source snippet the text layer appends stays as its two lines).
std::string OneLine(std::string_view text);
}  // namespace support

}  // namespace relaypass
