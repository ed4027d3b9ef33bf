// Primitive functions (FuseOps' groups) that are one float32 nn.dense of a parameter by a weight
// matrix: every dense layer of an imported transformer (the reshapes around it and the bias add
// after it land in other groups). Where the weight is a constant (in the function, or the
// argument at a call site), the interpreter prepacks it once for the evaluator's own GEMM
// (relaypass/op/dense_prepacked.h) and runs every later call on it.
#pragma once

#include <memory>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/expr.h"
#include "relaypass/op/dense_prepacked.h"

namespace relaypass::eval {

struct FusedDense {
  const ir::CallNode* dense = nullptr;
  int data_param = -1;
  int weight_param = -1;  // -1: the weight is `weight_constant`, in the function
  ir::NDArray weight_constant;
  std::shared_ptr<const op::PrepackedDenseWeight> prepacked;  // of weight_constant, if any
};

// The fused form of `fn` if it is a typed primitive function `fn (data, weight) { nn.dense(data,
// weight) }` (either order, or the weight a constant) with float32 data and a static float32
// [units, k] weight, else null.
std::unique_ptr<FusedDense> MatchFusedDense(const ir::FunctionNode* fn);

// The dense applied to the function's arguments with the weight `prepacked` (not null). Errors
// name the dense's place.
Value RunFusedDense(const FusedDense& fused, const std::vector<Value>& args,
                    const op::PrepackedDenseWeight& prepacked);

}  // namespace relaypass::eval
