// Primitive functions (FuseOps' groups) that are one nn.conv2d followed by a chain of elementwise
// ops: bias_add, add of a per-channel or same-shape tensor, clip, nn.relu. The interpreter runs
// them with op::Conv2DWithEpilogue in one kernel call instead of op by op (one output buffer,
// one pass over it); the result is bitwise the same (include/relaypass/op/conv2d_epilogue.h).
#pragma once

#include <memory>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/expr.h"
#include "relaypass/op/conv2d_epilogue.h"

namespace relaypass::eval {

struct FusedConv {
  // An operand of the kernel: a parameter of the function (its index), or a constant.
  struct Operand {
    int param = -1;
    ir::NDArray constant;
  };
  struct Step {
    op::EpilogueStep::Kind kind;
    Operand operand;  // the adds' other operand
    float lo = 0, hi = 0;
  };
  const ir::CallNode* conv = nullptr;
  Operand data, weight;
  std::vector<Step> steps;  // in evaluation order
  // A constant weight laid out for the kernel once, here (null if the kernel has no layout).
  std::shared_ptr<const op::PrepackedConvWeight> prepacked;
};

// The fused form of `fn` if it is a typed primitive function of that shape (float32, static
// shapes, NCHW / OIHW), else null.
std::unique_ptr<FusedConv> MatchFusedConv(const ir::FunctionNode* fn);

// `weight`, the value of fused.weight at a call site (a constant there), laid out for the kernel
// (op::PrepackConv2DWeight); null if the kernel has no layout for it.
std::shared_ptr<const op::PrepackedConvWeight> PrepackFusedConvWeight(const FusedConv& fused,
                                                                      const ir::NDArray& weight);

// `fused` applied to the function's arguments (tensors), with the weight prepacked if
// `prepacked` is given. Errors name the convolution's place.
Value RunFusedConv(const FusedConv& fused, const std::vector<Value>& args,
                   const op::PrepackedConvWeight* prepacked = nullptr);

}  // namespace relaypass::eval
