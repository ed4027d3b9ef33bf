// ToANormalForm: binds every non-atomic expression to a variable in the innermost scope that
// holds all its uses (TVM v0.13 semantics, relay_semantics.md 3.9).
#pragma once

#include <cstdint>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Module pass "ToANormalForm", opt_level 1: converts every function without a `Compiler`
/// attribute. No InferType follows, so new nodes carry no checked types.
transform::Pass ToANormalForm();
void RegisterToANormalForm(transform::PassRegistry& registry);

/// The conversion of one expression (a function, or any closed expression). Iterative: any depth.
ir::Expr ToANormalForm(const ir::Expr& expr);

/// The basic-block conversion of one expression (TVM's ToBasicBlockNormalFormAux): only the
/// expressions used from more than one scope in a way that lifts them (TVM's CalcScope) are bound
/// to variables, in the scope that holds all their uses; let values stay bound to their
/// variables. A graph without ifs, functions or lets comes back structurally equal.
ir::Expr ToBasicBlockNormalForm(const ir::Expr& expr);

/// The expressions that keep `expr` from being in basic block normal form: those
/// ToBasicBlockNormalForm would lift (TVM's CalcScope second result, which
/// relay.analysis.check_basic_block_normal_form reports), in post-order. Empty when `expr` is in
/// basic block normal form. Iterative: any depth.
std::vector<ir::Expr> BasicBlockNormalFormViolations(const ir::Expr& expr);

/// A fresh variable `x_N` (TVM's Var::GenSym): N comes from a process-global counter that is never
/// reset, so names depend on earlier conversions in the same process.
ir::Var GenSym(ir::Type annotation = nullptr);
/// The N the next GenSym will use.
uint64_t NextGenSymId();

}  // namespace relaypass::passes
