// The pattern language and the BYOC passes on deep chains and on resnet-50 (built by `make bench`,
// run by hand: build/bench/pattern_bench). Each is linear on chains: compare chain/*/100000 with
// chain/*/1000000.
//   pattern/chain/rewrite/N     every add(x, c) of chain-N rewritten by a callback (two rounds:
//                               the rewrite, then the round that finds nothing)
//   pattern/chain/partition/N   every relu of chain-N partitioned into a function
//   byoc/chain/N                AnnotateTarget, MergeCompilerRegions, PartitionGraph for a target
//                               taking add and relu (one region)
//   byoc/resnet-50              MergeComposite("dnnl"), AnnotateTarget, MergeCompilerRegions,
//                               PartitionGraph on resnet-50 (parameters bound, batch norms folded)
#include <benchmark/benchmark.h>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/passes/byoc.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/simplify_inference.h"
#include "relaypass/pattern/match.h"
#include "relaypass/relay.h"
#include "relaypass/support/allocator.h"
#include "relaypass/workloads/workloads.h"

namespace {

using namespace relaypass;  // NOLINT(google-build-using-namespace)

ir::Expr ChainBody(int64_t n) {
  return workloads::Chain(n)->body;
}

void PatternRewrite(benchmark::State& state) {
  const ir::Expr chain = ChainBody(state.range(0));
  pattern::DFPatternCallback cb{
      pattern::IsOp("add")({pattern::Wildcard(), pattern::IsConstant()}),
      [](const ir::Expr&, const ir::Expr& post, const pattern::NodeMap&) -> ir::Expr {
        auto* c = post.as<ir::CallNode>();
        return relay::subtract(c->args[0], relay::const_(-1.0f));
      }};
  for (auto _ : state) benchmark::DoNotOptimize(pattern::Rewrite({cb}, chain));
}

void PatternPartition(benchmark::State& state) {
  const ir::Expr chain = ChainBody(state.range(0));
  const pattern::DFPattern relu = pattern::IsOp("nn.relu")({pattern::Wildcard()});
  for (auto _ : state) benchmark::DoNotOptimize(pattern::Partition(relu, chain));
}

void ByocChain(benchmark::State& state) {
  static const bool registered = [] {
    for (const char* op : {"add", "nn.relu"}) {
      passes::RegisterOpTargetAttr(op, "target.bench", [](const ir::Expr&) { return true; });
    }
    return true;
  }();
  (void)registered;
  const ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(workloads::Chain(state.range(0))));
  for (auto _ : state) {
    ir::IRModule out = passes::AnnotateTarget({"bench"})(mod);
    out = passes::MergeCompilerRegions()(out);
    benchmark::DoNotOptimize(passes::PartitionGraph()(out));
  }
}

void ByocResnet50(benchmark::State& state) {
  workloads::Workload w = workloads::GetWorkload("resnet-50");
  ir::IRModule mod = w.mod;
  mod.Add("main", ir::BindParamsByName(mod.Lookup("main"), w.params));
  mod = passes::FoldConstant()(passes::SimplifyInference()(mod));
  for (auto _ : state) {
    ir::IRModule out = passes::MergeComposite(passes::GetPatternTable("dnnl"))(mod);
    out = passes::AnnotateTarget({"dnnl"})(out);
    out = passes::MergeCompilerRegions()(out);
    benchmark::DoNotOptimize(passes::PartitionGraph()(out));
  }
}

}  // namespace

BENCHMARK(PatternRewrite)
    ->Name("pattern/chain/rewrite")
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(PatternPartition)
    ->Name("pattern/chain/partition")
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(ByocChain)->Name("byoc/chain")->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(ByocResnet50)->Name("byoc/resnet-50")->Unit(benchmark::kMillisecond);

// The allocator tuned as in relay-opt and passes_bench: in an untuned process glibc's fastbins and
// fresh-memory faults made most of the time of byoc/chain (a pass over a million-node chain pays
// them for every node it allocates).
int main(int argc, char** argv) {
  relaypass::support::TuneAllocatorForLargeGraphs();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
