// Elementwise kernels: broadcasting arithmetic, comparisons, unary math, clip, relu, bias_add, on
// float32, integers, bool and float16.
#include <algorithm>
#include <cmath>
#include <limits>

#include "relaypass/support/float16.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

TEST(ElementwiseTest, AddHandChecked) {
  NDArray a = Array({2, 2}, {1, 2, 3, 4});
  NDArray b = Array({2, 2}, {10, 20, 30, 40});
  ExpectValues(EvalOp(relay::add(C(a), C(b))), {2, 2}, {11, 22, 33, 44});
  ExpectValues(EvalOp(relay::subtract(C(a), C(b))), {2, 2}, {-9, -18, -27, -36});
  ExpectValues(EvalOp(relay::multiply(C(a), C(b))), {2, 2}, {10, 40, 90, 160});
  ExpectValues(EvalOp(relay::divide(C(b), C(a))), {2, 2}, {10, 10, 10, 10});
  ExpectValues(EvalOp(relay::power(C(a), C(a))), {2, 2}, {1, 4, 27, 256}, 1e-4);
  ExpectValues(EvalOp(relay::maximum(C(a), C(Array({2, 2}, {0, 5, 0, 5})))), {2, 2}, {1, 5, 3, 5});
  ExpectValues(EvalOp(relay::minimum(C(a), C(Array({2, 2}, {0, 5, 0, 5})))), {2, 2}, {0, 2, 0, 4});
}

// out[i, j, k] against a naive broadcast of shapes that exercise every alignment case.
TEST(ElementwiseTest, BroadcastingMatchesNaive) {
  struct Case {
    Shape a, b, out;
  };
  const Case cases[] = {
      {{2, 3, 4}, {4}, {2, 3, 4}},
      {{2, 1, 4}, {3, 1}, {2, 3, 4}},
      {{1}, {2, 3}, {2, 3}},
      {{}, {2, 3}, {2, 3}},
      {{2, 3, 1, 5}, {1, 3, 4, 1}, {2, 3, 4, 5}},
      {{4, 1}, {1, 6}, {4, 6}},
      {{1, 64, 1, 1}, {2, 64, 3, 3}, {2, 64, 3, 3}},
  };
  uint64_t seed = 1;
  for (const Case& c : cases) {
    NDArray a = Random(c.a, seed++), b = Random(c.b, seed++);
    NDArray out = EvalOp(relay::add(C(a), C(b)));
    ASSERT_EQ(out.shape(), c.out);
    const size_t nd = c.out.size();
    std::vector<int64_t> idx(nd, 0);
    for (int64_t o = 0; o < out.size(); ++o) {
      // Right-aligned index into each input, 0 where it has extent 1.
      auto at = [&](const NDArray& x) {
        std::vector<int64_t> xi;
        for (size_t d = nd - x.ndim(); d < nd; ++d) {
          xi.push_back(x.shape()[d - (nd - x.ndim())] == 1 ? 0 : idx[d]);
        }
        return x.data<float>()[Offset(x.shape(), xi)];
      };
      ASSERT_FLOAT_EQ(out.data<float>()[o], at(a) + at(b)) << "case " << seed << " elem " << o;
      for (size_t d = nd; d-- > 0;) {
        if (++idx[d] < c.out[d]) break;
        idx[d] = 0;
      }
    }
  }
}

TEST(ElementwiseTest, IncompatibleShapesFail) {
  EXPECT_THROW(EvalOp(relay::add(C(Random({2, 3}, 1)), C(Random({4}, 2)))), Error);
}

TEST(ElementwiseTest, ComparisonsGiveBool) {
  NDArray a = Array({4}, {1, 2, 3, 4});
  NDArray b = Array({1}, {2.5});
  NDArray less = EvalOp(CallOp("less", {C(a), C(b)}));
  EXPECT_EQ(less.dtype(), DataType::Bool());
  ExpectValues(less, {4}, {1, 1, 0, 0});
  ExpectValues(EvalOp(CallOp("greater_equal", {C(a), C(Array({4}, {4, 2, 1, 5}))})), {4},
               {0, 1, 1, 0});
  ExpectValues(EvalOp(CallOp("equal", {C(a), C(Array({4}, {1, 0, 3, 0}))})), {4}, {1, 0, 1, 0});
  ExpectValues(EvalOp(CallOp("not_equal", {C(a), C(Array({4}, {1, 0, 3, 0}))})), {4}, {0, 1, 0, 1});
}

TEST(ElementwiseTest, UnaryMath) {
  const std::vector<double> v = {0.25, 1, 2, 4};
  NDArray x = Array({4}, v);
  auto check = [&](const ir::Expr& call, double (*f)(double)) {
    NDArray out = EvalOp(call);
    for (size_t i = 0; i < v.size(); ++i) {
      EXPECT_NEAR(out.data<float>()[i], f(v[i]), 1e-6 * std::max(1.0, std::fabs(f(v[i]))));
    }
  };
  check(relay::sqrt(C(x)), [](double a) { return std::sqrt(a); });
  check(relay::rsqrt(C(x)), [](double a) { return 1 / std::sqrt(a); });
  check(relay::exp(C(x)), [](double a) { return std::exp(a); });
  check(relay::log(C(x)), [](double a) { return std::log(a); });
  check(relay::tanh(C(x)), [](double a) { return std::tanh(a); });
  check(relay::sigmoid(C(x)), [](double a) { return 1 / (1 + std::exp(-a)); });
  check(relay::negative(C(x)), [](double a) { return -a; });
}

TEST(ElementwiseTest, ReluAndClip) {
  NDArray x = Array({5}, {-2, -0.5, 0, 3, 7});
  ExpectValues(EvalOp(relay::nn::relu(C(x))), {5}, {0, 0, 0, 3, 7});
  ExpectValues(EvalOp(relay::clip(C(x), -1, 6)), {5}, {-1, -0.5, 0, 3, 6});
}

// Values worked out by hand; round sends halves away from zero (TVM: llvm.round).
TEST(ElementwiseTest, RoundingAbsAndLeakyRelu) {
  NDArray x = Array({6}, {-2.5, -1.25, -0.5, 0.5, 1.5, 2.75});
  ExpectValues(EvalOp(relay::round(C(x))), {6}, {-3, -1, -1, 1, 2, 3});
  ExpectValues(EvalOp(relay::abs(C(x))), {6}, {2.5, 1.25, 0.5, 0.5, 1.5, 2.75});
  ExpectValues(EvalOp(relay::nn::leaky_relu(C(x), 0.1)), {6},
               {-0.25, -0.125, -0.05, 0.5, 1.5, 2.75});
  ExpectValues(EvalOp(CallOp("floor", {C(x)})), {6}, {-3, -2, -1, 0, 1, 2});
  ExpectValues(EvalOp(CallOp("ceil", {C(x)})), {6}, {-2, -1, -0, 1, 2, 3});
  ExpectValues(EvalOp(CallOp("trunc", {C(x)})), {6}, {-2, -1, -0, 0, 1, 2});
  NDArray zero_one = Array({2}, {0, 1});
  ExpectValues(EvalOp(CallOp("sin", {C(zero_one)})), {2}, {0, 0.8414709848}, 1e-6);
  ExpectValues(EvalOp(CallOp("cos", {C(zero_one)})), {2}, {1, 0.5403023059}, 1e-6);
  ExpectValues(EvalOp(CallOp("erf", {C(zero_one)})), {2}, {0, 0.8427007929}, 1e-6);
  const DataType i32 = DataType::Int32();
  ExpectValues(EvalOp(relay::abs(C(Array<int32_t>({3}, {-7, 0, 5}, i32)))), {3}, {7, 0, 5});
  ExpectValues(EvalOp(CallOp("floor", {C(Array<int32_t>({2}, {-7, 5}, i32))})), {2}, {-7, 5});
}

TEST(ElementwiseTest, IntegerArithmetic) {
  const DataType i32 = DataType::Int32();
  NDArray a = Array<int32_t>({4}, {7, -7, 9, 100}, i32);
  NDArray b = Array<int32_t>({4}, {2, 2, -4, 7}, i32);
  NDArray q = EvalOp(relay::divide(C(a), C(b)));
  EXPECT_EQ(q.dtype(), i32);
  ExpectValues(q, {4}, {3, -3, -2, 14});  // truncating, as TVM's integer division
  ExpectValues(EvalOp(relay::add(C(a), C(b))), {4}, {9, -5, 5, 107});
  ExpectValues(EvalOp(relay::nn::relu(C(a))), {4}, {7, 0, 9, 100});
  ExpectValues(EvalOp(relay::clip(C(a), -3, 8.5)), {4}, {7, -3, 8, 8});
  EXPECT_THROW(EvalOp(relay::divide(C(a), C(Array<int32_t>({1}, {0}, i32)))), Error);
  const DataType i8 = DataType::Int(8);
  ExpectValues(EvalOp(relay::clip(C(Array<int8_t>({2}, {-100, 100}, i8)), -1e30, 1e30)), {2},
               {-100, 100});
}

// Integer overflow wraps around (two's complement), as TVM's generated code and numpy compute it;
// it was undefined behaviour in the kernels (the ONNX importer fuzzer's finding: int64 add while
// folding at import). Expected values by hand: INT64_MAX + 1 = INT64_MIN, and so on.
TEST(ElementwiseTest, IntegerOverflowWrapsAround) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const DataType i64 = DataType::Int(64);
  auto values = [](const NDArray& a) {
    return std::vector<int64_t>(a.data<int64_t>(), a.data<int64_t>() + a.size());
  };
  auto int64s = [&](const std::vector<int64_t>& v) {
    NDArray out = NDArray::Empty({static_cast<int64_t>(v.size())}, i64);
    std::copy(v.begin(), v.end(), out.mutable_data<int64_t>());
    return out;
  };
  NDArray a = int64s({kMax, kMin, kMax});
  NDArray b = int64s({1, -1, 2});
  EXPECT_EQ(values(EvalOp(relay::add(C(a), C(b)))), (std::vector<int64_t>{kMin, kMax, kMin + 1}));
  EXPECT_EQ(values(EvalOp(relay::subtract(C(b), C(a)))),
            (std::vector<int64_t>{kMin + 2, kMax, kMin + 3}));
  EXPECT_EQ(values(EvalOp(relay::multiply(C(a), C(b)))), (std::vector<int64_t>{kMax, kMin, -2}));
  EXPECT_EQ(values(EvalOp(relay::negative(C(a)))), (std::vector<int64_t>{-kMax, kMin, -kMax}));
  EXPECT_EQ(values(EvalOp(relay::abs(C(a)))), (std::vector<int64_t>{kMax, kMin, kMax}));
  EXPECT_EQ(values(EvalOp(relay::sum(C(a)))), (std::vector<int64_t>{kMax - 1}));
  EXPECT_EQ(values(EvalOp(relay::cumsum(C(a)))), (std::vector<int64_t>{kMax, -1, kMax - 1}));
  // int32 products go through 32-bit unsigned arithmetic: 65536 * 65536 wraps to 0.
  const DataType i32 = DataType::Int32();
  NDArray p = EvalOp(
      relay::multiply(C(Array<int32_t>({1}, {65536}, i32)), C(Array<int32_t>({1}, {65536}, i32))));
  EXPECT_EQ(p.data<int32_t>()[0], 0);
}

TEST(ElementwiseTest, UnaryMathRejectsIntegers) {
  EXPECT_THROW(EvalOp(relay::sqrt(C(Array<int32_t>({1}, {4}, DataType::Int32())))), Error);
}

TEST(ElementwiseTest, BoolEquality) {
  NDArray a = Array<bool>({3}, {1, 0, 1}, DataType::Bool());
  NDArray b = Array<bool>({3}, {1, 1, 0}, DataType::Bool());
  ExpectValues(EvalOp(CallOp("equal", {C(a), C(b)})), {3}, {1, 0, 0});
}

TEST(ElementwiseTest, Float16ComputesThroughFloat32) {
  const DataType f16 = DataType::Float(16);
  NDArray a = NDArray::Empty({3}, f16), b = NDArray::Empty({3}, f16);
  const float av[] = {1.5f, -2.25f, 1000.0f}, bv[] = {0.25f, 4.0f, 0.5f};
  for (int i = 0; i < 3; ++i) {
    a.mutable_data<uint16_t>()[i] = support::FloatToHalf(av[i]);
    b.mutable_data<uint16_t>()[i] = support::FloatToHalf(bv[i]);
  }
  NDArray sum = EvalOp(relay::add(C(a), C(b)));
  EXPECT_EQ(sum.dtype(), f16);
  ExpectValues(sum, {3}, {1.75, 1.75, 1000.5});
  NDArray prod = EvalOp(relay::multiply(C(a), C(b)));
  ExpectValues(prod, {3}, {0.375, -9, 500});
  EXPECT_EQ(EvalOp(CallOp("less", {C(a), C(b)})).dtype(), DataType::Bool());
}

TEST(ElementwiseTest, BiasAddOnEachAxis) {
  NDArray data = Random({2, 3, 4}, 7);
  for (int axis : {0, 1, 2, -1}) {
    const int a = axis < 0 ? axis + 3 : axis;
    NDArray bias = Random({data.shape()[a]}, 8 + a);
    NDArray out = EvalOp(relay::nn::bias_add(C(data), C(bias), axis));
    ASSERT_EQ(out.shape(), data.shape());
    for (int64_t i = 0; i < 2; ++i) {
      for (int64_t j = 0; j < 3; ++j) {
        for (int64_t k = 0; k < 4; ++k) {
          const int64_t o = (i * 3 + j) * 4 + k;
          const int64_t c = a == 0 ? i : a == 1 ? j : k;
          EXPECT_FLOAT_EQ(out.data<float>()[o], data.data<float>()[o] + bias.data<float>()[c]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace relaypass::eval
