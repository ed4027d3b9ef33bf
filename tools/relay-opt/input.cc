#include "input.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "relaypass/frontend/onnx.h"
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

ir::IRModule ParseModuleText(const std::string& text, const std::string& source_name) {
  relaypass::text::ParseOptions parse;
  parse.source_name = source_name;
  return relaypass::text::ParseModule(text, parse);
}

namespace {

// "NAME=D1,D2,..." (a scalar is "NAME=").
std::pair<std::string, std::vector<int64_t>> ParseInputShape(const std::string& spec) {
  const size_t eq = spec.rfind('=');
  if (eq == std::string::npos || eq == 0) {
    throw relaypass::Error("--input-shape: expected NAME=D1,D2,..., got '" + spec + "'");
  }
  std::vector<int64_t> dims;
  std::stringstream ss(spec.substr(eq + 1));
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      size_t used = 0;
      const long long d = std::stoll(item, &used);
      if (used != item.size() || d < 0) throw std::invalid_argument(item);
      dims.push_back(d);
    } catch (const std::exception&) {
      throw relaypass::Error("--input-shape: '" + item + "' in '" + spec +
                             "' is not a non-negative dimension");
    }
  }
  return {spec.substr(0, eq), dims};
}

ir::IRModule LoadOnnx(const Options& o) {
  relaypass::frontend::OnnxOptions options;
  for (const std::string& spec : o.input_shapes) options.shape.insert(ParseInputShape(spec));
  options.freeze_params = o.bind_params;
  if (o.input != "-") return relaypass::frontend::FromOnnxFile(o.input, options).mod;
  return relaypass::frontend::FromOnnxBytes(ReadText(o.input), options, "<stdin>").mod;
}

}  // namespace

ir::IRModule LoadModule(const Options& o) {
  if (!o.input.empty() && IsOnnxInput(o)) return LoadOnnx(o);
  if (!o.input.empty())
    return ParseModuleText(ReadText(o.input), o.input == "-" ? "<stdin>" : o.input);
  // `cat model.relay | relay-opt`, as opt reads a pipe.
  if (!o.workload_given && !o.bind_params && !isatty(STDIN_FILENO)) {
    const std::string text = ReadStream(std::cin, "stdin");
    if (!text.empty()) return ParseModuleText(text, "<stdin>");
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
