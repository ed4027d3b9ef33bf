// The int8 products on the evaluator's int8 GEMM (src/op/kernels/int8/), one operator call at a
// time: a resnet-50 3x3 convolution (1x64x56x56 by 64x64x3x3, padding 1; 116 M multiply-adds)
// and a dense (128 x 768 by 768 x 768, BERT-base's projection; 75 M), uint8 x int8 -> int32 on
// each int8 variant this processor runs (op::Int8IsaScope, as relay.build's target picks it),
// against the reference loop the int8 products ran on before (the same call on int32 operands:
// conv2d's direct loop, dense's triple loop) and against float32 (the packed AVX-512 GEMM or
// OpenBLAS). At one evaluator thread, so that the calling thread's CPU time is all the work (the
// steady figure on a shared machine). Run: build/bench/int8_bench; `make bench` puts its table
// in docs/performance.md.
#include <benchmark/benchmark.h>

#include <string>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/expr.h"
#include "relaypass/op/int8_isa.h"
#include "relaypass/relay.h"
#include "relaypass/support/parallel.h"

namespace {

namespace ir = relaypass::ir;
namespace op = relaypass::op;
namespace relay = relaypass::relay;
using ir::DataType;

// The product's call on constants of these dtypes.
ir::Expr Product(const std::string& shape, DataType data, DataType weight, const char* out) {
  if (shape == "conv3x3") {
    relay::nn::Conv2DArgs args;
    args.padding = {1, 1};
    args.channels = 64;
    args.kernel_size = relay::Ints{3, 3};
    args.out_dtype = out;
    return relay::nn::conv2d(
        relay::const_(relaypass::eval::RandomTensor({1, 64, 56, 56}, data, 1)),
        relay::const_(relaypass::eval::RandomTensor({64, 64, 3, 3}, weight, 2)), args);
  }
  return relay::nn::dense(relay::const_(relaypass::eval::RandomTensor({128, 768}, data, 1)),
                          relay::const_(relaypass::eval::RandomTensor({768, 768}, weight, 2)),
                          std::nullopt, out);
}

void Run(benchmark::State& state, const ir::Expr& call) {
  const auto* node = call.as<ir::CallNode>();
  relaypass::eval::EvaluateConstantCall(node);  // warm-up
  for (auto _ : state) {
    auto out = relaypass::eval::EvaluateConstantCall(node);
    benchmark::DoNotOptimize(out);
  }
}

void BM_Int8(benchmark::State& state, const std::string& shape, op::Int8Isa isa) {
  if (!op::HostSupportsInt8Isa(isa)) {
    state.SkipWithError("this processor lacks the variant");
    return;
  }
  op::Int8IsaScope scope(isa);
  Run(state, Product(shape, DataType::UInt(8), DataType::Int(8), "int32"));
}

void BM_Reference(benchmark::State& state, const std::string& shape) {
  Run(state, Product(shape, DataType::Int(32), DataType::Int(32), "int32"));
}

void BM_Float32(benchmark::State& state, const std::string& shape) {
  Run(state, Product(shape, DataType::Float32(), DataType::Float32(), "float32"));
}

void Register() {
  for (const std::string shape : {"conv3x3", "dense"}) {
    for (op::Int8Isa isa : {op::Int8Isa::kSse2, op::Int8Isa::kSsse3, op::Int8Isa::kAvx2,
                            op::Int8Isa::kAvx512bw, op::Int8Isa::kAvx512vnni}) {
      benchmark::RegisterBenchmark(("int8/" + shape + "/" + op::Int8IsaName(isa)).c_str(), BM_Int8,
                                   shape, isa)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
    benchmark::RegisterBenchmark(("int8/" + shape + "/reference").c_str(), BM_Reference, shape)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
    benchmark::RegisterBenchmark(("int8/" + shape + "/float32").c_str(), BM_Float32, shape)
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
}

}  // namespace

int main(int argc, char** argv) {
  relaypass::support::SetNumThreads(1);
  Register();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
