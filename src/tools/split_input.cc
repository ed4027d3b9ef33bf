#include "relaypass/tools/split_input.h"

namespace relaypass::tools {

namespace {

bool IsMarker(const std::string& line) {
  const size_t end = line.find_last_not_of(" \t\r");
  return end != std::string::npos && line.substr(0, end + 1) == kSplitMarker;
}

}  // namespace

std::vector<InputChunk> SplitInputFile(const std::string& text) {
  std::vector<InputChunk> chunks;
  InputChunk current;
  int line_number = 1;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    const bool last = end == std::string::npos;
    if (last) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (IsMarker(line)) {
      chunks.push_back(std::move(current));
      current = InputChunk{std::string(static_cast<size_t>(line_number), '\n'), line_number + 1};
    } else {
      current.text += line;
      if (!last) current.text += '\n';
    }
    ++line_number;
    start = end + 1;
  }
  chunks.push_back(std::move(current));
  return chunks;
}

}  // namespace relaypass::tools
