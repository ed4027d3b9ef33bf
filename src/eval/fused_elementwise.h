// Primitive functions (FuseOps' groups) whose body is elementwise arithmetic on the function's
// parameters and constants, optionally after one other op call (the group's anchor: a
// convolution, a dense, a pool) on parameters and constants, and optionally followed by one op on
// its result (the tail: nn.pad): a quantized graph's lowered requantize, add and quantize. The
// interpreter runs them as one op::ElementwiseProgram (one output array, each piece of it through
// every op while in cache) instead of op by op; the result is bitwise the same.
#pragma once

#include <memory>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/expr.h"
#include "relaypass/op/conv2d_epilogue.h"
#include "relaypass/op/elementwise_program.h"

namespace relaypass::eval {

struct FusedElementwise {
  // A leaf of the body: a parameter of the function (its index), a constant, or the anchor's
  // result (anchor_result). `bias_rank`: an nn.bias_add's bias, reshaped to [n, 1, ...] of this
  // many axes to broadcast along its axis (0: used as it is).
  struct Input {
    int param = -1;
    ir::NDArray constant;
    bool anchor_result = false;
    int bias_rank = 0;
  };
  const ir::CallNode* anchor = nullptr;  // null: the body is elementwise only
  std::vector<Input> anchor_args;
  std::vector<Input> inputs;  // the program's inputs, in its numbering
  // An op applied last, to the program's result and tail_args (null: none).
  const ir::CallNode* tail = nullptr;
  std::vector<Input> tail_args;
  op::ElementwiseProgram program;
  // When the anchor is an int8 convolution and the program is a chain of per-channel integer
  // steps on its result (TVM's requantize lowering), those steps as the kernel can apply them
  // before it stores its results (op::Conv2DInt8WithSteps); `operands` are program inputs.
  struct ConvStep {
    op::Int8ConvStep::Kind kind;
    std::vector<int> operands;
    double lo = 0, hi = 0;
  };
  std::vector<ConvStep> conv_steps;
  bool conv_steps_match = false;
  ir::DataType conv_steps_dtype;
  ir::Shape out_shape;
  const ir::CallNode* body = nullptr;  // the program's last op, named in errors
};

// The program form of `fn` if it is a typed primitive function of that shape (static shapes, the
// dtypes op::ElementwiseProgramSupports, at least one elementwise op), else null.
std::unique_ptr<FusedElementwise> MatchFusedElementwise(const ir::FunctionNode* fn);

// `fused` applied to the function's arguments (tensors). Errors name the op that failed.
Value RunFusedElementwise(const FusedElementwise& fused, const std::vector<Value>& args);

}  // namespace relaypass::eval
