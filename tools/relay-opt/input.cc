#include "input.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/workloads/workloads.h"

namespace relay_opt {

namespace ir = relaypass::ir;

std::string ReadStream(std::istream& in, const std::string& what) {
  constexpr size_t kPiece = size_t{1} << 20;
  std::string text;
  std::vector<char> piece(kPiece);
  while (in) {
    in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
    text.append(piece.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw relaypass::Error("cannot read " + what);
  return text;
}

std::string ReadText(const std::string& path) {
  if (path == "-") return ReadStream(std::cin, "stdin");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw relaypass::Error("cannot read input file '" + path + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw relaypass::Error("cannot open input file '" + path + "'");
  return ReadStream(in, "input file '" + path + "'");
}

namespace {

ir::IRModule ParseText(const std::string& text, const std::string& source_name) {
  relaypass::text::ParseOptions parse;
  parse.source_name = source_name;
  return relaypass::text::ParseModule(text, parse);
}

}  // namespace

ir::IRModule LoadModule(const Options& o) {
  if (!o.input.empty()) return ParseText(ReadText(o.input), o.input == "-" ? "<stdin>" : o.input);
  // `cat model.relay | relay-opt`, as opt reads a pipe.
  if (!o.workload_given && !o.bind_params && !isatty(STDIN_FILENO)) {
    const std::string text = ReadStream(std::cin, "stdin");
    if (!text.empty()) return ParseText(text, "<stdin>");
  }
  relaypass::workloads::WorkloadOptions options;
  options.layout = o.layout;
  options.batch_size = o.batch_size;
  relaypass::workloads::Workload workload = relaypass::workloads::GetWorkload(o.workload, options);
  if (!o.bind_params || workload.params.empty()) return workload.mod;
  const ir::Function main = workload.mod.Lookup("main");
  ir::IRModule mod = workload.mod;
  mod.Add("main", ir::BindParamsByName(main, workload.params));
  // A typed workload stays typed: the new constants get their types too.
  return main->checked_type ? ir::InferTypes(mod) : mod;
}

}  // namespace relay_opt
