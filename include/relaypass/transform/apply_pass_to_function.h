// ApplyPassToFunction: run a pass on some of a module's functions (as TVM 0.16 added).
#pragma once

#include <string>

#include "relaypass/transform/pass.h"

namespace relaypass::transform {

/// A module pass named "ApplyPassTo" + func_name_regex, opt_level 0, that runs `pass` (nested,
/// instrumented) on the module with the functions whose names do not fully match
/// `func_name_regex` (ECMAScript syntax) hidden from function passes (marked
/// SkipOptimization=1). Afterwards every non-matching function is exactly the original; matching
/// functions and functions the pass added take the pass's result. PassError for a bad regex.
Pass ApplyPassToFunction(Pass pass, std::string func_name_regex);

}  // namespace relaypass::transform
