#include "relaypass/passes/remove_unused_functions.h"

#include <set>

#include "relaypass/ir/module.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/error.h"

namespace relaypass::passes {

namespace {

// The names of the functions reachable from `entries` (TVM's CallTracer: every GlobalVar a
// reachable function mentions is reachable).
std::set<std::string> Reachable(const ir::IRModule& mod, const std::vector<std::string>& entries) {
  std::set<std::string> seen;
  std::vector<std::string> work;
  for (const std::string& entry : entries) {
    if (!mod.Contains(entry)) {
      throw PassError("RemoveUnusedFunctions: the module has no function named '" + entry + "'");
    }
    if (seen.insert(entry).second) work.push_back(entry);
  }
  while (!work.empty()) {
    const ir::Function func = mod.Lookup(work.back());
    work.pop_back();
    ir::post_order_visit(func, [&](const ir::Expr& e) {
      auto* gv = e.as<ir::GlobalVarNode>();
      if (gv && mod.Contains(gv->name_hint) && seen.insert(gv->name_hint).second) {
        work.push_back(gv->name_hint);
      }
    });
  }
  return seen;
}

}  // namespace

transform::Pass RemoveUnusedFunctions(std::vector<std::string> entry_functions) {
  return transform::CreateModulePass(
      [entries = std::move(entry_functions)](const ir::IRModule& mod,
                                             const transform::PassContext&) {
        const std::set<std::string> keep = Reachable(mod, entries);
        ir::IRModule result = mod;
        for (const auto& [gv, func] : mod.functions()) {
          if (!keep.count(gv->name_hint)) result.Remove(gv->name_hint);
        }
        return result;
      },
      1, "RemoveUnusedFunctions");
}

void RegisterRemoveUnusedFunctions(transform::PassRegistry& registry) {
  std::vector<transform::OptionValue> main_only = {transform::OptionValue::Str("main")};
  registry.Register(
      {"RemoveUnusedFunctions",
       {{"entry_functions", transform::OptionType::kList, transform::OptionValue::Array(main_only),
         "the functions to keep with everything they reach (TVM's None means [\"main\"])"}},
       [](const transform::PassOptions& options) {
         std::vector<std::string> entries;
         for (const transform::OptionValue& v : options.Get("entry_functions").as_array()) {
           entries.push_back(v.as_string());
         }
         return RemoveUnusedFunctions(std::move(entries));
       },
       "removes the global functions the entry functions do not reach"});
}

}  // namespace relaypass::passes
