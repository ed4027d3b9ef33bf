#include "relaypass/backend/build.h"

#include <set>

#include "relaypass/ir/bind.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/passes/inline.h"
#include "relaypass/passes/label_ops.h"
#include "relaypass/support/error.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/sequential.h"

namespace relaypass::backend {

namespace {

ir::IRModule BindParams(const ir::IRModule& mod, const ParamMap& params) {
  if (params.empty()) return mod;
  if (!mod.Contains("main")) throw Error("relay.build: the module has no main function");
  const ir::Function main = mod.Lookup("main");
  std::set<std::string> names;
  for (const ir::Var& p : main->params) {
    if (params.count(p->name_hint) && !names.insert(p->name_hint).second) {
      throw Error("relay.build: multiple parameters of main are named " + p->name_hint +
                  ", so params cannot bind it by name");
    }
  }
  ir::IRModule bound = mod;
  bound.Add("main", ir::BindParamsByName(main, params));
  return bound;
}

}  // namespace

ir::IRModule Optimize(const ir::IRModule& mod, const ParamMap& params) {
  ir::IRModule optimized = transform::InferType()(BindParams(mod, params));
  optimized = passes::DefaultPipeline()(optimized);
  optimized = transform::InferType()(optimized);
  optimized = passes::Inline()(optimized);
  optimized = transform::InferType()(optimized);
  return passes::LabelOps()(optimized);
}

BuiltModule Build(const ir::IRModule& mod, const ParamMap& params, const std::string& mod_name) {
  BuiltModule built;
  built.mod = Optimize(mod, params);
  built.graph = GraphCodegen(built.mod, mod_name);
  built.mod_name = mod_name;
  return built;
}

BuiltModule FromOptimized(const ir::IRModule& optimized, const std::string& mod_name) {
  BuiltModule built;
  built.mod = optimized;
  built.graph = GraphCodegen(optimized, mod_name);
  built.mod_name = mod_name;
  return built;
}

}  // namespace relaypass::backend
