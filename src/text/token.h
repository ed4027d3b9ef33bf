// Tokens of the Relay text format (relay_semantics.md 1.9). A token views the source text; only
// values that need decoding (numbers, strings) are stored separately.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "relaypass/ir/dtype.h"

namespace relaypass::text {

enum class TokenKind : uint8_t {
  kEnd,
  kIdent,     // nn, conv2d, Tensor, float32, True, let, _  (keywords are identifiers)
  kLocal,     // %x        name() is "x"
  kGraph,     // %3        int_value is 3
  kGlobal,    // @main     name() is "main"
  kInt,       // 3, -1, 3i64
  kFloat,     // 2f, 1e-05f, 2f64, inff
  kString,    // "NCHW"    str is the decoded text
  kMeta,      // meta[relay.Constant][0]   str is the key, int_value the index
  kVersion,   // #[version = "0.0.5"]      str is the version
  kMetadata,  // #[metadata] and the rest of the file; str_view is the section text
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kComma,
  kSemicolon,
  kColon,
  kEqual,
  kDot,
  kArrow,
  kQuestion,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kEqualEqual,
  kNotEqual,
};

// A place in the source: byte offset and the 1-based line and column (in bytes) it maps to.
struct Location {
  size_t offset = 0;
  int line = 1;
  int column = 1;
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  Location loc;
  std::string_view text;  // the token's source text

  // Numbers: the value and its dtype (int32/int64/int16/... or float16/32/64).
  int64_t int_value = 0;
  double float_value = 0;
  ir::DataType dtype;

  std::string str;            // decoded string literal, meta key, version
  std::string_view str_view;  // kMetadata: the text after `#[metadata]`
  Location str_loc;           // kMetadata: where that text starts

  // kMeta: the type text of a `/* ty=TYPE */` comment right after the reference, if any; it
  // gives the constant's type when no metadata is available.
  std::string_view type_comment;
  Location type_comment_loc;

  // The name of a %local or @global, without its sigil.
  std::string_view name() const { return text.substr(1); }
  bool IsIdent(std::string_view word) const { return kind == TokenKind::kIdent && text == word; }
};

// How a token is named in "expected X but found Y" messages: `';'`, `'nn'`, `end of input`.
std::string DescribeToken(const Token& token);
// The spelling of a punctuation kind, for "expected ')'".
const char* TokenKindSpelling(TokenKind kind);

}  // namespace relaypass::text
