// The Relay text parser (relay_semantics.md 1.9). Errors are ParseError (or TypeError from the
// type inference that runs after parsing) with `line:col` and the source line with a caret.
#pragma once

#include <string>
#include <vector>

#include "relaypass/ir/module.h"

namespace relaypass::text {

struct ParseOptions {
  /// The name used in error locations ("FILE:LINE:COL").
  std::string source_name;
  /// Constants for `meta[relay.Constant][i]` when the text has no #[metadata] section (as TVM's
  /// init_meta_table).
  std::vector<ir::Constant> constants;
  /// The VirtualDevices `meta[VirtualDevice][i]` names (TVM's init_meta_table["VirtualDevice"]).
  std::vector<ir::VirtualDevice> virtual_devices;
  /// Require `#[version = "0.0.5"]` (TVM's ParseModule does). When false, the header is optional,
  /// which accepts the `print(mod)` form.
  bool require_version = false;
  /// Run type inference on the result (TVM does).
  bool infer_types = true;
  /// A module the text extends (TVM's init_module): its functions, ADTs and constructors can be
  /// named by the text, and the parsed module starts as a copy of it.
  ir::IRModule init_module;
};

ir::IRModule ParseModule(const std::string& text, const ParseOptions& options = {});
/// Parses one expression (e.g. `fn (%x: float32) { add(%x, %x) }`).
ir::Expr ParseExpr(const std::string& text, const ParseOptions& options = {});

}  // namespace relaypass::text
