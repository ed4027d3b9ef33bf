// --verify-each catches what a pass changes, NaN and infinity included, and says when its
// reference proves little. The instrument is run on module passes built here; the expected
// verdicts are hand computed from numpy.allclose's rules (NaN differs from every number, an
// infinity equals only itself) and the default float32 tolerance 1e-5 + 1e-5 * |expected|.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "cli_test_util.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"
#include "relaypass/text/parser.h"
#include "relaypass/tools/verify_instrument.h"
#include "relaypass/transform.h"

namespace relaypass::tools {
namespace {

using ir::IRModule;

// main(%x: (2, 3)) = (x + 1) * (x + 1): values in [0, 4) on inputs in [-1, 1).
IRModule SmallModule() {
  return text::ParseModule(
      "def @main(%x: Tensor[(2, 3), float32]) {\n"
      "  %0 = add(%x, 1f);\n"
      "  multiply(%0, %0)\n"
      "}\n");
}

// A module pass that replaces main's body by `wrap(body)`.
transform::Pass Rewrite(const std::string& name, std::function<ir::Expr(ir::Expr)> wrap) {
  return transform::CreateModulePass(
      [wrap](const IRModule& mod, const transform::PassContext&) {
        const ir::Function main = mod.Lookup("main");
        IRModule out = mod;
        out.Add("main", ir::MakeFunction(main->params, wrap(main->body)));
        return out;
      },
      0, name);
}

// A (2, 3) float32 constant: `fill` everywhere, `at_1_2` at [1, 2].
ir::Expr Tensor23(float fill, float at_1_2) {
  ir::NDArray array = ir::NDArray::Empty({2, 3}, ir::DataType::Float32());
  float* p = array.mutable_data<float>();
  for (int i = 0; i < 6; ++i) p[i] = fill;
  p[5] = at_1_2;
  return relay::const_(array);
}

ir::Expr TimesOne(ir::Expr body) {
  return relay::multiply(body, relay::const_(1.0f));
}
// NaN in one element: body * [1, 1, 1, 1, 1, NaN].
ir::Expr OneNan(ir::Expr body) {
  return relay::multiply(body, Tensor23(1.0f, std::numeric_limits<float>::quiet_NaN()));
}
// One element moved by 1e-3: body + [0, 0, 0, 0, 0, 1e-3].
ir::Expr NudgeOne(ir::Expr body) {
  return relay::add(body, Tensor23(0.0f, 1e-3f));
}
// Every element NaN (0 * inf).
ir::Expr AllNan(ir::Expr body) {
  return relay::multiply(relay::multiply(body, relay::const_(0.0f)),
                         relay::const_(std::numeric_limits<float>::infinity()));
}
ir::Expr Zero(ir::Expr body) {
  return relay::multiply(body, relay::const_(0.0f));
}
// +inf in one element: body + [0, 0, 0, 0, 0, inf].
ir::Expr OneInf(ir::Expr body) {
  return relay::add(body, Tensor23(0.0f, std::numeric_limits<float>::infinity()));
}

// Runs `passes` in order under a context with a VerifyInstrument; the error message, or "".
std::string Verify(const IRModule& mod, const std::vector<transform::Pass>& passes,
                   VerifyOptions options, std::shared_ptr<VerifyInstrument>* out = nullptr) {
  auto verify = std::make_shared<VerifyInstrument>(std::move(options));
  if (out) *out = verify;
  transform::PassContext ctx({.instruments = {verify}});
  transform::PassContextScope scope(ctx);
  try {
    IRModule m = mod;
    for (const transform::Pass& pass : passes) m = pass(m);
  } catch (const PassError& e) {
    return e.what();
  }
  return "";
}

VerifyOptions Tolerance(double rtol, double atol) {
  VerifyOptions options;
  options.tolerance = eval::Tolerance{rtol, atol};
  return options;
}

TEST(VerifyEachTest, CatchesAPassThatIntroducesANan) {
  for (const VerifyOptions& options : {VerifyOptions{}, Tolerance(0, 0), Tolerance(1e3, 1e3)}) {
    const std::string error = Verify(SmallModule(), {Rewrite("OneNan", OneNan)}, options);
    EXPECT_EQ(
        error.rfind("pass \"OneNan\" changed the results of @main: 1 of 6 elements differ", 0), 0u)
        << error;
    EXPECT_NE(error.find("worst at [1, 2] (flat 5): actual nan"), std::string::npos) << error;
  }
}

TEST(VerifyEachTest, CatchesAPassThatMovesOneElementBy1em3) {
  // |diff| 1e-3 > 1e-5 + 1e-5 * 4 (outputs are below 4).
  const std::string error = Verify(SmallModule(), {Rewrite("NudgeOne", NudgeOne)}, {});
  EXPECT_EQ(
      error.rfind("pass \"NudgeOne\" changed the results of @main: 1 of 6 elements differ", 0), 0u)
      << error;
  EXPECT_NE(error.find("worst at [1, 2]"), std::string::npos) << error;
  // A tolerance of 1e-2 lets it through: 1e-3 <= 1e-2.
  EXPECT_EQ(Verify(SmallModule(), {Rewrite("NudgeOne", NudgeOne)}, Tolerance(0, 1e-2)), "");
}

TEST(VerifyEachTest, InfinitiesCompareByWhatTheyAre) {
  // A pass that makes an infinity from a number is caught at any tolerance...
  const std::string error =
      Verify(SmallModule(), {Rewrite("OneInf", OneInf)}, Tolerance(1e30, 1e30));
  EXPECT_NE(error.find("actual inf"), std::string::npos) << error;
  // ...one that keeps it is not (inf against the same inf), and the reference is not weak.
  std::shared_ptr<VerifyInstrument> verify;
  const IRModule with_inf = Rewrite("OneInf", OneInf)(SmallModule());
  EXPECT_EQ(Verify(with_inf, {Rewrite("TimesOne", TimesOne)}, Tolerance(0, 0), &verify), "");
  EXPECT_EQ(verify->passes_checked(), 1);
  EXPECT_TRUE(verify->weak_checks().empty());
}

TEST(VerifyEachTest, ANanOrConstantReferenceIsWeakNotAPass) {
  // NaN against NaN at tolerance 0: not a difference, but not verified either.
  std::shared_ptr<VerifyInstrument> verify;
  const IRModule nan = Rewrite("AllNan", AllNan)(SmallModule());
  EXPECT_EQ(Verify(nan, {Rewrite("TimesOne", TimesOne)}, Tolerance(0, 0), &verify), "");
  EXPECT_EQ(verify->passes_checked(), 1);
  ASSERT_EQ(verify->weak_checks().size(), 1u);
  EXPECT_EQ(verify->weak_checks()[0].pass, "TimesOne");
  EXPECT_EQ(verify->weak_checks()[0].reason, "output 0 is NaN in 6 of 6 elements");
  // All zeros: constant.
  const IRModule zero = Rewrite("Zero", Zero)(SmallModule());
  EXPECT_EQ(Verify(zero, {Rewrite("TimesOne", TimesOne)}, {}, &verify), "");
  ASSERT_EQ(verify->weak_checks().size(), 1u);
  EXPECT_EQ(verify->weak_checks()[0].reason, "output 0 is constant: all 6 elements are 0");
  // A NaN reference still catches a number where it had NaN (the reverse of a new NaN).
  const std::string error = Verify(
      nan, {Rewrite("Zeros", [](ir::Expr) { return Tensor23(0.0f, 0.0f); })}, Tolerance(1e3, 1e3));
  EXPECT_EQ(error.rfind("pass \"Zeros\" changed the results of @main: 6 of 6 elements differ", 0),
            0u)
      << error;
}

// The same through relay-opt: a module whose output is NaN, and a pass (EliminateCommonSubexpr)
// that changes the module but not the NaN.
TEST(VerifyEachTest, CliWarnsAboutAWeakReference) {
  SKIP_UNLESS_REGISTERED("EliminateCommonSubexpr");
  const std::string nan_model =
      "def @main(%x: Tensor[(4), float32]) {\n"
      "  %0 = multiply(%x, 0f);\n"
      "  %1 = multiply(%x, 0f);\n"
      "  divide(%0, %1)\n"
      "}\n";
  const relay_opt::testing::ToolResult r =
      relay_opt::testing::RunTool({"-", "--passes=EliminateCommonSubexpr", "--verify-each",
                                   "--verify-tolerance=0", "--emit=none"},
                                  nan_model);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err,
            "relay-opt: warning: verify-each: pass \"EliminateCommonSubexpr\" not verified: weak "
            "reference (output 0 is NaN in 4 of 4 elements)\n"
            "relay-opt: verify-each: results unchanged by the 0 passes that changed the module; 1 "
            "pass compared against a weak reference only\n");
}

// Unbound workloads run on their own weights (TVM's relay.testing initialisation, as
// --bind-params binds them), so the default pipeline on resnet-18 is verified against finite,
// informative results. (mobilenet's own weights give a softmax constant to float precision,
// all 0.001: a weak reference, which verify-each reports as such.)
TEST(VerifyEachTest, CliResNetIsVerifiedOnFiniteResults) {
  const relay_opt::testing::ToolResult r =
      relay_opt::testing::RunTool({"--workload=resnet-18", "--pipeline=default", "--verify-each",
                                   "--emit=none", "--run", "--random-inputs"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.rfind("relay-opt: verify-each: results unchanged by the ", 0), 0u) << r.err;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("inf"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.rfind("output[0]: shape=(1, 1000) dtype=float32 min=0.000", 0), 0u) << r.out;
}

}  // namespace
}  // namespace relaypass::tools
