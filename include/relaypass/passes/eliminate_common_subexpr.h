// EliminateCommonSubexpr: replaces an operator call or tuple get-item by an equivalent one
// computed earlier (TVM v0.13 semantics, relay_semantics.md 3.3).
#pragma once

#include <functional>

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Returns true for an expression (a rewritten call or get-item) that must be left alone.
using CsePredicate = std::function<bool(const ir::Expr&)>;

/// Function pass "EliminateCommonSubexpr", opt_level 3, requires InferType. `fskip` (optional)
/// exempts calls and get-items from elimination. Linear in the size of the function.
transform::Pass EliminateCommonSubexpr(CsePredicate fskip = nullptr);
/// The registry entry has no options: a skip predicate can only be given from C++.
void RegisterEliminateCommonSubexpr(transform::PassRegistry& registry);

}  // namespace relaypass::passes
