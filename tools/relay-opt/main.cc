// relay-opt: read a Relay module (a text file, stdin, or a built-in workload), run passes on it
// under a PassContext with instruments, and write the result (Relay text, or a Graphviz
// picture), optionally running it with the evaluator. See docs/cli.md.
//
// Errors are one diagnostic on stderr, `relay-opt: error: FILE:LINE:COL: message` (with the
// source line and a caret when the input was text), exit status 1 and nothing on stdout: all
// output is produced first and written only once everything succeeded.
#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>
#include <optional>
#include <utility>

#include "debug.h"
#include "input.h"
#include "listing.h"
#include "options.h"
#include "pipeline.h"
#include "relaypass/backend/build.h"
#include "relaypass/runtime/module_file.h"
#include "relaypass/support/allocator.h"
#include "relaypass/support/error.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/resource_error.h"
#include "relaypass/text/printer.h"
#include "relaypass/tools/dot.h"
#include "relaypass/tools/plugin.h"
#include "relaypass/tools/reproducer.h"
#include "relaypass/tools/split_input.h"
#include "run.h"

namespace relay_opt {

namespace {

namespace ir = relaypass::ir;
namespace transform = relaypass::transform;

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

transform::PassInstruments LoadPlugins(const Options& o) {
  transform::PassInstruments instruments;
  for (const std::string& path : o.plugins) {
    relaypass::tools::LoadedPlugin plugin;
    try {
      plugin = relaypass::tools::LoadPassPlugin(path);
    } catch (const relaypass::Error& e) {
      throw relaypass::Error("--load-pass-plugin: " + e.message());
    }
    instruments.insert(instruments.end(), plugin.instruments.begin(), plugin.instruments.end());
  }
  return instruments;
}

// `text` to stdout, all of it: a failed write is an error naming why (a full disk, say).
void WriteStdout(const std::string& text) {
  std::cout.flush();
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    const int error = errno;
    throw relaypass::Error("cannot write to stdout" +
                           (error ? std::string(": ") + std::strerror(error) : std::string()));
  }
}

// What one module gives: the emitted form and the --run report.
struct Output {
  std::string emitted;
  std::string report;
  ir::IRModule mod;
};

// The passes on `mod`, then the emitted form and the --run report. With --reproducer, a crash
// or a failing pass writes the reproducer file.
Output Process(const Options& o, const PassPlan& plan, LoadedModule loaded) {
  ir::IRModule mod = std::move(loaded.mod);
  // Inputs come from the module as read, so --run's numbers compare across pipelines; the
  // model's own weights are main's arguments wherever --input gives none.
  std::vector<relaypass::eval::Value> inputs;
  std::string random_note;  // printed once the run succeeded (errors come first on stderr)
  const bool has_values = !o.inputs.empty() || !loaded.params.empty();
  if (o.run) {
    inputs = MakeInputs(mod, loaded.params, o, InputsFor::kRun, &random_note);
  } else if (o.verify_each && has_values) {
    inputs = MakeInputs(mod, loaded.params, o, InputsFor::kVerify);
  }
  const std::vector<relaypass::eval::Value> verify_inputs =
      has_values || o.random_inputs ? inputs : std::vector<relaypass::eval::Value>{};
  if (o.reproducer.empty()) {
    mod = RunPasses(o, plan, mod, verify_inputs);
  } else {
    const std::vector<std::string> args = ReplayArguments(o, plan);
    // Rendered before any pass runs: a crash handler can only write what is ready.
    relaypass::tools::InstallCrashReproducer(
        o.reproducer, relaypass::tools::RenderReproducer(mod, args, ""), "relay-opt");
    try {
      mod = RunPasses(o, plan, mod, verify_inputs);
    } catch (const std::exception& e) {
      relaypass::tools::InstallCrashReproducer("", "");
      relaypass::tools::WriteReproducer(o.reproducer,
                                        relaypass::tools::RenderReproducer(mod, args, e.what()));
      std::cerr << "relay-opt: note: reproducer written to " << o.reproducer
                << " (relay-opt --run-reproducer " << o.reproducer << ")\n";
      throw;
    }
    relaypass::tools::InstallCrashReproducer("", "");
  }
  if (!o.export_library.empty()) {
    // relay.build on the result: the pipeline of relay.optimize at -O, the weights bound.
    transform::PassContextScope scope(MakeContext(o, plan, {}));
    relaypass::runtime::ExportBuiltModule(relaypass::backend::Build(mod, loaded.params),
                                          o.export_library);
  }
  Output out;
  out.emitted = Emit(mod, o);
  out.report = o.run ? RunAndReport(mod, inputs, o) : "";
  std::cerr << random_note;
  out.mod = mod;
  return out;
}

// --split-input-file: each chunk on its own; one diagnostic per failing chunk.
int RunSplit(const Options& o, const PassPlan& plan) {
  const std::string name = o.input == "-" ? "<stdin>" : o.input;
  const std::vector<relaypass::tools::InputChunk> chunks =
      relaypass::tools::SplitInputFile(ReadText(o.input, {.max_bytes = o.max_input_size}));
  std::string joined;
  bool failed = false;
  for (size_t i = 0; i < chunks.size(); ++i) {
    try {
      const Output out = Process(o, plan, {ParseModuleText(chunks[i].text, name), {}});
      if (i) joined += std::string(relaypass::tools::kSplitMarker) + "\n";
      joined += out.emitted + out.report;
    } catch (const relaypass::Error& e) {
      std::cerr << "relay-opt: error: " << e.what() << "\n";
      failed = true;
    }
  }
  if (failed) return 1;
  const bool to_stdout = o.output_file.empty() || o.output_file == "-";
  if (!to_stdout) WriteFile(o.output_file, joined);
  WriteStdout(to_stdout ? joined : "");
  return 0;
}

int Run(const Options& o) {
  const transform::PassInstruments plugin_instruments = LoadPlugins(o);
  if (o.list_passes) {
    WriteStdout(ListPasses());
    return 0;
  }
  if (o.list_ops) {
    WriteStdout(ListOps());
    return 0;
  }
  CheckOptions(o);
  PassPlan plan = MakePassPlan(o);  // bad passes and config fail before the input is read
  plan.plugin_instruments = plugin_instruments;
  ApplyMemoryBudget(o, plan);
  if (o.dump_pass_pipeline) std::cerr << DumpPassPipeline(o, plan);
  if (o.split_input_file) return RunSplit(o, plan);
  LoadedModule loaded = LoadModule(o);

  Output out;
  if (o.reduce) {
    out.mod = Reduce(o, plan, loaded.mod);
    out.emitted = relaypass::text::AsText(out.mod);  // what reads back, constants included
  } else if (o.bisect_verify) {
    const bool has_values = !o.inputs.empty() || !loaded.params.empty();
    BisectVerify(o, plan, loaded.mod,
                 has_values ? MakeInputs(loaded.mod, loaded.params, o, InputsFor::kVerify)
                            : std::vector<relaypass::eval::Value>{});
    return 0;
  } else {
    out = Process(o, plan, std::move(loaded));
  }
  if (!o.dot_file.empty()) {
    WriteFile(o.dot_file, relaypass::tools::ToDot(out.mod, {.graph_name = GraphName(o)}));
  }
  const bool to_stdout = o.output_file.empty() || o.output_file == "-";
  if (!to_stdout) WriteFile(o.output_file, out.emitted);
  WriteStdout((to_stdout ? out.emitted : "") + out.report);
  return 0;
}

// `relay-opt --run-reproducer FILE [more options]`: the command line the reproducer recorded,
// with FILE as the input and the other options given after it.
std::vector<std::string> ReplayCommandLine(const std::string& file,
                                           const std::vector<std::string>& given) {
  const std::vector<std::string> recorded = relaypass::tools::ReproducerArgs(ReadText(file), file);
  std::vector<std::string> args = {"relay-opt", file};
  args.insert(args.end(), recorded.begin(), recorded.end());
  for (size_t i = 0; i < given.size(); ++i) {
    if (given[i] == "--run-reproducer") {
      ++i;  // and its value
      continue;
    }
    if (given[i].rfind("--run-reproducer=", 0) == 0) continue;
    args.push_back(given[i]);
  }
  return args;
}

}  // namespace

}  // namespace relay_opt

namespace {

// Parses `args` into `options`; prints CLI11's message (with a suggestion for a mistyped
// option) and returns the exit code when parsing ends the run (--help, --version, errors).
std::optional<int> Parse(CLI::App& app, relay_opt::Options& options,
                         const std::vector<std::string>& args) {
  relay_opt::DefineOptions(app, options);
  std::vector<const char*> argv;
  for (const std::string& arg : args) argv.push_back(arg.c_str());
  try {
    relay_opt::ParseCommandLine(app, options, static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const std::string unknown = relay_opt::UnknownOptionMessage(app);
    std::cerr << "relay-opt: error: " << (unknown.empty() ? e.what() : unknown) << "\n";
    return 1;
  }
  return std::nullopt;
}

// Everything written to stdout reached it: a failed write (a full disk, a closed pipe) is an
// error, exit status 1, not a run that lost its output.
int CheckStdout(int code) {
  // What WriteStdout did not write: --help, --version and the reports of the debug drivers.
  errno = 0;
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed) return code;
  const int error = errno;
  if (code != 0) return code;  // already reported
  std::cerr << "relay-opt: error: cannot write to stdout"
            << (error ? std::string(": ") + std::strerror(error) : std::string()) << "\n";
  return 1;
}

int Main(int argc, char** argv);

}  // namespace

int main(int argc, char** argv) {
  return CheckStdout(Main(argc, argv));
}

namespace {

int Main(int argc, char** argv) {
  // glibc hands memory back to the OS after large frees (heap trimming, munmap of blocks above
  // the mmap threshold), so a pass that drops a module and builds the next one faults every
  // page in again, at ~17us per fault on the machines we run on. This keeps freed memory in
  // the process: mallopt(M_TRIM_THRESHOLD, 1 GB), mallopt(M_MMAP_THRESHOLD, 1 GB) and
  // mallopt(M_TOP_PAD, 64 MB) (src/support/allocator.cc, shared with the tests and benchmarks).
  relaypass::support::TuneAllocatorForLargeGraphs();

  const std::vector<std::string> args(argv, argv + argc);
  CLI::App app{"relay-opt: run relaypass passes on Relay programs"};
  relay_opt::Options options;
  if (const std::optional<int> code = Parse(app, options, args)) return *code;
  for (size_t i = 0; i < args.size(); ++i) options.command_line += (i ? " " : "") + args[i];
  try {
    if (!options.run_reproducer.empty()) {
      // Parse again: the reproducer's arguments, then the ones given here.
      const std::vector<std::string> replay = relay_opt::ReplayCommandLine(
          options.run_reproducer, std::vector<std::string>(args.begin() + 1, args.end()));
      CLI::App replay_app{"relay-opt: run relaypass passes on Relay programs"};
      relay_opt::Options replay_options;
      if (const std::optional<int> code = Parse(replay_app, replay_options, replay)) return *code;
      std::cerr << "relay-opt: note: replaying " << options.run_reproducer << ":";
      for (size_t i = 2; i < replay.size(); ++i) std::cerr << " " << replay[i];
      std::cerr << "\n";
      return relay_opt::Run(replay_options);
    }
    return relay_opt::Run(options);
  } catch (const relaypass::Error& e) {
    std::cerr << "relay-opt: error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    // An allocation outside the tensors the memory budget checks (a graph too big to build).
    std::cerr << "relay-opt: error: out of memory (the tensor memory budget is "
              << relaypass::support::BytesText(relaypass::support::MemoryBudget()) << ")\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "relay-opt: error: internal: " << relaypass::support::OneLine(e.what()) << "\n";
    return 1;
  }
}

}  // namespace
