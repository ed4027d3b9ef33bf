#include "relaypass/tools/module_stats.h"

#include <vector>

#include "relaypass/ir/structural.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::tools {

size_t CountModuleNodes(const ir::IRModule& mod) {
  size_t total = 0;
  for (const auto& [gv, func] : mod.functions()) total += ir::CountNodes(func);
  return total;
}

bool ModuleChanged(const ir::IRModule& before, const ir::IRModule& after) {
  if (before.same_as(after)) return false;
  if (before.size() != after.size()) return true;
  for (const auto& [gv, func] : after.functions()) {
    if (!before.Contains(gv->name_hint)) return true;
    const ir::Function old = before.Lookup(gv->name_hint);
    if (old.same_as(func)) continue;
    if (!ir::StructuralEqual(old, func)) return true;
  }
  return false;
}

std::set<std::string> SequentialNames(const transform::Pass& pass) {
  std::set<std::string> names;
  std::vector<transform::Pass> stack{pass};
  while (!stack.empty()) {
    const transform::Pass current = stack.back();
    stack.pop_back();
    const std::vector<transform::Pass>* members = transform::SequentialPasses(current);
    if (!members) continue;
    names.insert(current.info().name);
    stack.insert(stack.end(), members->begin(), members->end());
  }
  return names;
}

}  // namespace relaypass::tools
