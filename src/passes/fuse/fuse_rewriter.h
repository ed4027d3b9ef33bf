// FuseOps on one expression: partition its dataflow graph (GraphPartitioner) and rewrite each
// group into a call of a `Primitive=1` function (TVM's FuseMutator).
#pragma once

#include <cstdint>

#include "relaypass/ir/expr.h"

namespace relaypass::passes::fuse {

struct FuseOptions {
  int opt_level = 2;              // 0: every op call becomes its own function
  uint32_t max_fuse_depth = 256;  // the most nodes one group may hold
  bool link_params = false;       // embed constant arguments instead of making them parameters
};

// Returns `expr` (usually a function) with its operator calls grouped into primitive functions.
// `expr` must be type-checked. Iterative: any depth.
ir::Expr FuseExpr(const ir::Expr& expr, const FuseOptions& options);

}  // namespace relaypass::passes::fuse
