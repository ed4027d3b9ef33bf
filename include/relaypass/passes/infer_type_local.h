// InferTypeLocal (TVM v0.13's relay.transform.InferTypeLocal, src/relay/transforms/type_infer.cc):
// the type of one expression, inferred from the types its typed parts already carry. Unlike
// InferType it is not a pass and checks no module: every already-typed subexpression stands in
// as a variable of its type (TVM's SameTypedSubgraphExtractor), so only the untyped nodes above
// them are inferred. Global functions referenced by `expr` are typed through `mod`.
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"

namespace relaypass::passes {

/// The type of `expr`; TypeError if it does not type-check. `expr` is left unchanged.
ir::Type InferTypeLocal(const ir::Expr& expr, const ir::IRModule& mod = ir::IRModule());

}  // namespace relaypass::passes
