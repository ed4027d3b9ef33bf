// BinaryBroadcastLayout (TVM's BinaryBroadcastLayoutHelper): first infer the layouts of the
// original call, then, after a rewrite, transform the smaller operand the way the larger one was
// transformed so that the two stay broadcastable.
#include <array>

#include "layout_rules.h"
#include "rule_util.h"

namespace relaypass::op::layout_rules {

namespace {

// `src_layout` with each split factor replaced by 1 where the operand's dimension of that axis
// (found through its old layout) is 1 or absent: an operand of shape [N, H, W, 1] next to one in
// NCHW16c goes to NCHW1c, not NCHW16c.
Layout AdjustSubordinateFactors(const Layout& src_layout, const Layout& old_layout,
                                const std::vector<ir::Dim>& old_shape) {
  std::string name;
  for (const LayoutAxis& axis : src_layout.axes()) {
    if (!axis.is_primal()) {
      int old_axis = old_layout.IndexOf(axis.primal());
      bool is_one = old_axis < 0 ||
                    (static_cast<size_t>(old_axis) < old_shape.size() && old_shape[old_axis] == 1);
      name += is_one ? std::string("1") : std::to_string(src_layout.FactorOf(axis.primal()));
    }
    name += axis.name;
  }
  return Layout(name);  // "" is the rank-0 layout here
}

// Same structure, differing only in axis names (NCHW and NCWH are; NCHW and NCHW4c are not).
bool Isomorphic(const Layout& lhs, const Layout& rhs) {
  if (lhs.ndim() != rhs.ndim()) return false;
  std::array<char, 128> map_to{}, map_back{};
  for (size_t i = 0; i < lhs.ndim(); ++i) {
    const LayoutAxis& l = lhs[i];
    const LayoutAxis& r = rhs[i];
    if (l.is_primal() != r.is_primal()) return false;
    char& to = map_to[static_cast<unsigned char>(l.name)];
    char& back = map_back[static_cast<unsigned char>(r.name)];
    if ((to != 0 && to != r.name) || (back != 0 && back != l.name)) return false;
    to = r.name;
    back = l.name;
    if (!l.is_primal() && l.factor != r.factor) return false;
  }
  return true;
}

// `old` transformed the way `ref_old` became `ref_new` (TVM's TryTransformLike): with old = NW,
// ref_old = NC, ref_new = NC1c the result is NW1w; with old = W it is also NW1w. Undefined when
// `old` and `ref_old` are not broadcast-compatible in structure.
Layout TryTransformLike(const Layout& old, const Layout& ref_old, const Layout& ref_new) {
  const Layout& large = ref_old.ndim() > old.ndim() ? ref_old : old;
  const Layout& small = ref_old.ndim() > old.ndim() ? old : ref_old;
  size_t rest = large.ndim() - small.ndim();
  Layout large_sublayout = large.SubLayout(rest, small.ndim());
  for (size_t i = 0; i < rest; ++i) {
    if (large_sublayout.Contains(large[i].primal()) || large_sublayout.Contains(large[i].sub())) {
      return Layout::Undef();
    }
  }
  if (!Isomorphic(large_sublayout, small)) return Layout::Undef();
  if (old.ndim() == 0) return old;
  if (old.ndim() > ref_old.ndim()) return Layout::Undef();

  // Learn the axis names of `old` for those of `ref_old`, aligned from the right; the other
  // axes of `ref_old` keep their name if it is free, else take the first free letter.
  std::array<int, 26> mapping;
  std::array<bool, 26> used{};
  mapping.fill(-1);
  for (size_t k = 0; k < old.ndim(); ++k) {
    int ref = ref_old[ref_old.ndim() - 1 - k].primal() - 'A';
    int mine = old[old.ndim() - 1 - k].primal() - 'A';
    mapping[ref] = mine;
    used[mine] = true;
  }
  for (size_t k = ref_old.ndim(); k-- > 0;) {
    int ref = ref_old[k].primal() - 'A';
    if (mapping[ref] != -1) continue;
    int pick = used[ref] ? -1 : ref;
    for (int c = 0; pick == -1 && c < 26; ++c) {
      if (!used[c]) pick = c;
    }
    if (pick == -1) return Layout::Undef();
    mapping[ref] = pick;
    used[pick] = true;
  }
  std::string name;
  for (char c : ref_new.name()) {
    if (c >= 'A' && c <= 'Z') {
      if (mapping[c - 'A'] == -1) return Layout::Undef();
      name += static_cast<char>('A' + mapping[c - 'A']);
    } else if (c >= 'a' && c <= 'z') {
      if (mapping[c - 'a'] == -1) return Layout::Undef();
      name += static_cast<char>('a' + mapping[c - 'a']);
    } else {
      name += c;
    }
  }
  return ParsedLayout(name);
}

}  // namespace

InferLayoutOutput BinaryBroadcast(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                                  const Layouts& old_in_layouts,
                                  const std::vector<ir::Type>& old_in_types) {
  const InferLayoutOutput fail{{Layout::Undef(), Layout::Undef()}, {Layout::Undef()}, attrs};
  if (old_in_layouts.size() != 2 || old_in_types.size() != 2) return fail;
  std::optional<std::vector<ir::Dim>> shapes[2] = {ShapeOf(old_in_types[0]),
                                                   ShapeOf(old_in_types[1])};
  if (!shapes[0] || !shapes[1]) return fail;
  const size_t old_large_idx = shapes[0]->size() >= shapes[1]->size() ? 0 : 1;

  // (1) The layouts of the original call.
  Layouts layouts = old_in_layouts;
  InferLayoutOutput out;
  if (!layouts[0].defined() && !layouts[1].defined()) {
    out = fail;
  } else if (!layouts[0].defined() || !layouts[1].defined()) {
    size_t defined_idx = layouts[0].defined() ? 0 : 1;
    size_t undef_idx = 1 - defined_idx;
    size_t defined_rank = shapes[defined_idx]->size();
    size_t undef_rank = shapes[undef_idx]->size();
    if (defined_rank < undef_rank) {
      out = fail;  // only the smaller operand is known: the broadcast result is not
    } else {
      layouts[undef_idx] = layouts[defined_idx].SubLayout(defined_rank - undef_rank, undef_rank);
      out = {layouts, {layouts[defined_idx]}, attrs};
    }
  } else {
    out = {layouts, {layouts[old_large_idx]}, attrs};
  }
  if (new_in_layouts == nullptr) return out;
  if (new_in_layouts->size() != 2) return fail;

  // (2) After a rewrite: transform the smaller operand like the larger one.
  const Layouts& new_in = *new_in_layouts;
  Layout ret = new_in[old_large_idx];
  size_t large_idx = new_in[0].ndim_primal() >= new_in[1].ndim_primal() ? 0 : 1;
  size_t small_idx = 1 - large_idx;
  if (!layouts[small_idx].defined() || !layouts[large_idx].defined() ||
      !new_in[large_idx].defined()) {
    return fail;
  }
  Layout target = TryTransformLike(layouts[small_idx], layouts[large_idx], new_in[large_idx]);
  if (!target.defined()) return fail;
  Layout new_small = AdjustSubordinateFactors(target, layouts[small_idx], *shapes[small_idx]);
  layouts[large_idx] = new_in[large_idx];
  layouts[small_idx] = new_small;
  return {layouts, {ret}, attrs};
}

}  // namespace relaypass::op::layout_rules
