#include "relaypass/support/error.h"

namespace relaypass {

std::string Span::ToString() const {
  if (!defined()) return "";
  std::string out;
  if (file && !file->empty()) out = *file + ":";
  return out + std::to_string(line) + ":" + std::to_string(column);
}

std::string Error::Format(const std::string& message, const Span& span) {
  if (!span.defined()) return message;
  return span.ToString() + ": " + message;
}

}  // namespace relaypass
