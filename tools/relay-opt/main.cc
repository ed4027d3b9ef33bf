// relay-opt: read a Relay module (text file, stdin, or a built-in workload), optionally run
// passes, and print it. Errors are one diagnostic line on stderr and exit status 1.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <sstream>

#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/workloads.h"

namespace {

using relaypass::ir::IRModule;

struct Options {
  std::string input;
  std::string workload = "example";
  std::string layout = "NCHW";
  std::string emit = "text";
  std::string output;
};

std::string ReadInput(const std::string& path) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw relaypass::Error("cannot open input file '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

IRModule LoadModule(const Options& opts) {
  if (!opts.input.empty()) {
    relaypass::text::ParseOptions parse;
    parse.source_name = opts.input == "-" ? "<stdin>" : opts.input;
    return relaypass::text::ParseModule(ReadInput(opts.input), parse);
  }
  relaypass::workloads::WorkloadOptions wopts;
  wopts.layout = opts.layout;
  return relaypass::workloads::GetWorkload(opts.workload, wopts).mod;
}

std::string Emit(const IRModule& mod, const std::string& emit) {
  if (emit == "text") return relaypass::text::PrettyPrint(mod);
  if (emit == "astext") return relaypass::text::AsText(mod);
  return "";  // none
}

int Run(const Options& opts) {
  IRModule mod = LoadModule(opts);
  std::string out = Emit(mod, opts.emit);
  if (opts.output.empty() || opts.output == "-") {
    std::cout << out;
  } else {
    std::ofstream file(opts.output, std::ios::binary);
    if (!file) throw relaypass::Error("cannot open output file '" + opts.output + "'");
    file << out;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"relay-opt: run relaypass passes on Relay programs"};
  Options opts;
  app.add_option("input", opts.input, "Relay text file ('-' for stdin); default: --workload");
  app.add_option("--workload", opts.workload, "built-in workload: example, chain-N")
      ->capture_default_str();
  app.add_option("--layout", opts.layout, "workload layout")
      ->check(CLI::IsMember({"NCHW", "NHWC"}))
      ->capture_default_str();
  app.add_option("--emit", opts.emit, "output form")
      ->check(CLI::IsMember({"text", "astext", "none"}))
      ->capture_default_str();
  app.add_option("-o,--output", opts.output, "output file (default stdout)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);
    std::cerr << "relay-opt: error: " << e.what() << "\n";
    return 1;
  }
  try {
    return Run(opts);
  } catch (const relaypass::Error& e) {
    std::cerr << "relay-opt: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "relay-opt: error: internal: " << e.what() << "\n";
    return 1;
  }
}
