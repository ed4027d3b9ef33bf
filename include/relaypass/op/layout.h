// Data layouts ("NCHW", "NHWC", "NCHW16c", "OIHW16i16o") and conversion of shapes between two
// layouts of the same axes (TVM's Layout and BijectiveLayout). Used by the type relations of
// layout-aware ops and by the layout-rewriting passes.
//
// An uppercase letter is a primal axis; `<factor><lowercase>` is a sub-axis that splits the
// primal axis of the same letter by `factor` (NCHW16c: C is split into C/16 outer and 16 inner).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/type.h"

namespace relaypass::op {

struct LayoutAxis {
  char name = 0;       // 'C' (primal) or 'c' (sub-axis)
  int64_t factor = 0;  // the split factor of a sub-axis; 0 for primal axes

  bool is_primal() const { return name >= 'A' && name <= 'Z'; }
  char primal() const { return is_primal() ? name : static_cast<char>(name - 'a' + 'A'); }
  char sub() const { return is_primal() ? static_cast<char>(name - 'A' + 'a') : name; }
  std::string ToString() const;  // "C" or "16c"
};

class Layout {
 public:
  /// The undefined layout (TVM's "__undef__"), e.g. for values whose layout nobody knows.
  Layout() = default;
  /// Parses a layout string; throws TypeError if it is malformed (unknown character, missing
  /// factor, repeated axis, sub-axis without its primal axis). "" is the defined rank-0 layout;
  /// "__undef__" is the undefined layout.
  explicit Layout(const std::string& name);
  explicit Layout(std::vector<LayoutAxis> axes);
  static Layout Undef() { return Layout(); }

  bool defined() const { return defined_; }
  /// The layout string ("__undef__" when undefined).
  const std::string& name() const { return name_; }
  const std::vector<LayoutAxis>& axes() const { return axes_; }
  const LayoutAxis& operator[](size_t i) const { return axes_[i]; }
  size_t ndim() const { return axes_.size(); }
  size_t ndim_primal() const;

  /// Position of the axis named `axis` ('C' primal, 'c' sub-axis), or -1.
  int IndexOf(char axis) const;
  bool Contains(char axis) const { return IndexOf(axis) >= 0; }
  /// The factor by which the primal axis of `axis` is split here, or -1 if it is not split.
  int64_t FactorOf(char axis) const;

  /// The layout of axes [pos, pos + len) (clipped to the end); undefined if pos is past the end.
  Layout SubLayout(size_t pos, size_t len) const;
  /// This layout with the primal axes of `dst` that it lacks added in front (in dst's order), as
  /// for a lower-rank operand broadcast against a higher-rank one.
  Layout ExpandPrimal(const Layout& dst) const;
  /// This layout with a sub-axis of `axis` (a primal axis present here) of `factor` inserted at
  /// `pos`.
  Layout Split(char axis, size_t pos, int64_t factor) const;

  friend bool operator==(const Layout& a, const Layout& b) {
    return a.defined_ == b.defined_ && a.name_ == b.name_;
  }
  friend bool operator!=(const Layout& a, const Layout& b) { return !(a == b); }

  /// Bit i set: the primal axis 'A' + i is present. Two layouts convert into each other exactly
  /// when they are defined and these agree.
  uint32_t primal_mask() const { return primal_mask_; }

 private:
  bool defined_ = false;
  std::string name_ = "__undef__";
  std::vector<LayoutAxis> axes_;
  uint32_t primal_mask_ = 0;
};

/// Shape conversion between two layouts with the same primal axes.
class BijectiveLayout {
 public:
  BijectiveLayout(Layout src, Layout dst);
  /// False if either layout is undefined or their primal axes differ.
  bool defined() const { return defined_; }
  const Layout& src() const { return src_; }
  const Layout& dst() const { return dst_; }

  /// Shape in src layout -> shape in dst layout, and back. Each primal axis' full extent is the
  /// primal dim times its sub-factor; a split destination axis gets floordiv(extent, factor) and
  /// its sub-axis the factor. `?` stays `?`. Throws TypeError if the shape's rank does not match
  /// the layout or a sub-axis dim differs from its factor.
  std::vector<ir::Dim> ForwardShape(const std::vector<ir::Dim>& shape) const;
  std::vector<ir::Dim> BackwardShape(const std::vector<ir::Dim>& shape) const;

 private:
  static std::vector<ir::Dim> Convert(const Layout& from, const Layout& to,
                                      const std::vector<ir::Dim>& shape);
  Layout src_, dst_;
  bool defined_ = false;
};

}  // namespace relaypass::op
