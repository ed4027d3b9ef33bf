// Layout strings as axis permutations: the convolutions take their data and kernel in any
// ordering of the canonical layout's axes (NWC for NCW, DHWIO for OIDHW, HWOI for IOHW, ...);
// relations and kernels move the shapes and tensors to the canonical order and back.
#pragma once

#include <string>
#include <vector>

namespace relaypass::op {

// perm with canonical[i] == layout[perm[i]] (so permuting a `layout` tensor by perm gives the
// canonical one); empty when `layout` is not an ordering of `canonical`'s axes.
inline std::vector<int> LayoutPermutation(const std::string& layout, const std::string& canonical) {
  if (layout.size() != canonical.size()) return {};
  std::vector<int> perm;
  for (char axis : canonical) {
    const size_t at = layout.find(axis);
    if (at == std::string::npos || layout.find(axis, at + 1) != std::string::npos) return {};
    perm.push_back(static_cast<int>(at));
  }
  return perm;
}

// The inverse permutation (canonical back to `layout`).
inline std::vector<int> InversePermutation(const std::vector<int>& perm) {
  std::vector<int> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<size_t>(perm[i])] = static_cast<int>(i);
  return inverse;
}

// `values` (in `perm`'s source order) reordered by perm.
template <typename T>
std::vector<T> Permuted(const std::vector<T>& values, const std::vector<int>& perm) {
  std::vector<T> out;
  for (int p : perm) out.push_back(values[static_cast<size_t>(p)]);
  return out;
}

}  // namespace relaypass::op
