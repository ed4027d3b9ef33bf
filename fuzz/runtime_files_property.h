// The property the runtime file fuzzer checks (fuzz/runtime_files_fuzzer.cc), shared with
// tests/runtime, which runs it on damaged files in the ordinary build.
//
// Any bytes, read as a TVM parameter file and as an artifact, either fail with a relaypass::Error
// or load; what loads saves to bytes that load back to the same thing, and those bytes save
// again unchanged (the first save may differ from the input: reserved fields, device ids and
// name order are not kept). Anything else -- a crash, a sanitizer report, another exception
// (std::bad_alloc included: sizes must be checked before allocating) -- is a bug.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "relaypass/runtime/artifact.h"
#include "relaypass/runtime/param_dict.h"
#include "relaypass/support/error.h"

namespace relaypass::fuzz {

// "" when the property holds for the parameter-file reading of `data`, otherwise what broke.
// Only the first load may throw a relaypass::Error; any later exception propagates as a bug.
inline std::string CheckParamDictFile(std::string_view data) {
  std::map<std::string, ir::NDArray> params;
  try {
    params = runtime::LoadParamDict(data, "fuzz");
  } catch (const Error&) {
    return "";
  }
  const std::string saved = runtime::SaveParamDict(params);
  const auto again = runtime::LoadParamDict(saved, "saved");
  if (again.size() != params.size()) return "parameter count changed in a round trip";
  for (const auto& [name, array] : params) {
    auto it = again.find(name);
    if (it == again.end() || !it->second.BitwiseEqual(array)) {
      return "parameter '" + name + "' changed in a round trip";
    }
  }
  if (runtime::SaveParamDict(again) != saved) return "saved parameter bytes are not stable";
  return "";
}

// The same for the artifact reading of `data`.
inline std::string CheckArtifactFile(std::string_view data) {
  runtime::Artifact artifact;
  try {
    artifact = runtime::ParseArtifact(data, "fuzz");
  } catch (const Error&) {
    return "";
  }
  const std::string saved = runtime::SerializeArtifact(artifact);
  if (runtime::ParseArtifact(saved, "saved").sections != artifact.sections) {
    return "artifact sections changed in a round trip";
  }
  if (runtime::SerializeArtifact(runtime::ParseArtifact(saved, "saved")) != saved) {
    return "serialized artifact bytes are not stable";
  }
  return "";
}

inline std::string CheckRuntimeFiles(std::string_view data) {
  std::string failure = CheckParamDictFile(data);
  return failure.empty() ? CheckArtifactFile(data) : failure;
}

}  // namespace relaypass::fuzz
