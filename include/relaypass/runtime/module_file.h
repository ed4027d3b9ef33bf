// The file export_library writes and tvm.runtime.load_module reads (docs/artifact.md):
// relay.build's result as an Artifact with the sections
//   "kind"       "relaypass.graph_executor_factory"
//   "module"     the optimized module as Relay text with its metadata (its constants included)
//   "graph_json" TVM's graph JSON of it
//   "mod_name"   relay.build's mod_name
// Loading parses the module (typed, as the parser checks it), makes its graph again and refuses a
// file whose graph JSON differs from the one stored: what runs is what was exported.
#pragma once

#include <string>

#include "relaypass/backend/build.h"

namespace relaypass::runtime {

inline constexpr const char* kGraphFactoryKind = "relaypass.graph_executor_factory";

/// Writes `built` to `path` (atomically); relaypass::Error naming the path on failure.
void ExportBuiltModule(const backend::BuiltModule& built, const std::string& path);

/// Reads a file ExportBuiltModule wrote. A file that is not one (another kind, a missing section),
/// damaged (its module does not parse, its graph differs) or truncated is a relaypass::Error
/// naming the path.
backend::BuiltModule LoadBuiltModule(const std::string& path);

/// Whether the file at `path` starts with the artifact's magic bytes (false if unreadable).
bool IsArtifactFile(const std::string& path);

}  // namespace relaypass::runtime
