#include "lexer.h"

#include <cstdio>

#include "literal.h"

namespace relaypass::text {

namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsIdentStart(char c) {
  return IsAlpha(c) || c == '_';
}
bool IsIdentChar(char c) {
  return IsIdentStart(c) || IsDigit(c);
}

// `x` or `'\x01'`-style text for one source byte in a message.
std::string DescribeByte(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) return std::string("'") + c + "'";
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02X", u);
  return buf;
}

// Tokens after which `-` is a binary minus rather than the sign of a literal.
bool EndsOperand(TokenKind kind) {
  switch (kind) {
    case TokenKind::kIdent:
    case TokenKind::kLocal:
    case TokenKind::kGraph:
    case TokenKind::kGlobal:
    case TokenKind::kInt:
    case TokenKind::kFloat:
    case TokenKind::kString:
    case TokenKind::kMeta:
    case TokenKind::kRParen:
    case TokenKind::kRBracket:
    case TokenKind::kRBrace:
      return true;
    default:
      return false;
  }
}

}  // namespace

Lexer::Lexer(const Source& source) : Lexer(source, Location{}, source.text().size()) {}

Lexer::Lexer(const Source& source, Location start, size_t end)
    : source_(source),
      text_(source.text()),
      pos_(start.offset),
      end_(end),
      line_(start.line),
      column_(start.column) {}

void Lexer::Fail(const Location& loc, const std::string& message) const {
  source_.Fail(loc, message);
}

void Lexer::SkipTrivia() {
  while (!AtEnd()) {
    char c = Peek();
    if (c == ' ' || c == '\t') {
      Advance();
    } else if (c == '\n') {
      NewLine(1);
    } else if (c == '\r') {
      if (Peek(1) != '\n') Fail(Here(), "lone carriage return ('\\r' not followed by '\\n')");
      NewLine(2);
    } else if (c == '/' && Peek(1) == '/') {
      while (!AtEnd() && Peek() != '\n') Advance();
    } else if (c == '/' && Peek(1) == '*') {
      SkipBlockComment();
    } else {
      return;
    }
  }
}

// Block comments nest, as in TVM, so `/* a /* b */ c */` is one comment.
void Lexer::SkipBlockComment() {
  Location start = Here();
  int depth = 0;
  while (!AtEnd()) {
    char c = Peek();
    if (c == '/' && Peek(1) == '*') {
      ++depth;
      Advance(2);
    } else if (c == '*' && Peek(1) == '/') {
      Advance(2);
      if (--depth == 0) return;
    } else if (c == '\n') {
      NewLine(1);
    } else if (c == '\r' && Peek(1) == '\n') {
      NewLine(2);
    } else {
      Advance();
    }
  }
  Fail(start, "unterminated comment");
}

Token Lexer::Make(TokenKind kind, const Location& start) {
  Token token;
  token.kind = kind;
  token.loc = start;
  token.text = text_.substr(start.offset, pos_ - start.offset);
  previous_ = kind;
  return token;
}

Token Lexer::Next() {
  SkipTrivia();
  Location start = Here();
  if (AtEnd()) return Make(TokenKind::kEnd, start);
  char c = Peek();
  if (IsDigit(c)) return LexNumber(start);
  if (c == '-' && !EndsOperand(previous_) &&
      (IsDigit(Peek(1)) || text_.substr(pos_ + 1, 3) == "inf" ||
       text_.substr(pos_ + 1, 3) == "nan")) {  // -nanf: the printer's negative NaN
    return LexNumber(start);
  }
  if (IsIdentStart(c)) return LexIdentifier(start);
  if (c == '%' || c == '@') return LexSigil(start);
  if (c == '"') return LexString(start);
  if (c == '#' && Peek(1) == '[') return LexAttribute(start);
  return LexPunctuation(start);
}

// [-] digits [. digits] [e [+-] digits] [f|i width]; `inff` comes through LexIdentifier.
Token Lexer::LexNumber(const Location& start) {
  bool tuple_index = previous_ == TokenKind::kDot;
  if (Peek() == '-') {
    Advance();
    if (!IsDigit(Peek())) {  // -inff, -nanf
      Token token = LexIdentifier(start);
      if (token.kind != TokenKind::kFloat) Fail(start, "expected a number after '-'");
      return token;
    }
  }
  while (IsDigit(Peek())) Advance();
  if (!tuple_index) {
    if (Peek() == '.' && IsDigit(Peek(1))) {
      Advance();
      while (IsDigit(Peek())) Advance();
    }
    if ((Peek() == 'e' || Peek() == 'E') &&
        (IsDigit(Peek(1)) || ((Peek(1) == '+' || Peek(1) == '-') && IsDigit(Peek(2))))) {
      Advance(2);
      while (IsDigit(Peek())) Advance();
    }
  }
  std::string_view number = text_.substr(start.offset, pos_ - start.offset);
  char suffix = 0;
  size_t width_start = pos_;
  if (!tuple_index && (Peek() == 'f' || Peek() == 'i')) {
    suffix = Peek();
    Advance();
    width_start = pos_;
    while (IsDigit(Peek())) Advance();
  }
  std::string_view width = text_.substr(width_start, pos_ - width_start);
  if (IsIdentChar(Peek()) || (!tuple_index && Peek() == '.' && IsDigit(Peek(1)))) {
    while (IsIdentChar(Peek()) || Peek() == '.') Advance();
    Fail(start, "invalid number literal '" +
                    std::string(text_.substr(start.offset, pos_ - start.offset)) + "'");
  }
  NumberLiteral value;
  if (auto error = ParseNumberLiteral(number, suffix, width, &value)) Fail(start, *error);
  Token token = Make(value.is_float ? TokenKind::kFloat : TokenKind::kInt, start);
  token.int_value = value.int_value;
  token.float_value = value.float_value;
  token.dtype = value.dtype;
  return token;
}

// Identifiers may contain '/' between name characters (`%conv1/weight`, as TVM allows); a
// '/' followed by anything else is division or a comment.
Token Lexer::LexIdentifier(const Location& start) {
  size_t name_start = pos_;
  while (IsIdentChar(Peek()) || (Peek() == '/' && IsIdentStart(Peek(1)))) Advance();
  std::string_view word = text_.substr(name_start, pos_ - name_start);
  if (word == "meta" && Peek() == '[') return LexMeta(start);
  // inff, inff64, nanf: the only float literals that are not digits.
  if (word.size() >= 4 && (word.substr(0, 4) == "inff" || word.substr(0, 4) == "nanf")) {
    std::string_view width = word.substr(4);
    bool digits = true;
    for (char d : width) digits = digits && IsDigit(d);
    if (digits) {
      std::string_view number = text_.substr(start.offset, name_start + 3 - start.offset);
      NumberLiteral value;
      if (auto error = ParseNumberLiteral(number, 'f', width, &value)) Fail(start, *error);
      Token token = Make(TokenKind::kFloat, start);
      token.float_value = value.float_value;
      token.dtype = value.dtype;
      return token;
    }
  }
  return Make(TokenKind::kIdent, start);
}

Token Lexer::LexSigil(const Location& start) {
  char sigil = Peek();
  Advance();
  if (sigil == '%' && IsDigit(Peek())) {
    while (IsDigit(Peek())) Advance();
    std::string_view digits = text_.substr(start.offset + 1, pos_ - start.offset - 1);
    if (IsIdentChar(Peek())) {
      Fail(start, "invalid variable name '%" + std::string(digits) + Peek() +
                      "...': a name after '%' must start with a letter or '_'");
    }
    NumberLiteral value;
    if (ParseNumberLiteral(digits, 'i', "64", &value) || digits.size() > 18) {
      Fail(start, "graph variable number %" + std::string(digits) + " is too large");
    }
    Token token = Make(TokenKind::kGraph, start);
    token.int_value = value.int_value;
    return token;
  }
  if (!IsIdentStart(Peek())) {
    Fail(start, std::string("expected a name after '") + sigil + "' but found " +
                    (AtEnd() ? std::string("end of input") : DescribeByte(Peek())));
  }
  while (IsIdentChar(Peek()) || (Peek() == '/' && IsIdentStart(Peek(1)))) Advance();
  return Make(sigil == '%' ? TokenKind::kLocal : TokenKind::kGlobal, start);
}

// Escapes are decoded (\" \\ \n \t \r \xHH) so strings round-trip with the printer's escaping.
Token Lexer::LexString(const Location& start) {
  std::string value;
  Advance();  // opening quote
  while (true) {
    if (AtEnd() || Peek() == '\n' || Peek() == '\r') Fail(start, "unterminated string literal");
    char c = Peek();
    if (c == '"') break;
    if (c != '\\') {
      if (static_cast<unsigned char>(c) < 0x20 && c != '\t') {
        Fail(Here(), "invalid character " + DescribeByte(c) + " in string literal");
      }
      value += c;
      Advance();
      continue;
    }
    Location escape = Here();
    char e = Peek(1);
    auto hex = [](char h) -> int {
      if (IsDigit(h)) return h - '0';
      if (h >= 'a' && h <= 'f') return h - 'a' + 10;
      if (h >= 'A' && h <= 'F') return h - 'A' + 10;
      return -1;
    };
    switch (e) {
      case '"':
        value += '"';
        break;
      case '\\':
        value += '\\';
        break;
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      case 'x': {
        int hi = hex(Peek(2));
        int lo = hex(Peek(3));
        if (hi < 0 || lo < 0) Fail(escape, "invalid escape: '\\x' needs two hex digits");
        value += static_cast<char>(hi * 16 + lo);
        Advance(2);
        break;
      }
      default:
        Fail(escape, "invalid escape sequence '\\" + std::string(1, e) + "' in string literal");
    }
    Advance(2);
  }
  Advance();  // closing quote
  Token token = Make(TokenKind::kString, start);
  token.str = std::move(value);
  return token;
}

// meta[KEY][INDEX] is one token, as in TVM's tokenizer.
Token Lexer::LexMeta(const Location& start) {
  auto malformed = [&] {
    Fail(start,
         "malformed meta reference: expected meta[KEY][INDEX], e.g. meta[relay.Constant][0]");
  };
  Advance();  // '['
  size_t key_start = pos_;
  while (IsIdentChar(Peek()) || Peek() == '.') Advance();
  std::string key(text_.substr(key_start, pos_ - key_start));
  if (key.empty() || Peek() != ']' || Peek(1) != '[') malformed();
  Advance(2);
  size_t index_start = pos_;
  while (IsDigit(Peek())) Advance();
  std::string_view digits = text_.substr(index_start, pos_ - index_start);
  if (digits.empty() || Peek() != ']') malformed();
  Advance();
  NumberLiteral index;
  if (ParseNumberLiteral(digits, 0, "", &index) || index.int_value > INT32_MAX) {
    Fail(start, "meta index " + std::string(digits) + " is too large");
  }
  Token token = Make(TokenKind::kMeta, start);
  token.str = std::move(key);
  token.int_value = index.int_value;
  ReadTypeComment(token);
  return token;
}

// Keeps the text of a `/* ty=TYPE */` (or `/* ty=TYPE span=... */`) comment that follows a meta
// reference on the same line; it is still skipped as a comment by the next Next().
void Lexer::ReadTypeComment(Token& meta) const {
  size_t p = pos_;
  while (p < end_ && (text_[p] == ' ' || text_[p] == '\t')) ++p;
  if (text_.substr(p, 2) != "/*") return;
  size_t q = p + 2;
  while (q < end_ && text_[q] == ' ') ++q;
  if (text_.substr(q, 3) != "ty=") return;
  q += 3;
  size_t close = text_.find("*/", q);
  if (close == std::string_view::npos || close > end_) return;
  size_t newline = text_.find('\n', q);
  if (newline != std::string_view::npos && newline < close) return;
  size_t type_end = close;
  size_t span = text_.substr(q, close - q).find(" span=");
  if (span != std::string_view::npos) type_end = q + span;
  while (type_end > q && (text_[type_end - 1] == ' ' || text_[type_end - 1] == '\t')) --type_end;
  meta.type_comment = text_.substr(q, type_end - q);
  meta.type_comment_loc = {q, line_, column_ + static_cast<int>(q - pos_)};
}

// #[version = "0.0.5"] and #[metadata]; the metadata section runs to the end of the file.
Token Lexer::LexAttribute(const Location& start) {
  Advance(2);  // '#['
  auto skip_spaces = [&] {
    while (Peek() == ' ' || Peek() == '\t') Advance();
  };
  skip_spaces();
  size_t word_start = pos_;
  while (IsIdentChar(Peek())) Advance();
  std::string_view word = text_.substr(word_start, pos_ - word_start);
  skip_spaces();
  if (word == "metadata" && Peek() == ']') {
    Advance();
    Token token = Make(TokenKind::kMetadata, start);
    token.str_loc = Here();
    token.str_view = text_.substr(pos_, end_ - pos_);
    // Nothing after the section is lexed: it belongs to the metadata (megabytes of base64 for
    // bound weights, so only its line breaks are looked for).
    for (size_t nl = text_.find('\n', pos_); nl < end_; nl = text_.find('\n', pos_)) {
      NewLine(nl - pos_ + 1);
    }
    Advance(end_ - pos_);
    return token;
  }
  if (word == "version" && Peek() == '=') {
    Advance();
    skip_spaces();
    if (Peek() == '"') {
      std::string version = LexString(Here()).str;
      skip_spaces();
      if (Peek() == ']') {
        Advance();
        Token token = Make(TokenKind::kVersion, start);
        token.str = std::move(version);
        return token;
      }
    }
  }
  Fail(start, "malformed attribute: expected #[version = \"0.0.5\"] or #[metadata]");
}

Token Lexer::LexPunctuation(const Location& start) {
  char c = Peek();
  char n = Peek(1);
  auto two = [&](TokenKind kind) {
    Advance(2);
    return Make(kind, start);
  };
  auto one = [&](TokenKind kind) {
    Advance(1);
    return Make(kind, start);
  };
  switch (c) {
    case '(':
      return one(TokenKind::kLParen);
    case ')':
      return one(TokenKind::kRParen);
    case '[':
      return one(TokenKind::kLBracket);
    case ']':
      return one(TokenKind::kRBracket);
    case '{':
      return one(TokenKind::kLBrace);
    case '}':
      return one(TokenKind::kRBrace);
    case ',':
      return one(TokenKind::kComma);
    case ';':
      return one(TokenKind::kSemicolon);
    case ':':
      return one(TokenKind::kColon);
    case '.':
      return one(TokenKind::kDot);
    case '?':
      return one(TokenKind::kQuestion);
    case '+':
      return one(TokenKind::kPlus);
    case '*':
      return one(TokenKind::kStar);
    case '/':
      return one(TokenKind::kSlash);
    case '-':
      return n == '>' ? two(TokenKind::kArrow) : one(TokenKind::kMinus);
    case '=':
      return n == '=' ? two(TokenKind::kEqualEqual) : one(TokenKind::kEqual);
    case '<':
      return n == '=' ? two(TokenKind::kLessEqual) : one(TokenKind::kLess);
    case '>':
      return n == '=' ? two(TokenKind::kGreaterEqual) : one(TokenKind::kGreater);
    case '!':
      if (n == '=') return two(TokenKind::kNotEqual);
      break;
    default:
      break;
  }
  Fail(start, "unexpected character " + DescribeByte(c));
}

bool IsBareAttrKey(std::string_view key) {
  try {
    const Source source(key, "");
    Lexer lexer(source);
    std::string read;
    while (true) {
      const Token name = lexer.Next();
      if (name.kind != TokenKind::kIdent) return false;
      read += name.text;
      const Token next = lexer.Next();
      if (next.kind == TokenKind::kEnd) return read == key;
      if (next.kind != TokenKind::kDot) return false;
      read += '.';
    }
  } catch (const ParseError&) {
    return false;
  }
}

}  // namespace relaypass::text
