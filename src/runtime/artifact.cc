#include "relaypass/runtime/artifact.h"

#include "bytes_io.h"
#include "relaypass/support/error.h"

namespace relaypass::runtime {

namespace {

// The smallest section: its two lengths and a one-byte name.
constexpr uint64_t kMinSectionBytes = 8 + 1 + 8;

}  // namespace

std::string SerializeArtifact(const Artifact& artifact) {
  size_t total = kArtifactMagic.size() + 4 + 8;
  for (const auto& [name, bytes] : artifact.sections) {
    if (name.empty()) throw Error("artifact: a section has an empty name");
    total += 16 + name.size() + bytes.size();
  }
  std::string out;
  out.reserve(total);
  out += kArtifactMagic;
  AppendLE<uint32_t>(out, kArtifactVersion);
  AppendLE<uint64_t>(out, artifact.sections.size());
  for (const auto& [name, bytes] : artifact.sections) {
    AppendLE<uint64_t>(out, name.size());
    out += name;
    AppendLE<uint64_t>(out, bytes.size());
    out += bytes;
  }
  return out;
}

Artifact ParseArtifact(std::string_view bytes, const std::string& source_name) {
  ByteReader in(bytes, source_name);
  if (in.Bytes(kArtifactMagic.size(), "the artifact magic") != kArtifactMagic) {
    in.Fail(0, "not a relaypass artifact (it does not start with \"RPARTIFACT\")");
  }
  const size_t version_at = in.offset();
  const auto version = in.Read<uint32_t>("the format version");
  if (version != kArtifactVersion) {
    in.Fail(version_at, "artifact format version " + std::to_string(version) +
                            " is not supported (this relaypass reads version " +
                            std::to_string(kArtifactVersion) + ")");
  }
  const size_t count_at = in.offset();
  const auto count = in.Read<uint64_t>("the section count");
  if (count > in.remaining() / kMinSectionBytes) {
    in.Fail(count_at, "section count " + std::to_string(count) + " is more than the " +
                          std::to_string(in.remaining()) + " remaining bytes can hold");
  }
  Artifact artifact;
  for (uint64_t i = 0; i < count; ++i) {
    const size_t at = in.offset();
    const auto name_length = in.Read<uint64_t>("a section name length");
    const std::string_view name = in.Bytes(name_length, "a section name");
    if (name.empty()) in.Fail(at, "a section has an empty name");
    const auto length = in.Read<uint64_t>("a section length");
    const std::string_view data = in.Bytes(length, "section '" + std::string(name) + "'");
    if (!artifact.sections.emplace(name, data).second) {
      in.Fail(at, "duplicate section '" + std::string(name) + "'");
    }
  }
  if (!in.at_end()) {
    in.Fail(in.offset(), std::to_string(in.remaining()) + " bytes after the last section");
  }
  return artifact;
}

void WriteArtifactFile(const std::string& path, const Artifact& artifact) {
  WriteBinaryFileAtomically(path, SerializeArtifact(artifact));
}

Artifact ReadArtifactFile(const std::string& path, uint64_t max_bytes) {
  return ParseArtifact(ReadBinaryFile(path, max_bytes), path);
}

}  // namespace relaypass::runtime
