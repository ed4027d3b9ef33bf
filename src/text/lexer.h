// The tokenizer of the Relay text format. It produces tokens on demand (the parser keeps only a
// small lookahead window), so a million-line file is never held as a token vector.
#pragma once

#include <cstddef>
#include <string_view>

#include "source.h"
#include "token.h"

namespace relaypass::text {

class Lexer {
 public:
  // Lexes all of `source`.
  explicit Lexer(const Source& source);
  // Lexes source bytes [start.offset, end); `start` gives the line and column of the first byte,
  // so that errors inside a fragment (a `/* ty=... */` type) point into the whole file.
  Lexer(const Source& source, Location start, size_t end);

  // The next token; kEnd (repeatedly) at the end. Throws ParseError on malformed input.
  Token Next();

 private:
  // Defined here so that every caller inlines them (they run for each byte of the input).
  char Peek(size_t ahead = 0) const { return pos_ + ahead < end_ ? text_[pos_ + ahead] : '\0'; }
  bool AtEnd() const { return pos_ >= end_; }
  Location Here() const { return {pos_, line_, column_}; }
  void Advance(size_t n = 1) {  // within one line
    pos_ += n;
    column_ += static_cast<int>(n);
  }
  void NewLine(size_t width) {  // consume a line break of `width` bytes
    pos_ += width;
    ++line_;
    column_ = 1;
  }
  [[noreturn]] void Fail(const Location& loc, const std::string& message) const;

  void SkipTrivia();  // whitespace and comments
  void SkipBlockComment();
  Token Make(TokenKind kind, const Location& start);
  Token LexNumber(const Location& start);
  Token LexIdentifier(const Location& start);
  Token LexSigil(const Location& start);  // %x, %3, @f
  Token LexString(const Location& start);
  Token LexMeta(const Location& start);
  Token LexAttribute(const Location& start);  // #[version = "..."], #[metadata]
  void ReadTypeComment(Token& meta) const;
  Token LexPunctuation(const Location& start);

  const Source& source_;
  std::string_view text_;
  size_t pos_;
  size_t end_;
  int line_;
  int column_;
  // Kind of the previous token: decides whether `-1` is a negative literal (after `=`, `(`,
  // `,`, ...) or a minus and a literal (after an operand, as in `%a -1f`), and whether `0.1`
  // after a `.` is one tuple index (as in `%0.0.1`) rather than a fraction.
  TokenKind previous_ = TokenKind::kEnd;
};

// Whether `key` reads back as a function attribute key written bare: identifiers joined by dots
// (`Primitive`, `relay.reshape_only`). The printer quotes any other key.
bool IsBareAttrKey(std::string_view key);

}  // namespace relaypass::text
