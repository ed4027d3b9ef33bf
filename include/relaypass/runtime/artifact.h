// The artifact: the one file export_library writes (relay.build's result, loaded again in another
// process). A versioned container of named byte sections; it does not interpret them. The
// sections its users write are "module" (Relay text with its metadata), "params"
// (runtime::SaveParamDict's bytes), "graph_json" and "executor_config". docs/artifact.md.
//
// Layout, every integer little-endian:
//   the 10 bytes "RPARTIFACT", u32 format version (kArtifactVersion),
//   u64 section count, then each section: u64 name length, name, u64 byte length, bytes.
// Sections are written in name order; names are unique and not empty.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "relaypass/runtime/binary_file.h"

namespace relaypass::runtime {

inline constexpr std::string_view kArtifactMagic = "RPARTIFACT";
inline constexpr uint32_t kArtifactVersion = 1;

struct Artifact {
  std::map<std::string, std::string> sections;
};

/// The artifact's bytes; an empty section name is a relaypass::Error.
std::string SerializeArtifact(const Artifact& artifact);

/// Reads SerializeArtifact's bytes. A wrong magic, a version other than kArtifactVersion (the
/// message names both), a count or length the remaining bytes cannot hold, an empty or duplicate
/// name and bytes after the last section are each a relaypass::Error "SOURCE: byte OFFSET: ...".
Artifact ParseArtifact(std::string_view bytes, const std::string& source_name);

/// SerializeArtifact written atomically (WriteBinaryFileAtomically).
void WriteArtifactFile(const std::string& path, const Artifact& artifact);

/// ReadBinaryFile (a directory or a file over `max_bytes` is an error), then ParseArtifact with
/// the path as the source name.
Artifact ReadArtifactFile(const std::string& path, uint64_t max_bytes = kDefaultMaxFileBytes);

}  // namespace relaypass::runtime
