#include "relaypass/op/layout.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "relaypass/support/error.h"

namespace relaypass::op {

std::string LayoutAxis::ToString() const {
  return is_primal() ? std::string(1, name) : std::to_string(factor) + name;
}

Layout::Layout(const std::string& name) {
  if (name == "__undef__") return;
  defined_ = true;
  name_ = name;
  auto fail = [&](const std::string& why) {
    throw TypeError("invalid layout \"" + name + "\": " + why);
  };
  int64_t factor = 0;
  bool has_factor = false;
  // A repeated axis fails at once, so a huge name (a 100 MB string from text) costs no memory
  // beyond one axis per letter.
  uint64_t seen = 0;  // bit i: 'A' + i seen; bit 32 + i: 'a' + i seen
  axes_.reserve(std::min<size_t>(name.size(), 52));
  auto add = [&](char c, int64_t f) {
    const uint64_t bit = c >= 'a' ? uint64_t{1} << (32 + (c - 'a')) : uint64_t{1} << (c - 'A');
    if (seen & bit) fail(std::string("axis ") + c + " repeats");
    seen |= bit;
    axes_.push_back({c, f});
  };
  for (char c : name) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      factor = factor * 10 + (c - '0');
      if (factor > (int64_t{1} << 40)) fail("factor too large");
      has_factor = true;
    } else if (c >= 'A' && c <= 'Z') {
      if (has_factor) fail(std::string("primal axis ") + c + " cannot have a factor");
      add(c, 0);
    } else if (c >= 'a' && c <= 'z') {
      if (!has_factor || factor <= 0) fail(std::string("sub-axis ") + c + " needs a factor > 0");
      add(c, factor);
      factor = 0;
      has_factor = false;
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
  }
  if (has_factor) fail("a factor must be followed by a lowercase axis");
  primal_mask_ = static_cast<uint32_t>(seen);
  const auto sub_mask = static_cast<uint32_t>(seen >> 32);
  if (sub_mask & ~primal_mask_) {
    for (const LayoutAxis& a : axes_) {
      if (!a.is_primal() && !(primal_mask_ & (1u << (a.primal() - 'A')))) {
        fail(std::string("sub-axis ") + a.name + " has no primal axis " + a.primal());
      }
    }
  }
}

Layout::Layout(std::vector<LayoutAxis> axes) {
  std::string name;
  for (const LayoutAxis& a : axes) name += a.ToString();
  *this = Layout(name);
}

size_t Layout::ndim_primal() const {
  size_t n = 0;
  for (const LayoutAxis& a : axes_) n += a.is_primal();
  return n;
}

int Layout::IndexOf(char axis) const {
  for (size_t i = 0; i < axes_.size(); ++i) {
    if (axes_[i].name == axis) return static_cast<int>(i);
  }
  return -1;
}

int64_t Layout::FactorOf(char axis) const {
  char sub = LayoutAxis{axis, 0}.sub();
  int i = IndexOf(sub);
  return i < 0 ? -1 : axes_[i].factor;
}

Layout Layout::SubLayout(size_t pos, size_t len) const {
  if (!defined_ || pos > axes_.size()) return Layout();
  size_t end = std::min(axes_.size(), pos + len);
  return Layout(std::vector<LayoutAxis>(axes_.begin() + pos, axes_.begin() + end));
}

Layout Layout::ExpandPrimal(const Layout& dst) const {
  std::string prefix;
  for (const LayoutAxis& a : dst.axes()) {
    if (a.is_primal() && !Contains(a.name)) prefix += a.name;
  }
  return Layout(prefix + name_);
}

Layout Layout::Split(char axis, size_t pos, int64_t factor) const {
  LayoutAxis primal{axis, 0};
  if (!primal.is_primal() || !Contains(axis)) {
    throw TypeError(std::string("cannot split axis ") + axis + " of layout " + name_);
  }
  if (Contains(primal.sub())) {
    throw TypeError(std::string("axis ") + axis + " of layout " + name_ + " is already split");
  }
  if (pos > axes_.size() || factor <= 0) {
    throw TypeError("invalid split of layout " + name_);
  }
  std::vector<LayoutAxis> axes = axes_;
  axes.insert(axes.begin() + pos, LayoutAxis{primal.sub(), factor});
  return Layout(std::move(axes));
}

BijectiveLayout::BijectiveLayout(Layout src, Layout dst)
    : src_(std::move(src)), dst_(std::move(dst)) {
  defined_ = src_.defined() && dst_.defined() && src_.primal_mask() == dst_.primal_mask();
}

std::vector<ir::Dim> BijectiveLayout::ForwardShape(const std::vector<ir::Dim>& shape) const {
  return Convert(src_, dst_, shape);
}

std::vector<ir::Dim> BijectiveLayout::BackwardShape(const std::vector<ir::Dim>& shape) const {
  return Convert(dst_, src_, shape);
}

std::vector<ir::Dim> BijectiveLayout::Convert(const Layout& from, const Layout& to,
                                              const std::vector<ir::Dim>& shape) {
  if (!from.defined() || !to.defined() || from.primal_mask() != to.primal_mask()) {
    throw TypeError("cannot convert layout " + from.name() + " to " + to.name());
  }
  if (shape.size() != from.ndim()) {
    throw TypeError("shape of rank " + std::to_string(shape.size()) + " does not match layout " +
                    from.name());
  }
  // The same layout without sub-axes (NCHW to NCHW): nothing to convert or check.
  if (from.name() == to.name() && from.ndim() == from.ndim_primal()) return shape;
  // The full extent of each primal axis: primal dim times its sub-factor (`?` stays `?`).
  std::array<ir::Dim, 26> extent{};
  for (size_t i = 0; i < shape.size(); ++i) {
    const LayoutAxis& a = from[i];
    if (a.is_primal()) {
      int64_t f = from.FactorOf(a.name);
      // An unknown extent (`?` or symbolic) stays itself unless a sub-factor scales it.
      int64_t full = f > 0 ? ir::kAnyDim : shape[i];
      if (ir::IsKnownDim(shape[i]) && __builtin_mul_overflow(shape[i], f > 0 ? f : 1, &full)) {
        throw TypeError("converting shape dimension " + std::to_string(shape[i]) + " of layout " +
                        from.name() + " to " + to.name() + " overflows int64");
      }
      extent[a.name - 'A'] = full;
    } else if (ir::IsKnownDim(shape[i]) && shape[i] != a.factor) {
      throw TypeError("dimension " + std::to_string(i) + " of layout " + from.name() +
                      " is the sub-axis " + a.ToString() + " but has extent " +
                      std::to_string(shape[i]));
    }
  }
  std::vector<ir::Dim> out;
  out.reserve(to.ndim());
  for (const LayoutAxis& a : to.axes()) {
    if (!a.is_primal()) {
      out.push_back(a.factor);
      continue;
    }
    ir::Dim full = extent[a.name - 'A'];
    int64_t f = to.FactorOf(a.name);
    if (!ir::IsKnownDim(full) || f <= 0) {
      out.push_back(f > 0 ? ir::kAnyDim : full);
    } else {
      out.push_back(full >= 0 ? full / f : -((-full + f - 1) / f));  // floor division
    }
  }
  return out;
}

}  // namespace relaypass::op
