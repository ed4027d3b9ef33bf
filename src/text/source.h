// The text being parsed and how errors point into it: every parse error ends with the offending
// source line and a caret under the column, like a compiler diagnostic.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "relaypass/support/error.h"
#include "token.h"

namespace relaypass::text {

class Source {
 public:
  Source(std::string_view text, const std::string& name)
      : text_(text), name_(std::make_shared<const std::string>(name)) {}

  std::string_view text() const { return text_; }
  const std::shared_ptr<const std::string>& name() const { return name_; }

  Span SpanAt(const Location& loc) const { return Span{name_, loc.line, loc.column}; }

  // `message`, a newline, the source line holding `loc` and a caret line under its column.
  std::string WithSnippet(const std::string& message, const Location& loc) const;
  // The same for a span produced from this source (e.g. by type inference); `message` alone if
  // the span points elsewhere.
  std::string WithSnippet(const std::string& message, const Span& span) const;

  [[noreturn]] void Fail(const Location& loc, const std::string& message) const;

 private:
  std::string Snippet(size_t line_start, int column) const;

  std::string_view text_;
  std::shared_ptr<const std::string> name_;
};

}  // namespace relaypass::text
