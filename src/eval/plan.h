// The evaluation plan of one function body: its nodes (not descending into nested functions,
// which are values), each node's dependencies, and how many times each node's value is read, so
// the interpreter can free a value after its last use.
#pragma once

#include <cstdint>
#include <vector>

#include "free_vars.h"
#include "relaypass/ir/expr.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::eval {

struct Plan {
  std::vector<const ir::ExprNode*> nodes;
  support::PointerMap<int32_t> index;  // node -> position in `nodes`
  // Dependencies of node i: deps[dep_begin[i] .. dep_begin[i + 1]), in evaluation order:
  //   Call: callee (unless an operator), then args; Tuple: fields; TupleGetItem: tuple;
  //   Function: its free variables (captured); Let: value, body; If: cond, then, else;
  //   Match: data, then each clause's right-hand side. A constructor callee is no dependency
  //   (as an operator: the call builds the ADT value).
  std::vector<int32_t> dep_begin;
  std::vector<int32_t> deps;
  // Reads of each node's value: one per dependency edge (+1 for the root, read as the result).
  std::vector<int32_t> uses;
  int32_t root = -1;
  // A function literal bound by a let -> the let's variable. The closure binds that variable to
  // itself when called (TVM's recursive closures: `let %f = fn (...) { ... %f(...) ... }`), so
  // it is not one of the function's captured free variables.
  support::PointerMap<const ir::VarNode*> self;

  int32_t IndexOf(const ir::ExprNode* node) const {
    const int32_t* i = index.find(node);
    return i ? *i : -1;
  }
  const int32_t* DepsBegin(int32_t i) const { return deps.data() + dep_begin[i]; }
  int32_t NumDeps(int32_t i) const { return dep_begin[i + 1] - dep_begin[i]; }
};

// The plan of `func`'s body. Iterative: any graph depth. The free variables of the function
// literals in it come from (and go to) `free_vars`, shared by the plans of one interpreter.
Plan BuildPlan(const ir::FunctionNode* func, FreeVarCache& free_vars);

}  // namespace relaypass::eval
