// FoldConstant (TVM v0.13): evaluates operator calls whose arguments are all constants with the
// evaluator's kernels, substitutes let-bound constants, picks the branch of a constant `if`, and
// takes fields of literal tuples. Nothing inside `Primitive` functions is folded.
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

// Function pass "FoldConstant", opt_level 2, no required passes. `fold_qnn` is accepted for
// TVM compatibility; there are no QNN ops here, so it changes nothing.
transform::Pass FoldConstant(bool fold_qnn = false);
// The folding of one expression (no type inference afterwards).
ir::Expr FoldConstantExpr(const ir::Expr& expr);
void RegisterFoldConstant(transform::PassRegistry& registry);

}  // namespace relaypass::passes
