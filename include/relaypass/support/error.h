// Errors with a source location. Every user-facing failure is one of these typed exceptions;
// the CLI prints what() as a one-line diagnostic and exits 1.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace relaypass {

/// A position in a source text (1-based line and column); `file` may be shared by many spans.
struct Span {
  std::shared_ptr<const std::string> file;
  int line = 0;
  int column = 0;

  bool defined() const { return line > 0; }
  /// "FILE:LINE:COL" (or "LINE:COL" without a file name); empty if undefined.
  std::string ToString() const;
};

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message, Span span = {})
      : std::runtime_error(Format(message, span)), message_(message), span_(std::move(span)) {}
  /// The message without the location prefix.
  const std::string& message() const { return message_; }
  const Span& span() const { return span_; }

 private:
  static std::string Format(const std::string& message, const Span& span);
  std::string message_;
  Span span_;
};

/// Malformed Relay text.
class ParseError : public Error {
 public:
  using Error::Error;
};
/// The program is ill-typed (shape mismatch, wrong arity, unresolved type, ...).
class TypeError : public Error {
 public:
  using Error::Error;
};
/// A pass, pipeline or option could not be created or run.
class PassError : public Error {
 public:
  using Error::Error;
};
/// Misuse of the C++ API (a precondition the caller broke).
class InternalError : public Error {
 public:
  using Error::Error;
};
/// A value given to the API is not one it takes (a target string with an unknown option): Python's
/// ValueError, as TVM raises it.
class ValueError : public Error {
 public:
  using Error::Error;
};

}  // namespace relaypass
