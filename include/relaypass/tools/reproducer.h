// Crash reproducers, as mlir-opt's --mlir-pass-pipeline-crash-reproducer: one file holding the
// module a pipeline started from and everything needed to run that pipeline again (the passes
// with their options and the PassContext: opt level, required and disabled passes, config).
//
// The file is Relay text (`mod.astext()`, so it parses back to the same module) preceded by
// comment lines; the lines
//   // relay-opt-reproducer-arg: --pipeline=FoldConstant,FuseOps(fuse_opt_level=2)
//   // relay-opt-reproducer-arg: -O3
// are the tool's arguments, one per line, as written on a command line but unquoted. A tool
// replays it by reading the arguments (ReproducerArgs) and the module (the file itself, since
// the header is made of comments).
#pragma once

#include <string>
#include <vector>

#include "relaypass/ir/module.h"

namespace relaypass::tools {

inline constexpr const char* kReproducerArgPrefix = "// relay-opt-reproducer-arg: ";

/// The reproducer text: a title line, `reason` (one `// reason: ...` line per line of it; none
/// when empty), the argument lines, then text::AsText(mod).
std::string RenderReproducer(const ir::IRModule& mod, const std::vector<std::string>& args,
                             const std::string& reason);

/// The arguments recorded in a reproducer's header, in order. relaypass::Error naming
/// `source_name` if the text has no argument line and no `// relay-opt reproducer` title.
std::vector<std::string> ReproducerArgs(const std::string& text, const std::string& source_name);

/// Writes `text` to `path` when the process receives SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT,
/// preceded by `// crashed with signal SIGSEGV` (the handler only calls async-signal-safe
/// functions on data prepared here), reports `PROGRAM: crashed with signal SIGSEGV; reproducer
/// written to PATH` on stderr, then lets the signal kill the process as it would have. Replaces
/// the text of an earlier call; an empty `path` uninstalls.
void InstallCrashReproducer(const std::string& path, const std::string& text,
                            const std::string& program = "relaypass");

/// Writes `text` to `path`; relaypass::Error if it cannot.
void WriteReproducer(const std::string& path, const std::string& text);

}  // namespace relaypass::tools
