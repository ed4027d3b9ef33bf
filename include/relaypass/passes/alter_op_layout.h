// AlterOpLayout: replaces operators by target-specific versions in other layouts (per-op hooks)
// and inserts the layout_transforms that keep the program's meaning (relay_semantics.md 3.8).
//
// The hooks are the counterpart of TVM's
//   @relay.op.register_alter_op_layout("nn.conv2d", level=101)
//   def alter_conv2d(attrs, inputs, tinfos, out_type): ...
// in C++:
//   auto hook = passes::RegisterAlterOpLayout("nn.conv2d", alter_conv2d, 101);
// With no hook for an op the pass leaves its calls as they are. (TVM's built-in TOPI hooks, such
// as x86's NCHWc conv2d, are not provided.)
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"
#include "relaypass/passes/op_hooks.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// A hook: given a call's attrs, its inputs (as the pass has rewritten them so far), the types of
/// its original inputs (TVM's tinfos) and its original result type, returns the call to use
/// instead (to the same or another operator, taking the same number of inputs), or null to keep
/// the op. It may read passes::Target::Current().
using AlterOpLayoutFunc =
    std::function<ir::Expr(const ir::Attrs& attrs, const std::vector<ir::Expr>& inputs,
                           const std::vector<ir::Type>& tinfos, const ir::Type& out_type)>;

/// Owns one hook registration (passes/op_hooks.h).
using AlterOpLayoutHook = OpHook;

/// Registers `hook` for operator `op_name` at priority `level` (TVM's plevel, default 10): the
/// registered hook with the highest level is the one used; registering below it changes nothing
/// until it is removed. InternalError for an unknown operator, an empty hook, or a level an
/// active hook of this op already has (as TVM: "already registered with same plevel").
[[nodiscard]] AlterOpLayoutHook RegisterAlterOpLayout(const std::string& op_name,
                                                      AlterOpLayoutFunc hook, int level = 10);

/// The active hook of `op_name`, or an empty function.
AlterOpLayoutFunc GetAlterOpLayout(const std::string& op_name);

/// Function pass "AlterOpLayout", opt_level 3, requires InferType.
transform::Pass AlterOpLayout();
/// Registers the pass (no options) in `registry`.
void RegisterAlterOpLayout(transform::PassRegistry& registry);

}  // namespace relaypass::passes
