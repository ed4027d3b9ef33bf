// Files a model names (ONNX external data, ...) must stay inside the model's folder: the
// location is resolved through every symbolic link before the check, so neither `../x`, an
// absolute path nor a link inside the folder pointing out of it reaches another file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace relaypass::support {

/// The file `location` (relative to `folder`) resolves to, with every symbolic link and `..`
/// followed, when that file lies inside `folder` (itself resolved); nullopt when it does not,
/// when `location` is absolute or empty, or when it cannot be resolved.
std::optional<std::filesystem::path> ResolveInsideFolder(const std::filesystem::path& folder,
                                                         const std::string& location);

}  // namespace relaypass::support
