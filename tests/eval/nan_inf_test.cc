// NaN and infinity in comparisons (numpy.allclose's rules, hand-checked) and weak references.
#include <cmath>
#include <limits>

#include "relaypass/eval/weak_reference.h"
#include "test_util.h"

namespace relaypass::eval {
namespace {

using namespace testing;  // NOLINT

constexpr double kInf = std::numeric_limits<double>::infinity();

// numpy.allclose([a], [e], rtol, atol, equal_nan) by hand: NaN is close to nothing (to NaN only
// with equal_nan), inf only to the same inf, whatever the tolerance.
TEST(AllCloseNanInfTest, NanAndInfinityAtAnyTolerance) {
  const Tolerance exact{0, 0}, loose{1e9, 1e9};
  for (const Tolerance& t : {exact, loose}) {
    EXPECT_FALSE(AllClose(Array({1}, {NAN}), Array({1}, {1}), t).ok);
    EXPECT_FALSE(AllClose(Array({1}, {1}), Array({1}, {NAN}), t).ok);
    EXPECT_FALSE(AllClose(Array({1}, {NAN}), Array({1}, {1}), t, true).ok);
    EXPECT_FALSE(AllClose(Array({1}, {NAN}), Array({1}, {NAN}), t).ok);
    EXPECT_TRUE(AllClose(Array({1}, {NAN}), Array({1}, {NAN}), t, true).ok);
    EXPECT_TRUE(AllClose(Array({2}, {kInf, -kInf}), Array({2}, {kInf, -kInf}), t).ok);
    EXPECT_FALSE(AllClose(Array({1}, {kInf}), Array({1}, {-kInf}), t).ok);
    EXPECT_FALSE(AllClose(Array({1}, {kInf}), Array({1}, {3e38}), t).ok);
    EXPECT_FALSE(AllClose(Array({1}, {3e38}), Array({1}, {kInf}), t).ok);
    EXPECT_FALSE(AllClose(Array({1}, {kInf}), Array({1}, {NAN}), t, true).ok);
  }
  const CloseResult r = AllClose(Array({3}, {1, NAN, 3}), Array({3}, {1, 2, 3}), Tolerance{0, 0});
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.worst_index, 1);
  EXPECT_NE(r.message.find("actual nan, expected 2"), std::string::npos) << r.message;
}

TEST(WeakReferenceTest, NanOrConstantOutputs) {
  EXPECT_EQ(WeakReference(Value(Array({3}, {1, 2, 3}))), "");
  EXPECT_EQ(WeakReference(Value(Array({1}, {5}))), "") << "one element is not 'all equal'";
  EXPECT_EQ(WeakReference(Value(Array({2, 2}, {1, NAN, 3, NAN}))),
            "output 0 is NaN in 2 of 4 elements");
  EXPECT_EQ(WeakReference(Value(Array({3}, {0, 0, 0}))),
            "output 0 is constant: all 3 elements are 0");
  // Tuples: outputs numbered depth-first.
  EXPECT_EQ(WeakReference(Value::Tuple({Value(Array({2}, {1, 2})), Value(Array({2}, {7, 7}))})),
            "output 1 is constant: all 2 elements are 7");
  EXPECT_EQ(WeakReference(Value(Array<int32_t>({2}, {4, 4}, DataType::Int32()))),
            "output 0 is constant: all 2 elements are 4");
  EXPECT_EQ(WeakReference(Value(Array({2}, {kInf, 1}))), "");
}

}  // namespace
}  // namespace relaypass::eval
