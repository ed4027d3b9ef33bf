// ToMixedPrecision. Expected graphs follow TVM v0.13's rules (to_mixed_precision.cc and the
// default lists of python/tvm/relay/transform/mixed_precision.py) and its own test
// tests/python/relay/test_to_mixed_precision.py: test_convert_single_conv expects the data and
// weight cast to float16 and conv2d(out_dtype="float16"); ops of the NEVER list get float32
// arguments back; FOLLOW ops follow their arguments. The texts below are derived by hand from
// those rules. The numeric check compares the evaluator's float16 run of resnet-18 with its
// float32 run.
#include <gtest/gtest.h>

#include <cmath>

#include "pass_test_util.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/eval/random.h"
#include "relaypass/ir/bind.h"
#include "relaypass/passes/to_mixed_precision.h"
#include "relaypass/text/parser.h"
#include "relaypass/text/printer.h"
#include "relaypass/transform/pass_context.h"
#include "relaypass/transform/registry.h"
#include "relaypass/workloads/workloads.h"

namespace relaypass::passes {
namespace {

ir::IRModule Parse(const std::string& body) {
  return text::ParseModule("#[version = \"0.0.5\"]\n" + body);
}

std::string Convert(const std::string& body, const transform::Pass& pass = ToMixedPrecision()) {
  return text::AsText(pass(Parse(body)), false);
}

TEST(ToMixedPrecisionTest, ConvThenFollowOpsThenNeverOp) {
  const std::string out = Convert(R"(
def @main(%data: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %b: Tensor[(4), float32]) {
  %0 = nn.conv2d(%data, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);
  %1 = nn.bias_add(%0, %b);
  %2 = nn.relu(%1);
  nn.softmax(%2)
})");
  EXPECT_EQ(out, R"(#[version = "0.0.5"]
def @main(%data: Tensor[(1, 3, 8, 8), float32] /* ty=Tensor[(1, 3, 8, 8), float32] */, %w: Tensor[(4, 3, 3, 3), float32] /* ty=Tensor[(4, 3, 3, 3), float32] */, %b: Tensor[(4), float32] /* ty=Tensor[(4), float32] */) -> Tensor[(1, 4, 8, 8), float32] {
  %0 = cast(%data, dtype="float16") /* ty=Tensor[(1, 3, 8, 8), float16] */;
  %1 = cast(%w, dtype="float16") /* ty=Tensor[(4, 3, 3, 3), float16] */;
  %2 = nn.conv2d(%0, %1, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3], out_dtype="float16") /* ty=Tensor[(1, 4, 8, 8), float16] */;
  %3 = cast(%b, dtype="float16") /* ty=Tensor[(4), float16] */;
  %4 = nn.bias_add(%2, %3) /* ty=Tensor[(1, 4, 8, 8), float16] */;
  %5 = nn.relu(%4) /* ty=Tensor[(1, 4, 8, 8), float16] */;
  %6 = cast(%5, dtype="float32") /* ty=Tensor[(1, 4, 8, 8), float32] */;
  nn.softmax(%6) /* ty=Tensor[(1, 4, 8, 8), float32] */
}
)");
}

// A FOLLOW op with one float32 argument computed in float32 (not a variable or constant) stays
// float32: its float16 argument is cast back.
TEST(ToMixedPrecisionTest, FollowOpWithAFloat32ArgumentStaysFloat32) {
  const std::string out = Convert(R"(
def @main(%x: Tensor[(2, 2), float32], %y: Tensor[(2, 2), float32]) {
  %0 = nn.dense(%x, %y, units=None);
  %1 = exp(%x);
  add(%0, %1)
})");
  EXPECT_EQ(out, R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 2), float32] /* ty=Tensor[(2, 2), float32] */, %y: Tensor[(2, 2), float32] /* ty=Tensor[(2, 2), float32] */) -> Tensor[(2, 2), float32] {
  %0 = cast(%x, dtype="float16") /* ty=Tensor[(2, 2), float16] */;
  %1 = cast(%y, dtype="float16") /* ty=Tensor[(2, 2), float16] */;
  %2 = nn.dense(%0, %1, units=None, out_dtype="float16") /* ty=Tensor[(2, 2), float16] */;
  %3 = cast(%2, dtype="float32") /* ty=Tensor[(2, 2), float32] */;
  %4 = exp(%x) /* ty=Tensor[(2, 2), float32] */;
  add(%3, %4) /* ty=Tensor[(2, 2), float32] */
}
)");
}

// A let-bound variable takes its rewritten value's type (TVM re-annotates it in place).
TEST(ToMixedPrecisionTest, LetBoundVariableTakesTheNewType) {
  const std::string out = Convert(R"(
def @main(%x: Tensor[(2, 2), float32]) {
  let %a = nn.dense(%x, %x, units=None);
  nn.relu(%a)
})");
  EXPECT_NE(out.find("let %a: Tensor[(2, 2), float16] /* ty=Tensor[(2, 2), float16] */ = "
                     "nn.dense(%0, %0, units=None, out_dtype=\"float16\")"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("nn.relu(%a) /* ty=Tensor[(2, 2), float16] */"), std::string::npos) << out;
}

TEST(ToMixedPrecisionTest, OneCastPerValueAndDtype) {
  const std::string out = Convert(R"(
def @main(%x: Tensor[(2, 2), float32]) {
  %0 = nn.dense(%x, %x, units=None);
  %1 = nn.dense(%x, %0, units=None);
  nn.dense(%1, %x, units=None)
})");
  // %x is cast once, used by all three dense calls.
  size_t casts = 0;
  for (size_t p = out.find("cast("); p != std::string::npos; p = out.find("cast(", p + 1)) ++casts;
  EXPECT_EQ(casts, 1u) << out;
}

TEST(ToMixedPrecisionTest, RegisteredRuleOverridesTheDefaultList) {
  const std::string body = R"(
def @main(%x: Tensor[(2, 2), float32]) {
  %0 = nn.dense(%x, %x, units=None);
  nn.softmax(%0)
})";
  struct Restore {  // TVM's default for nn.softmax, whatever happens below
    ~Restore() {
      RegisterMixedPrecisionConversion("nn.softmax",
                                       GenericMixedPrecisionRule(MixedPrecisionCategory::kNever));
    }
  };
  std::string always;
  {
    Restore restore;
    RegisterMixedPrecisionConversion("nn.softmax",
                                     GenericMixedPrecisionRule(MixedPrecisionCategory::kAlways));
    always = Convert(body);
  }
  EXPECT_NE(always.find("nn.softmax(%1) /* ty=Tensor[(2, 2), float16] */"), std::string::npos)
      << always;
  EXPECT_NE(Convert(body).find("nn.softmax(%2) /* ty=Tensor[(2, 2), float32] */"),
            std::string::npos);
}

TEST(ToMixedPrecisionTest, MissingOpModes) {
  // nn.lrn is in none of TVM's lists: FOLLOW, and reported.
  const std::string body = R"(
def @main(%x: Tensor[(1, 4, 2, 2), float32]) {
  nn.lrn(%x)
})";
  EXPECT_THROW(Convert(body, ToMixedPrecision("float16", 0)), PassError);
  EXPECT_NO_THROW(Convert(body, ToMixedPrecision("float16", 2)));
  EXPECT_THROW(ToMixedPrecision("float16", 3), PassError);
  EXPECT_THROW(ToMixedPrecision("int8"), PassError);
  EXPECT_NO_THROW(
      transform::CreatePass("ToMixedPrecision(mixed_precision_type=\"float16\", "
                            "missing_op_mode=2)"));
}

// resnet-18 with its parameters bound: the float16 model evaluates within float16 tolerance of
// the float32 one, and not exactly to it (the conversion did change the arithmetic).
TEST(ToMixedPrecisionTest, Resnet18EvaluatesWithinFloat16Tolerance) {
  workloads::Workload w = workloads::GetWorkload("resnet-18");
  ir::IRModule mod;
  mod.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), w.params));
  transform::PassContextScope scope(transform::PassContext({.opt_level = 3}));
  const ir::IRModule half =
      transform::CreatePass("ToMixedPrecision")(transform::CreatePass("InferType")(mod));
  const std::vector<eval::Value> inputs = eval::RandomInputs(mod.Lookup("main"), 1);
  const ir::NDArray ref = eval::Interpreter(mod).RunMain(inputs).tensor();
  const ir::NDArray got = eval::Interpreter(half).RunMain(inputs).tensor();
  ASSERT_EQ(ref.size(), got.size());
  ASSERT_EQ(got.dtype(), ir::DataType::Float32());  // softmax is NEVER: float32 out
  double max_rel = 0;
  for (int64_t i = 0; i < ref.size(); ++i) {
    const double a = ref.data<float>()[i], b = got.data<float>()[i];
    max_rel = std::max(max_rel, std::abs(a - b) / std::max(std::abs(a), 1e-3));
  }
  EXPECT_LT(max_rel, 5e-2);  // float16 has an 11-bit significand: 5e-4 per op, 18 layers
  EXPECT_GT(max_rel, 0.0);
}

}  // namespace
}  // namespace relaypass::passes
