// Helpers shared by the workload tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/ir/type.h"

namespace relaypass::workloads::testing {

inline std::string ReadTestData(const std::string& name) {
  std::ifstream in(std::string(RELAYPASS_TEST_DATA) + "/" + name, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline std::vector<std::string> ParamNames(const ir::IRModule& mod) {
  std::vector<std::string> names;
  for (const ir::Var& p : mod.Lookup("main")->params) names.push_back(p->name_hint);
  return names;
}

// The printed checked type of main's parameter `name` ("" if there is none).
inline std::string ParamType(const ir::IRModule& mod, const std::string& name) {
  for (const ir::Var& p : mod.Lookup("main")->params) {
    if (p->name_hint == name) return ir::TypeToString(p->checked_type);
  }
  return "";
}

inline std::string ReturnType(const ir::IRModule& mod) {
  return ir::TypeToString(mod.Lookup("main")->ret_type);
}

}  // namespace relaypass::workloads::testing
