// The free variables of function literals, computed once per node and reused: a closure's set
// is built from the sets of the closures nested in it, so a chain of N closures, each calling
// the one before, costs O(N) and not O(N^2) (each closure's plan needs the free variables of
// the function nodes in its body, and each of those contains the whole rest of the chain).
#pragma once

#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/support/pointer_map.h"

namespace relaypass::eval {

class FreeVarCache {
 public:
  // The variables `fn` uses and does not bind (its parameters, its lets), in first-use order.
  // Iterative: any nesting depth. The function stays alive while the cache holds its entry.
  const std::vector<const ir::VarNode*>& Of(const ir::FunctionNode* fn);

 private:
  struct Entry {
    ir::Expr keep_alive;  // the node the entry is keyed by
    std::vector<const ir::VarNode*> vars;
  };
  // Computes the entry of `fn`, whose nested functions all have entries already.
  void Compute(const ir::FunctionNode* fn);

  support::PointerMap<Entry> entries_;
};

}  // namespace relaypass::eval
