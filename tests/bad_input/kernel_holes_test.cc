// Issue 36's kernel holes, each at its root: a kernel validates what it indexes (gamma / beta /
// alpha against the data's axis), conv2d with negative padding computes the cropped convolution
// on every kernel path, einsum rejects a repeated output label, strided_slice counts with
// strides and bounds at the int64 extremes, and the evaluator checks a call's result size
// against the memory budget before the kernel runs. Expected values: NumPy's behaviour
// (quoted at each case) or the same evaluator on an input cropped by hand.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/op/registry.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/relay.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/resource_error.h"
#include "relaypass/text/parser.h"

namespace relaypass::bad_input {
namespace {

ir::IRModule Parse(const std::string& body) {
  return text::ParseModule("#[version = \"0.0.5\"]\n" + body);
}

// The message of the relaypass::Error `f` throws ("" and a failure if it throws none).
template <typename F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no relaypass::Error";
  return "";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<float> Floats(const ir::NDArray& a) {
  return std::vector<float>(a.data<float>(), a.data<float>() + a.size());
}

// main's result on seeded random inputs.
std::vector<ir::NDArray> RunOnRandom(const ir::IRModule& mod) {
  const ir::IRModule typed = ir::InferTypes(mod);
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(typed.Lookup("main"), 7)) {
    inputs.push_back(v.tensor());
  }
  return eval::RunMain(typed, inputs);
}

// A norm's kernel called directly (as a caller that skips type inference would) with a gamma
// that does not fit: an error naming the op and the argument, never a read past gamma's buffer.
TEST(KernelHolesTest, NormKernelsCheckTheirParameters) {
  const ir::NDArray data = eval::RandomTensor({2, 4}, ir::DataType::Float32(), 1);
  const ir::NDArray small = eval::RandomTensor({1}, ir::DataType::Float32(), 2);
  const ir::NDArray fits = eval::RandomTensor({4}, ir::DataType::Float32(), 3);
  for (const char* name : {"nn.layer_norm", "nn.instance_norm"}) {
    SCOPED_TRACE(name);
    const op::OpDef* def = op::Def(ir::OpRegistry::Global().Find(name));
    ASSERT_TRUE(def && def->kernel);
    const ir::IRModule mod =
        Parse(std::string("def @main(%x: Tensor[(2, 4), float32], %g, %b) {\n  ") + name +
              "(%x, %g, %b, axis=1)\n}\n");
    const auto* call = mod.Lookup("main")->body.as<ir::CallNode>();
    ASSERT_TRUE(call);
    EXPECT_TRUE(Contains(ErrorOf([&] {
                           def->kernel({data, small, fits}, call->attrs, {});
                         }),
                         std::string(name) + ": gamma (1,) does not match axis 1 of data (2, 4)"));
    EXPECT_TRUE(Contains(ErrorOf([&] {
                           def->kernel({data, fits, small}, call->attrs, {});
                         }),
                         std::string(name) + ": beta (1,) does not match axis 1 of data (2, 4)"));
    EXPECT_EQ(def->kernel({data, fits, fits}, call->attrs, {}).size(), 1u);
  }
  // And the type relation rejects it first, as TVM's LayerNormRel does.
  const std::string typed = ErrorOf([] {
    RunOnRandom(
        Parse("def @main(%x: Tensor[(2, 4), float32], %g: Tensor[(1), float32], "
              "%b: Tensor[(1), float32]) {\n  nn.layer_norm(%x, %g, %b)\n}\n"));
  });
  EXPECT_TRUE(Contains(typed, "nn.layer_norm")) << typed;
}

// take with batch_dims: each batch takes from its own slice, so the indices' batch dimensions
// must be the data's. With indices (0, 4) against data (2, 3) and batch_dims=1 the kernel read
// past the (empty) indices: a SIGSEGV, from the Python API too (the kernel fuzzer's 10-minute
// sweep of session 6). Now the type relation and the kernel both refuse it.
TEST(KernelHolesTest, TakeChecksTheBatchDimensionsOfItsIndices) {
  const std::string typed = ErrorOf([] {
    RunOnRandom(
        Parse("def @main(%d: Tensor[(2, 3), float32], %i: Tensor[(0, 4), int32]) {\n"
              "  take(%d, %i, axis=1, batch_dims=1)\n}\n"));
  });
  EXPECT_TRUE(Contains(typed, "take: batch dimension 0 of indices")) << typed;
  const op::OpDef* def = op::Def(ir::OpRegistry::Global().Find("take"));
  ASSERT_TRUE(def && def->kernel);
  const ir::IRModule mod = Parse(
      "def @main(%d: Tensor[(2, 3), float32], %i: Tensor[(2, 1), int32]) {\n"
      "  take(%d, %i, axis=1, batch_dims=1, mode=\"clip\")\n}\n");
  const auto* call = mod.Lookup("main")->body.as<ir::CallNode>();
  ASSERT_TRUE(call);
  const ir::NDArray data = eval::RandomTensor({2, 3}, ir::DataType::Float32(), 1);
  const ir::NDArray empty = ir::NDArray::Uninitialized({0, 4}, ir::DataType::Int32());
  EXPECT_TRUE(Contains(ErrorOf([&] {
                         def->kernel({data, empty}, call->attrs, {});
                       }),
                       "take: the batch dimensions of indices and data differ"));
  // Matching batch dimensions still take per batch (hand computation: row b takes its own
  // elements).
  ir::NDArray idx = ir::NDArray::Uninitialized({2, 1}, ir::DataType::Int32());
  idx.mutable_data<int32_t>()[0] = 2;
  idx.mutable_data<int32_t>()[1] = 0;
  const std::vector<float> out = Floats(def->kernel({data, idx}, call->attrs, {})[0]);
  const std::vector<float> d = Floats(data);
  EXPECT_EQ(out, (std::vector<float>{d[2], d[3]}));
}

// A transposed convolution's float64 accumulator is a tensor too: an output of 2^40 positions
// (a huge stride, the kernel called directly as a caller that skips the evaluator's result check
// would) is a ResourceError from the memory budget, not an allocation that aborts (found by
// session 6's 10-minute ASan kernel sweep: "allocation-size-too-big" in conv3d_transpose).
TEST(KernelHolesTest, ConvTransposeScratchIsBudgeted) {
  const ir::IRModule mod = Parse(
      "def @main(%x: Tensor[(1, 1, 2, 1, 1), float32], %w: Tensor[(1, 1, 1, 1, 1), float32]) {\n"
      "  nn.conv3d_transpose(%x, %w, strides=[1099511627776, 1, 1])\n}\n");
  const auto* call = mod.Lookup("main")->body.as<ir::CallNode>();
  ASSERT_TRUE(call);
  const op::OpDef* def = op::Def(ir::OpRegistry::Global().Find("nn.conv3d_transpose"));
  ASSERT_TRUE(def && def->kernel);
  const ir::NDArray x = eval::RandomTensor({1, 1, 2, 1, 1}, ir::DataType::Float32(), 1);
  const ir::NDArray w = eval::RandomTensor({1, 1, 1, 1, 1}, ir::DataType::Float32(), 2);
  bool resource_error = false;
  try {
    def->kernel({x, w}, call->attrs, {});
  } catch (const ResourceError&) {
    resource_error = true;
  }
  EXPECT_TRUE(resource_error);
}

// A batch of 1 against an empty batch broadcasts to an empty batch (NumPy's matmul gives shape
// (0, 2, 4) for (1, 2, 3) @ (0, 3, 4)); before, the result had batch 1 and the kernel read the
// empty operand (an ASan+UBSan kernel sweep's "load of value 190 ... for type 'bool'").
TEST(KernelHolesTest, BatchMatmulWithAnEmptyBatchIsEmpty) {
  for (const char* shapes : {"%x: Tensor[(1, 2, 3), bool], %y: Tensor[(0, 4, 3), bool]",
                             "%x: Tensor[(0, 2, 3), bool], %y: Tensor[(1, 4, 3), bool]"}) {
    ir::IRModule mod = ir::InferTypes(
        Parse(std::string("def @main(") + shapes + ") {\n  nn.batch_matmul(%x, %y)\n}\n"));
    const auto* ret = mod.Lookup("main")->body->checked_type.as<ir::TensorTypeNode>();
    ASSERT_TRUE(ret);
    EXPECT_EQ(ir::Shape(ret->shape.begin(), ret->shape.end()), (ir::Shape{0, 2, 4})) << shapes;
    const auto* call = mod.Lookup("main")->body.as<ir::CallNode>();
    ASSERT_TRUE(call);
    const auto* x = mod.Lookup("main")->params[0]->type_annotation.as<ir::TensorTypeNode>();
    const auto* y = mod.Lookup("main")->params[1]->type_annotation.as<ir::TensorTypeNode>();
    const op::OpDef* def = op::Def(ir::OpRegistry::Global().Find("nn.batch_matmul"));
    ASSERT_TRUE(def && def->kernel);
    const ir::NDArray out = def->kernel(
        {eval::RandomTensor(ir::Shape(x->shape.begin(), x->shape.end()), ir::DataType::Bool(), 1),
         eval::RandomTensor(ir::Shape(y->shape.begin(), y->shape.end()), ir::DataType::Bool(), 2)},
        call->attrs, call->checked_type)[0];
    EXPECT_EQ(out.shape(), (ir::Shape{0, 2, 4})) << shapes;
  }
}

// TVM's Conv2DRel accepts negative padding: the output is (H + top + bottom - KH) / stride + 1,
// the convolution of the input cropped by the negative amounts. Expected: the same evaluator on
// the input sliced by hand (strided_slice) with the remaining padding.
TEST(KernelHolesTest, Conv2DNegativePaddingIsACrop) {
  struct Case {
    std::string padding, begin, end, rest;
    int channels;  // 8 takes the GEMM paths (packed on AVX-512); groups=channels, depthwise
    bool depthwise;
  };
  const Case cases[] = {
      {"[-1, -1]", "[0, 0, 1, 1]", "[1, 8, 15, 15]", "[0, 0]", 8, false},
      {"[-1, 2, 0, -3]", "[0, 0, 1, 0]", "[1, 8, 16, 13]", "[0, 2, 0, 0]", 8, false},
      {"[-2, -1]", "[0, 0, 2, 1]", "[1, 8, 14, 15]", "[0, 0]", 8, true},
      {"[1, -1, 2, -2]", "[0, 0, 0, 1]", "[1, 8, 16, 14]", "[1, 0, 2, 0]", 8, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.padding + (c.depthwise ? " depthwise" : ""));
    const std::string w =
        c.depthwise ? "Tensor[(8, 1, 3, 3), float32]" : "Tensor[(16, 8, 3, 3), float32]";
    const std::string groups = c.depthwise ? ", groups=8" : "";
    const std::string sig = "def @main(%x: Tensor[(1, 8, 16, 16), float32], %w: " + w + ") {\n  ";
    const std::vector<ir::NDArray> got =
        RunOnRandom(Parse(sig + "nn.conv2d(%x, %w, padding=" + c.padding + groups + ")\n}\n"));
    const std::vector<ir::NDArray> want =
        RunOnRandom(Parse(sig + "%0 = strided_slice(%x, begin=" + c.begin + ", end=" + c.end +
                          ");\n  nn.conv2d(%0, %w, padding=" + c.rest + groups + ")\n}\n"));
    ASSERT_EQ(got[0].shape(), want[0].shape());
    EXPECT_EQ(Floats(got[0]), Floats(want[0]));
  }
  // Cropping more than the input is an error, not a read before it.
  const std::string message = ErrorOf([] {
    RunOnRandom(
        Parse("def @main(%x: Tensor[(1, 8, 4, 4), float32], %w: Tensor[(16, 8, 1, 1), float32]) "
              "{\n  nn.conv2d(%x, %w, padding=[-3, 0, -3, 0])\n}\n"));
  });
  EXPECT_FALSE(message.empty());
}

// The same through FoldConstant (constants folded by the same kernels) and through FuseOps,
// whose conv2d + bias_add + relu functions the evaluator runs as one fused kernel call
// (Conv2DWithEpilogue on the packed GEMM where the CPU has AVX-512).
TEST(KernelHolesTest, Conv2DNegativePaddingFoldsAndFuses) {
  const ir::IRModule mod = Parse(
      "def @main(%x: Tensor[(1, 8, 16, 16), float32], %w: Tensor[(16, 8, 3, 3), float32], "
      "%b: Tensor[(16), float32]) {\n"
      "  %0 = nn.conv2d(%x, %w, padding=[-1, -1]);\n  %1 = nn.bias_add(%0, %b);\n"
      "  nn.relu(%1)\n}\n");
  const ir::IRModule typed = ir::InferTypes(mod);
  std::vector<ir::NDArray> inputs;
  for (const eval::Value& v : eval::RandomInputs(typed.Lookup("main"), 7)) {
    inputs.push_back(v.tensor());
  }
  const std::vector<ir::NDArray> plain = eval::RunMain(typed, inputs);
  ASSERT_EQ(plain[0].shape(), (ir::Shape{1, 16, 12, 12}));
  const ir::IRModule fused = passes::FuseOps(2)(typed);
  EXPECT_EQ(Floats(eval::RunMain(fused, inputs)[0]), Floats(plain[0]));
  // All three as constants: FoldConstant computes the call itself.
  const ir::Expr body = relay::nn::relu(relay::nn::bias_add(
      relay::nn::conv2d(relay::const_(inputs[0]), relay::const_(inputs[1]), {.padding = {-1, -1}}),
      relay::const_(inputs[2])));
  const ir::IRModule folded =
      passes::FoldConstant()(ir::InferTypes(ir::IRModule::FromExpr(relay::function({}, body))));
  const auto* c = folded.Lookup("main")->body.as<ir::ConstantNode>();
  ASSERT_TRUE(c) << "not folded";
  EXPECT_EQ(Floats(c->data), Floats(plain[0]));
}

// NumPy: np.einsum("ii->ii", x) raises "einstein sum subscripts string includes output
// subscript 'i' multiple times"; "ii->i" is the diagonal.
TEST(KernelHolesTest, EinsumRejectsARepeatedOutputLabel) {
  const std::pair<const char*, const char*> cases[] = {{"ii->ii", "(3, 3)"},
                                                       {"iii->iii", "(3, 3, 3)"},
                                                       {"ij->iji", "(3, 3)"},
                                                       {"...i->......", "(3, 3)"}};
  for (const auto& [eq, shape] : cases) {
    SCOPED_TRACE(eq);
    const std::string message = ErrorOf([&] {
      RunOnRandom(Parse(std::string("def @main(%x: Tensor[") + shape +
                        ", float32]) {\n  einsum((%x,), equation=\"" + eq + "\")\n}\n"));
    });
    EXPECT_TRUE(Contains(message, "einsum: ")) << message;
    EXPECT_TRUE(Contains(message, "multiple times")) << message;
  }
  const ir::IRModule diag =
      Parse("def @main(%x: Tensor[(3, 3), float32]) {\n  einsum((%x,), equation=\"ii->i\")\n}\n");
  const ir::IRModule typed = ir::InferTypes(diag);
  const ir::NDArray x = eval::RandomTensor({3, 3}, ir::DataType::Float32(), 5);
  const std::vector<float> d = Floats(eval::RunMain(typed, {x})[0]);
  const std::vector<float> xs = Floats(x);
  EXPECT_EQ(d, (std::vector<float>{xs[0], xs[4], xs[8]}));
}

// NumPy on x = np.arange(5): x[0:5:2**63-1] == [0]; x[4:-6:-2**63] and x[4:-6:-(2**63-1)] (as
// strided_slice's begin 4, end -6 clamps to before the start) == [4]; x[-2**63:2**63-1] == x; with
// size mode a size of 2**63-1 from begin 1 is x[1:].
TEST(KernelHolesTest, StridedSliceAtTheInt64Extremes) {
  struct Case {
    std::string attrs;
    std::vector<float> want;
  };
  const Case cases[] = {
      {"begin=[0], end=[5], strides=[9223372036854775807i64]", {0}},
      {"begin=[4], end=[-6], strides=[-9223372036854775807i64]", {4}},
      {"begin=[4], end=[-6], strides=[-9223372036854775808i64]", {4}},
      {"begin=[-9223372036854775807i64], end=[9223372036854775807i64]", {0, 1, 2, 3, 4}},
      {"begin=[9223372036854775807i64], end=[-9223372036854775807i64], strides=[-1]",
       {4, 3, 2, 1, 0}},
      {"begin=[1], end=[9223372036854775807i64], strides=[1], slice_mode=\"size\"", {1, 2, 3, 4}},
      {"begin=[2], end=[5], strides=[4611686018427387904i64]", {2}},
  };
  ir::NDArray x = ir::NDArray::Empty({5}, ir::DataType::Float32());
  for (int i = 0; i < 5; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.attrs);
    const ir::IRModule typed = ir::InferTypes(
        Parse("def @main(%x: Tensor[(5), float32]) {\n  strided_slice(%x, " + c.attrs + ")\n}\n"));
    EXPECT_EQ(Floats(eval::RunMain(typed, {x})[0]), c.want);
  }
}

// A result over the memory budget fails before its kernel runs: nn.pad of 64 GiB used to build
// its per-axis tables first (13 s, 4 GB); tile and every other op get the same check.
TEST(KernelHolesTest, ResultsOverTheBudgetFailAtOnce) {
  support::MemoryBudgetScope budget(uint64_t{1} << 30);
  for (const char* body :
       {"nn.pad(%x, 0f, pad_width=[[0, 17179869184i64]])",
        "nn.pad(%x, 0f, pad_width=[[0, 17179869184i64]], pad_mode=\"edge\")",
        "tile(%x, reps=[17179869184i64])", "broadcast_to(%x, shape=[4294967296i64, 4])"}) {
    SCOPED_TRACE(body);
    const auto start = std::chrono::steady_clock::now();
    const std::string message = ErrorOf([&] {
      RunOnRandom(Parse(std::string("def @main(%x: Tensor[(4), float32]) {\n  ") + body + "\n}\n"));
    });
    EXPECT_TRUE(Contains(message, "over the memory budget")) << message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  }
  // A pad whose width overflows int64 is an error in type inference or in the kernel.
  EXPECT_FALSE(ErrorOf([] {
                 RunOnRandom(
                     Parse("def @main(%x: Tensor[(4), float32]) {\n  nn.pad(%x, 0f, "
                           "pad_width=[[9223372036854775807i64, 9223372036854775807i64]])\n}\n"));
               }).empty());
}

// What the kernel fuzzer found (fuzz/kernel_fuzzer.cc), each fixed where it was: gather_nd read
// index rows and batch axes its indices do not have (SIGSEGV); batch_norm on a scalar read
// shape[-1] in its type relation (SIGSEGV); nn.upsampling of an empty axis by 1e18 built 3e18
// sampling taps for an empty output (out of memory), and a scale past int64 was a wrapped cast.
TEST(KernelHolesTest, FoundByTheKernelFuzzer) {
  const char* const rejected[] = {
      "def @main(%x: Tensor[(2, 3, 4), float32], %i: Tensor[(1, 2), int64]) {\n"
      "  gather_nd(%x, %i, index_rank=3)\n}\n",
      "def @main(%x: Tensor[(2, 3, 4), float32], %i: Tensor[(1, 5), int64]) {\n"
      "  gather_nd(%x, %i, batch_dims=1)\n}\n",
      "def @main(%x: float32, %g: Tensor[(1), float32], %b: Tensor[(1), float32], "
      "%m: Tensor[(1), float32], %v: Tensor[(1), float32]) {\n"
      "  nn.batch_norm(%x, %g, %b, %m, %v)\n}\n",
      "def @main(%x: Tensor[(1, 1, 2, 3), float32]) {\n"
      "  nn.upsampling(%x, scale_h=2f, scale_w=1e300f64)\n}\n",
  };
  for (const char* text : rejected) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(ErrorOf([&] { RunOnRandom(Parse(text)); }).empty());
  }
  // NumPy-style: an empty input upsampled stays empty, however large the other axis gets.
  const std::vector<ir::NDArray> empty =
      RunOnRandom(Parse("def @main(%x: Tensor[(1, 1, 0, 3), float32]) {\n"
                        "  nn.upsampling(%x, scale_h=2f, scale_w=1e18f)\n}\n"));
  EXPECT_EQ(empty[0].size(), 0);
  // repeat of empty slices INT32_MAX times: an empty (6, 6 * INT32_MAX, 0) result at once
  // (NumPy's shape); the kernel looped 36 * 2^31 times over zero-byte copies, minutes for one
  // call (found by session 4's 10-minute sweep of the kernel fuzzer).
  const std::vector<ir::NDArray> repeated =
      RunOnRandom(Parse("def @main(%x: Tensor[(6, 6, 0), float32]) {\n"
                        "  repeat(%x, repeats=2147483647, axis=1)\n}\n"));
  EXPECT_EQ(repeated[0].shape(), (ir::Shape{6, int64_t{6} * 2147483647, 0}));
}

}  // namespace
}  // namespace relaypass::bad_input
