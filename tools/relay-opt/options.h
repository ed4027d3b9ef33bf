// relay-opt's command line: the settings it parses, and the CLI11 definition that fills them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace relay_opt {

// The most --max-input-size allows: source columns and offsets are 32-bit.
constexpr uint64_t kMaxInputSizeLimit = 2147483647;

struct Options {
  // Input: a file, "-" for stdin, or a built-in workload.
  std::string input;
  std::string workload = "example";
  bool workload_given = false;  // --workload was on the command line
  std::string layout = "NCHW";
  int batch_size = 1;
  bool bind_params = false;
  // INPUT (a file or stdin) longer than this is an error, found while reading.
  uint64_t max_input_size = uint64_t{1} << 30;
  // ONNX input (docs/onnx.md): the format ("auto": by the .onnx extension), and NAME=D1,D2,...
  std::string input_format = "auto";
  std::vector<std::string> input_shapes;

  // What to run: passes called one by one, or a pipeline under the context.
  std::string passes;
  std::string pipeline;
  int opt_level = 2;
  std::vector<std::string> disabled_pass;
  std::vector<std::string> required_pass;
  std::vector<std::string> config;  // KEY=VALUE

  // Looking at what the passes do.
  std::vector<std::string> print_ir_before;
  std::vector<std::string> print_ir_after;
  std::string print_changed;  // "" off, "changed" (--print-changed), "diff"
  bool print_ir_after_failure = false;
  std::vector<std::string> filter_print_funcs;  // function names, for every IR dump
  bool time_passes = false;
  std::string time_trace;
  bool op_counts = false;
  bool verify_each = false;
  std::string verify_tolerance;  // "RTOL[,ATOL]"
  std::string report;            // --report=FILE: the pass explorer page
  std::string command_line;      // argv joined, for the report's header

  // Output.
  std::string emit = "text";
  std::string output_file;     // -o
  std::string dot_file;        // --dot
  std::string export_library;  // --export-library=FILE: relay.build's result as an artifact

  // Running the result.
  bool run = false;
  std::vector<std::string> inputs;  // NAME=FILE.npy
  std::string output_npy;
  uint64_t seed = 0;
  // --run may fill parameters without a value (from the model or --input) with seeded random
  // values; without it they are an error (a model's answer never comes from invented weights).
  bool random_inputs = false;
  std::string memory_budget;  // --memory-budget=BYTES ("" : the available memory)

  // Debugging a pipeline (docs/cli.md, "Debugging").
  std::string reproducer;      // --reproducer=FILE
  std::string run_reproducer;  // --run-reproducer=FILE
  int64_t opt_bisect_limit = -1;
  bool bisect_verify = false;
  bool reduce = false;
  std::string reduce_check = "failure";  // failure | verify
  int64_t reduce_max_checks = 1000;
  bool split_input_file = false;
  bool dump_pass_pipeline = false;
  std::vector<std::string> plugins;  // --load-pass-plugin

  bool list_passes = false;
  bool list_ops = false;
};

/// The version line of --version.
std::string VersionText();

/// "unknown option '--print-changd'; did you mean '--print-changed'?" for the first argument
/// CLI11 left over that looks like an option, or "" if there is none.
std::string UnknownOptionMessage(const CLI::App& app);

/// Defines every option on `app`, writing into `options`. The help footer names the passes of
/// `--pipeline=default` as registered in this build.
void DefineOptions(CLI::App& app, Options& options);

/// Parses the command line into `app`'s options after NormalizeArguments' checks (arguments.h:
/// empty values, options given twice, exact numbers); sets Options::workload_given. Throws
/// CLI::ParseError as App::parse does.
void ParseCommandLine(CLI::App& app, Options& options, int argc, const char* const* argv);

/// Checks what CLI11 cannot express; throws relaypass::Error with the option's name.
void CheckOptions(const Options& options);

/// True when INPUT is read as an ONNX model (--input-format=onnx, or auto and a .onnx name).
bool IsOnnxInput(const Options& options);

}  // namespace relay_opt
