// ToGraphNormalForm: removes let bindings, replacing each use of a let variable by the bound
// value, so the program becomes a dataflow graph again (TVM v0.13,
// src/relay/transforms/to_graph_normal_form.cc). A let whose value uses its own variable (a
// recursive binding) is kept.
#pragma once

#include "relaypass/ir/expr.h"
#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "ToGraphNormalForm", opt_level 1.
transform::Pass ToGraphNormalForm();
void RegisterToGraphNormalForm(transform::PassRegistry& registry);

/// The conversion of one expression. Iterative: any depth of let chains.
ir::Expr ToGraphNormalForm(const ir::Expr& expr);

}  // namespace relaypass::passes
