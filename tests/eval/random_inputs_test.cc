// The seeded inputs of unbound networks: TVM's relay.testing initializer rules by parameter name.
#include <algorithm>
#include <cmath>

#include "relaypass/eval/weak_reference.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

// TVM v0.13 python/tvm/relay/testing/init.py, Initializer.__call__: *gamma and *moving_var are
// ones, *beta and *moving_mean zeros; weights Xavier(uniform, avg, magnitude 3).
TEST(RandomInputsTest, BatchNormParametersFollowTvmNames) {
  ir::Var data = relay::var("data", {1, 2, 4, 4});
  ir::Var weight = relay::var("conv_weight", {8, 2, 3, 3});
  ir::Var gamma = relay::var("bn_gamma", {8});
  ir::Var beta = relay::var("bn_beta", {8});
  ir::Var mean = relay::var("bn_moving_mean", {8});
  ir::Var var = relay::var("bn_moving_var", {8});
  ir::Var bias = relay::var("fc_bias", {8});
  ir::Function f = relay::function({data, weight, gamma, beta, mean, var, bias}, data);
  const std::vector<Value> in = RandomInputs(f, 11);
  ASSERT_EQ(in.size(), 7u);
  for (double v : Values(in[2].tensor())) EXPECT_EQ(v, 1.0);
  for (double v : Values(in[3].tensor())) EXPECT_EQ(v, 0.0);
  for (double v : Values(in[4].tensor())) EXPECT_EQ(v, 0.0);
  for (double v : Values(in[5].tensor())) EXPECT_EQ(v, 1.0);
  // Xavier bound by hand: fan_in 2*3*3 = 18, fan_out 8*3*3 = 72, sqrt(3 / 45) = 0.258.
  const double bound = std::sqrt(3.0 / 45.0);
  double largest = 0;
  for (double v : Values(in[1].tensor())) largest = std::max(largest, std::fabs(v));
  EXPECT_LE(largest, bound);
  EXPECT_GT(largest, bound * 0.9);
  // The other parameters are the seeded inputs they were: the same as under other names.
  ir::Function renamed = relay::function(
      {relay::var("x", {1, 2, 4, 4}), relay::var("w", {8, 2, 3, 3}), relay::var("g", {8}),
       relay::var("b", {8}), relay::var("m", {8}), relay::var("v", {8}), relay::var("c", {8})},
      data);
  const std::vector<Value> plain = RandomInputs(renamed, 11);
  EXPECT_TRUE(in[0].tensor().BitwiseEqual(plain[0].tensor())) << "data stays as is";
  EXPECT_TRUE(in[6].tensor().BitwiseEqual(plain[6].tensor())) << "a bias stays random";
  EXPECT_FALSE(in[1].tensor().BitwiseEqual(plain[1].tensor())) << "a weight is scaled";
  // Negative variances (plain random) are what made unbound networks compute NaN.
  bool negative = false;
  for (double v : Values(plain[5].tensor())) negative = negative || v < 0;
  EXPECT_TRUE(negative);
}

// The built-in networks without bound parameters, run on RandomInputs: finite probabilities
// (each row of the softmax sums to 1) that are not saturated (no class near 1). Before, negative
// random variances made every output NaN.
TEST(RandomInputsTest, UnboundNetworksComputeFiniteProbabilities) {
  for (const std::string name : {"mobilenet", "resnet-18"}) {
    const workloads::Workload w = workloads::GetWorkload(name);
    const std::vector<Value> inputs = RandomInputs(w.mod.Lookup("main"), 0);
    const NDArray out = Interpreter(w.mod).RunMain(inputs).tensor();
    ASSERT_EQ(out.shape(), (Shape{1, 1000})) << name;
    double sum = 0, largest = 0;
    for (double v : Values(out)) {
      ASSERT_TRUE(std::isfinite(v)) << name;
      sum += v;
      largest = std::max(largest, v);
    }
    EXPECT_NEAR(sum, 1.0, 1e-4) << name;
    EXPECT_LT(largest, 0.5) << name;
    EXPECT_EQ(WeakReference(Value(out)), "") << name;
  }
}

}  // namespace
}  // namespace relaypass::eval
