// TVM v0.13's GraphPlanMemory (src/relay/backend/graph_plan_memory.cc) for one CPU device: the
// storage id of every tensor main's graph holds, with TVM's sharing, so that the graph JSON's
// "storage_id" list is TVM's.
//
// Parameters and constants get storage of their own. Each call's result asks for a block: a free
// one (its last reader has run) of at least its size and at most 16 times it, the smallest such,
// else the largest free one down to a sixteenth of its size (growing it), else a new one. A
// call of a fused function marked relay.reshape_only=1 shares its argument's storage. Ids are
// numbered in the order blocks are first made: parameters, then constants and calls in
// evaluation order.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::backend {

struct StoragePlan {
  // Per expression of main (parameters, constants, calls, tuples, projections, lets): one id per
  // tensor of its flattened type.
  std::unordered_map<const ir::ExprNode*, std::vector<int64_t>> storage_ids;
  // The bytes of each storage id's block (the largest tensor it holds).
  std::vector<uint64_t> block_bytes;
};

/// Plans `main` (fused and typed: every call's callee a primitive function). Throws
/// relaypass::Error for what the graph executor cannot hold: an If, a value without a static
/// tensor type, a reference to a function value.
StoragePlan PlanGraphMemory(const ir::Function& main);

/// True for a call of a fused function marked `relay.reshape_only=1` with one argument.
bool IsReshapeOnlyCall(const ir::CallNode* call);

}  // namespace relaypass::backend
