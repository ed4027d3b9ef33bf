// Backward folding: a `multiply` by a per-channel constant applied to the result of a conv2d or
// dense (through relu, add/subtract and bias_add) is pushed down into that producer's weight.
// Three steps: preparation (post-order) finds which singly-used calls could absorb a scale;
// planning (reverse post-order) decides, from each multiply that can fire, where its scale goes;
// a post-order rewrite then carries the plan out. TVM does the last two in one recursive descent
// from each multiply; splitting them keeps every step iterative on deep graphs.
#pragma once

#include <vector>

#include "message.h"
#include "node_table.h"

namespace relaypass::passes::fold_scale_axis {

// The calls whose result may absorb a scale, with the axes it may run along
// (backward_prep.cc).
NodeTable<Message> PrepareBackward(const NodeIndex& index);

// What the rewrite does at one call.
struct BackwardStep {
  // A multiply that fires: it is replaced by this argument, which absorbs its scale.
  int replace_by_arg = -1;
  // The scale a consumer pushed into this call, and the message it was pushed with (one of the
  // preparation's messages); scale is null when the call is rebuilt as usual.
  ir::Expr scale;
  const Message* message = nullptr;
  // A pushed-into call is rebuilt with argument `factor_arg` (if >= 0) multiplied by `factor`.
  int factor_arg = -1;
  ir::Expr factor;
};

// The plan for every call that changes (backward_plan.cc).
NodeTable<BackwardStep> PlanBackward(const NodeIndex& index, const NodeTable<Message>& messages,
                                     bool* any_fired);

// The whole backward folding of `root` (backward_rewrite.cc).
ir::Expr BackwardFold(const ir::Expr& root);

}  // namespace relaypass::passes::fold_scale_axis
