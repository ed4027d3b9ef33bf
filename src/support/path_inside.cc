#include "relaypass/support/path_inside.h"

#include <algorithm>
#include <system_error>

namespace relaypass::support {

std::optional<std::filesystem::path> ResolveInsideFolder(const std::filesystem::path& folder,
                                                         const std::string& location) {
  namespace fs = std::filesystem;
  const fs::path relative(location);
  if (location.empty() || relative.is_absolute() || relative.has_root_name()) return std::nullopt;
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(folder.empty() ? fs::path(".") : folder, ec);
  if (ec) return std::nullopt;
  // weakly_canonical follows the links of the part that exists (all of it, for a file that
  // exists), and normalises the rest lexically.
  const fs::path resolved = fs::weakly_canonical(root / relative, ec);
  if (ec) return std::nullopt;
  auto [root_end, resolved_at] =
      std::mismatch(root.begin(), root.end(), resolved.begin(), resolved.end());
  if (root_end != root.end() || resolved_at == resolved.end()) return std::nullopt;
  return resolved;
}

}  // namespace relaypass::support
