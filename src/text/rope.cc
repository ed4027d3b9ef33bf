#include "rope.h"

#include <utility>

namespace relaypass::text {

namespace {

// Flat text up to this size is copied when appended (as a plain string would be), larger text
// is linked. A flat text is copied at most until it outgrows the limit, so nested scopes still
// cost O(limit) per level at worst; below it, printing allocates nothing per node.
constexpr size_t kCopyLimit = 4096;

}  // namespace

void Rope::ReleaseLinks() {
  std::vector<std::unique_ptr<Rope>> pending;
  for (Link& link : links_) {
    if (link.child) pending.push_back(std::move(link.child));
  }
  while (!pending.empty()) {
    std::unique_ptr<Rope> rope = std::move(pending.back());
    pending.pop_back();
    for (Link& link : rope->links_) {
      if (link.child) pending.push_back(std::move(link.child));
    }
    // `rope` is released here with no children left to release recursively.
  }
}

Rope& Rope::operator+=(Rope&& other) {
  if (other.links_.empty() && other.head_.size() <= kCopyLimit) {
    Tail() += other.head_;
    return *this;
  }
  links_.push_back(Link{std::make_unique<Rope>(std::move(other)), std::string()});
  return *this;
}

void Rope::AppendTo(std::string& out) const {
  struct Frame {
    const Rope* rope;
    size_t next_link;
  };
  out += head_;
  if (links_.empty()) return;  // the common case: one piece, nothing allocated
  std::vector<Frame> stack;
  stack.push_back({this, 0});
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next_link < top.rope->links_.size()) {
      const Rope* child = top.rope->links_[top.next_link++].child.get();
      out += child->head_;
      stack.push_back({child, 0});
      continue;
    }
    stack.pop_back();
    // The child is written: the text after it in its parent follows.
    if (!stack.empty()) out += stack.back().rope->links_[stack.back().next_link - 1].after;
  }
}

std::string Rope::Take() && {
  std::string out = std::move(head_);
  if (links_.empty()) return out;
  Rope rest;
  rest.links_ = std::move(links_);
  rest.AppendTo(out);
  return out;
}

}  // namespace relaypass::text
