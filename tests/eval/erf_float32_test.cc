// The float32 erf kernel (src/op/kernels/erf_float32.h) against glibc's erff (std::erf), and
// power(x, 2) as x * x (src/op/kernels/elementwise.cc) against std::pow: the expected values are
// the C library's.
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "../../src/op/kernels/erf_float32.h"
#include "relaypass/support/parallel.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT
using op::kernels::ErfFloat32;

// The distance in representable floats between a and b.
int64_t UlpDistance(float a, float b) {
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : static_cast<int64_t>(i);
  };
  return std::llabs(ordered(a) - ordered(b));
}

// Every 9973rd float32 bit pattern that is a normal number: within 2 ulp of erff, and the array
// form gives the scalar form's bits.
TEST(ErfFloat32Test, WithinTwoUlpOfErffOnNormalFloats) {
  std::vector<float> x;
  for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 9973) {
    const auto b = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &b, sizeof f);
    if (std::isfinite(f) && std::fabs(f) >= std::numeric_limits<float>::min()) x.push_back(f);
  }
  x.push_back(0.5f);
  x.push_back(-3.99f);
  std::vector<float> y(x.size());
  ErfFloat32(x.data(), y.data(), static_cast<int64_t>(x.size()));
  int64_t worst = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t d = UlpDistance(y[i], std::erf(x[i]));
    worst = std::max(worst, d);
    EXPECT_LE(d, 2) << "erf(" << x[i] << ") = " << y[i] << ", erff " << std::erf(x[i]);
    ASSERT_EQ(UlpDistance(y[i], ErfFloat32(x[i])), 0);
    if (d > 2) break;
  }
  EXPECT_LE(worst, 2);
}

TEST(ErfFloat32Test, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(ErfFloat32(inf), 1.0f);
  EXPECT_EQ(ErfFloat32(-inf), -1.0f);
  EXPECT_EQ(ErfFloat32(4.5f), 1.0f);
  EXPECT_TRUE(std::isnan(ErfFloat32(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(ErfFloat32(0.0f), 0.0f);
  EXPECT_TRUE(std::signbit(ErfFloat32(-0.0f)));
}

// The erf op on float32 (the vector kernel, split over two threads: the same bits as one) and
// on float64 (std::erf): within float32 / float64 rounding of std::erf.
TEST(ErfFloat32Test, ErfOpMatchesStdErf) {
  const NDArray x = Random({3, 70001}, 5);
  const NDArray one = EvalOp(CallOp("erf", {C(x)}));
  support::SetNumThreads(2);
  const NDArray two = EvalOp(CallOp("erf", {C(x)}));
  support::SetNumThreads(1);
  ASSERT_EQ(std::memcmp(one.raw_data(), two.raw_data(), one.nbytes()), 0);
  for (int64_t i = 0; i < x.size(); ++i) {
    const float v = x.data<float>()[i];
    ASSERT_LE(UlpDistance(one.data<float>()[i], std::erf(v)), 2) << v;
  }
  const NDArray xd = Random({5}, 6, DataType::Float(64));
  const NDArray yd = EvalOp(CallOp("erf", {C(xd)}));
  for (int64_t i = 0; i < xd.size(); ++i) {
    EXPECT_EQ(yd.data<double>()[i], std::erf(xd.data<double>()[i]));
  }
}

// power(x, 2) is x * x (what std::pow gives, correctly rounded), with NaN, infinities and signed
// zeros; other exponents and a broadcasting exponent still go through std::pow.
TEST(ErfFloat32Test, PowerOfTwoIsTheSquare) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const NDArray x = Array({2, 4}, {-3.5, 0.1, nan, inf, -inf, -0.0, 1e20, 7.25});
  const NDArray y =
      EvalOp(relay::power(C(x), C(NDArray::Scalar<float>(2.0f, DataType::Float32()))));
  ASSERT_EQ(y.shape(), x.shape());
  for (int64_t i = 0; i < x.size(); ++i) {
    const float v = x.data<float>()[i], want = std::pow(v, 2.0f), got = y.data<float>()[i];
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got));
    } else {
      EXPECT_EQ(got, want) << v;
      EXPECT_EQ(std::signbit(got), std::signbit(want)) << v;
    }
  }
  // A [1, 1, 1] exponent broadcasts x to rank 3.
  const NDArray e3 = Array({1, 1, 1}, {2.0});
  EXPECT_EQ(EvalOp(relay::power(C(x), C(e3))).shape(), (Shape{1, 2, 4}));
  const NDArray cube =
      EvalOp(relay::power(C(x), C(NDArray::Scalar<float>(3.0f, DataType::Float32()))));
  EXPECT_EQ(cube.data<float>()[0], std::pow(-3.5f, 3.0f));
}

}  // namespace
}  // namespace relaypass::eval
