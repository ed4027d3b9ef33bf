// The type variables an expression or a type uses (TVM's relay.analysis free_type_vars,
// bound_type_vars and all_type_vars, after TVM's TypeVarEVisitor / TypeVarTVisitor): those of
// every type the expression carries (variable annotations, function return types and type
// parameters) in the order the nodes are visited (post_order_visit; within a type, pre-order: a
// function type's parameters, then its argument types, then its result). The type parameters of
// a function or a function type are bound. Each list holds a variable once, where it first
// appears. Iterative: no recursion on the depth of the expression or of a type.
#pragma once

#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::ir {

/// Type variables used but not bound anywhere in `expr` (TVM rejects a module function that has
/// any: IRModule::Add's "contains free type variables").
std::vector<Type> FreeTypeVars(const Expr& expr);
std::vector<Type> FreeTypeVars(const Type& type);
/// Type variables bound as type parameters in `expr`.
std::vector<Type> BoundTypeVars(const Expr& expr);
std::vector<Type> BoundTypeVars(const Type& type);
/// Every type variable: the bound ones first, then the others, in order of appearance.
std::vector<Type> AllTypeVars(const Expr& expr);
std::vector<Type> AllTypeVars(const Type& type);

}  // namespace relaypass::ir
