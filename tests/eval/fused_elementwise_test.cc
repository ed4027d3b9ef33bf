// FuseOps' elementwise groups run as one op::ElementwiseProgram (src/eval/fused_elementwise.h,
// src/op/kernels/elementwise_program.cc). The expected values are the reference op-by-op path:
// the same module before FuseOps, each op evaluated by its own kernel; the program must give the
// same bits, on every instruction-set variant of its loops and at one and two threads.
#include <cstring>
#include <random>
#include <string>

#include "../../src/eval/fused_elementwise.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/op/elementwise_program.h"
#include "relaypass/passes/fuse_ops.h"
#include "relaypass/support/error.h"
#include "relaypass/support/parallel.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/infer_type.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using Opcode = op::ElementwiseProgram::Opcode;

void ExpectBitwiseEqual(const NDArray& got, const NDArray& expected) {
  ASSERT_EQ(got.shape(), expected.shape());
  ASSERT_EQ(got.dtype(), expected.dtype());
  EXPECT_EQ(std::memcmp(got.raw_data(), expected.raw_data(), got.nbytes()), 0);
}

// Uniform integers in [lo, hi] (or floats there, with some exact halves) of `dtype`.
NDArray Uniform(const Shape& shape, DataType dtype, double lo, double hi, uint32_t seed) {
  NDArray out = NDArray::Empty(shape, dtype);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> real(lo, hi);
  for (int64_t i = 0; i < out.size(); ++i) {
    double v = real(rng);
    if (dtype.is_float()) {
      if (i % 7 == 0) v = std::floor(v) + 0.5;  // ties: round's halves away from zero
    } else {
      v = std::floor(v);
    }
    switch (dtype.bits()) {
      case 8:
        if (dtype.is_uint()) {
          out.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(v);
        } else {
          out.mutable_data<int8_t>()[i] = static_cast<int8_t>(v);
        }
        break;
      case 32:
        if (dtype.is_float()) {
          out.mutable_data<float>()[i] = static_cast<float>(v);
        } else {
          out.mutable_data<int32_t>()[i] = static_cast<int32_t>(v);
        }
        break;
      case 64:
        out.mutable_data<int64_t>()[i] = static_cast<int64_t>(v);
        break;
      default:
        ADD_FAILURE() << "dtype " << dtype.ToString();
    }
  }
  return out;
}

ir::IRModule Typed(const std::vector<ir::Var>& params, const ir::Expr& body) {
  ir::IRModule mod;
  mod.Add("main", relay::function(params, body));
  return transform::InferType()(mod);
}

// The primitive functions FuseOps makes of `mod`'s main.
std::vector<const ir::FunctionNode*> Groups(const ir::IRModule& fused) {
  std::vector<const ir::FunctionNode*> out;
  ir::post_order_visit(fused.Lookup("main")->body, [&](const ir::Expr& e) {
    const auto* f = e.as<ir::FunctionNode>();
    if (f && f->is_primitive()) out.push_back(f);
  });
  return out;
}

const char* const kIsas[] = {"sse2", "avx2", "avx512"};

class FusedElementwiseTest : public ::testing::Test {
 protected:
  void SetUp() override { isa_ = op::ElementwiseProgramIsa(); }
  void TearDown() override {
    op::SetElementwiseProgramIsa(isa_);
    support::SetNumThreads(1);
  }

  // main(params) = body, run fused (every group a program: `programs` of them) and op by op.
  void ExpectSameAsOpByOp(const std::vector<ir::Var>& params, const ir::Expr& body,
                          const std::vector<NDArray>& inputs, size_t programs) {
    const ir::IRModule typed = Typed(params, body);
    const ir::IRModule fused = passes::FuseOps(2)(typed);
    size_t matched = 0;
    for (const ir::FunctionNode* group : Groups(fused)) {
      if (MatchFusedElementwise(group)) ++matched;
    }
    EXPECT_EQ(matched, programs) << text::AsText(fused, false);
    std::vector<Value> args(inputs.begin(), inputs.end());
    const NDArray expected = Interpreter(typed).RunMain(args).tensor();
    for (const char* isa : kIsas) {
      if (!op::SetElementwiseProgramIsa(isa)) continue;
      for (int threads : {1, 2}) {
        SCOPED_TRACE(std::string(isa) + ", threads " + std::to_string(threads));
        support::SetNumThreads(threads);
        Interpreter interp(fused);
        ExpectBitwiseEqual(interp.RunMain(args).tensor(), expected);
      }
    }
  }

 private:
  std::string isa_;
};

// TVM's requantize lowering after a convolution, per channel (NCHW): subtract the input zero
// point, int64 fixed-point multiply with a left shift, rounding add and right shift, add the
// output zero point, clip and cast to uint8.
TEST_F(FusedElementwiseTest, RequantizeChainPerChannel) {
  const Shape shape{2, 8, 5, 7};
  ir::Var x = relay::var("x", shape, "int32");
  ir::Var m = relay::var("m", {8, 1, 1}, "int64");
  const NDArray zp = Uniform({8, 1, 1}, DataType::Int(32), -5, 5, 1);
  const NDArray round = Uniform({8, 1, 1}, DataType::Int(64), 1 << 20, 1 << 21, 2);
  const NDArray shift = Uniform({8, 1, 1}, DataType::Int(64), 20, 40, 3);
  ir::Expr v = relay::subtract(x, C(zp));
  v = relay::cast(v, "int64");
  v = relay::call("left_shift", {v, C(NDArray::Scalar<int64_t>(1, DataType::Int(64)))});
  v = relay::multiply(v, m);
  v = relay::add(v, C(round));
  v = relay::call("right_shift", {v, C(shift)});
  v = relay::cast(v, "int32");
  v = relay::add(C(NDArray::Scalar<int32_t>(3, DataType::Int(32))), v);
  v = relay::clip(v, 0, 255);
  v = relay::cast(v, "uint8");
  ExpectSameAsOpByOp({x, m}, v,
                     {Uniform(shape, DataType::Int(32), -3e6, 3e6, 4),
                      Uniform({8, 1, 1}, DataType::Int(64), 1e9, 2e9, 5)},
                     1);
}

// qnn.quantize's lowering of float data: divide by the scale, round (halves away from zero),
// add the zero point, clip, cast; then widened and shifted as the next lowering does.
TEST_F(FusedElementwiseTest, QuantizeWithRoundAndTies) {
  const Shape shape{3, 37};
  ir::Var x = relay::var("x", shape, "float32");
  ir::Expr v = relay::divide(x, C(NDArray::Scalar<float>(0.25f, DataType::Float32())));
  v = relay::round(v);
  v = relay::add(v, C(NDArray::Scalar<float>(-3.0f, DataType::Float32())));
  v = relay::clip(v, -128, 127);
  v = relay::cast(relay::cast(v, "int8"), "int32");
  v = relay::subtract(v, C(NDArray::Scalar<int32_t>(-3, DataType::Int(32))));
  NDArray input = Uniform(shape, DataType::Float32(), -40, 40, 6);
  input.mutable_data<float>()[1] = -0.125f;  // rounds to -0, then -3
  input.mutable_data<float>()[2] = 1e30f;    // clipped
  ExpectSameAsOpByOp({x}, v, {input}, 1);
}

// Operands broadcast along the last axis (a dense layer's bias by nn.bias_add(axis=-1)), along
// the first (a column), and a same-shape tensor: runs and scalars mixed in each piece.
TEST_F(FusedElementwiseTest, MixedBroadcasts) {
  ir::Var x = relay::var("x", {300, 37}, "int32");
  ir::Var y = relay::var("y", {300, 37}, "int32");
  ir::Var col = relay::var("col", {300, 1}, "int32");
  ir::Expr v = relay::nn::bias_add(x, C(Uniform({37}, DataType::Int(32), -9, 9, 7)), -1);
  v = relay::maximum(relay::add(v, col), y);
  v = relay::call("minimum", {v, C(Uniform({1, 37}, DataType::Int(32), -5, 20, 8))});
  ExpectSameAsOpByOp({x, y, col}, v,
                     {Uniform({300, 37}, DataType::Int(32), -20, 20, 9),
                      Uniform({300, 37}, DataType::Int(32), -20, 20, 10),
                      Uniform({300, 1}, DataType::Int(32), -20, 20, 11)},
                     1);
}

// qnn.add's lowering: two requantized branches from two parameters (a DAG, not a chain).
TEST_F(FusedElementwiseTest, TwoBranches) {
  const Shape shape{1, 4, 9, 9};
  ir::Var a = relay::var("a", shape, "uint8"), b = relay::var("b", shape, "uint8");
  auto branch = [](const ir::Expr& x, int64_t multiplier) {
    ir::Expr v = relay::cast(relay::cast(x, "int32"), "int64");
    v = relay::multiply(v, C(NDArray::Scalar<int64_t>(multiplier, DataType::Int(64))));
    v = relay::add(v, C(NDArray::Scalar<int64_t>(int64_t{1} << 30, DataType::Int(64))));
    v = relay::call("right_shift", {v, C(NDArray::Scalar<int64_t>(31, DataType::Int(64)))});
    return relay::cast(v, "int32");
  };
  ir::Expr v = relay::add(branch(a, 1892539014), branch(b, 1099736046));
  v = relay::cast(relay::clip(v, 0, 255), "uint8");
  ExpectSameAsOpByOp({a, b}, v,
                     {Uniform(shape, DataType::UInt(8), 0, 255, 12),
                      Uniform(shape, DataType::UInt(8), 0, 255, 13)},
                     1);
}

// A uint8 x int8 convolution into int32 (the int8 GEMM) as the group's anchor, its requantize
// as the program; the nn.pad with the next layer's zero point after it is a group of its own.
TEST_F(FusedElementwiseTest, ConvolutionAnchor) {
  ir::Var x = relay::var("x", {1, 16, 9, 11}, "uint8");
  const NDArray w = Uniform({24, 16, 3, 3}, DataType::Int(8), -127, 127, 14);
  relay::nn::Conv2DArgs args;
  args.padding = {1, 1};
  args.out_dtype = "int32";
  ir::Expr v = relay::nn::conv2d(x, C(w), args);
  v = relay::nn::bias_add(v, C(Uniform({24}, DataType::Int(32), -1000, 1000, 15)));
  v = relay::cast(v, "int64");
  v = relay::multiply(v, C(Uniform({24, 1, 1}, DataType::Int(64), 1e9, 2e9, 16)));
  v = relay::add(v, C(NDArray::Scalar<int64_t>(int64_t{1} << 37, DataType::Int(64))));
  v = relay::call("right_shift", {v, C(NDArray::Scalar<int64_t>(38, DataType::Int(64)))});
  v = relay::cast(relay::clip(relay::cast(v, "int32"), 0, 255), "uint8");
  v = relay::nn::pad(v, {{0, 0}, {0, 0}, {1, 1}, {1, 1}},
                     C(NDArray::Scalar<int32_t>(7, DataType::Int(32))));
  ExpectSameAsOpByOp({x}, v, {Uniform({1, 16, 9, 11}, DataType::UInt(8), 0, 255, 17)}, 1);
}

// The requantize chains the int8 convolution applies in its kernel (op::Conv2DInt8WithSteps,
// where the processor has AVX-512 VNNI and DQ; elsewhere the same module runs as a program):
// bias add, subtracted zero-point term, relu as maximum, per-channel fixed-point multiply with a
// left shift, output zero point, clip, and a uint8 / int8 / int32 result; 70 output channels
// (a partial row run), 1x1 and 3x3 kernels. Expected values: the ops one by one.
TEST_F(FusedElementwiseTest, ConvolutionStepsInTheKernel) {
  uint32_t seed = 30;
  for (const char* out : {"uint8", "int8", "int32"}) {
    for (int64_t kernel : {1, 3}) {
      SCOPED_TRACE(std::string(out) + ", kernel " + std::to_string(kernel));
      ir::Var x = relay::var("x", {1, 12, 7, 9}, "uint8");
      const NDArray w = Uniform({70, 12, kernel, kernel}, DataType::Int(8), -127, 127, seed++);
      relay::nn::Conv2DArgs args;
      args.padding = {kernel / 2, kernel / 2};
      args.out_dtype = "int32";
      ir::Expr v = relay::nn::conv2d(x, C(w), args);
      v = relay::add(v, C(Uniform({70, 1, 1}, DataType::Int(32), -4000, 4000, seed++)));
      v = relay::subtract(v, C(Uniform({1, 70, 1, 1}, DataType::Int(32), -900, 900, seed++)));
      v = relay::maximum(v, C(NDArray::Scalar<int32_t>(-50, DataType::Int(32))));
      v = relay::cast(v, "int64");
      v = relay::call("left_shift", {v, C(NDArray::Scalar<int64_t>(1, DataType::Int(64)))});
      v = relay::multiply(v, C(Uniform({70, 1, 1}, DataType::Int(64), 1 << 30, 2e9, seed++)));
      v = relay::add(v, C(NDArray::Scalar<int64_t>(int64_t{1} << 36, DataType::Int(64))));
      v = relay::call("right_shift", {v, C(NDArray::Scalar<int64_t>(37, DataType::Int(64)))});
      v = relay::cast(v, "int32");
      v = relay::add(C(NDArray::Scalar<int32_t>(3, DataType::Int(32))), v);
      if (std::string(out) != "int32") v = relay::cast(relay::clip(v, -128, 255), out);
      const ir::IRModule fused = passes::FuseOps(2)(Typed({x}, v));
      ASSERT_EQ(Groups(fused).size(), 1u);
      const std::unique_ptr<FusedElementwise> match = MatchFusedElementwise(Groups(fused)[0]);
      ASSERT_NE(match, nullptr);
      EXPECT_TRUE(match->conv_steps_match);
      ExpectSameAsOpByOp({x}, v, {Uniform({1, 12, 7, 9}, DataType::UInt(8), 0, 255, seed++)}, 1);
    }
  }
}

// qnn.quantize of a float input and the nn.pad of the convolution after it: one group, the pad
// applied to the program's result (the tail).
TEST_F(FusedElementwiseTest, PadAfterTheProgram) {
  ir::Var x = relay::var("x", {1, 3, 10, 12}, "float32");
  ir::Expr v = relay::round(relay::divide(x, C(NDArray::Scalar<float>(0.1f, DataType::Float32()))));
  v = relay::cast(
      relay::clip(relay::add(v, C(NDArray::Scalar<float>(128.0f, DataType::Float32()))), 0, 255),
      "uint8");
  v = relay::nn::pad(v, {{0, 0}, {0, 0}, {2, 1}, {0, 3}},
                     C(NDArray::Scalar<int32_t>(128, DataType::Int(32))));
  ExpectSameAsOpByOp({x}, v, {Uniform({1, 3, 10, 12}, DataType::Float32(), -15, 15, 22)}, 1);
}

// An integer division by zero fails with the divide op's own error, as op by op.
TEST_F(FusedElementwiseTest, DivisionByZeroIsTheOpsError) {
  ir::Var x = relay::var("x", {4, 5}, "int32"), y = relay::var("y", {4, 5}, "int32");
  const ir::Expr body = relay::add(relay::divide(x, y), x);
  const ir::IRModule typed = Typed({x, y}, body);
  const ir::IRModule fused = passes::FuseOps(2)(typed);
  ASSERT_EQ(Groups(fused).size(), 1u);
  ASSERT_NE(MatchFusedElementwise(Groups(fused)[0]), nullptr);
  NDArray divisor = Uniform({4, 5}, DataType::Int(32), 1, 9, 18);
  divisor.mutable_data<int32_t>()[13] = 0;
  const std::vector<Value> args = {Value(Uniform({4, 5}, DataType::Int(32), -9, 9, 19)),
                                   Value(divisor)};
  std::string expected, got;
  try {
    Interpreter(typed).RunMain(args);
  } catch (const Error& e) {
    expected = e.what();
  }
  try {
    Interpreter(fused).RunMain(args);
  } catch (const Error& e) {
    got = e.what();
  }
  EXPECT_NE(expected.find("division by zero"), std::string::npos) << expected;
  EXPECT_EQ(got, expected);
}

// Groups the programs do not take stay op by op: float16, and two ops outside the opcodes.
TEST_F(FusedElementwiseTest, OtherGroupsAreNotPrograms) {
  ir::Var h = relay::var("h", {2, 3}, "float16");
  const ir::IRModule half = passes::FuseOps(2)(Typed({h}, relay::add(h, h)));
  ASSERT_EQ(Groups(half).size(), 1u);
  EXPECT_EQ(MatchFusedElementwise(Groups(half)[0]), nullptr);
  ir::Var f = relay::var("f", {2, 3}, "float32");
  // Two ops outside the opcodes before the arithmetic: one anchor only.
  const ir::IRModule two =
      passes::FuseOps(2)(Typed({f}, relay::add(relay::call("exp", {f}), relay::call("log", {f}))));
  ASSERT_EQ(Groups(two).size(), 1u);
  EXPECT_EQ(MatchFusedElementwise(Groups(two)[0]), nullptr);
}

// FuseElementwiseInstructions replaces the fixed-point run by one instruction, and leaves it
// when an intermediate value has another use.
TEST(ElementwiseProgramTest, FixedPointRunIsFusedOnlyWhenItsValuesHaveNoOtherUse) {
  using Instruction = op::ElementwiseProgram::Instruction;
  auto instruction = [](Opcode op, DataType dtype, DataType out, int a, int b = -1) {
    Instruction in;
    in.op = op;
    in.dtype = dtype;
    in.out_dtype = out;
    in.args = {a, b, -1, -1, -1};
    return in;
  };
  const DataType i32 = DataType::Int(32), i64 = DataType::Int(64);
  op::ElementwiseProgram p;
  p.num_inputs = 4;  // x, multiplier, addend, shift
  p.instructions = {instruction(Opcode::kCast, i32, i64, 0),
                    instruction(Opcode::kMultiply, i64, i64, 1, 4),  // multiplier first
                    instruction(Opcode::kAdd, i64, i64, 5, 2),
                    instruction(Opcode::kRightShift, i64, i64, 6, 3),
                    instruction(Opcode::kCast, i64, i32, 7)};
  const op::ElementwiseProgram fused = op::FuseElementwiseInstructions(p);
  ASSERT_EQ(fused.instructions.size(), 1u);
  EXPECT_EQ(fused.instructions[0].op, Opcode::kFixedPointMultiply);
  const std::vector<NDArray> inputs = {
      Uniform({3, 50}, i32, -4e6, 4e6, 20), Uniform({3, 1}, i64, 1e9, 2e9, 21),
      NDArray::Scalar<int64_t>(int64_t{1} << 35, i64), NDArray::Scalar<int64_t>(36, i64)};
  ExpectBitwiseEqual(op::RunElementwiseProgram(fused, inputs, {3, 50}),
                     op::RunElementwiseProgram(p, inputs, {3, 50}));
  // The product also feeds the result: no fusion.
  op::ElementwiseProgram shared = p;
  shared.instructions.push_back(instruction(Opcode::kCast, i64, i32, 5));
  shared.instructions.push_back(instruction(Opcode::kAdd, i32, i32, 8, 9));
  EXPECT_EQ(op::FuseElementwiseInstructions(shared).instructions.size(), 7u);
}

TEST(ElementwiseProgramTest, BadInputsAreErrors) {
  op::ElementwiseProgram p;
  p.num_inputs = 2;
  op::ElementwiseProgram::Instruction add;
  add.op = Opcode::kAdd;
  add.dtype = add.out_dtype = DataType::Float32();
  add.args = {0, 1, -1, -1, -1};
  p.instructions = {add};
  const NDArray a = Random({4, 3}, 1), b = Random({4, 2}, 2);
  EXPECT_THROW(op::RunElementwiseProgram(p, {a, b}, {4, 3}), Error);  // does not broadcast
  EXPECT_THROW(op::RunElementwiseProgram(p, {a}, {4, 3}), Error);     // an input missing
  p.instructions[0].args = {0, 5, -1, -1, -1};
  EXPECT_THROW(op::RunElementwiseProgram(p, {a, a}, {4, 3}), Error);  // no value 5
  p.instructions[0].args = {0, 1, -1, -1, -1};
  p.instructions[0].dtype = DataType::Float(64);
  EXPECT_THROW(op::RunElementwiseProgram(p, {a, a}, {4, 3}), Error);  // unsupported dtype
  EXPECT_FALSE(op::SetElementwiseProgramIsa("neon"));
}

}  // namespace
}  // namespace relaypass::eval
