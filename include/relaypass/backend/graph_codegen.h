// TVM's graph executor codegen (src/relay/backend/graph_executor_codegen.cc) on relaypass: the
// graph JSON of an optimized module's main, in TVM's format, and main's constants as the graph's
// parameters ("p0", "p1", ... in the order the graph first uses them).
//
// The JSON holds "nodes" (an input node {"op": "null"} per main parameter and constant, a
// {"op": "tvm_op"} node per call of a fused function, named as TVM names the lowered function:
// tvmgen_<mod_name>_fused_<ops>, with "_1", "_2" for different functions of the same name and the
// same name for structurally equal ones), "arg_nodes", "heads", "attrs" ("shape", "dltype",
// "storage_id" as TVM's GraphPlanMemory shares storage, "device_index") and "node_row_ptr". A
// fused function marked relay.reshape_only=1 is a "reshape_nop" node running "__nop", its
// result sharing its argument's storage.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "relaypass/ir/module.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::backend {

struct GraphProgram {
  std::string json;                           // TVM's graph JSON
  std::map<std::string, ir::NDArray> params;  // "p0", ... -> main's constants
  /// The constant node of each parameter, in the JSON's order: an executor that is given a new
  /// value for "pN" replaces that constant.
  std::vector<std::pair<std::string, ir::Constant>> param_constants;
  /// Each tvm_op node's lowered function name, in node order (with repetitions).
  std::vector<std::string> function_names;
};

/// The graph of `mod`'s main (an optimized module: fused, typed). `mod_name` is relay.build's
/// (default "default"). Throws relaypass::Error with the place for what the graph executor
/// cannot run: if, closures, references, calls of operators or globals outside fused
/// functions, dynamic shapes (those need the VM).
GraphProgram GraphCodegen(const ir::IRModule& mod, const std::string& mod_name = "default");

}  // namespace relaypass::backend
