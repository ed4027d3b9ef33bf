// The evaluator on whole networks, batch 1: time per inference and the share of it spent in BLAS
// (GEMM for conv2d via im2col and dense). Run: build/bench/eval_bench; for the CPU-time share of
// BLAS run build/bench/eval_bench at one thread (the evaluator keeps OpenBLAS at one thread; see
// docs/performance.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <string>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/blas_stats.h"
#include "relaypass/passes/default_pipeline.h"
#include "relaypass/support/allocator.h"
#include "relaypass/support/parallel.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/workloads/workloads.h"

namespace {

using relaypass::eval::Interpreter;
using relaypass::eval::Value;
namespace eval = relaypass::eval;
namespace op = relaypass::op;
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
  op::ResetBlasStats();
  op::SetBlasTiming(true);
  double total = 0, cpu_total = 0;
  for (auto _ : state) {
    const double cpu_start = op::ThreadCpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    Value out = interp.RunMain({net.input});
    benchmark::DoNotOptimize(out);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpu_total += op::ThreadCpuSeconds() - cpu_start;
  }
  op::SetBlasTiming(false);
  const op::BlasStats blas = op::GetBlasStats();
  const double iters = static_cast<double>(state.iterations());
  // Wall-clock share (BLAS calls summed over the evaluator's threads), and the share of this
  // thread's CPU time, which is the BLAS share of the work at one evaluator thread (OpenBLAS runs
  // on the calling thread) and is not distorted by other processes competing for the cores.
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

// The evaluator against ONNX Runtime (bench/ort_bench.js runs ONNX Runtime on the same files):
// an ONNX model of bench/onnx_models.h imported (parameters frozen), as imported or after the
// default pipeline at -O3 (FoldConstant, FuseOps, ...: ONNX Runtime optimizes its graph too),
// at 1 and 2 threads (support::SetNumThreads: the evaluator's kernels, GEMMs included, which it
// cuts into blocks of single-threaded OpenBLAS calls itself; src/op/kernels/gemm.h),
// on the input
// ort_bench.js feeds: a seeded LCG in [-1, 1). The first output values are counters out_0..7,
// so the report can check both runtimes computed the same thing.

ir::NDArray OrtBenchInput() {
  ir::NDArray input = ir::NDArray::Empty({1, 3, 224, 224}, ir::DataType::Float32());
  float* data = input.mutable_data<float>();
  uint32_t state = 12345;  // Numerical Recipes' 32-bit LCG, as ort_bench.js
  for (int64_t i = 0; i < input.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = static_cast<float>(static_cast<double>(state) / 2147483648.0 - 1.0);
  }
  return input;
}

// The nn.conv2d calls in a module (in main and the functions it defines), for comparison with
// fused_convs.
double ConvCalls(const ir::IRModule& mod) {
  double count = 0;
  ir::post_order_visit(mod.Lookup("main"), [&](const ir::Expr& e) {
    const auto* call = e.as<ir::CallNode>();
    if (call && call->op_node() && call->op_node()->name == "nn.conv2d") ++count;
  });
  return count;
}

void BM_EvaluateOnnx(benchmark::State& state, const std::string& path, bool optimize, int threads) {
  ir::IRModule mod = relaypass::frontend::FromOnnxFile(path).mod;
  if (optimize) {
    relaypass::transform::PassContextScope scope(
        relaypass::transform::PassContext({.opt_level = 3}));
    mod = relaypass::passes::DefaultPipeline()(mod);
  }
  const int default_threads = relaypass::support::NumThreads();
  relaypass::support::SetNumThreads(threads);
  const ir::NDArray input = OrtBenchInput();
  Interpreter interp(mod);
  Value out = interp.RunMain({input});  // warm-up
  double best = 1e30;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    out = interp.RunMain({input});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, seconds);
    state.SetIterationTime(seconds);
  }
  relaypass::support::SetNumThreads(default_threads);
  state.counters["best_ms"] = best * 1e3;
  // Calls run as a convolution with its epilogue per inference (src/eval/fused_conv.h).
  state.counters["fused_convs"] = static_cast<double>(interp.stats().fused_conv_calls) /
                                  static_cast<double>(state.iterations() + 1);
  state.counters["conv_calls"] = ConvCalls(mod);
  const ir::NDArray& result = out.tensor();
  for (int i = 0; i < 8 && i < result.size(); ++i) {
    state.counters["out_" + std::to_string(i)] = result.data<float>()[i];
  }
}

void RegisterOnnx(const std::string& dir) {
  for (const char* name : {"resnet-50", "mobilenet-v2"}) {
    const std::string path = dir + "/" + name + ".onnx";
    for (bool optimize : {false, true}) {
      for (int threads : {1, 2}) {
        const std::string bench = std::string(optimize ? "onnx_o3/" : "onnx/") + name +
                                  "/threads:" + std::to_string(threads);
        benchmark::RegisterBenchmark(bench.c_str(), BM_EvaluateOnnx, path, optimize, threads)
            ->Unit(benchmark::kMillisecond)
            ->UseManualTime()
            ->MinTime(2.0);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  relaypass::support::TuneAllocatorForLargeGraphs();  // as relay-opt does,
  relaypass::support::AdviseHeapHugePages();          // and relay-opt --run
  benchmark::Initialize(&argc, argv);
  // --onnx-dir=DIR: also the ONNX models DIR/resnet-50.onnx and DIR/mobilenet-v2.onnx (written
  // by onnx_bench), compared with ONNX Runtime in the report.
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--onnx-dir=", 0) == 0) {
      RegisterOnnx(arg.substr(11));
      for (int k = i; k + 1 < argc; ++k) argv[k] = argv[k + 1];
      --argc;
      --i;
    }
  }
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
