#include "relaypass/transform/apply_pass_to_function.h"

#include <re2/re2.h>

#include <memory>
#include <set>

#include "relaypass/support/error.h"

namespace relaypass::transform {

Pass ApplyPassToFunction(Pass pass, std::string func_name_regex) {
  // RE2: matching is linear in the name and compiling linear in the pattern, whatever the
  // pattern (std::regex backtracks exponentially on "(a*)*b" and recurses on long input).
  RE2::Options options;
  options.set_log_errors(false);
  auto pattern = std::make_shared<const RE2>(func_name_regex, options);
  if (!pattern->ok()) {
    throw PassError("ApplyPassToFunction: invalid regex \"" + func_name_regex +
                    "\": " + pattern->error());
  }
  auto fn = [pass, pattern](const ir::IRModule& mod, const PassContext& ctx) {
    // Hide the functions that do not match from function passes; restore them afterwards.
    ir::IRModule subset = mod;
    std::set<std::string> kept;
    for (const auto& [gv, func] : mod.functions()) {
      if (RE2::FullMatch(gv->name_hint, *pattern)) continue;
      kept.insert(gv->name_hint);
      ir::DictAttrs attrs = func->attrs;
      attrs.Set("SkipOptimization", ir::AttrValue::Int(1));
      subset.Add(
          gv, ir::MakeFunction(func->params, func->body, func->ret_type, attrs, func->type_params));
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
