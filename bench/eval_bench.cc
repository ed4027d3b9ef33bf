// The evaluator on whole networks, batch 1: time per inference and the share of it spent in BLAS
// (GEMM for conv2d via im2col and dense). Run: build/bench/eval_bench; for the CPU-time share of
// BLAS run OPENBLAS_NUM_THREADS=1 build/bench/eval_bench (see docs/performance.md).
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <string>

#include "relaypass/eval/blas_stats.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/support/allocator.h"
#include "relaypass/workloads/workloads.h"

namespace {

using relaypass::eval::Interpreter;
using relaypass::eval::Value;
namespace eval = relaypass::eval;
namespace ir = relaypass::ir;

struct Network {
  ir::IRModule mod;  // main(data) with the parameters bound as constants
  ir::NDArray input;
};

const Network& Load(const std::string& name) {
  // Never destroyed: IR nodes must not be released by static destructors at exit, after
  // ir::ReleaseObject's thread_local queue is gone.
  static auto* cache = new std::map<std::string, Network>();
  auto it = cache->find(name);
  if (it != cache->end()) return it->second;
  relaypass::workloads::Workload w = relaypass::workloads::GetWorkload(name);
  Network net;
  net.mod.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
  net.input = eval::RandomInputs(net.mod.Lookup("main"), 0)[0].tensor();
  return cache->emplace(name, std::move(net)).first->second;
}

void BM_Evaluate(benchmark::State& state, const std::string& name) {
  const Network& net = Load(name);
  Interpreter interp(net.mod);
  interp.RunMain({net.input});  // warm-up: plans, BLAS threads, page faults
  eval::ResetBlasStats();
  eval::SetBlasTiming(true);
  double total = 0, cpu_total = 0;
  for (auto _ : state) {
    const double cpu_start = eval::ThreadCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    Value out = interp.RunMain({net.input});
    benchmark::DoNotOptimize(out);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpu_total += eval::ThreadCpuSeconds() - cpu_start;
  }
  eval::SetBlasTiming(false);
  const eval::BlasStats blas = eval::GetBlasStats();
  const double iters = static_cast<double>(state.iterations());
  // Wall-clock share (BLAS may use several threads), and the share of this thread's CPU time,
  // which is the BLAS share of the work when OpenBLAS is single-threaded and is not distorted by
  // other processes competing for the cores.
  state.counters["blas_share"] = total > 0 ? blas.seconds / total : 0;
  state.counters["blas_cpu_share"] = cpu_total > 0 ? blas.cpu_seconds / cpu_total : 0;
  state.counters["cpu_ms"] = cpu_total / iters * 1e3;
  state.counters["blas_ms"] = blas.seconds / iters * 1e3;
  state.counters["blas_calls"] = static_cast<double>(blas.calls) / iters;
  state.counters["blas_gflops"] = blas.seconds > 0 ? blas.flops / blas.seconds * 1e-9 : 0;
}

BENCHMARK_CAPTURE(BM_Evaluate, resnet18, std::string("resnet-18"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Evaluate, resnet50, std::string("resnet-50"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Evaluate, mobilenet, std::string("mobilenet"))
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  relaypass::support::TuneAllocatorForLargeGraphs();  // as relay-opt does
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
