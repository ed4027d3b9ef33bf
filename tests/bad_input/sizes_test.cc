// Issue 19, class 1: sizes that overflow int64 and tensors too large to allocate. Every element
// or byte count is checked (ir::ElementCount, ir::ByteCount); every tensor reserves its bytes
// against the memory budget (support/memory_budget.h); FoldConstant leaves a call over its size
// limit unfolded. Expected numbers are plain arithmetic, written out next to each case:
// 6148914691236517206 * 3 = 2^64 + 2 and 4294967296 * 4294967296 * 16 = 2^68 do not fit in
// int64 (2^63 - 1).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>

#include "limited_tool.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/tensor_size.h"
#include "relaypass/passes/fold_constant.h"
#include "relaypass/support/memory_budget.h"
#include "relaypass/support/resource_error.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass_context.h"
#include "tool.h"

namespace relaypass::bad_input {
namespace {

using ir::DataType;

std::string Message(const std::function<void()>& f) {
  try {
    f();
  } catch (const ResourceError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ResourceError";
  return "";
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(SizesTest, CheckedCounts) {
  EXPECT_EQ(ir::ElementCount({2, 3, 4}), 24);
  EXPECT_EQ(ir::ElementCount({}), 1);  // a scalar
  EXPECT_EQ(ir::ElementCount({0, 4611686018427387904}), 0);
  EXPECT_EQ(ir::ByteCount({2, 3, 4}, DataType::Float(32)), 96);  // 24 * 4
  EXPECT_EQ(ir::ByteCount({2, 3, 4}, DataType::Bool()), 24);
  EXPECT_FALSE(ir::ElementCount({6148914691236517206, 3}));      // 2^64 + 2
  EXPECT_FALSE(ir::ElementCount({4294967296, 4294967296, 16}));  // 2^68
  // 2^61 elements fit; 2^61 float32s are 2^63 bytes, which do not.
  EXPECT_EQ(ir::ElementCount({2305843009213693952}), 2305843009213693952);
  EXPECT_FALSE(ir::ByteCount({2305843009213693952}, DataType::Float(32)));
}

TEST(SizesTest, OverflowingShapeIsAResourceError) {
  for (const ir::Shape& shape :
       {ir::Shape{6148914691236517206, 3}, ir::Shape{4294967296, 4294967296, 16}}) {
    const std::string message = Message([&] { ir::NDArray::Empty(shape, DataType::Float(32)); });
    EXPECT_TRUE(Contains(message, "overflows int64")) << message;
    EXPECT_TRUE(Contains(message, ir::TensorText(shape, DataType::Float(32)))) << message;
  }
}

TEST(SizesTest, TensorOverTheBudget) {
  const uint64_t before = support::MemoryInUse();
  {
    support::MemoryBudgetScope budget(uint64_t{1} << 20);  // 1 MiB
    EXPECT_EQ(support::MemoryBudget(), uint64_t{1} << 20);
    // 1024 * 1024 float32s = 4 MiB.
    const std::string message = Message([] {
      ir::NDArray::Empty({1024, 1024}, DataType::Float(32));
    });
    EXPECT_TRUE(Contains(message,
                         "tensor of shape (1024, 1024) float32 needs 4.0 MiB "
                         "(4194304 bytes), over the memory budget of 1.0 MiB "
                         "(1048576 bytes)"))
        << message;
    ir::NDArray fits = ir::NDArray::Empty({256, 256}, DataType::Float(32));  // 256 KiB
    EXPECT_EQ(support::MemoryInUse(), before + 262144);
  }
  // Freed tensors give their bytes back; the scope's end restores the budget.
  EXPECT_EQ(support::MemoryInUse(), before);
  EXPECT_GT(support::MemoryBudget(), uint64_t{1} << 20);
  // 2^35 float32s (128 GiB) exceed any machine this runs on, and the default budget says so.
  const std::string message =
      Message([] { ir::NDArray::Empty({int64_t{1} << 35}, DataType::Float(32)); });
  EXPECT_TRUE(Contains(message, "over the memory budget")) << message;
}

TEST(SizesTest, ByteCountsOnTheCommandLine) {
  EXPECT_EQ(support::ParseByteCount("100000"), 100000u);
  EXPECT_EQ(support::ParseByteCount("4G"), uint64_t{4} << 30);
  EXPECT_EQ(support::ParseByteCount("4GiB"), uint64_t{4} << 30);
  EXPECT_EQ(support::ParseByteCount("512m"), uint64_t{512} << 20);
  EXPECT_EQ(support::ParseByteCount("2T"), uint64_t{2} << 40);
  EXPECT_EQ(support::ParseByteCount("64K"), 65536u);
  for (const char* bad :
       {"", "G", "4X", "-1", "4 G", "4GG", "99999999999999999999", "9999999999T"}) {
    EXPECT_FALSE(support::ParseByteCount(bad)) << bad;
  }
}

// Random inputs (--run, --verify-each) and op results name what they were making.
TEST(SizesTest, EvaluatorNamesTheParameterAndTheOp) {
  ir::IRModule mod = text::ParseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(6148914691236517206, 3), float32]) { transpose(%x, axes=[1, 0]) }\n");
  const std::string input = Message([&] { eval::RandomInputs(mod.Lookup("main"), 0); });
  EXPECT_TRUE(Contains(input,
                       "random input for parameter %x: tensor of shape "
                       "(6148914691236517206, 3) float32: its size overflows int64"))
      << input;

  ir::IRModule relu = text::ParseModule(
      "#[version = \"0.0.5\"]\n"
      "def @main(%x: Tensor[(1024, 1024), float32]) {\n  nn.relu(%x)\n}\n");
  support::MemoryBudgetScope budget(uint64_t{6} << 20);  // the 4 MiB input fits, its result not
  std::vector<eval::Value> inputs = eval::RandomInputs(relu.Lookup("main"), 0);
  eval::Interpreter interp(relu);
  const std::string message = Message([&] { interp.RunMain(inputs); });
  EXPECT_TRUE(Contains(message, "3:3: nn.relu: tensor of shape (1024, 1024) float32 needs 4.0 MiB"))
      << message;
  EXPECT_TRUE(Contains(message, "held by other tensors")) << message;
}

// FoldConstant computes no result over kMaxFoldBytes, nor one whose size overflows: the call
// stays (as TVM folds only what it can afford), and nothing is allocated.
TEST(SizesTest, FoldConstantSkipsResultsOverItsLimit) {
  for (const std::string shape : {"[65536, 65536]",  // 16 GiB of float32
                                  "[4294967296, 4294967296, 16]"}) {
    ir::IRModule mod = text::ParseModule(
        "#[version = \"0.0.5\"]\ndef @main() {\n  broadcast_to(1f, shape=" + shape + ")\n}\n");
    const uint64_t before = support::MemoryInUse();
    ir::IRModule folded = passes::FoldConstant()(mod);
    EXPECT_TRUE(Contains(text::PrettyPrint(folded), "broadcast_to(1f")) << shape;
    EXPECT_EQ(support::MemoryInUse(), before);
  }
  // Under the limit it folds.
  ir::IRModule small = text::ParseModule(
      "#[version = \"0.0.5\"]\ndef @main() {\n  broadcast_to(1f, shape=[4, 4])\n}\n");
  EXPECT_FALSE(Contains(text::PrettyPrint(passes::FoldConstant()(small)), "broadcast_to"));
}

// The PassContext config relay.memory_budget bounds what FoldConstant allocates: a result over
// it stays unfolded.
TEST(SizesTest, FoldConstantHonoursTheConfigBudget) {
  ir::IRModule mod = text::ParseModule(
      "#[version = \"0.0.5\"]\ndef @main() {\n  broadcast_to(1f, shape=[1024, 1024])\n}\n");
  transform::PassContext ctx;
  ctx.SetConfig("relay.memory_budget", transform::OptionValue::Int(int64_t{1} << 20));
  transform::PassContextScope scope(ctx);
  EXPECT_TRUE(Contains(text::PrettyPrint(passes::FoldConstant()(mod)), "broadcast_to"));
  ctx.SetConfig("relay.memory_budget", transform::OptionValue::Int(0));  // the process's budget
  EXPECT_FALSE(Contains(text::PrettyPrint(passes::FoldConstant()(mod)), "broadcast_to"));
}

// Type relations that compute shapes from huge dimensions or attributes say so (TypeError at the
// call) instead of overflowing: conv3d, conv3d_transpose, max_pool3d, upsampling, depth_to_space.
// 4611686018427387904 = 2^62, so twice it (or its square) does not fit in int64; 4294967296 =
// 2^32, whose square is 2^64.
TEST(SizesTest, ShapeRelationsCheckTheirArithmetic) {
  const std::string head = "#[version = \"0.0.5\"]\n";
  const std::pair<std::string, std::string> cases[] = {
      {"def @main(%x: Tensor[(1, 1, 4611686018427387904, 4, 4), float32], %w: Tensor[(1, 1, 3, 3, "
       "3), float32]) {\n  nn.conv3d(%x, %w, padding=[4611686018427387904, 0, 0])\n}\n",
       "nn.conv3d: "},
      {"def @main(%x: Tensor[(1, 1, 4611686018427387904, 4, 4), float32], %w: Tensor[(1, 1, 3, 3, "
       "3), float32]) {\n  nn.conv3d_transpose(%x, %w, strides=[4, 1, 1])\n}\n",
       "nn.conv3d_transpose: "},
      {"def @main(%x: Tensor[(1, 1, 4, 4, 4), float32]) {\n  nn.max_pool3d(%x, pool_size=[3, 2, "
       "2], "
       "dilation=[4611686018427387904, 1, 1])\n}\n",
       "nn.max_pool3d: "},
      {"def @main(%x: Tensor[(1, 1, 4, 4), float32]) {\n  nn.upsampling(%x, scale_h=1e300f64)\n}\n",
       "nn.upsampling: "},
      {"def @main(%x: Tensor[(1, 4, 4, 4), float32]) {\n  nn.space_to_depth(%x, "
       "block_size=4294967296)\n}\n",
       "nn.space_to_depth: "},
  };
  for (const auto& [text, op] : cases) {
    try {
      text::ParseModule(head + text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const TypeError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind("3:3: " + op, 0), 0u) << what;
      EXPECT_TRUE(Contains(what.substr(0, what.find('\n')), "overflows int64")) << what;
    }
  }
}

// relay-opt under ulimit -v 8000000 and timeout 20: one `relay-opt: error:` line, exit 1.
TEST(SizesTest, RelayOptReportsSizesItCannotHave) {
  const std::string kHead = "#[version = \"0.0.5\"]\n";
  struct Case {
    std::string text;
    std::string args;
    std::string part;  // what the error line says
  };
  const Case cases[] = {
      // The examples: a SIGSEGV, and a tensor that "ran" as an empty one.
      {kHead + "def @main(%x: Tensor[(6148914691236517206, 3), float32]) { transpose(%x, axes=[1, "
               "0]) }\n",
       "--run --random-inputs",
       "tensor of shape (6148914691236517206, 3) float32: its size overflows int64"},
      {kHead + "def @main(%x: Tensor[(4294967296, 4294967296, 16), float32]) { transpose(%x, "
               "axes=[2, 1, 0]) }\n",
       "--run --random-inputs",
       "tensor of shape (4294967296, 4294967296, 16) float32: its size overflows int64"},
      // Fits in int64 but not in memory: 2^34 float32s are 64 GiB.
      {kHead + "def @main(%x: Tensor[(4294967296, 4), float32]) { nn.relu(%x) }\n",
       "--run --random-inputs",
       "(4294967296, 4) float32 needs 64.0 GiB (68719476736 bytes), over the memory budget"},
      // --verify-each evaluates main once FoldConstant changed it (folding add(1f, 1f)).
      {kHead + "def @main(%x: Tensor[(4294967296, 4), float32]) { add(%x, add(1f, 1f)) }\n",
       "--pipeline=FoldConstant --verify-each", "over the memory budget"},
      // An op's result: the input is small, zeros' result is not.
      {kHead + "def @main() { zeros(shape=[4294967296, 4294967296, 16], dtype=\"float32\") }\n",
       "--run --random-inputs",
       "zeros: tensor of shape (4294967296, 4294967296, 16) float32: its size"},
      {kHead + "def @main() { zeros(shape=[65536, 65536, 16], dtype=\"float32\") }\n",
       "--run --random-inputs",
       "zeros: tensor of shape (65536, 65536, 16) float32 needs 256.0 GiB"},
      // Kernels that did per-output-row work before allocating their output (session 6: both
      // hung building 2^32 sampling taps): the output's size is checked first.
      {kHead +
           "def @main(%x: Tensor[(1, 1, 2, 2), float32]) { image.resize2d(%x, size=[4294967296, "
           "4294967296], roi=[0f, 0f, 0f, 0f]) }\n",
       "--run --random-inputs", "image.resize2d: tensor of shape (1, 1, 4294967296, 4294967296)"},
      {kHead + "def @main(%x: Tensor[(1, 1, 2, 2), float32]) { nn.upsampling(%x, scale_h=1e18f, "
               "scale_w=1e18f) }\n",
       "--run --random-inputs", "its size overflows int64"},
      // An attribute near INT64_MAX added to a rank wrapped around and passed the check
      // (SIGSEGV in the kernel).
      {kHead + "def @main(%x: Tensor[(4), float32], %i: Tensor[(1, 2), int32]) { gather_nd(%x, %i, "
               "batch_dims=9223372036854775807) }\n",
       "--run --random-inputs",
       "gather_nd: index rank 1 and batch_dims 9223372036854775807 exceed data"},
      // The budget, from the option (with a suffix) and from the config key.
      {kHead + "def @main(%x: Tensor[(1024, 1024), float32]) { nn.relu(%x) }\n",
       "--run --random-inputs --memory-budget=6M",
       "nn.relu: tensor of shape (1024, 1024) float32 needs 4.0 MiB"},
      {kHead + "def @main(%x: Tensor[(1024, 1024), float32]) { nn.relu(%x) }\n",
       "--run --random-inputs --config relay.memory_budget=1048576",
       "random input for parameter %x: tensor of shape (1024, 1024) float32 needs 4.0 MiB"},
      {kHead + "def @main(%x: Tensor[(4), float32]) { %x }\n", "--run --memory-budget=4Q",
       "--memory-budget: expected a positive byte count such as 4G, 512M or 1000000, got '4Q'"},
  };
  for (const Case& c : cases) {
    const ToolRun run = RunLimited(c.text, c.args);
    EXPECT_EQ(run.exit_code, 1) << c.args << "\n" << c.text << run.err;
    EXPECT_EQ(run.out, "") << c.text;
    EXPECT_EQ(run.err.rfind("relay-opt: error: ", 0), 0u) << run.err;
    EXPECT_TRUE(Contains(run.first_err_line(), c.part)) << c.text << run.err;
    EXPECT_EQ(run.err.find("internal"), std::string::npos) << run.err;
  }
  // Within a budget it runs.
  const ToolRun ok =
      RunLimited(kHead + "def @main(%x: Tensor[(1024, 1024), float32]) { nn.relu(%x) }\n",
                 "--run --random-inputs --memory-budget=16M --emit=none");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(Contains(ok.out, "output[0]: shape=(1024, 1024)")) << ok.out;
}

}  // namespace
}  // namespace relaypass::bad_input
