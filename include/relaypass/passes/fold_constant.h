// FoldConstant (TVM v0.13): evaluates operator calls whose arguments are all constants with the
// evaluator's kernels, substitutes let-bound constants, picks the branch of a constant `if`, and
// takes fields of literal tuples. Nothing inside `Primitive` functions is folded.
//
// A call is left unfolded when its result would be over kMaxFoldBytes (TVM too folds only what
// it can afford: a folded constant is stored in the module), and when the evaluation fails (an
// integer division by zero, a cast without a kernel, a tensor over the memory budget): the
// program then fails, if ever, where it runs. The PassContext config "relay.memory_budget"
// (bytes; 0, the default, means the process's budget) lowers the budget while the pass runs.
#pragma once

#include <cstdint>

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// The largest result FoldConstant computes: 1 GiB, a little over the largest weight of the
/// classic models (VGG-16's first dense layer, 392 MiB) transformed in one piece.
inline constexpr int64_t kMaxFoldBytes = int64_t{1} << 30;

/// Function pass "FoldConstant", opt_level 2, no required passes. As TVM's, it leaves qnn.* calls
/// alone unless `fold_qnn` is set.
transform::Pass FoldConstant(bool fold_qnn = false);
/// The folding of one expression (no type inference afterwards; qnn.* calls left alone).
ir::Expr FoldConstantExpr(const ir::Expr& expr);
void RegisterFoldConstant(transform::PassRegistry& registry);

}  // namespace relaypass::passes
