// Substituting values for variables (TVM's relay.bind and bind_params_by_name).
#pragma once

#include <map>
#include <string>
#include <unordered_map>

#include "relaypass/ir/expr.h"

namespace relaypass::ir {

/// Replaces every use of each var in `bindings` by its expression.
Expr Bind(const Expr& expr, const std::unordered_map<const VarNode*, Expr>& bindings);

/// TVM's relay.bind: a Function keeps its attributes and return type, its bound parameters leave
/// its parameter list and free variables the bindings bring in become parameters after the
/// remaining ones; it is returned unchanged when nothing changes. Any other expression: Bind.
Expr BindAsRelay(const Expr& expr, const std::unordered_map<const VarNode*, Expr>& bindings);

/// TVM's bind_params_by_name: parameters of `func` named in `params` become constants and are
/// removed from the parameter list. A name shared by several parameters is an error; names that
/// match no parameter are ignored.
Function BindParamsByName(const Function& func, const std::map<std::string, NDArray>& params);

}  // namespace relaypass::ir
