#include "input.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/workloads/workloads.h"

namespace relay_opt {

namespace ir = relaypass::ir;

std::string ReadText(const std::string& path) {
  std::ostringstream ss;
  if (path == "-") {
    ss << std::cin.rdbuf();
    return ss.str();
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw relaypass::Error("cannot read input file '" + path + "': it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw relaypass::Error("cannot open input file '" + path + "'");
  ss << in.rdbuf();
  return ss.str();
}

ir::IRModule LoadModule(const Options& o) {
  if (!o.input.empty()) {
    relaypass::text::ParseOptions parse;
    parse.source_name = o.input == "-" ? "<stdin>" : o.input;
    return relaypass::text::ParseModule(ReadText(o.input), parse);
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
