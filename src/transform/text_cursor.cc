#include "text_cursor.h"

#include <cctype>
#include <charconv>
#include <vector>

#include "relaypass/support/error.h"

namespace relaypass::transform::detail {

namespace {

constexpr size_t kMaxNesting = 64;

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

}  // namespace

void TextCursor::SkipSpace() {
  while (!AtEnd() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
}

bool TextCursor::TryConsume(char c) {
  SkipSpace();
  if (Peek() != c || AtEnd()) return false;
  ++pos_;
  return true;
}

void TextCursor::Expect(char c) {
  if (!TryConsume(c)) Fail(std::string("expected '") + c + "'");
}

std::string_view TextCursor::Identifier() {
  SkipSpace();
  if (AtEnd() || !IsIdentStart(text_[pos_])) return {};
  size_t start = pos_;
  while (!AtEnd() && IsIdentChar(text_[pos_])) ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view TextCursor::PassName() {
  SkipSpace();
  if (AtEnd() || !IsIdentStart(text_[pos_])) return {};
  size_t start = pos_;
  while (!AtEnd() && (IsIdentChar(text_[pos_]) || text_[pos_] == '-')) ++pos_;
  return text_.substr(start, pos_ - start);
}

void TextCursor::FailAt(size_t pos, const std::string& message) const {
  throw PassError(what_ + " '" + std::string(text_) + "': " + message + " at column " +
                  std::to_string(pos + 1));
}

std::string TextCursor::QuotedString() {
  const char quote = text_[pos_];
  const size_t start = pos_++;
  std::string out;
  while (!AtEnd() && text_[pos_] != quote) {
    char c = text_[pos_++];
    if (c == '\\') {
      if (AtEnd()) break;
      char e = text_[pos_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case '\\':
        case '"':
        case '\'':
          out += e;
          break;
        default:
          FailAt(pos_ - 2, std::string("unknown escape '\\") + e + "'");
      }
    } else {
      out += c;
    }
  }
  if (AtEnd()) FailAt(start, "unterminated string");
  ++pos_;  // closing quote
  return out;
}

OptionValue TextCursor::Scalar() {
  SkipSpace();
  const size_t start = pos_;
  const char c = Peek();
  if (c == '"' || c == '\'') return OptionValue::Str(QuotedString());
  if (IsIdentStart(c)) {
    std::string_view word = Identifier();
    if (word == "True") return OptionValue::Bool(true);
    if (word == "False") return OptionValue::Bool(false);
    if (word == "None") return OptionValue::Null();
    FailAt(start,
           "expected a value (a number, True, False, None, a \"string\", [...] or {...})"
           ", got '" +
               std::string(word) + "'");
  }
  // A number: [+-] digits [. digits] [e [+-] digits]
  if (c == '+' || c == '-') ++pos_;
  const size_t num_start = pos_;
  bool is_float = false;
  bool any_digit = false;
  while (!AtEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    ++pos_;
    any_digit = true;
  }
  if (Peek() == '.') {
    is_float = true;
    ++pos_;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
      any_digit = true;
    }
  }
  if (any_digit && (Peek() == 'e' || Peek() == 'E')) {
    is_float = true;
    ++pos_;
    if (Peek() == '+' || Peek() == '-') ++pos_;
    if (!std::isdigit(static_cast<unsigned char>(Peek()))) FailAt(start, "malformed number");
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  if (!any_digit) {
    FailAt(start, "expected a value (a number, True, False, None, a \"string\", [...] or {...})");
  }
  if (IsIdentChar(Peek()) && Peek() != '.') FailAt(start, "malformed number");
  const bool negative = c == '-';
  const char* first = text_.data() + num_start;
  const char* last = text_.data() + pos_;
  if (is_float) {
    double v = 0;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last) FailAt(start, "malformed number");
    return OptionValue::Double(negative ? -v : v);
  }
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(first, last, magnitude);
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (ec != std::errc() || ptr != last || magnitude > limit) {
    FailAt(start, "integer out of range");
  }
  return OptionValue::Int(negative ? static_cast<int64_t>(0 - magnitude)
                                   : static_cast<int64_t>(magnitude));
}

OptionValue TextCursor::Literal() {
  // Lists and dicts nest without recursion: one frame per open bracket.
  struct Frame {
    bool is_dict;
    std::vector<OptionValue> list;
    OptionValue::MapEntries dict;
    std::string key;
  };
  std::vector<Frame> stack;
  auto read_key = [&](Frame& f) {
    SkipSpace();
    if (Peek() != '"' && Peek() != '\'') Fail("expected a string key");
    size_t key_pos = pos_;
    f.key = QuotedString();
    for (const auto& entry : f.dict) {
      if (entry.first == f.key) FailAt(key_pos, "duplicate key \"" + f.key + "\"");
    }
    Expect(':');
  };
  while (true) {
    SkipSpace();
    OptionValue value;
    const char c = Peek();
    if (c == '[' || c == '{') {
      ++pos_;
      const char close = c == '[' ? ']' : '}';
      if (TryConsume(close)) {
        value = c == '[' ? OptionValue::Array({}) : OptionValue::Map({});
      } else {
        // Values are destroyed and printed recursively: keep their depth small.
        if (stack.size() >= kMaxNesting) Fail("values nest too deeply");
        stack.push_back(Frame{c == '{', {}, {}, {}});
        if (c == '{') read_key(stack.back());
        continue;  // read the first element
      }
    } else {
      value = Scalar();
    }
    // `value` is complete: add it to the open containers, closing those that end here.
    while (true) {
      if (stack.empty()) return value;
      Frame& f = stack.back();
      if (f.is_dict) {
        f.dict.emplace_back(std::move(f.key), std::move(value));
      } else {
        f.list.push_back(std::move(value));
      }
      const char close = f.is_dict ? '}' : ']';
      if (TryConsume(',')) {
        if (f.is_dict) read_key(f);
        break;  // read the next element
      }
      if (!TryConsume(close)) Fail(std::string("expected ',' or '") + close + "'");
      value =
          f.is_dict ? OptionValue::Map(std::move(f.dict)) : OptionValue::Array(std::move(f.list));
      stack.pop_back();
    }
  }
}

}  // namespace relaypass::transform::detail
