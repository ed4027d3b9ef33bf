#include "relaypass/runtime/module_file.h"

#include <fstream>
#include <optional>

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
  artifact.sections["int8_isa"] = op::Int8IsaName(built.int8_isa);
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
  // The int8 GEMM variant of the build's target; files written before it existed have none
  // (then x86-64's baseline, as a build without a target).
  if (auto it = artifact.sections.find("int8_isa"); it != artifact.sections.end()) {
    const std::optional<op::Int8Isa> isa = op::ParseInt8Isa(it->second);
    if (!isa) {
      throw Error(path + ": unknown int8 instruction set '" + it->second.substr(0, 40) +
                  "' (a damaged file?)");
    }
    built.int8_isa = *isa;
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
