// Legalize: replaces calls through per-operator legalize hooks (TVM v0.13,
// src/relay/transforms/legalize.cc, op attribute FTVMLegalize).
//
// The hooks are the counterpart of TVM's
//   @relay.op.register_legalize("nn.conv2d", level=10)
//   def legalize_conv2d(attrs, inputs, types): ...
// in C++:
//   auto hook = passes::RegisterLegalize("nn.conv2d", legalize_conv2d);
// With no hook for an op the pass leaves its calls as they are. TVM's built-in TOPI legalizations
// (which pad or convert int8/float16 convolutions for particular targets) are not provided.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/passes/op_hooks.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// A hook: given a call's attrs, its arguments (as the pass has rewritten them so far) and the
/// types of its original arguments followed by its result type (TVM's `types`), returns the call
/// to use instead, or null to keep the call. It may read passes::Target::Current().
using LegalizeFunc =
    std::function<ir::Expr(const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs,
                           const std::vector<ir::Type>& types)>;

/// Owns one hook registration (passes/op_hooks.h).
using LegalizeHook = OpHook;

/// Registers `hook` for operator `op_name` at priority `level` (TVM's plevel, default 10): the
/// hook with the highest level is used. InternalError for an unknown operator, an empty hook, or
/// a level an active hook of this op already has.
[[nodiscard]] LegalizeHook RegisterLegalize(const std::string& op_name, LegalizeFunc hook,
                                            int level = 10);

/// The active hook of `op_name`, or an empty function.
LegalizeFunc GetLegalize(const std::string& op_name);

/// Function pass "Legalize", opt_level 1, requires InferType. A hook that returns something
/// other than a call is a PassError (TVM: "Can only replace the original operator with another
/// call node").
transform::Pass Legalize();
void RegisterLegalize(transform::PassRegistry& registry);

}  // namespace relaypass::passes
