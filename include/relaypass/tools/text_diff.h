// A line-based unified diff of two texts (the format of `diff -u`), for --print-changed=diff and
// the pass explorer. Written here rather than taken from dtl (Debian libdtl-dev), which was
// tried: dtl's hunks are not diff -u's (fixed context, different hunk joining) and its work is
// unbounded on two unrelated modules, where this one falls back to one replacement.
#pragma once

#include <cstdint>
#include <string>

namespace relaypass::tools {

struct DiffOptions {
  /// Unchanged lines shown around each change.
  int context = 3;
  /// Above this many differing lines (after the common head and tail are set aside), the
  /// middle is shown as one replacement instead of a minimal edit script: the work stays
  /// bounded (O(limit * lines) time, O(limit^2) memory) on two unrelated modules.
  int max_edits = 2000;
};

/// `--- OLD_NAME` / `+++ NEW_NAME` and `@@ -a,b +c,d @@` hunks; "" when the texts are equal.
/// Lines are compared exactly (Myers' algorithm, iterative).
std::string UnifiedDiff(const std::string& old_text, const std::string& new_text,
                        const std::string& old_name, const std::string& new_name,
                        const DiffOptions& options = {});

/// Lines only in the new text (`+`) and only in the old one (`-`) of a unified diff.
struct DiffLineCounts {
  int64_t added = 0;
  int64_t removed = 0;
};
DiffLineCounts CountDiffLines(const std::string& unified);

}  // namespace relaypass::tools
