// Whole files as bytes, for the runtime's file formats (parameter files, artifacts): a bounded
// read and an atomic write. Failures are relaypass::Error naming the path and the system's reason.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace relaypass::runtime {

inline constexpr uint64_t kDefaultMaxFileBytes = uint64_t{4} << 30;  // 4 GiB

/// The bytes of the file at `path`. A directory, a file that cannot be opened or read, or one
/// longer than `max_bytes` (checked while reading, so a growing file or a pipe stops there too) is
/// an error; at most max_bytes + 1 bytes are ever held.
std::string ReadBinaryFile(const std::string& path, uint64_t max_bytes = kDefaultMaxFileBytes);

/// Writes `bytes` to a new file in `path`'s folder and renames it over `path`, so a reader sees
/// the old file or the whole new one, never a part; the temporary file is removed on failure.
void WriteBinaryFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace relaypass::runtime
