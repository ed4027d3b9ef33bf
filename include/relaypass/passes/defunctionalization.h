// Defunctionalization (TVM v0.13's src/relay/transforms/defunctionalization.cc,
// relay.transform.Defunctionalization): a higher-order program made first-order. Each call of a
// global function with function-typed arguments calls a clone specialized to the call's types
// (`<name><its type>`, with no type parameters); a function argument becomes a value of an ADT
// `Defunc<function type>` (one constructor per lambda, holding its free variables, or per global
// function passed), and a call of such a parameter calls `apply<function type>`, a global that
// matches the constructor and runs the function it stands for. The ADTs and globals are added to
// `mod`. TVM's assumptions hold here too: functions are neither returned nor stored in data nor
// let-bound, function arguments are variables, globals or lambdas, and `func` is monomorphic and
// first-order itself; breaking them is an InternalError, as TVM's checks are. Reads checked
// types: run it on a type-checked module.
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/ir/module.h"

namespace relaypass::passes {

/// TVM's relay.transform.Defunctionalization(func, mod): `func` with its higher-order calls
/// replaced; the specialized globals, the `apply` globals and the ADTs are added to `mod`.
ir::Function Defunctionalization(const ir::Function& func, ir::IRModule& mod);

}  // namespace relaypass::passes
