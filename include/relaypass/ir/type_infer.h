// Type inference (TVM's InferType as a plain function; the pass wrapper lives in transform/).
#pragma once

#include "relaypass/ir/module.h"

namespace relaypass::ir {

/// Returns a module in which every expression has its checked type, missing parameter annotations
/// and function return types are filled, and untyped inputs got the types their uses imply (as for
/// conv2d weights). Nodes whose types were already right are reused. Throws TypeError naming the
/// op, the argument and the shapes, with the source location when the IR came from text. The
/// input module is never changed.
IRModule InferTypes(const IRModule& mod);

/// Infers the type of a standalone expression (free vars must be annotated).
Expr InferExprTypes(const Expr& expr, const IRModule& mod = IRModule());

}  // namespace relaypass::ir
