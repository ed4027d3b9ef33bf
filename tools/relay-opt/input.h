// Reading relay-opt's input: a Relay text file, stdin, or a built-in workload.
#pragma once

#include <iosfwd>
#include <string>

#include "options.h"
#include "relaypass/ir/module.h"

namespace relay_opt {

/// The whole content of `in`, read in pieces of at most 1 MiB; relaypass::Error naming `what`
/// if reading fails.
std::string ReadStream(std::istream& in, const std::string& what);

/// The whole content of `path`, or of stdin for "-"; relaypass::Error if it cannot be read.
std::string ReadText(const std::string& path);

/// Relay text parsed and type-checked; errors carry `source_name:LINE:COL`.
relaypass::ir::IRModule ParseModuleText(const std::string& text, const std::string& source_name);

/// The module named by the options: INPUT parsed (and type-checked) as Relay text ("-" is
/// stdin); without INPUT, stdin when it is not a terminal and neither --workload nor
/// --bind-params was given (an empty stdin, such as /dev/null, falls back to the default
/// workload); otherwise --workload (with --layout and --batch-size, its parameters bound as
/// constants with --bind-params). Errors are relaypass::Error with the source location.
relaypass::ir::IRModule LoadModule(const Options& options);

}  // namespace relay_opt
