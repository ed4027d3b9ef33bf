// The layout behaviour of an operator, as the layout passes (ConvertLayout, AlterOpLayout) use
// it: TVM's FInferCorrectLayout (which layouts an op accepts and produces, and how its attrs adapt
// to a new input layout) and FTVMConvertOpLayout (how ConvertLayout re-creates a call in the
// layouts the user asked for). Each op sets them in its one registration (src/op/*.cc); the rules
// themselves live in src/op/layout_rules/.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/expr.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/layout.h"

namespace relaypass::op {

using Layouts = std::vector<Layout>;

/// What a layout rule decided. Inference fails (the call is not converted) when any layout is
/// undefined.
struct InferLayoutOutput {
  Layouts input_layouts;   // one per input; a tuple argument contributes one per field
  Layouts output_layouts;  // one per output; a tuple result contributes one per field
  ir::Attrs new_attrs;     // the attrs adapted to the layouts (e.g. batch_norm's axis)
};

/// TVM's FInferCorrectLayout. `old_in_layouts` are the layouts the producers had before the
/// rewrite (undefined where unknown); `new_in_layouts` is null when the rule is asked about the
/// original call, else the producers' layouts after the rewrite. `old_in_types` are the types of
/// the original call's arguments (one per argument; a tuple argument has a tuple type).
using InferCorrectLayout = std::function<InferLayoutOutput(
    const ir::Attrs& attrs, const Layouts* new_in_layouts, const Layouts& old_in_layouts,
    const std::vector<ir::Type>& old_in_types)>;

/// TVM's FTVMConvertOpLayout: the call re-created with `args` in the layouts of
/// `desired_layouts` (the user's list for this op, e.g. {"NHWC", "default"}), or null to keep
/// it. `attrs` are the call's attrs, `arg_types` the types of its original arguments. Throws
/// PassError for desired layouts it cannot honour.
using ConvertOpLayout = std::function<ir::Expr(
    const ir::Attrs& attrs, const std::vector<ir::Expr>& args,
    const std::vector<ir::Type>& arg_types, const std::vector<std::string>& desired_layouts)>;

}  // namespace relaypass::op
