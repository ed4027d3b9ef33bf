// The passes, the default pipeline and the text format against TVM v0.13's figures
// (../shared/anchors/tvm_timings.md, issue 8), and the deep-chain scaling with peak memory.
//
//   build/bench/passes_bench                                  # everything
//   build/bench/passes_bench --benchmark_filter='^chain/InferType/'
//   make bench                                                # runs it and writes
//   docs/performance.md
//
// Benchmarks (names are parsed by bench/report.py):
//   pass/<workload>/<pass>     the pass applied directly (`pass(mod)`) under PassContext opt_level
//   3
//                              to the workload with its parameters bound as constants, InferType
//                              already run (as TVM's figures);
//   pipeline/<workload>        relay-opt's `--pipeline=default` (one Sequential) at -O3, same
//   input; text/<workload>/<what>     print_nometa, print_meta (AsText), parse_meta (ParseModule of
//   the
//                              text with the weights, type inference included, as TVM) and
//                              parse_unbound (the module with the weights as parameters);
//   chain/<pass>/<N>           the same passes and the pipeline on chain-N (InferType run first).
//
// Timing is manual: each iteration times the call alone with the steady clock (wall) and the
// thread's CPU clock (the process's for text, whose parser runs on a thread of its own); the result
// is destroyed outside the timed region. Counters: `cpu_ms` (mean CPU time per iteration),
// `best_ms` and `best_cpu_ms` (the fastest iteration; TVM's figures are best of 5). The input
// module is shared by all iterations: passes are functional and never modify their input.
//
// Peak memory (chain benchmarks): this binary replaces the global operator new/delete with
// counting versions. While counting is on, every allocation adds its usable size to a live-byte
// total and every free subtracts it; the peak of that total over one extra, untimed run of the
// pass is `peak_bytes`, the memory the pass needs above its input (its output included). The
// input's own size is measured the same way while the chain is built and typed (`input_bytes`).
// `bytes_per_node` = (input_bytes + peak_bytes) / N. `maxrss_mib` is the process's getrusage
// ru_maxrss at the end of the benchmark (a process-wide high-water mark: binary, allocator slack
// and all earlier benchmarks of the process included; an upper bound). Counting is off while
// timing, so it costs the timed runs one predictable branch per allocation.
#include <benchmark/benchmark.h>
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "pipeline.h"  // tools/relay-opt: DefaultPipelineNames, the list of --pipeline=default
#include "relaypass/eval/interpreter.h"
#include "relaypass/ir/bind.h"
#include "relaypass/ir/module.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/support/allocator.h"
#include "relaypass/support/base64.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/infer_type.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/transform/sequential.h"
#include "relaypass/workloads/workloads.h"
#include "shapes.h"

// ---- counting allocator ----------------------------------------------------------------------

namespace {

std::atomic<bool> g_counting{false};
std::atomic<int64_t> g_live{0};
std::atomic<int64_t> g_peak{0};

void Counted(void* p) {
  if (!p || !g_counting.load(std::memory_order_relaxed)) return;
  const auto size = static_cast<int64_t>(malloc_usable_size(p));
  const int64_t live = g_live.fetch_add(size, std::memory_order_relaxed) + size;
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (live > peak && !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
}

void Uncounted(void* p) {
  if (!p || !g_counting.load(std::memory_order_relaxed)) return;
  g_live.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
}

void* Allocate(std::size_t size) {
  void* p = std::malloc(size ? size : 1);
  if (!p) throw std::bad_alloc();
  Counted(p);
  return p;
}

void* AllocateAligned(std::size_t size, std::align_val_t align) {
  void* p = nullptr;
  const std::size_t a = std::max(static_cast<std::size_t>(align), sizeof(void*));
  if (posix_memalign(&p, a, size ? size : 1) != 0) throw std::bad_alloc();
  Counted(p);
  return p;
}

void Release(void* p) noexcept {
  Uncounted(p);
  std::free(p);
}

// Live bytes allocated through operator new between Start() and Stop(), and their peak.
class MemoryWindow {
 public:
  MemoryWindow() {
    g_live.store(0, std::memory_order_relaxed);
    g_peak.store(0, std::memory_order_relaxed);
    g_counting.store(true, std::memory_order_seq_cst);
  }
  ~MemoryWindow() { g_counting.store(false, std::memory_order_seq_cst); }
  int64_t live() const { return g_live.load(); }
  int64_t peak() const { return g_peak.load(); }
};

}  // namespace

void* operator new(std::size_t size) {
  return Allocate(size);
}
void* operator new[](std::size_t size) {
  return Allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new(std::size_t size, std::align_val_t align) {
  return AllocateAligned(size, align);
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return AllocateAligned(size, align);
}
void operator delete(void* p) noexcept {
  Release(p);
}
void operator delete[](void* p) noexcept {
  Release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  Release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  Release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  Release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  Release(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
  Release(p);
}
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept {
  Release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  Release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  Release(p);
}

// ---- workloads -------------------------------------------------------------------------------

namespace {

namespace ir = relaypass::ir;
namespace support = relaypass::support;
namespace text = relaypass::text;
namespace transform = relaypass::transform;
namespace workloads = relaypass::workloads;
namespace eval = relaypass::eval;
namespace bench = relaypass::bench;

struct PassSpec {
  std::string name;  // in benchmark names and in the report
  std::string text;  // for transform::CreatePass
};

// The passes of TVM's table, in its order.
const std::vector<PassSpec>& Passes() {
  static const std::vector<PassSpec> passes = {
      {"InferType", "InferType"},
      {"FoldConstant", "FoldConstant"},
      {"EliminateCommonSubexpr", "EliminateCommonSubexpr"},
      {"SimplifyInference", "SimplifyInference"},
      {"FoldScaleAxis", "FoldScaleAxis"},
      {"CanonicalizeOps", "CanonicalizeOps"},
      {"FuseOps", "FuseOps(fuse_opt_level=2)"},
      {"ToANormalForm", "ToANormalForm"},
      {"DeadCodeElimination", "DeadCodeElimination"},
      {"ConvertLayout", "ConvertLayout(desired_layouts={\"nn.conv2d\": [\"NHWC\", \"default\"]})"},
  };
  return passes;
}

// Passes of TVM's "More passes, resnet-50" table (issue 17), run on resnet-50 only. `input` is a
// pass run first to make their input (DefuseOps undoes FuseOps' output); `chain` also runs them
// on the chains.
struct MoreSpec {
  PassSpec spec;
  std::string input;
  bool chain;
};

const std::vector<MoreSpec>& MorePasses() {
  static const std::vector<MoreSpec> passes = {
      {{"CombineParallelConv2D", "CombineParallelConv2D(min_num_branches=3)"}, "", true},
      {{"CombineParallelDense", "CombineParallelDense(min_num_branches=3)"}, "", false},
      {{"FastMath", "FastMath"}, "", true},
      {{"DefuseOps", "DefuseOps"}, "FuseOps(fuse_opt_level=2)", false},
      {{"DynamicToStatic", "DynamicToStatic"}, "", true},
      {{"ToMixedPrecision", "ToMixedPrecision"}, "", true},
      {{"SimplifyExpr", "SimplifyExpr"}, "", true},
      {{"CanonicalizeCast", "CanonicalizeCast"}, "", false},
      {{"ToBasicBlockNormalForm", "ToBasicBlockNormalForm"}, "", false},
      {{"RemoveUnusedFunctions", "RemoveUnusedFunctions"}, "", false},
      {{"ToGraphNormalForm", "ToGraphNormalForm"}, "ToANormalForm", false},
      {{"FlattenAtrousConv", "FlattenAtrousConv"}, "", false},
  };
  return passes;
}

transform::PassContext Ctx() {
  return transform::PassContext({.opt_level = 3});
}

ir::IRModule Typed(ir::IRModule mod) {
  transform::PassContextScope scope(Ctx());
  return transform::InferType()(mod);
}

// `mod` with each function replaced by a shallow copy of itself: the same IR, but no longer
// marked as InferType's unchanged output, so every InferType a pass runs checks it in full (as
// TVM's always does). Typed(mod) itself is what a user has after running InferType.
ir::IRModule Unmarked(const ir::IRModule& mod) {
  ir::IRModule out = mod;
  for (const auto& [gv, f] : mod.functions()) {
    out.Add(gv, ir::CopyNode(f).downcast<ir::FunctionNode>());
  }
  return out;
}

struct Network {
  ir::IRModule bound;    // params bound as constants, typed
  ir::IRModule unbound;  // params as parameters, typed
};

const Network& LoadNetwork(const std::string& name) {
  // Never destroyed: IR nodes must not be released by static destructors at exit.
  static auto* cache = new std::map<std::string, Network>();
  auto it = cache->find(name);
  if (it != cache->end()) return it->second;
  workloads::Workload w = workloads::GetWorkload(name);
  Network net;
  net.unbound = Typed(w.mod);
  ir::IRModule bound;
  bound.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
  net.bound = Typed(bound);
  return cache->emplace(name, std::move(net)).first->second;
}

struct ChainInput {
  int64_t n = 0;
  ir::IRModule mod;
  int64_t bytes = 0;  // live bytes of the typed module (counted while it was built)
};

// One chain at a time (the 1M chain is large); it is replaced when another size is asked for.
// Never destroyed at exit, as above.
const ChainInput& LoadChain(int64_t n) {
  static auto* cache = new ChainInput();
  if (cache->n == n) return *cache;
  *cache = ChainInput();
  MemoryWindow window;
  // Re-checked input: the scaling figures measure every walk a pass makes, InferType's included.
  ir::IRModule mod = Unmarked(Typed(ir::IRModule::FromExpr(workloads::Chain(n))));
  cache->bytes = window.live();
  cache->n = n;
  cache->mod = std::move(mod);
  return *cache;
}

transform::Pass DefaultPipeline() {
  std::vector<transform::Pass> passes;
  for (const std::string& name : relay_opt::DefaultPipelineNames()) {
    passes.push_back(transform::CreatePass(name));
  }
  return transform::Sequential(std::move(passes));
}

// The text parser runs on a thread of its own (a large stack for deep nesting): the text
// benchmarks count the process's CPU time. The others count the calling thread's, which leaves
// out idle OpenBLAS threads spinning after FoldConstant's kernels.
bool g_process_cpu = false;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(g_process_cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double MaxRssMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// Times `run` (whose result is kept alive until after the clocks are read) per iteration.
template <typename Run>
void TimeLoop(benchmark::State& state, Run&& run) {
  double cpu_total = 0, best = 1e300, best_cpu = 1e300;
  for (auto _ : state) {
    const double cpu_start = CpuSeconds();
    const auto start = std::chrono::steady_clock::now();
    auto result = run();
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu = CpuSeconds() - cpu_start;
    benchmark::DoNotOptimize(result);
    state.SetIterationTime(wall);
    cpu_total += cpu;
    best = std::min(best, wall);
    best_cpu = std::min(best_cpu, cpu);
  }
  const double iters = static_cast<double>(state.iterations());
  state.counters["cpu_ms"] = cpu_total / iters * 1e3;
  state.counters["best_ms"] = best * 1e3;
  state.counters["best_cpu_ms"] = best_cpu * 1e3;
}

// Runs `body`, turning a relaypass::Error into a skipped benchmark with its message.
template <typename Body>
void Guard(benchmark::State& state, Body&& body) {
  try {
    body();
  } catch (const relaypass::Error& e) {
    state.SkipWithError(e.what());
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// `recheck`: the input unmarked (see Unmarked), so that a pass that changes nothing still pays
// for the full type check at its end.
void BM_Pass(benchmark::State& state, const std::string& workload, const PassSpec& spec,
             bool recheck) {
  Guard(state, [&] {
    const ir::IRModule mod =
        recheck ? Unmarked(LoadNetwork(workload).bound) : LoadNetwork(workload).bound;
    const transform::Pass pass = transform::CreatePass(spec.text);
    transform::PassContextScope scope(Ctx());
    TimeLoop(state, [&] { return pass(mod); });
  });
}

void BM_MorePass(benchmark::State& state, const MoreSpec& more) {
  Guard(state, [&] {
    ir::IRModule mod = LoadNetwork("resnet-50").bound;
    transform::PassContextScope scope(Ctx());
    if (!more.input.empty()) mod = Typed(transform::CreatePass(more.input)(mod));
    const transform::Pass pass = transform::CreatePass(more.spec.text);
    TimeLoop(state, [&] { return pass(mod); });
  });
}

void BM_Pipeline(benchmark::State& state, const std::string& workload) {
  Guard(state, [&] {
    const ir::IRModule& mod = LoadNetwork(workload).bound;
    const transform::Pass pass = DefaultPipeline();
    transform::PassContextScope scope(Ctx());
    TimeLoop(state, [&] { return pass(mod); });
  });
}

void BM_Text(benchmark::State& state, const std::string& workload, const std::string& what) {
  Guard(state, [&] {
    const Network& net = LoadNetwork(workload);
    g_process_cpu = true;
    struct Reset {
      ~Reset() { g_process_cpu = false; }
    } reset;
    if (what == "print_nometa") {
      TimeLoop(state, [&] { return text::AsText(net.bound, false); });
    } else if (what == "print_meta") {
      TimeLoop(state, [&] { return text::AsText(net.bound, true); });
    } else if (what == "parse_meta") {
      const std::string source = text::AsText(net.bound, true);
      TimeLoop(state, [&] { return text::ParseModule(source); });
    } else {
      const std::string source = text::AsText(net.unbound, true);
      TimeLoop(state, [&] { return text::ParseModule(source); });
    }
  });
}

// The weights-folding step of the default pipeline: FoldConstant on the module FoldScaleAxis
// leaves (after InferType, SimplifyInference, FoldConstant, FoldScaleAxis, as relay.optimize
// orders them), compared in the report with text/<w>/memcpy of the weight bytes.
void BM_FoldAfterScaleAxis(benchmark::State& state, const std::string& workload) {
  Guard(state, [&] {
    transform::PassContextScope scope(Ctx());
    const ir::IRModule mod = transform::ParsePipeline(
        "InferType,SimplifyInference,FoldConstant,FoldScaleAxis")(LoadNetwork(workload).bound);
    const transform::Pass pass = transform::CreatePass("FoldConstant");
    TimeLoop(state, [&] { return pass(mod); });
  });
}

// The weights of a bound network as one buffer: what print/parse with metadata must move.
const std::string& ConstantBytes(const std::string& workload) {
  static auto* cache = new std::map<std::string, std::string>();
  auto it = cache->find(workload);
  if (it != cache->end()) return it->second;
  std::string bytes;
  ir::post_order_visit(LoadNetwork(workload).bound.Lookup("main"), [&](const ir::Expr& e) {
    if (const auto* c = e.as<ir::ConstantNode>()) {
      bytes.append(static_cast<const char*>(c->data.raw_data()), c->data.nbytes());
    }
  });
  return cache->emplace(workload, std::move(bytes)).first->second;
}

// The limits for print/parse with metadata, on the same bytes, into memory already mapped:
// memcpy, base64 encoding, base64 decoding (support/base64.h, the fastest routine we have).
void BM_TextLimit(benchmark::State& state, const std::string& workload, const std::string& what) {
  Guard(state, [&] {
    const std::string& bytes = ConstantBytes(workload);
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    std::string encoded(support::Base64EncodedSize(bytes.size()), '\0');
    support::EncodeBase64(data, bytes.size(), encoded.data());
    std::string target(std::max(bytes.size(), encoded.size()), '\0');
    if (what == "memcpy") {
      TimeLoop(state, [&] {
        std::memcpy(target.data(), bytes.data(), bytes.size());
        return target.data();
      });
    } else if (what == "base64_encode") {
      TimeLoop(state, [&] {
        support::EncodeBase64(data, bytes.size(), target.data());
        return target.data();
      });
    } else {
      TimeLoop(state, [&] {
        if (!support::DecodeBase64(encoded, reinterpret_cast<uint8_t*>(target.data()))) {
          throw relaypass::Error("bad base64");
        }
        return target.data();
      });
    }
    state.counters["bytes"] = static_cast<double>(bytes.size());
  });
}

void BM_Chain(benchmark::State& state, const std::string& text, int64_t n) {
  Guard(state, [&] {
    const ChainInput& input = LoadChain(n);
    const transform::Pass pass = text.empty() ? DefaultPipeline() : transform::CreatePass(text);
    transform::PassContextScope scope(Ctx());
    TimeLoop(state, [&] { return pass(input.mod); });
    int64_t peak = 0;
    {
      MemoryWindow window;
      { ir::IRModule out = pass(input.mod); }
      peak = window.peak();
    }
    state.counters["input_bytes"] = static_cast<double>(input.bytes);
    state.counters["peak_bytes"] = static_cast<double>(peak);
    state.counters["bytes_per_node"] =
        static_cast<double>(input.bytes + peak) / static_cast<double>(n);
    state.counters["maxrss_mib"] = MaxRssMiB();
  });
}

// Issue 19's input shapes (shapes.h): "parse" is ParseModule with type inference (what
// relay-opt does to a file), "run" the evaluator on main (parsed outside the clock).
void BM_Shape(benchmark::State& state, const std::string& shape, int64_t n) {
  Guard(state, [&] {
    g_process_cpu = true;  // the parser runs on a thread of its own
    struct Reset {
      ~Reset() { g_process_cpu = false; }
    } reset;
    std::string source;
    if (shape == "wide-function") source = bench::WideFunctionText(n);
    if (shape == "tuple-chain") source = bench::TupleChainText(n);
    if (shape == "closure-chain" || shape == "closure-chain-run") {
      source = bench::ClosureChainText(n);
    }
    if (shape == "global-chain" || shape == "global-chain-run") source = bench::GlobalChainText(n);
    if (shape.size() > 4 && shape.compare(shape.size() - 4, 4, "-run") == 0) {
      const ir::IRModule mod = text::ParseModule(source);
      const std::vector<ir::NDArray> x = {ir::NDArray::Empty({1, 4}, ir::DataType::Float32())};
      TimeLoop(state, [&] { return eval::RunMain(mod, x); });
    } else {
      TimeLoop(state, [&] { return text::ParseModule(source); });
    }
  });
}

void RegisterAll() {
  const std::vector<std::string> networks = {"resnet-18", "resnet-50", "mobilenet"};
  auto configure = [](benchmark::internal::Benchmark* b) {
    b->Unit(benchmark::kMillisecond)->UseManualTime()->MinTime(0.3);
  };
  for (const std::string& w : networks) {
    for (const PassSpec& spec : Passes()) {
      for (bool recheck : {false, true}) {
        const std::string name = "pass/" + w + "/" + spec.name + (recheck ? "/recheck" : "");
        configure(benchmark::RegisterBenchmark(name.c_str(), BM_Pass, w, spec, recheck));
      }
    }
  }
  for (const std::string& w : networks) {
    benchmark::RegisterBenchmark(("pipeline/" + w).c_str(), BM_Pipeline, w)
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(3);
  }
  for (const std::string& w : networks) {
    for (const char* what : {"print_nometa", "print_meta", "parse_meta", "parse_unbound"}) {
      configure(benchmark::RegisterBenchmark(("text/" + w + "/" + what).c_str(), BM_Text, w,
                                             std::string(what)));
    }
    configure(benchmark::RegisterBenchmark(("fold/" + w + "/after_fold_scale_axis").c_str(),
                                           BM_FoldAfterScaleAxis, w));
    for (const char* what : {"memcpy", "base64_encode", "base64_decode"}) {
      configure(benchmark::RegisterBenchmark(("text/" + w + "/" + what).c_str(), BM_TextLimit, w,
                                             std::string(what)));
    }
  }
  for (const MoreSpec& more : MorePasses()) {
    configure(benchmark::RegisterBenchmark(("pass/resnet-50/" + more.spec.name).c_str(),
                                           BM_MorePass, more));
  }
  for (const char* shape : {"wide-function", "tuple-chain", "closure-chain", "closure-chain-run",
                            "global-chain", "global-chain-run"}) {
    const bool tuple = std::string(shape) == "tuple-chain";
    for (int64_t n : {int64_t{10000}, int64_t{100000}, int64_t{1000000}}) {
      if (n == 1000000 && !tuple) continue;  // 1M: the tuple chain (the others need GBs)
      auto* b = benchmark::RegisterBenchmark(
          ("shape/" + std::string(shape) + "/" + std::to_string(n)).c_str(), BM_Shape,
          std::string(shape), n);
      b->Unit(benchmark::kMillisecond)->UseManualTime();
      if (n >= 100000) {
        b->Iterations(3);
      } else {
        b->MinTime(0.2);
      }
    }
  }
  std::vector<PassSpec> chain_passes = Passes();
  for (const MoreSpec& more : MorePasses()) {
    if (more.chain) chain_passes.push_back(more.spec);
  }
  chain_passes.push_back({"pipeline", ""});
  // Size-major, so that each chain is built once.
  for (int64_t n : {10000, 100000, 1000000}) {
    for (const PassSpec& spec : chain_passes) {
      auto* b = benchmark::RegisterBenchmark(
          ("chain/" + spec.name + "/" + std::to_string(n)).c_str(), BM_Chain, spec.text, n);
      b->Unit(benchmark::kMillisecond)->UseManualTime();
      if (n == 1000000) {
        b->Iterations(spec.text.empty() ? 2 : 3);  // the pipeline on chain-1M takes 15 s
      } else if (n == 100000) {
        b->Iterations(6);  // best of 6: the scaling ratio divides by this figure
      } else {
        b->MinTime(0.2);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  relaypass::support::TuneAllocatorForLargeGraphs();
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
