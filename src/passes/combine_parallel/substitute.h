// TVM's ExprSubst (src/relay/transforms/expr_subst.cc): replaces nodes by expressions, and
// substitutes again inside each replacement (a replacement may use nodes that are themselves
// replaced). Iterative: an explicit stack, each node once.
#pragma once

#include <unordered_map>

#include "relaypass/ir/expr.h"

namespace relaypass::passes::combine_parallel {

using SubstMap = std::unordered_map<const ir::ExprNode*, ir::Expr>;

ir::Expr Substitute(const ir::Expr& root, const SubstMap& subst);

}  // namespace relaypass::passes::combine_parallel
