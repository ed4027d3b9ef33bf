// Prefilter, RootOps and MatchCaptures (relaypass/pattern/match.h). A prefilter may only say
// "cannot match" where the matcher says no: every case below is checked against Match itself;
// the expected answers are read off the patterns by hand.
#include <gtest/gtest.h>

#include "relaypass/op/registry.h"
#include "relaypass/pattern/match.h"
#include "relaypass/relay.h"

namespace relaypass::pattern {
namespace {

using ir::Expr;
namespace relay = relaypass::relay;

// The prefilter's answer, checked to be a necessary condition of the matcher's.
bool Might(const DFPattern& p, const Expr& e) {
  const bool might = Prefilter(p)(e);
  if (Match(p, e)) {
    EXPECT_TRUE(might) << "the prefilter rejected a match";
  }
  return might;
}

TEST(PrefilterTest, RejectsByOperatorArityAndLeafKind) {
  Expr x = relay::var("x"), y = relay::var("y");
  const Expr one = relay::const_(1.0, "float32");
  const DFPattern rsqrt = IsOp("divide")({Wildcard(), IsOp("sqrt")({Wildcard()})});
  EXPECT_TRUE(Might(rsqrt, relay::divide(x, relay::sqrt(y))));
  EXPECT_FALSE(Might(rsqrt, relay::divide(x, y)));
  EXPECT_FALSE(Might(rsqrt, relay::add(x, relay::sqrt(y))));
  const DFPattern plus_constant = IsOp("add")({Wildcard(), IsConstant()});
  EXPECT_TRUE(Might(plus_constant, relay::add(one, x)));  // add is commutative
  EXPECT_FALSE(Might(plus_constant, relay::add(x, y)));
  EXPECT_FALSE(Might(IsOp("subtract")({Wildcard(), IsConstant()}), relay::subtract(one, x)));
}

TEST(PrefilterTest, KeepsWhatAssociativityAndAttributesCanMatch) {
  Expr a = relay::var("a"), b = relay::var("b"), c = relay::var("c");
  // (a * b) / c matches a * (b / c): the multiply root must pass.
  const DFPattern div = IsOp("divide")({IsOp("multiply")({Wildcard(), Wildcard()}), Wildcard()});
  EXPECT_TRUE(Might(div, relay::multiply(a, relay::divide(b, c))));
  EXPECT_TRUE(Match(div, relay::multiply(a, relay::divide(b, c))));
  ir::DictAttrs broadcast;
  broadcast.Set("TOpPattern", ir::AttrValue::Int(static_cast<int>(op::OpPattern::kBroadcast)));
  const DFPattern any_broadcast = Wildcard().HasAttr(broadcast)({Wildcard(), IsConstant()});
  EXPECT_TRUE(Might(any_broadcast, relay::add(a, relay::const_(2.0, "float32"))));
  EXPECT_FALSE(Might(any_broadcast, relay::add(a, b)));
  EXPECT_FALSE(Might(any_broadcast, relay::nn::relu(a)));
}

TEST(PrefilterTest, RootOpsListsTheRootCallsOrNothing) {
  EXPECT_EQ(RootOps(IsOp("add")({Wildcard(), Wildcard()}) | IsOp("subtract")({Wildcard()})),
            (std::vector<std::string>{"add", "subtract"}));
  EXPECT_EQ(RootOps(IsOp("divide")({IsOp("multiply")({Wildcard(), Wildcard()}), Wildcard()})),
            (std::vector<std::string>{"multiply", "divide"}));
  EXPECT_TRUE(RootOps(IsOp("add")({Wildcard(), Wildcard()}) | Wildcard()).empty());
}

TEST(MatchCapturesTest, GivesCapturesAndMatchedCalls) {
  Expr x = relay::var("x"), y = relay::var("y");
  const DFPattern a = Wildcard(), b = Wildcard();
  // A flat call (read without the matcher) and a nested one (through it).
  auto flat = MatchCaptures(IsOp("add")({a, b}), relay::add(x, y), {b, a});
  ASSERT_TRUE(flat);
  EXPECT_TRUE(flat->captures[0].same_as(y));
  EXPECT_TRUE(flat->captures[1].same_as(x));
  EXPECT_EQ(flat->calls.size(), 1u);
  const Expr inner = relay::sqrt(y);
  const Expr root = relay::divide(x, inner);
  const DFPattern unused = IsConstant();
  auto nested =
      MatchCaptures(IsOp("divide")({a, IsOp("sqrt")({b}) | unused}), root, {a, b, unused});
  ASSERT_TRUE(nested);
  EXPECT_TRUE(nested->captures[0].same_as(x));
  EXPECT_TRUE(nested->captures[1].same_as(y));
  EXPECT_FALSE(nested->captures[2]);  // the alternative not taken
  EXPECT_EQ(nested->calls.size(), 2u);
  EXPECT_FALSE(MatchCaptures(IsOp("add")({a, b}), root, {a}));
}

}  // namespace
}  // namespace relaypass::pattern
