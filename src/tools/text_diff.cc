#include "relaypass/tools/text_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace relaypass::tools {

namespace {

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// One line of the edit script: ' ' kept, '-' only in the old text, '+' only in the new one.
struct Edit {
  char op;
  int64_t old_line;  // 0-based; meaningful for ' ' and '-'
  int64_t new_line;  // 0-based; meaningful for ' ' and '+'
};

// Myers' O(ND) shortest edit script of a[lo_a, hi_a) and b[lo_b, hi_b), or false when more than
// `max_edits` edits are needed.
bool Myers(const std::vector<std::string>& a, const std::vector<std::string>& b, int64_t lo_a,
           int64_t hi_a, int64_t lo_b, int64_t hi_b, int64_t max_edits, std::vector<Edit>* out) {
  const int64_t n = hi_a - lo_a;
  const int64_t m = hi_b - lo_b;
  const int64_t max_d = std::min(n + m, max_edits);
  const int64_t offset = max_d + 1;
  std::vector<int64_t> v(static_cast<size_t>(2 * max_d + 3), 0);
  std::vector<std::vector<int64_t>> trace;
  int64_t found = -1;
  for (int64_t d = 0; d <= max_d && found < 0; ++d) {
    // The frontier of d - 1, for k in [-d, d] (what the walk back reads).
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x;
      if (k == -d || (k != d && v[k - 1 + offset] < v[k + 1 + offset])) {
        x = v[k + 1 + offset];
      } else {
        x = v[k - 1 + offset] + 1;
      }
      int64_t y = x - k;
      while (x < n && y < m && a[lo_a + x] == b[lo_b + y]) {
        ++x;
        ++y;
      }
      v[k + offset] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return false;
  // Walk back through the saved frontiers.
  std::vector<Edit> reversed;
  int64_t x = n;
  int64_t y = m;
  for (int64_t d = found; d > 0; --d) {
    const std::vector<int64_t>& pv = trace[static_cast<size_t>(d)];
    const int64_t k = x - y;
    const bool down = k == -d || (k != d && pv[k - 1 + d] < pv[k + 1 + d]);
    const int64_t prev_k = down ? k + 1 : k - 1;
    const int64_t prev_x = pv[prev_k + d];
    const int64_t prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) {
      --x;
      --y;
      reversed.push_back({' ', lo_a + x, lo_b + y});
    }
    if (down) {
      --y;
      reversed.push_back({'+', lo_a + x, lo_b + y});
    } else {
      --x;
      reversed.push_back({'-', lo_a + x, lo_b + y});
    }
  }
  while (x > 0 && y > 0) {
    --x;
    --y;
    reversed.push_back({' ', lo_a + x, lo_b + y});
  }
  out->insert(out->end(), reversed.rbegin(), reversed.rend());
  return true;
}

std::string Range(int64_t start, int64_t count) {
  // diff -u: a hunk's range is "start,count", 1-based; an empty range names the line before.
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

}  // namespace

std::string UnifiedDiff(const std::string& old_text, const std::string& new_text,
                        const std::string& old_name, const std::string& new_name,
                        const DiffOptions& options) {
  if (old_text == new_text) return "";
  const std::vector<std::string> a = SplitLines(old_text);
  const std::vector<std::string> b = SplitLines(new_text);
  if (a == b) return "";  // the texts differ only in a final newline
  const int64_t na = static_cast<int64_t>(a.size());
  const int64_t nb = static_cast<int64_t>(b.size());
  int64_t head = 0;
  while (head < na && head < nb && a[head] == b[head]) ++head;
  int64_t tail = 0;
  while (tail < na - head && tail < nb - head && a[na - 1 - tail] == b[nb - 1 - tail]) ++tail;

  std::vector<Edit> edits;
  for (int64_t i = 0; i < head; ++i) edits.push_back({' ', i, i});
  if (!Myers(a, b, head, na - tail, head, nb - tail, options.max_edits, &edits)) {
    for (int64_t i = head; i < na - tail; ++i) edits.push_back({'-', i, head});
    for (int64_t j = head; j < nb - tail; ++j) edits.push_back({'+', na - tail, j});
  }
  for (int64_t i = 0; i < tail; ++i) edits.push_back({' ', na - tail + i, nb - tail + i});

  std::string out = "--- " + old_name + "\n+++ " + new_name + "\n";
  const int64_t total = static_cast<int64_t>(edits.size());
  const int64_t context = std::max(options.context, 0);
  int64_t i = 0;
  while (i < total) {
    while (i < total && edits[i].op == ' ') ++i;
    if (i == total) break;
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is at most 2 * context kept lines away.
    const int64_t begin = std::max<int64_t>(0, i - context);
    int64_t end = i;
    int64_t last_change = i;
    for (int64_t j = i; j < total; ++j) {
      if (edits[j].op != ' ') {
        last_change = j;
      } else if (j - last_change > 2 * context) {
        break;
      }
    }
    end = std::min(total, last_change + context + 1);
    int64_t old_start = -1;
    int64_t new_start = -1;
    int64_t old_count = 0;
    int64_t new_count = 0;
    std::string body;
    for (int64_t j = begin; j < end; ++j) {
      const Edit& e = edits[j];
      if (e.op != '+') {
        if (old_start < 0) old_start = e.old_line;
        ++old_count;
        body += (e.op == ' ' ? " " : "-") + a[e.old_line] + "\n";
      }
      if (e.op != '-') {
        if (new_start < 0) new_start = e.new_line;
        ++new_count;
        if (e.op == '+') body += "+" + b[e.new_line] + "\n";
      }
    }
    if (old_start < 0) old_start = edits[begin].old_line;
    if (new_start < 0) new_start = edits[begin].new_line;
    out += "@@ -" + Range(old_start, old_count) + " +" + Range(new_start, new_count) + " @@\n";
    out += body;
    i = end;
  }
  return out;
}

DiffLineCounts CountDiffLines(const std::string& unified) {
  DiffLineCounts counts;
  size_t start = 0;
  while (start < unified.size()) {
    size_t end = unified.find('\n', start);
    if (end == std::string::npos) end = unified.size();
    const bool header =
        unified.compare(start, 4, "--- ") == 0 || unified.compare(start, 4, "+++ ") == 0;
    if (!header && end > start) {
      if (unified[start] == '+') ++counts.added;
      if (unified[start] == '-') ++counts.removed;
    }
    start = end + 1;
  }
  return counts;
}

}  // namespace relaypass::tools
