// relay.build and relay.optimize (TVM v0.13's src/relay/backend/build_module.cc) on relaypass:
// the module is optimized as TVM's BuildModule optimizes it and kept as Relay, which the
// evaluator runs; the graph executor's JSON and parameters come from GraphCodegen.
#pragma once

#include <map>
#include <string>

#include "relaypass/backend/graph_codegen.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/op/int8_isa.h"

namespace relaypass::backend {

using ParamMap = std::map<std::string, ir::NDArray>;

/// relay.optimize: `params` bound into main by name (TVM's BindParamsByName: names main does not
/// have are ignored, a name two parameters share is an error), then, under the current
/// PassContext (its opt_level, required and disabled passes), the default pipeline
/// (passes::DefaultPipeline: TVM's relay.optimize passes, PlanDevices, FuseOps), InferType,
/// Inline, InferType and LabelOps. The input module is not changed.
ir::IRModule Optimize(const ir::IRModule& mod, const ParamMap& params);

/// What relay.build gives the graph executor.
struct BuiltModule {
  ir::IRModule mod;  // Optimize's result: what the executor runs
  GraphProgram graph;
  std::string mod_name;
  // The int8 GEMM variant of the build's target (op::Int8IsaForTarget; relay.build sets it from
  // -mcpu/-mattr): the graph executor runs its int8 products on it. Without a target, x86-64's
  // baseline, as TVM's "llvm".
  op::Int8Isa int8_isa = op::Int8Isa::kSse2;
};

/// relay.build for the graph executor: Optimize, then GraphCodegen. Errors (a pass failing, a
/// module the graph executor cannot run) are relaypass::Error with the place.
BuiltModule Build(const ir::IRModule& mod, const ParamMap& params,
                  const std::string& mod_name = "default");

/// A module Optimize already optimized (one read back from an exported file) with its graph:
/// GraphCodegen only.
BuiltModule FromOptimized(const ir::IRModule& optimized, const std::string& mod_name = "default");

}  // namespace relaypass::backend
