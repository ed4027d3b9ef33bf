#include "relaypass/tools/text_diff.h"

#include <dtl/dtl.hpp>
#include <sstream>
#include <vector>

namespace relaypass::tools {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.emplace_back(text, start, end - start);
    start = end + 1;
  }
  return lines;
}

}  // namespace

TextDiff UnifiedDiff(const std::string& before, const std::string& after,
                     const std::string& from_name, const std::string& to_name) {
  TextDiff out;
  if (before == after) return out;
  const std::vector<std::string> a = Lines(before);
  const std::vector<std::string> b = Lines(after);
  dtl::Diff<std::string, std::vector<std::string>> diff(a, b);
  diff.onHuge();  // bounded memory on long modules
  diff.compose();
  diff.composeUnifiedHunks();
  for (const auto& [line, info] : diff.getSes().getSequence()) {
    if (info.type == dtl::SES_ADD) ++out.added;
    if (info.type == dtl::SES_DELETE) ++out.removed;
  }
  std::ostringstream text;
  text << "--- " << from_name << "\n+++ " << to_name << "\n";
  diff.printUnifiedFormat(text);
  out.unified = text.str();
  return out;
}

}  // namespace relaypass::tools
