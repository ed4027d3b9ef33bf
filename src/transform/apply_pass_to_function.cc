#include "relaypass/transform/apply_pass_to_function.h"

#include <regex>
#include <set>

#include "relaypass/support/error.h"

namespace relaypass::transform {

Pass ApplyPassToFunction(Pass pass, std::string func_name_regex) {
  std::regex pattern;
  try {
    pattern = std::regex(func_name_regex, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw PassError("ApplyPassToFunction: invalid regex \"" + func_name_regex + "\": " + e.what());
  }
  auto fn = [pass, pattern](const ir::IRModule& mod, const PassContext& ctx) {
    // Hide the functions that do not match from function passes; restore them afterwards.
    ir::IRModule subset = mod;
    std::set<std::string> kept;
    for (const auto& [gv, func] : mod.functions()) {
      if (std::regex_match(gv->name_hint, pattern)) continue;
      kept.insert(gv->name_hint);
      ir::DictAttrs attrs = func->attrs;
      attrs.Set("SkipOptimization", ir::AttrValue::Int(1));
      subset.Add(gv, ir::MakeFunction(func->params, func->body, func->ret_type, attrs));
    }
    ir::IRModule result = pass(subset, ctx);
    if (result.same_as(subset)) return mod;
    ir::IRModule out = mod;
    for (const auto& [gv, func] : result.functions()) {
      if (!kept.count(gv->name_hint)) out.Add(gv, func);
    }
    return out;
  };
  return CreateModulePass(std::move(fn), 0, "ApplyPassTo" + func_name_regex);
}

}  // namespace relaypass::transform
