#include "source.h"

#include <algorithm>

namespace relaypass::text {

namespace {

// Long lines (a whole graph printed on one line) are shown as a window around the column.
constexpr size_t kMaxShown = 160;
constexpr size_t kContextBefore = 60;
// A message quoting a huge token (a 100 MB number, name or string) keeps its start and its end,
// so that the diagnostic stays one readable line.
constexpr size_t kMaxMessage = 400;
constexpr size_t kMessageHead = 300;
constexpr size_t kMessageTail = 80;

std::string Shorten(const std::string& message) {
  if (message.size() <= kMaxMessage) return message;
  return message.substr(0, kMessageHead) + "..." + message.substr(message.size() - kMessageTail);
}

}  // namespace

std::string Source::Snippet(size_t line_start, int column) const {
  size_t line_end = text_.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text_.size();
  if (line_end > line_start && text_[line_end - 1] == '\r') --line_end;
  size_t caret = std::min(line_start + std::max(column, 1) - 1, line_end);

  size_t begin = line_start;
  size_t end = line_end;
  std::string prefix;
  std::string suffix;
  if (end - begin > kMaxShown) {
    if (caret - begin > kContextBefore) {
      begin = caret - kContextBefore;
      prefix = "...";
    }
    if (end - begin > kMaxShown) {
      end = begin + kMaxShown;
      suffix = "...";
    }
  }

  // Unprintable bytes are shown as '?' so that one byte stays one column; tabs are kept in both
  // lines so the caret stays aligned in a terminal.
  std::string line = prefix;
  std::string marker(prefix.size(), ' ');
  for (size_t i = begin; i < end; ++i) {
    unsigned char c = static_cast<unsigned char>(text_[i]);
    bool printable = c == '\t' || (c >= 0x20 && c < 0x7F);
    line += printable ? static_cast<char>(c) : '?';
    if (i < caret) marker += c == '\t' ? '\t' : ' ';
  }
  return line + suffix + "\n" + marker + "^";
}

std::string Source::WithSnippet(const std::string& message, const Location& loc) const {
  size_t line_start = std::min(loc.offset, text_.size());
  while (line_start > 0 && text_[line_start - 1] != '\n') --line_start;
  return Shorten(message) + "\n" + Snippet(line_start, loc.column);
}

std::string Source::WithSnippet(const std::string& message, const Span& span) const {
  if (!span.defined() || span.file != name_) return message;
  size_t line_start = 0;
  for (int line = 1; line < span.line; ++line) {
    line_start = text_.find('\n', line_start);
    if (line_start == std::string_view::npos) return message;
    ++line_start;
  }
  return Shorten(message) + "\n" + Snippet(line_start, span.column);
}

void Source::Fail(const Location& loc, const std::string& message) const {
  throw ParseError(WithSnippet(message, loc), SpanAt(loc));
}

}  // namespace relaypass::text
