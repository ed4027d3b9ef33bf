// Reading relay-opt's input: a Relay text file, stdin, or a built-in workload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "options.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/ndarray.h"

namespace relay_opt {

/// What an input may be: at most `max_bytes` long and, for text, without a NUL byte.
struct ReadLimits {
  uint64_t max_bytes = uint64_t{1} << 30;
  bool text = true;
};

/// The whole content of file descriptor `fd`, read in pieces of 1 MiB, each checked as it
/// arrives: relaypass::Error naming `what` as soon as the content is over the size limit (a
/// regular file's size is checked before reading) or when a read fails (a read error is never
/// taken for the end of the file). Reading a text stops at its first NUL byte: with
/// `nul_offset`, the text up to and including it is returned and `*nul_offset` set (for the
/// parser to name the first impossible byte); without, it is an error.
std::string ReadInput(int fd, const std::string& what, const ReadLimits& limits,
                      size_t* nul_offset = nullptr);

/// The whole content of `path`, or of stdin for "-", as ReadInput reads it; relaypass::Error if
/// it cannot be opened or is a directory.
std::string ReadText(const std::string& path, const ReadLimits& limits = {},
                     size_t* nul_offset = nullptr);

/// Relay text parsed and type-checked; errors carry `source_name:LINE:COL`.
relaypass::ir::IRModule ParseModuleText(const std::string& text, const std::string& source_name);

/// What LoadModule reads: the module and the values the model itself gives main's parameters
/// that are not bound as constants (an ONNX model's initializers, a workload's parameters
/// without --bind-params), by parameter name.
struct LoadedModule {
  relaypass::ir::IRModule mod;
  std::map<std::string, relaypass::ir::NDArray> params;
};

/// The module named by the options: INPUT parsed (and type-checked) as Relay text ("-" is
/// stdin); without INPUT, stdin when it is not a terminal and neither --workload nor
/// --bind-params was given (an empty stdin, such as /dev/null, falls back to the default
/// workload); otherwise --workload (with --layout and --batch-size, its parameters bound as
/// constants with --bind-params). Errors are relaypass::Error with the source location.
LoadedModule LoadModule(const Options& options);

}  // namespace relay_opt
