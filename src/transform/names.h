// Helpers for error messages that name the valid choices.
#pragma once

#include <string>
#include <vector>

namespace relaypass::transform::detail {

/// "a, b, c" (or "(none)" for an empty list).
std::string JoinNames(const std::vector<std::string>& names);
/// "; did you mean "X"?" for the closest match, or "".
std::string DidYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace relaypass::transform::detail
