// Pipeline text for tools: pass names written in kebab-case
// (`fold-constant`, as mlir-opt and opt spell passes) read as the registered CamelCase name, and
// a pipeline printed with every option resolved (mlir-opt's --dump-pass-pipeline).
#pragma once

#include <string>
#include <vector>

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::tools {

/// The registered pass that `name` spells in kebab-case or snake_case: `fold-constant` and
/// `fold_constant` give `FoldConstant` (letters and digits compared without case, `-` and `_`
/// ignored, `.` kept). "" if `name` has no `-` or `_` (a name such as `foldconstant` stays
/// unknown: pass names are case-sensitive, as in TVM), is registered as written, or matches no
/// (or more than one) registered name.
std::string CamelCasePassName(const std::string& name, const transform::PassRegistry& registry);

struct PassNameFix {
  std::string written;
  std::string registered;
};

/// `text` (a pipeline: `NAME(option=value, ...), ...`) with every pass name that
/// CamelCasePassName recognises replaced by the registered name; the replacements are appended
/// to `fixes`. Option lists (and strings in them) are left as written. Names with a '-' that
/// match no registered pass are appended to `unknown` when it is given (the pipeline parser
/// would stop at the '-' and name only the part before it).
std::string NormalizePipelineNames(const std::string& text, const transform::PassRegistry& registry,
                                   std::vector<PassNameFix>* fixes,
                                   std::vector<std::string>* unknown = nullptr);

/// The passes of `pass` (a Sequential's members, at any depth, one per line at `indent` per
/// level) as they will run: `FuseOps(fuse_opt_level=2)`, each registered option shown with the
/// value given or its default. A pass the registry did not create is shown by name. With `ctx`,
/// a Sequential member that ctx's gating skips is marked `  // skipped: opt_level 3 > 2` (or
/// `disabled`), and one run because it is required is marked `  // required`.
std::string ResolvedPipelineText(const transform::Pass& pass,
                                 const transform::PassRegistry& registry,
                                 const transform::PassContext* ctx = nullptr);

}  // namespace relaypass::tools
