// Types that nest as deep as the graph (issue 19, class 3): a chain of 1,000,000 bindings
// `%i = (%(i-1),)` has a result type nested 1,000,000 tuples deep. Type checking it must be
// linear (each type knows its completeness and hash: no walk over nested types per node) and
// comparing, hashing and printing such a type must not recurse on its depth. Expected values by
// hand: the type of the chain's end is the tensor wrapped in n one-field tuples.
#include <gtest/gtest.h>

#include "../depth_scale.h"
#include "relaypass/ir/type_infer.h"
#include "relaypass/relay.h"

namespace relaypass {
namespace {

ir::Expr TupleChain(const ir::Var& x, int64_t n) {
  ir::Expr e = x;
  for (int64_t i = 0; i < n; ++i) e = relay::tuple({e});
  return e;
}

TEST(DeepTypesTest, MillionDeepTupleChainTypeChecksComparesAndPrints) {
  const int64_t n = relaypass::testing::ScaledDepth(1000000);
  relay::Var x = relay::var("x", {1});
  ir::IRModule typed =
      ir::InferTypes(ir::IRModule::FromExpr(relay::function({x}, TupleChain(x, n))));
  const ir::Type ret = typed.Lookup("main")->ret_type;
  EXPECT_TRUE(ir::IsComplete(ret));

  // The same type built by hand.
  ir::Type expected = ir::TensorType({1}, ir::DataType::Float32());
  for (int64_t i = 0; i < n; ++i) expected = ir::TupleType({expected});
  EXPECT_TRUE(ir::TypeEqual(ret, expected));
  EXPECT_EQ(ir::TypeHash(ret), ir::TypeHash(expected));
  ir::Type shallower = ir::TensorType({1}, ir::DataType::Float32());
  for (int64_t i = 0; i + 1 < n; ++i) shallower = ir::TupleType({shallower});
  EXPECT_FALSE(ir::TypeEqual(ret, shallower));

  const std::string text = ir::TypeToString(ret);
  EXPECT_EQ(text.size(), static_cast<size_t>(n) * 3 + std::string("Tensor[(1), float32]").size());
  EXPECT_EQ(text.substr(0, 3), "(((");
  EXPECT_EQ(text.substr(text.size() - 4), ",),)");  // each level closes with ",)"
}

}  // namespace
}  // namespace relaypass
