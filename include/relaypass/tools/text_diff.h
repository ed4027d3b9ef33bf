// Line diffs of texts (modules before and after a pass), in the unified format of `diff -u`
// and opt's -print-changed=diff. Computed with dtl (Debian libdtl-dev), an O(ND) diff.
#pragma once

#include <cstdint>
#include <string>

namespace relaypass::tools {

struct TextDiff {
  std::string unified;  // "--- FROM\n+++ TO\n@@ -a,b +c,d @@\n..." or "" when equal
  int64_t added = 0;    // lines only in `after`
  int64_t removed = 0;  // lines only in `before`
};

/// The unified diff of two texts, line by line, with three unchanged lines around each change
/// (as `diff -u`; dtl fixes the context at three).
TextDiff UnifiedDiff(const std::string& before, const std::string& after,
                     const std::string& from_name, const std::string& to_name);

}  // namespace relaypass::tools
