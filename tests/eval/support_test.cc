// The evaluator's support: every registered op has a kernel (but the types-only ones),
// half-precision conversions, seeded random inputs, and allclose's report of the worst element.
#include <cmath>
#include <set>
#include <string>

#include "relaypass/op/blas_stats.h"
#include "relaypass/op/user_ops.h"
#include "relaypass/support/float16.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using ir::Var;

TEST(KernelRegistryTest, EveryOpHasAKernel) {
  const op::OpRegistry& registry = op::OpRegistry::Global();
  std::vector<std::string> names = registry.ListNames();
  EXPECT_GE(names.size(), 40u);
  // TVM runs the bitserial operators only through its TOPI schedules: relaypass has their types
  // and no kernel (src/op/bitserial.cc, docs/python.md).
  const std::set<std::string> types_only = {"nn.bitpack", "nn.bitserial_conv2d",
                                            "nn.bitserial_dense"};
  for (const std::string& name : names) {
    const op::OpDef* def = registry.Find(name);
    ASSERT_NE(def, nullptr);
    if (types_only.count(name) || op::IsUserOp(name)) {
      EXPECT_FALSE(static_cast<bool>(def->kernel)) << name;
      continue;
    }
    EXPECT_TRUE(static_cast<bool>(def->kernel)) << name << " has no kernel";
  }
}

TEST(Float16Test, KnownValuesAndRoundTrip) {
  EXPECT_EQ(support::FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(support::FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(support::FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(support::FloatToHalf(65520.0f), 0x7c00);                // rounds to infinity
  EXPECT_EQ(support::FloatToHalf(5.960464477539063e-08f), 0x0001);  // smallest subnormal
  EXPECT_EQ(support::FloatToHalf(1.0f + 1.0f / 2048), 0x3c00);      // tie to even (down)
  EXPECT_EQ(support::FloatToHalf(1.0f + 3.0f / 2048), 0x3c02);      // tie to even (up)
  EXPECT_TRUE(std::isnan(support::HalfToFloat(support::FloatToHalf(NAN))));
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = support::HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(support::FloatToHalf(f), h) << std::hex << h;
  }
  EXPECT_EQ(support::BFloat16ToFloat(support::FloatToBFloat16(3.140625f)), 3.140625f);
}

TEST(RandomInputsTest, DeterministicPerSeedAndTyped) {
  Var x = relay::var("x", {2, 3});
  Var i = relay::var("i", {4}, "int32");
  Var b = relay::var("b", {5}, "bool");
  Var t = relay::var("t", ir::TupleType({ir::TensorType({2}, DataType::Float(16)),
                                         ir::TensorType({1}, DataType::UInt(8))}));
  ir::Function f = relay::function({x, i, b, t}, x);
  std::vector<Value> a = RandomInputs(f, 3), again = RandomInputs(f, 3), other = RandomInputs(f, 4);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_TRUE(AllClose(Value::Tuple(a), Value::Tuple(again), Tolerance{0, 0}).ok);
  EXPECT_FALSE(a[0].tensor().BitwiseEqual(other[0].tensor()));
  EXPECT_FALSE(a[0].tensor().BitwiseEqual(a[3].fields()[0].tensor()));
  for (double v : Values(a[0].tensor())) EXPECT_TRUE(v >= -1 && v < 1);
  EXPECT_EQ(a[1].tensor().dtype(), DataType::Int32());
  for (double v : Values(a[1].tensor())) EXPECT_TRUE(v >= -8 && v <= 8);
  for (double v : Values(a[2].tensor())) EXPECT_TRUE(v == 0 || v == 1);
  EXPECT_EQ(a[3].fields()[0].tensor().dtype(), DataType::Float(16));
  EXPECT_THROW(RandomInputs(relay::function({relay::var("untyped")}, x), 0), Error);
}

TEST(AllCloseTest, ReportsTheWorstElement) {
  NDArray expected = Array({2, 3}, {1, 2, 3, 4, 5, 6});
  NDArray actual = Array({2, 3}, {1, 2.00001, 3, 4.5, 5, 6.1});
  CloseResult r = AllClose(actual, expected);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.worst_index, 3);
  EXPECT_EQ(r.worst_coords, (std::vector<int64_t>{1, 0}));
  EXPECT_DOUBLE_EQ(r.actual, 4.5);
  EXPECT_DOUBLE_EQ(r.expected, 4);
  EXPECT_NE(r.message.find("worst at [1, 0]"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("actual 4.5, expected 4"), std::string::npos) << r.message;
  EXPECT_TRUE(AllClose(actual, expected, Tolerance{0.15, 0}).ok);
  EXPECT_FALSE(AllClose(actual, Array({3, 2}, {1, 2, 3, 4, 5, 6})).ok);
  // Integers compare exactly; NaN matches NaN only when asked (numpy's equal_nan).
  EXPECT_FALSE(AllClose(Array<int32_t>({1}, {1}, DataType::Int32()),
                        Array<int32_t>({1}, {2}, DataType::Int32()))
                   .ok);
  EXPECT_FALSE(AllClose(Array({2}, {NAN, 1}), Array({2}, {NAN, 1})).ok);
  EXPECT_TRUE(AllClose(Array({2}, {NAN, 1}), Array({2}, {NAN, 1}), std::nullopt, true).ok);
  EXPECT_FALSE(AllClose(Array({1}, {NAN}), Array({1}, {1})).ok);
  CloseResult field = AllClose(Value::Tuple({Value(expected), Value(actual)}),
                               Value::Tuple({Value(expected), Value(expected)}));
  EXPECT_NE(field.message.find("field .1"), std::string::npos) << field.message;
}

TEST(BlasStatsTest, CountsGemmCalls) {
  op::ResetBlasStats();
  op::SetBlasTiming(true);
  EvalOp(relay::nn::dense(C(Random({4, 8}, 1)), C(Random({3, 8}, 2))));
  op::SetBlasTiming(false);
  op::BlasStats stats = op::GetBlasStats();
  EXPECT_EQ(stats.calls, 1u);
  EXPECT_EQ(stats.flops, 2.0 * 4 * 3 * 8);
  EXPECT_GE(stats.seconds, 0.0);
}

}  // namespace
}  // namespace relaypass::eval
