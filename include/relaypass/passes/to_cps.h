// ToCPS and UnCPS (TVM v0.13's src/relay/transforms/to_cps.cc, relay.transform.to_cps and
// un_cps): continuation-passing style. ToCPS turns every function `fn (a) -> b` into
// `fn [answer](a', %k: fn (b') -> answer) -> answer` whose result is handed to the continuation
// %k instead of returned (a' and b' are the types with every function type converted the same
// way); every call of a non-operator becomes a tail call with the rest of the computation reified
// as `fn (%arg) { ... }`, an if or a match binds its join point to a let-bound continuation. Global
// functions the function reaches are converted too and added to `mod` as `<name>_cps`. UnCPS
// wraps a CPS function back into one without the continuation parameter (it passes the
// identity). Both read checked types: run them on a type-checked function. A function whose nodes
// are shared (TVM's fGraph feature) is refused with an InternalError, as TVM's CheckFeature does.
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"

namespace relaypass::passes {

/// TVM's relay.transform.to_cps(func, mod): `func` in CPS; global functions it reaches are added
/// to `mod` converted, as `<name>_cps`.
ir::Function ToCPS(const ir::Function& func, ir::IRModule& mod);

/// TVM's relay.transform.un_cps(func): a function of `func`'s parameters but the last (the
/// continuation) that calls `func` with the identity continuation.
ir::Function UnCPS(const ir::Function& func);

}  // namespace relaypass::passes
