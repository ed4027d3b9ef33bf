// The Relay text printer: exactly TVM v0.13's output (relay_semantics.md 1.1-1.8).
#pragma once

#include <string>

#include "relaypass/ir/module.h"

namespace relaypass::text {

/// `print(mod)` form: no header; a trailing newline after each function.
std::string PrettyPrint(const ir::IRModule& mod);
/// `print(expr)` form for a standalone expression or function.
std::string PrettyPrint(const ir::Expr& expr);

/// `mod.astext(show_meta_data)`: the `#[version = "0.0.5"]` header, and the `#[metadata]` section
/// (or the "omitted" comment when show_meta_data is false and there are constants to show).
std::string AsText(const ir::IRModule& mod, bool show_meta_data = true);

}  // namespace relaypass::text
