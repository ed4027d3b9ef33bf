// Structural equality and hashing of expressions and modules: alpha-equivalence for bound
// variables, free variables by identity, constants by value, attrs by value. Checked types and
// spans are ignored (as in TVM). Both are iterative and aware of node sharing: a graph where a
// node is shared is not equal to one where the same subexpression is duplicated.
#pragma once

#include <cstddef>

#include "relaypass/ir/module.h"

namespace relaypass::ir {

bool StructuralEqual(const Expr& a, const Expr& b);
bool StructuralEqual(const IRModule& a, const IRModule& b);
size_t StructuralHash(const Expr& e);
size_t StructuralHash(const IRModule& m);

}  // namespace relaypass::ir
