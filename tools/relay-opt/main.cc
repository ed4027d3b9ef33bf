// relay-opt: read a Relay module (a text file, stdin, or a built-in workload), run passes on it
// under a PassContext with instruments, and write the result (Relay text, or a Graphviz
// picture), optionally running it with the evaluator. See docs/cli.md.
//
// Errors are one diagnostic on stderr, `relay-opt: error: FILE:LINE:COL: message` (with the
// source line and a caret when the input was text), exit status 1 and nothing on stdout: all
// output is produced first and written only once everything succeeded.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "input.h"
#include "listing.h"
#include "options.h"
#include "pipeline.h"
#include "relaypass/support/allocator.h"
#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"
#include "relaypass/tools/dot.h"
#include "run.h"

namespace relay_opt {

namespace {

namespace ir = relaypass::ir;

std::string GraphName(const Options& o) {
  if (o.input.empty()) return o.workload;
  return o.input == "-" ? "stdin" : o.input;
}

std::string Emit(const ir::IRModule& mod, const Options& o) {
  if (o.emit == "text") return relaypass::text::PrettyPrint(mod);
  if (o.emit == "astext") return relaypass::text::AsText(mod);
  if (o.emit == "dot") return relaypass::tools::ToDot(mod, {.graph_name = GraphName(o)});
  return "";  // none
}

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw relaypass::Error("cannot open output file '" + path + "'");
  file << content;
  if (!file.flush()) throw relaypass::Error("cannot write output file '" + path + "'");
}

int Run(const Options& o) {
  if (o.list_passes) {
    std::cout << ListPasses();
    return 0;
  }
  if (o.list_ops) {
    std::cout << ListOps();
    return 0;
  }
  CheckOptions(o);
  const PassPlan plan = MakePassPlan(o);  // bad passes and config fail before the input is read
  ir::IRModule mod = LoadModule(o);
  // Inputs come from the module as read, so --run's numbers compare across pipelines.
  std::vector<relaypass::eval::Value> inputs;
  if (o.run || !o.inputs.empty()) inputs = MakeInputs(mod, o);
  mod = RunPasses(o, plan, mod, o.inputs.empty() ? std::vector<relaypass::eval::Value>{} : inputs);

  const std::string emitted = Emit(mod, o);
  const std::string report = o.run ? RunAndReport(mod, inputs, o) : "";
  if (!o.dot_file.empty()) {
    WriteFile(o.dot_file, relaypass::tools::ToDot(mod, {.graph_name = GraphName(o)}));
  }
  const bool to_stdout = o.output_file.empty() || o.output_file == "-";
  if (!to_stdout) WriteFile(o.output_file, emitted);
  std::cout << (to_stdout ? emitted : "") << report;
  std::cout.flush();
  return 0;
}

}  // namespace

}  // namespace relay_opt

int main(int argc, char** argv) {
  // glibc hands memory back to the OS after large frees (heap trimming, munmap of blocks above
  // the mmap threshold), so a pass that drops a module and builds the next one faults every
  // page in again, at ~17us per fault on the machines we run on. This keeps freed memory in
  // the process: mallopt(M_TRIM_THRESHOLD, 1 GB), mallopt(M_MMAP_THRESHOLD, 1 GB) and
  // mallopt(M_TOP_PAD, 64 MB) (src/support/allocator.cc, shared with the tests and benchmarks).
  relaypass::support::TuneAllocatorForLargeGraphs();

  CLI::App app{"relay-opt: run relaypass passes on Relay programs"};
  relay_opt::Options options;
  relay_opt::DefineOptions(app, options);
  try {
    relay_opt::ParseCommandLine(app, options, argc, argv);
    for (int i = 0; i < argc; ++i) options.command_line += (i ? " " : "") + std::string(argv[i]);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << "relay-opt: error: " << e.what() << "\n";
    return 1;
  }
  try {
    return relay_opt::Run(options);
  } catch (const relaypass::Error& e) {
    std::cerr << "relay-opt: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "relay-opt: error: internal: " << e.what() << "\n";
    return 1;
  }
}
