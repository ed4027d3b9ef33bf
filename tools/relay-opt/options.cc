#include "options.h"

#include <CLI/CLI.hpp>

#include "arguments.h"
#include "pipeline.h"
#include "relaypass/support/closest_name.h"
#include "relaypass/support/error.h"
#include "relaypass/tools/plugin.h"
#include "torch_input.h"

namespace relay_opt {

namespace {

// One value per occurrence (`--config a=1 --config b=2`), never swallowing the positional input.
CLI::Option* Repeatable(CLI::Option* option) {
  return option->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

// A repeatable comma-separated list; `--NAME=` is the empty list.
CLI::Option* List(CLI::Option* option) {
  return EmptyMeansEmptyList(Repeatable(option)->delimiter(','));
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ",") + name;
  return out;
}

}  // namespace

void DefineOptions(CLI::App& app, Options& o) {
  // Input.
  auto* input = app.add_option("input", o.input,
                               "Relay text file or ONNX model (.onnx) to read ('-' for stdin); "
                               "default: --workload")
                    ->type_name("FILE");
  auto* workload =
      app.add_option("--workload", o.workload,
                     "built-in workload: example, chain-N, resnet-18|34|50|101|152, mobilenet")
          ->type_name("NAME")
          ->capture_default_str();
  input->excludes(workload);
  app.add_option("--layout", o.layout, "data layout of resnet and mobilenet")
      ->check(CLI::IsMember({"NCHW", "NHWC"}))
      ->capture_default_str();
  app.add_option("--batch-size", o.batch_size, "batch size of resnet and mobilenet")
      ->check(ExactInteger<int>(1))
      ->type_name("N")
      ->capture_default_str();
  app.add_flag("--bind-params", o.bind_params,
               "bind the workload's (or the ONNX model's initializers) into main as constants");
  app.add_option("--max-input-size", o.max_input_size,
                 "the largest INPUT read, in bytes (at most 2147483647); a longer one is an "
                 "error, found while reading")
      ->check(ExactInteger<uint64_t>())
      ->type_name("BYTES")
      ->capture_default_str();
  app.add_option("--input-format", o.input_format,
                 "format of INPUT: relay text, onnx, torch (TorchScript), or auto (onnx for a "
                 ".onnx file, torch for .pt and .pth)")
      ->check(CLI::IsMember({"auto", "relay", "onnx", "torch"}))
      ->type_name("FORMAT")
      ->capture_default_str();
  Repeatable(app.add_option("--input-shape", o.input_shapes,
                            "shape of an ONNX graph input (repeatable; fixes dynamic dims), or "
                            "of a TorchScript model's inputs (one each, in order)"))
      ->type_name("NAME=D1,D2,...");

  // Passes and their context.
  auto* passes =
      EmptyMeansEmptyList(
          app.add_option("--passes", o.passes,
                         "passes to call one by one, as pass(mod): no opt_level gating, "
                         "no required passes (e.g. FoldConstant,FuseOps(fuse_opt_level=0))"))
          ->type_name("LIST");
  EmptyMeansEmptyList(
      app.add_option("--pipeline", o.pipeline,
                     "passes run as one Sequential under the context (opt_level gating, "
                     "required and disabled passes apply), or 'default' (see below)"))
      ->type_name("LIST")
      ->excludes(passes);
  app.add_option("-O,--opt-level", o.opt_level, "the PassContext opt_level (-O0 .. -O4)")
      ->check(ExactInteger<int>())
      ->check(CLI::Range(0, 4))
      ->type_name("N")
      ->capture_default_str();
  List(app.add_option("--disabled-pass", o.disabled_pass, "passes a Sequential skips"))
      ->type_name("A,B");
  List(app.add_option("--required-pass", o.required_pass,
                      "passes a Sequential runs whatever their opt_level"))
      ->type_name("A,B");
  Repeatable(app.add_option("--config", o.config,
                            "a PassContext config option with a Python literal value "
                            "(repeatable; --list-passes lists them)"))
      ->type_name("KEY=VALUE");

  // Looking at what the passes do.
  List(app.add_option("--print-ir-before", o.print_ir_before,
                      "print the module to stderr before these passes"))
      ->type_name("A,B|all");
  List(app.add_option("--print-ir-after", o.print_ir_after,
                      "print the module to stderr after these passes"))
      ->type_name("A,B|all");
  app.add_flag("--print-changed{changed}", o.print_changed,
               "print after a pass only if it changed the module (after every pass unless "
               "--print-ir-after names some); =diff prints a unified diff instead")
      ->type_name("[=diff]");
  app.add_flag("--print-ir-after-failure", o.print_ir_after_failure,
               "print the module a failing pass started from");
  List(app.add_option("--filter-print-funcs", o.filter_print_funcs,
                      "only these functions in every IR dump (print-ir-*, print-changed)"))
      ->type_name("NAME,...");
  app.add_flag("--time-passes", o.time_passes, "print the pass timing tree to stderr");
  app.add_option("--report", o.report,
                 "write the pass explorer to FILE: one self-contained HTML page with every pass "
                 "as it ran (time, skip reason, operator and node changes, diff of the module, "
                 "with --verify-each the largest numeric difference) and the final graph")
      ->type_name("FILE");
  app.add_option("--time-trace", o.time_trace,
                 "write a Chrome trace JSON of every pass invocation (Perfetto, chrome://tracing)")
      ->type_name("FILE");
  app.add_flag("--op-counts", o.op_counts,
               "print a table of operator counts before and after the passes to stderr");
  app.add_flag("--verify-each", o.verify_each,
               "after each pass, compare main's results before and after on seeded random "
               "inputs; stop at the first pass that changed them");
  app.add_option("--verify-tolerance", o.verify_tolerance,
                 "tolerance of --verify-each (default: per dtype, 1e-5 for float32)")
      ->type_name("RTOL[,ATOL]");

  // Output.
  app.add_option("--emit", o.emit,
                 "what to write: text (print(mod)), astext (with #[version] and metadata), dot "
                 "(Graphviz), none")
      ->check(CLI::IsMember({"text", "astext", "dot", "none"}))
      ->type_name("FORM")
      ->capture_default_str();
  app.add_option("-o", o.output_file, "write the --emit output to FILE instead of stdout")
      ->type_name("FILE");
  app.add_option("--dot", o.dot_file, "also write the Graphviz picture of the result to FILE")
      ->type_name("FILE");
  app.add_option("--export-library", o.export_library,
                 "build the result as relay.build does at -O (the model's weights bound) and write "
                 "what tvm.runtime.load_module reads to FILE (docs/artifact.md); relay-opt FILE "
                 "--run runs it")
      ->type_name("FILE");

  // Running the result.
  auto* run = app.add_flag("--run", o.run,
                           "run main with the evaluator and print each output's shape, dtype, "
                           "min/max/mean and checksum");
  Repeatable(app.add_option("--input", o.inputs,
                            "main's parameter NAME for --run and --verify-each (repeatable; the "
                            "others take the model's weights: an ONNX model's initializers, a "
                            "workload's parameters)"))
      ->type_name("NAME=FILE.npy");
  app.add_option("--output", o.output_npy, "write --run's first output as NumPy .npy")
      ->needs(run)
      ->type_name("FILE.npy");
  app.add_flag("--random-inputs", o.random_inputs,
               "--run: give main's parameters that have no value from the model or --input "
               "seeded random values (said on stderr; the result is then not the model's answer)");
  app.add_option("--seed", o.seed, "seed of the random inputs")
      ->check(ExactInteger<uint64_t>())
      ->type_name("N")
      ->capture_default_str();
  app.add_option("--memory-budget", o.memory_budget,
                 "the most bytes of tensors held at once (--run, --verify-each, FoldConstant), "
                 "e.g. 4G or 512M; a tensor over it is an error naming its op and shape "
                 "(default: the available memory)")
      ->type_name("BYTES");
  // Debugging.
  app.add_option("--reproducer", o.reproducer,
                 "when a pass fails or crashes, write the input module and the pipeline with its "
                 "context to FILE, for --run-reproducer")
      ->type_name("FILE");
  app.add_option("--run-reproducer", o.run_reproducer,
                 "run the module and pipeline of a reproducer written by --reproducer")
      ->type_name("FILE");
  app.add_option("--opt-bisect-limit", o.opt_bisect_limit,
                 "run only the first N passes that would run; print each decision")
      ->check(ExactInteger<int64_t>())
      ->type_name("N");
  app.add_flag("--bisect-verify", o.bisect_verify,
               "find the first pass after which main's results differ from the input's");
  app.add_flag("--reduce", o.reduce,
               "shrink the module while --reduce-check still holds; write it to -o or stdout");
  app.add_option("--reduce-check", o.reduce_check,
                 "what --reduce keeps true: failure (the pipeline fails with the same error in "
                 "the same pass) or verify (--verify-each fails at the same pass)")
      ->check(CLI::IsMember({"failure", "verify"}))
      ->type_name("CHECK")
      ->capture_default_str();
  app.add_option("--reduce-max-checks", o.reduce_max_checks, "the most candidates --reduce tries")
      ->check(ExactInteger<int64_t>(1))
      ->type_name("N")
      ->capture_default_str();
  app.add_flag("--split-input-file", o.split_input_file,
               "process each '// -----' separated chunk of INPUT on its own; join the outputs "
               "with the same separator");
  app.add_flag("--dump-pass-pipeline", o.dump_pass_pipeline,
               "print the pipeline as it will run, every option resolved, to stderr");
  Repeatable(app.add_option("--load-pass-plugin", o.plugins,
                            "load a shared library that registers passes (repeatable; "
                            "docs/cli.md, Plugins)"))
      ->type_name("LIB.so");
  app.set_version_flag("--version", VersionText(), "print relay-opt's version and exit");
  app.add_flag("--list-passes", o.list_passes,
               "list the registered passes, config options, the default pipeline and workloads");
  app.add_flag("--list-ops", o.list_ops,
               "list the registered operators with their fusion patterns and attributes");

  app.footer(
      "--pipeline=default runs TVM's relay.build pass prefix restricted to the passes "
      "registered in this build, then PlanDevices, then FuseOps:\n  " +
      Join(DefaultPipelineNames()) + "\n(see docs/cli.md)");
}

void ParseCommandLine(CLI::App& app, Options& o, int argc, const char* const* argv) {
  app.parse(NormalizeArguments(app, argc, argv));
  o.workload_given = app.count("--workload") > 0;
}

void CheckOptions(const Options& o) {
  CheckUniqueKeys("--input", o.inputs, "parameter");
  CheckUniqueKeys("--input-shape", o.input_shapes, "input", /*last_equals=*/true);
  CheckUniqueKeys("--config", o.config, "config option");
  if (o.max_input_size > kMaxInputSizeLimit) {
    throw relaypass::Error("--max-input-size: " + std::to_string(o.max_input_size) +
                           " is over the largest input relay-opt reads, " +
                           std::to_string(kMaxInputSizeLimit) + " bytes");
  }
  const bool model_file = IsOnnxInput(o) || IsTorchInput(o);
  if (o.bind_params && !o.input.empty() && !model_file) {
    throw relaypass::Error(
        "--bind-params applies to --workload, ONNX and TorchScript models, not Relay text");
  }
  if (!o.input_shapes.empty() && !model_file) {
    throw relaypass::Error(
        "--input-shape applies to ONNX and TorchScript models (INPUT.onnx, INPUT.pt or "
        "--input-format=onnx|torch)");
  }
  if (!o.inputs.empty() && !o.run && !o.verify_each && !o.bisect_verify &&
      !(o.reduce && o.reduce_check == "verify")) {
    throw relaypass::Error(
        "--input applies to --run, --verify-each and --bisect-verify; give one of them");
  }
  if (o.random_inputs && !o.run) throw relaypass::Error("--random-inputs applies to --run");
  if (!o.print_changed.empty() && o.print_changed != "changed" && o.print_changed != "diff") {
    throw relaypass::Error("--print-changed: expected no value or 'diff', got '" + o.print_changed +
                           "'");
  }
  if (o.opt_bisect_limit < -1) {
    throw relaypass::Error("--opt-bisect-limit: expected -1 (no limit) or more, got " +
                           std::to_string(o.opt_bisect_limit));
  }
  const bool has_passes = !o.passes.empty() || !o.pipeline.empty();
  if ((o.reduce || o.bisect_verify) && !has_passes) {
    throw relaypass::Error(std::string(o.reduce ? "--reduce" : "--bisect-verify") +
                           " needs --pipeline or --passes");
  }
  if (o.reduce && o.bisect_verify) {
    throw relaypass::Error("--reduce and --bisect-verify exclude each other");
  }
  if (o.split_input_file) {
    if (o.input.empty() || IsOnnxInput(o)) {
      throw relaypass::Error("--split-input-file needs a Relay text INPUT (a file or '-')");
    }
    for (const auto& [set, name] :
         {std::pair{o.reduce, "--reduce"}, std::pair{o.bisect_verify, "--bisect-verify"},
          std::pair{!o.reproducer.empty(), "--reproducer"}, std::pair{!o.dot_file.empty(), "--dot"},
          std::pair{!o.output_npy.empty(), "--output"}}) {
      if (set)
        throw relaypass::Error(std::string(name) + " does not apply with --split-input-file");
    }
  }
}

std::string VersionText() {
  return "relay-opt (relaypass) " RELAYPASS_VERSION ", following TVM v0.13's Relay; plugin ABI " +
         std::to_string(RELAYPASS_PLUGIN_ABI_VERSION) + "\n";
}

std::string UnknownOptionMessage(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
  }
  for (const std::string& arg : app.remaining()) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string name = arg.substr(0, arg.find('='));
    const std::string best = relaypass::support::ClosestName(name, names);
    return "unknown option '" + name + "'" +
           (best.empty() ? "" : "; did you mean '" + best + "'?") +
           " (relay-opt --help lists them)";
  }
  return "";
}

bool IsOnnxInput(const Options& o) {
  if (o.input_format != "auto") return o.input_format == "onnx";
  if (o.input.size() > 3 && (o.input.ends_with(".pt") || o.input.ends_with(".pth"))) return false;
  const std::string ext = ".onnx";
  return o.input.size() > ext.size() &&
         o.input.compare(o.input.size() - ext.size(), ext.size(), ext) == 0;
}

}  // namespace relay_opt
