// Whole networks end to end: the tutorial example, resnet-18 (NCHW and NHWC on the same input and
// parameters), mobilenet.
#include <cmath>

#include "relaypass/ir/bind.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

// main with its parameters (all but the input) bound to `params`.
ir::IRModule BindParams(const workloads::Workload& w,
                        const std::map<std::string, NDArray>& params) {
  ir::IRModule mod;
  mod.Add("main", ir::BindParamsByName(w.mod.Lookup("main"), params));
  return mod;
}

// Every row of a [batch, classes] softmax output is finite, non-negative and sums to 1.
void ExpectProbabilities(const NDArray& out, int64_t classes) {
  ASSERT_EQ(out.ndim(), 2);
  ASSERT_EQ(out.shape()[1], classes);
  for (int64_t r = 0; r < out.shape()[0]; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < classes; ++c) {
      const float v = out.data<float>()[r * classes + c];
      ASSERT_TRUE(std::isfinite(v));
      ASSERT_GE(v, 0.0f);
      sum += v;
    }
    EXPECT_NEAR(sum, 1.0, 1e-4) << "row " << r;
  }
}

TEST(WorkloadTest, TutorialExample) {
  // example(): conv2d(x, weight) plus arithmetic on a zero constant, i.e. 2 * conv2d(x, weight).
  ir::IRModule mod = ir::IRModule::FromExpr(workloads::Example());
  std::vector<Value> inputs = RandomInputs(mod.Lookup("main"), 1);
  ASSERT_EQ(inputs.size(), 2u);
  const NDArray& x = inputs[0].tensor();
  const NDArray& w = inputs[1].tensor();
  Interpreter interp(mod);
  NDArray out = interp.RunMain(inputs).tensor();
  ASSERT_EQ(out.shape(), (Shape{1, 64, 54, 54}));
  // Spot-check positions against the definition.
  for (int64_t k = 0; k < 300; ++k) {
    const int64_t o = (k * 7) % 64, y = (k * 13) % 54, xx = (k * 29) % 54;
    double acc = 0;
    for (int64_t c = 0; c < 64; ++c)
      for (int64_t r = 0; r < 3; ++r)
        for (int64_t s = 0; s < 3; ++s)
          acc += static_cast<double>(x.data<float>()[Offset(x.shape(), {0, c, y + r, xx + s})]) *
                 w.data<float>()[Offset(w.shape(), {o, c, r, s})];
    EXPECT_NEAR(out.data<float>()[Offset(out.shape(), {0, o, y, xx})], 2 * acc, 1e-4);
  }
}

TEST(WorkloadTest, ResNet18EndToEnd) {
  workloads::Workload w = workloads::GetWorkload("resnet-18");
  ir::IRModule mod = BindParams(w, w.params);
  ASSERT_EQ(mod.Lookup("main")->params.size(), 1u);
  NDArray data = Random({1, 3, 224, 224}, 5);
  std::vector<NDArray> out = RunMain(mod, {data});
  ASSERT_EQ(out.size(), 1u);
  ExpectProbabilities(out[0], 1000);
  // The same on the type-inferred module (kernels get the checked types as hints).
  std::vector<NDArray> typed = RunMain(ir::InferTypes(mod), {data});
  EXPECT_TRUE(AllClose(typed[0], out[0]).ok);
}

TEST(WorkloadTest, ResNet18NHWCMatchesNCHW) {
  workloads::Workload nchw = workloads::GetWorkload("resnet-18");
  workloads::Workload nhwc = workloads::GetWorkload("resnet-18", {.layout = "NHWC"});
  // The NCHW parameters, weights transposed OIHW -> HWIO.
  std::map<std::string, NDArray> params;
  for (const auto& [name, value] : nhwc.params) {
    ASSERT_TRUE(nchw.params.count(name)) << name;
    NDArray p = nchw.params.at(name);
    if (p.ndim() == 4) p = NaivePermute(p, {2, 3, 1, 0});
    ASSERT_EQ(p.shape(), value.shape()) << name;
    params[name] = p;
  }
  ASSERT_EQ(params.size(), nchw.params.size());
  NDArray data = Random({1, 3, 224, 224}, 6);
  NDArray expected = RunMain(BindParams(nchw, nchw.params), {data})[0];
  NDArray got = RunMain(BindParams(nhwc, params), {NaivePermute(data, {0, 2, 3, 1})})[0];
  CloseResult r = AllClose(got, expected, Tolerance{1e-4, 1e-8});
  EXPECT_TRUE(r.ok) << r.message;
  ExpectProbabilities(got, 1000);
}

TEST(WorkloadTest, MobileNetEndToEnd) {
  workloads::Workload w = workloads::GetWorkload("mobilenet");
  NDArray out = RunMain(BindParams(w, w.params), {Random({1, 3, 224, 224}, 7)})[0];
  ExpectProbabilities(out, 1000);
}

}  // namespace
}  // namespace relaypass::eval
