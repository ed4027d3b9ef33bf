// The reference interpreter of Relay: runs a module's functions on CPU with the ops' kernels.
//
// It evaluates Var, Constant, Call (operators through their registered kernel; closures,
// `Primitive` fused functions and globals through a new frame), Tuple, TupleGetItem, Let, If
// (only the taken branch) and the reference operations (RefCreate makes a new cell each time it
// is evaluated; RefWrite gives the empty tuple). Each node of a function body is evaluated at
// most once per call, operands left to right: a node shared by two users (a graph binding
// `%N`) is one evaluation, so a shared ref_create is one cell for both (TVM's interpreter
// evaluates such a node once per use). Nothing recurses on graph depth or call depth: frames and
// pending nodes live on explicit stacks, so a 1,000,000-node chain runs on the default stack. Each
// intermediate value is released after its last use. Types are not required: kernels derive
// shapes from their inputs (a checked type, when present, decides tuple vs tensor results and
// the dtype of half-precision results).
//
// Calls nest at most kMaxCallDepth deep, and the frames of nested calls hold at most
// kMaxFrameSlots values between them: a recursion that does not stop is a ResourceError naming
// the callee and the call's place, not a process that grows until memory runs out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "relaypass/eval/value.h"
#include "relaypass/ir/module.h"

namespace relaypass::eval {

/// The deepest call nesting the interpreter runs (a million: recursion as deep as the graphs the
/// project handles; about 0.5 GB of frames for a small recursive function).
inline constexpr size_t kMaxCallDepth = 1000000;
/// The most node slots (21 bytes each: a value and its bookkeeping) all nested frames hold
/// between them: about 350 MB (a function of 100 nodes recurses 167,000 deep).
inline constexpr uint64_t kMaxFrameSlots = uint64_t{1} << 24;

class Interpreter {
 public:
  /// `mod` provides the functions that GlobalVars name.
  explicit Interpreter(ir::IRModule mod = ir::IRModule());
  ~Interpreter();
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  /// The module's `main` applied to `args`.
  Value RunMain(const std::vector<Value>& args);
  /// `func` applied to `args` (one per parameter).
  Value Call(const ir::Function& func, const std::vector<Value>& args);
  /// A closure value applied to `args`.
  Value Call(const Value& closure, const std::vector<Value>& args);
  /// A closed expression (no free variables).
  Value Eval(const ir::Expr& expr);

  /// Counters since construction; `peak_live_values` shows that intermediate values are released
  /// after their last use (a chain holds a bounded number at any time). `fused_conv_calls` counts
  /// the calls of primitive functions run as one convolution with its elementwise epilogue (their
  /// ops are counted in op_calls as if run one by one); `prepacked_dense_calls` those of primitive
  /// functions that are one nn.dense run on a weight prepacked once (src/eval/fused_dense.h).
  struct Stats {
    uint64_t op_calls = 0;
    uint64_t function_calls = 0;
    uint64_t peak_live_values = 0;
    uint64_t fused_conv_calls = 0;
    uint64_t prepacked_dense_calls = 0;
  };
  const Stats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// The tensors of `mod`'s main applied to `inputs` (a tuple result flattened).
std::vector<ir::NDArray> RunMain(const ir::IRModule& mod, const std::vector<ir::NDArray>& inputs);

/// A closed expression evaluated against `mod`.
Value Evaluate(const ir::Expr& expr, const ir::IRModule& mod = ir::IRModule());

/// One operator call on argument values (tensors, or a tuple of tensors for an argument such as
/// concatenate's): the op's kernel with the call's attrs and checked type. No per-call setup; for
/// constant folding.
Value EvaluateOpCall(const ir::CallNode* call, const std::vector<Value>& args);

/// An operator call whose arguments are all constants (a Constant, or a Tuple of constants): what
/// FoldConstant evaluates. Throws relaypass::Error if an argument is not constant or the callee is
/// not an operator.
Value EvaluateConstantCall(const ir::CallNode* call);

}  // namespace relaypass::eval
