#include "names.h"

#include "relaypass/support/closest_name.h"

namespace relaypass::transform::detail {

std::string JoinNames(const std::vector<std::string>& names) {
  if (names.empty()) return "(none)";
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  return out;
}

std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best = support::ClosestName(name, candidates);
  return best.empty() ? "" : "; did you mean \"" + best + "\"?";
}

}  // namespace relaypass::transform::detail
