#include "relaypass/support/error.h"

#include "relaypass/support/resource_error.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace relaypass {

namespace support {

namespace {

constexpr size_t kMaxMessage = 400;
constexpr size_t kMessageHead = 300;
constexpr size_t kMessageTail = 80;

// The length of the valid UTF-8 sequence (2 to 4 bytes) starting at text[i], or 0.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  size_t n = 0;
  uint32_t code = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    code = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    code = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    code = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not valid UTF-8.
  if ((n == 3 && code < 0x800) || (n == 4 && (code < 0x10000 || code > 0x10FFFF)) ||
      (code >= 0xD800 && code <= 0xDFFF)) {
    return 0;
  }
  return n;
}

// Where each shown piece of `text` ends in `out` and in `text`, so a cut never splits an escape
// or a UTF-8 sequence.
struct Escaped {
  std::string out;
  std::vector<size_t> ends;  // end offset in `out` of each piece
};

Escaped Escape(std::string_view text) {
  Escaped e;
  e.out.reserve(std::min(text.size(), size_t{4096}));
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      e.out += static_cast<char>(c);
      ++i;
    } else if (const size_t n = c >= 0x80 ? Utf8Length(text, i) : 0) {
      e.out.append(text.substr(i, n));
      i += n;
    } else {
      switch (c) {
        case '\n':
          e.out += "\\n";
          break;
        case '\r':
          e.out += "\\r";
          break;
        case '\t':
          e.out += "\\t";
          break;
        case 0:
          e.out += "\\0";
          break;
        default: {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02X", c);
          e.out += buf;
        }
      }
      ++i;
    }
    e.ends.push_back(e.out.size());
  }
  return e;
}

// The pieces of `e` that fit in the first `limit` characters.
size_t HeadEnd(const Escaped& e, size_t limit) {
  size_t head = 0;
  for (size_t end : e.ends) {
    if (end > limit) break;
    head = end;
  }
  return head;
}

// The start of the pieces of `e` that fit in the last `limit` characters.
size_t TailStart(const Escaped& e, size_t limit) {
  size_t tail = e.out.size();
  for (size_t k = e.ends.size(); k-- > 0;) {
    const size_t start = k ? e.ends[k - 1] : 0;
    if (e.out.size() - start > limit) break;
    tail = start;
  }
  return tail;
}

}  // namespace

std::string OneLine(std::string_view text) {
  if (text.size() <= 4 * kMaxMessage) {
    Escaped e = Escape(text);
    if (e.out.size() <= kMaxMessage) return std::move(e.out);
    return e.out.substr(0, HeadEnd(e, kMessageHead)) + "..." +
           e.out.substr(TailStart(e, kMessageTail));
  }
  // A huge text: only its ends are escaped. Each byte shows as one character or more, so the
  // first kMessageHead bytes (and a UTF-8 sequence's rest) give the head.
  const Escaped head = Escape(text.substr(0, kMessageHead + 3));
  size_t tail_start = text.size() - kMessageTail;
  for (int k = 0; k < 3 && (static_cast<unsigned char>(text[tail_start]) & 0xC0) == 0x80; ++k) {
    ++tail_start;  // not in the middle of a UTF-8 sequence
  }
  const Escaped tail = Escape(text.substr(tail_start));
  return head.out.substr(0, HeadEnd(head, kMessageHead)) + "..." +
         tail.out.substr(TailStart(tail, kMessageTail));
}

}  // namespace support

namespace {

// A source snippet the text layer appended (text/source.cc): "\n<line>\n<spaces>^".
size_t SnippetStart(const std::string& message) {
  const size_t caret_line = message.rfind('\n');
  if (caret_line == std::string::npos || caret_line == 0) return std::string::npos;
  if (message.back() != '^') return std::string::npos;
  for (size_t i = caret_line + 1; i + 1 < message.size(); ++i) {
    if (message[i] != ' ' && message[i] != '\t') return std::string::npos;
  }
  const size_t source_line = message.rfind('\n', caret_line - 1);
  return source_line;
}

}  // namespace

std::string Span::ToString() const {
  if (!defined()) return "";
  std::string out;
  if (file && !file->empty()) out = *file + ":";
  return out + std::to_string(line) + ":" + std::to_string(column);
}

// The first line of every what(): support::OneLine, the text layer's snippet kept as it is.
std::string Error::Format(const std::string& message, const Span& span) {
  const std::string located = span.defined() ? span.ToString() + ": " + message : message;
  const size_t snippet = SnippetStart(located);
  if (snippet == std::string::npos) return support::OneLine(located);
  return support::OneLine(std::string_view(located).substr(0, snippet)) + located.substr(snippet);
}

}  // namespace relaypass
