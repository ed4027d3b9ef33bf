// Text built from pieces, for the printer: appending a large piece links it instead of copying
// it, so text that nests (a closure printed inside the body of the next one, as TVM prints a
// chain of closures) costs its size once, when the whole is written out, not once per level.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace relaypass::text {

class Rope {
 public:
  Rope() = default;
  // Starts with `text` (moved, not copied: the printer's output string becomes the first piece).
  explicit Rope(std::string&& text) : head_(std::move(text)) {}
  Rope(Rope&&) = default;
  Rope& operator=(Rope&&) = default;
  Rope(const Rope&) = delete;  // copies are explicit: Copy()
  Rope& operator=(const Rope&) = delete;
  // Releases nested pieces with a loop: a rope nests as deep as the printed scopes.
  ~Rope() {
    if (!links_.empty()) ReleaseLinks();
  }

  Rope& operator+=(std::string_view text) {
    Tail() += text;
    return *this;
  }
  Rope& operator+=(char c) {
    Tail() += c;
    return *this;
  }
  // Appends `other`: small flat text is copied, anything else linked.
  Rope& operator+=(Rope&& other);
  void append(size_t count, char c) { Tail().append(count, c); }
  // Appends a copy of `other`'s text (for the short texts a node prints at each use).
  void AppendCopy(const Rope& other) { other.AppendTo(Tail()); }

  // The flat text at the end, for writers that append in place (the printer's types).
  std::string& tail() { return Tail(); }
  bool empty() const { return head_.empty() && links_.empty(); }
  // The whole text appended to `out` (walks the pieces with a loop).
  void AppendTo(std::string& out) const;
  // The whole text; moves the first piece instead of copying it.
  std::string Take() &&;

 private:
  struct Link {
    std::unique_ptr<Rope> child;
    std::string after;  // flat text that follows the child
  };
  void ReleaseLinks();
  std::string& Tail() { return links_.empty() ? head_ : links_.back().after; }

  std::string head_;
  std::vector<Link> links_;
};

}  // namespace relaypass::text
