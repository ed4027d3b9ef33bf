#include "relaypass/runtime/module_file.h"

#include <fstream>

#include "relaypass/runtime/artifact.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"

namespace relaypass::runtime {

namespace {

const std::string& Section(const Artifact& artifact, const std::string& name,
                           const std::string& path) {
  auto it = artifact.sections.find(name);
  if (it == artifact.sections.end()) {
    throw Error(path + ": the artifact has no '" + name + "' section");
  }
  return it->second;
}

}  // namespace

void ExportBuiltModule(const backend::BuiltModule& built, const std::string& path) {
  Artifact artifact;
  artifact.sections["kind"] = kGraphFactoryKind;
  artifact.sections["module"] = text::AsText(built.mod, /*show_meta_data=*/true);
  artifact.sections["graph_json"] = built.graph.json;
  artifact.sections["mod_name"] = built.mod_name;
  WriteArtifactFile(path, artifact);
}

backend::BuiltModule LoadBuiltModule(const std::string& path) {
  const Artifact artifact = ReadArtifactFile(path);
  const std::string& kind = Section(artifact, "kind", path);
  if (kind != kGraphFactoryKind) {
    throw Error(path + ": not a module relaypass exported (kind '" + kind.substr(0, 80) +
                "'; expected '" + kGraphFactoryKind + "')");
  }
  const std::string& mod_name = Section(artifact, "mod_name", path);
  ir::IRModule mod;
  try {
    mod = text::ParseModule(Section(artifact, "module", path));
  } catch (const Error& e) {
    throw Error(path + ": its module does not read back (a damaged file?): " + e.what());
  }
  backend::BuiltModule built = backend::FromOptimized(mod, mod_name);
  if (built.graph.json != Section(artifact, "graph_json", path)) {
    throw Error(path + ": its graph JSON does not match its module (a damaged file?)");
  }
  return built;
}

bool IsArtifactFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(kArtifactMagic.size(), '\0');
  if (!in.read(head.data(), static_cast<std::streamsize>(head.size()))) return false;
  return head == kArtifactMagic;
}

}  // namespace relaypass::runtime
