// The name a user probably meant: error messages that say `did you mean "X"?` (unknown passes,
// options, operators, relay-opt flags) all choose X here.
#pragma once

#include <string>
#include <vector>

namespace relaypass::support {

/// The candidate closest to `name` by edit distance (ignoring case), or "" if none is within
/// a third of its length (at least 2 edits allowed). The first of equally close ones wins.
std::string ClosestName(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace relaypass::support
