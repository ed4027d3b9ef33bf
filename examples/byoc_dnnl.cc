// The BYOC partitioning flow (TVM's "Bring Your Own Codegen" flow, as
// tests/python/relay/test_pass_partition_graph.py's test_dnnl_fuse runs it) for a pretend "dnnl"
// target on resnet-18:
//
//   mod["main"] = bind_params_by_name(mod["main"], params)
//   for p in [SimplifyInference(), FoldConstant(), FoldScaleAxis(), FoldConstant()]: mod = p(mod)
//   mod = MergeComposite(get_pattern_table("dnnl"))(mod)
//   mod = AnnotateTarget(["dnnl"])(mod)
//   mod = MergeCompilerRegions()(mod)
//   mod = PartitionGraph()(mod)
//   print(mod)
//
// The dnnl target takes nn.conv2d, nn.relu and add (RegisterExampleDnnlTarget). The example then
// runs the original and the partitioned module on the same seeded input and reports on stderr
// whether they agree (exit status 1 if not): the partitioned functions are ordinary functions
// to the evaluator.
#include <iostream>

#include "relaypass/eval/allclose.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fold_scale_axis.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform.h"
#include "relaypass/workloads/workloads.h"

using namespace relaypass;

int main() {
  workloads::Workload w = workloads::GetWorkload("resnet-18");
  ir::IRModule mod = w.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), w.params));
  const ir::IRModule original = mod;

  // Direct calls, as `mod = pass(mod)`: no opt_level gating (FoldScaleAxis is level 3).
  mod = passes::SimplifyInference()(mod);
  mod = passes::FoldConstant()(mod);
  mod = passes::FoldScaleAxis()(mod);
  mod = passes::FoldConstant()(mod);
  mod = passes::MergeComposite(passes::GetPatternTable("dnnl"))(mod);
  mod = passes::AnnotateTarget({"dnnl"})(mod);
  mod = passes::MergeCompilerRegions()(mod);
  mod = passes::PartitionGraph()(mod);
  std::cout << text::PrettyPrint(mod) << std::endl;

  std::vector<eval::Value> inputs = eval::RandomInputs(original.Lookup("main"), 0);
  eval::Interpreter before(original);
  eval::Interpreter after(mod);
  eval::Value expected = before.RunMain(inputs);
  eval::Value actual = after.RunMain(inputs);
  eval::CloseResult close = eval::AllClose(actual, expected, eval::Tolerance{1e-4, 1e-5});
  if (!close) {
    std::cerr << "byoc_dnnl: the partitioned module differs: " << close.message << "\n";
    return 1;
  }
  std::cerr << "byoc_dnnl: the partitioned module evaluates to the original's outputs\n";
  return 0;
}
