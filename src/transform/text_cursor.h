// A cursor over option and pipeline text, shared by ParseOptionValue and the pipeline parser.
#pragma once

#include <string>
#include <string_view>

#include "relaypass/transform/option_value.h"

namespace relaypass::transform::detail {

class TextCursor {
 public:
  TextCursor(std::string_view text, std::string what) : text_(text), what_(std::move(what)) {}

  void SkipSpace();
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  size_t pos() const { return pos_; }
  // Skips spaces, then consumes `c` if it is next.
  bool TryConsume(char c);
  // Skips spaces, then consumes `c` or fails with "expected 'c'".
  void Expect(char c);
  // An identifier ([A-Za-z_][A-Za-z0-9_.]*) after spaces, or "" if none starts here.
  std::string_view Identifier();
  // A pass name after spaces: an identifier that may also hold '-' (`fold-constant`).
  std::string_view PassName();
  // A Python literal after spaces (see ParseOptionValue).
  OptionValue Literal();
  // Throws PassError: "<what> 'TEXT': MESSAGE at column N" (1-based).
  [[noreturn]] void Fail(const std::string& message) const { FailAt(pos_, message); }
  [[noreturn]] void FailAt(size_t pos, const std::string& message) const;

 private:
  OptionValue Scalar();
  std::string QuotedString();
  std::string_view text_;
  std::string what_;
  size_t pos_ = 0;
};

}  // namespace relaypass::transform::detail
