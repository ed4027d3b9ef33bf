// Splitting one input text into chunks at `// -----` lines, as mlir-opt's --split-input-file.
#pragma once

#include <string>
#include <vector>

namespace relaypass::tools {

inline constexpr const char* kSplitMarker = "// -----";

struct InputChunk {
  /// The chunk, preceded by one empty line per line of the text before it, so that parse
  /// errors in it carry the line numbers of the whole input.
  std::string text;
  int first_line = 1;  ///< where the chunk starts in the input (1-based)
};

/// The chunks of `text` between lines that are exactly `// -----` (trailing spaces and a
/// carriage return ignored). A text without separators is one chunk.
std::vector<InputChunk> SplitInputFile(const std::string& text);

}  // namespace relaypass::tools
