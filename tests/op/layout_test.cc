#include "relaypass/op/layout.h"

#include <gtest/gtest.h>

#include "relaypass/support/error.h"

namespace relaypass::op {
namespace {

using Shape = std::vector<ir::Dim>;

TEST(LayoutTest, ParsesPrimalAndSubAxes) {
  Layout l("NCHW16c");
  ASSERT_TRUE(l.defined());
  EXPECT_EQ(l.name(), "NCHW16c");
  EXPECT_EQ(l.ndim(), 5u);
  EXPECT_EQ(l.ndim_primal(), 4u);
  EXPECT_EQ(l.IndexOf('C'), 1);
  EXPECT_EQ(l.IndexOf('c'), 4);
  EXPECT_EQ(l.IndexOf('D'), -1);
  EXPECT_EQ(l.FactorOf('C'), 16);
  EXPECT_EQ(l.FactorOf('c'), 16);
  EXPECT_EQ(l.FactorOf('H'), -1);
  EXPECT_TRUE(l[4].is_primal() == false);
  EXPECT_EQ(l[4].primal(), 'C');
  EXPECT_EQ(l[4].ToString(), "16c");

  Layout k("OIHW16i16o");
  EXPECT_EQ(k.ndim(), 6u);
  EXPECT_EQ(k.FactorOf('I'), 16);
  EXPECT_EQ(k.FactorOf('O'), 16);
  EXPECT_EQ(Layout("HWIO").IndexOf('I'), 2);
  EXPECT_EQ(Layout("NC").ndim(), 2u);
  EXPECT_EQ(Layout("C").IndexOf('C'), 0);
}

TEST(LayoutTest, UndefinedAndScalar) {
  EXPECT_FALSE(Layout().defined());
  EXPECT_FALSE(Layout::Undef().defined());
  EXPECT_FALSE(Layout("__undef__").defined());
  EXPECT_EQ(Layout().name(), "__undef__");
  Layout scalar("");
  EXPECT_TRUE(scalar.defined());
  EXPECT_EQ(scalar.ndim(), 0u);
  EXPECT_NE(scalar, Layout());
  EXPECT_EQ(Layout("NCHW"), Layout("NCHW"));
  EXPECT_NE(Layout("NCHW"), Layout("NHWC"));
}

TEST(LayoutTest, RejectsMalformed) {
  for (const char* bad : {"NCHW16", "NCHWc", "NCHW0c", "NCHW16C", "NCHWN", "NCHW8c8c", "NCHW4h4h",
                          "NHW16c", "NC-HW", "nchw"}) {
    EXPECT_THROW(Layout{bad}, TypeError) << bad;
  }
}

TEST(LayoutTest, SubLayoutExpandPrimalSplit) {
  EXPECT_EQ(Layout("NCHW16c").SubLayout(1, 3).name(), "CHW");
  EXPECT_EQ(Layout("NCHW").SubLayout(2, 10).name(), "HW");
  EXPECT_EQ(Layout("NCHW").SubLayout(4, 1).name(), "");
  EXPECT_FALSE(Layout("NCHW").SubLayout(5, 1).defined());
  EXPECT_EQ(Layout("C").ExpandPrimal(Layout("NCHW")).name(), "NHWC");
  EXPECT_EQ(Layout("HW").ExpandPrimal(Layout("NCHW16c")).name(), "NCHW");
  EXPECT_EQ(Layout("NCHW").Split('C', 4, 8).name(), "NCHW8c");
  EXPECT_THROW(Layout("NCHW8c").Split('C', 5, 4), TypeError);
  EXPECT_THROW(Layout("NCHW").Split('D', 4, 4), TypeError);
}

TEST(BijectiveLayoutTest, ForwardAndBackward) {
  BijectiveLayout nchw_nhwc(Layout("NCHW"), Layout("NHWC"));
  ASSERT_TRUE(nchw_nhwc.defined());
  EXPECT_EQ(nchw_nhwc.ForwardShape({1, 3, 224, 225}), (Shape{1, 224, 225, 3}));
  EXPECT_EQ(nchw_nhwc.BackwardShape({1, 224, 225, 3}), (Shape{1, 3, 224, 225}));

  BijectiveLayout blocked(Layout("NCHW"), Layout("NCHW16c"));
  EXPECT_EQ(blocked.ForwardShape({1, 64, 56, 56}), (Shape{1, 4, 56, 56, 16}));
  EXPECT_EQ(blocked.BackwardShape({1, 4, 56, 56, 16}), (Shape{1, 64, 56, 56}));
  EXPECT_EQ(blocked.ForwardShape({ir::kAnyDim, ir::kAnyDim, 7, 7}),
            (Shape{ir::kAnyDim, ir::kAnyDim, 7, 7, 16}));

  BijectiveLayout kernel(Layout("OIHW16i16o"), Layout("OIHW"));
  EXPECT_EQ(kernel.ForwardShape({8, 4, 3, 3, 16, 16}), (Shape{128, 64, 3, 3}));
  EXPECT_EQ(kernel.BackwardShape({128, 64, 3, 3}), (Shape{8, 4, 3, 3, 16, 16}));

  BijectiveLayout rebl(Layout("NCHW4c"), Layout("NCHW8c"));
  EXPECT_EQ(rebl.ForwardShape({1, 4, 7, 7, 4}), (Shape{1, 2, 7, 7, 8}));
}

TEST(BijectiveLayoutTest, UndefinedAndErrors) {
  EXPECT_FALSE(BijectiveLayout(Layout("NCHW"), Layout("NCW")).defined());
  EXPECT_FALSE(BijectiveLayout(Layout(), Layout("NCHW")).defined());
  BijectiveLayout ok(Layout("NCHW16c"), Layout("NCHW"));
  EXPECT_THROW(ok.ForwardShape({1, 4, 8, 8}), TypeError);     // wrong rank
  EXPECT_THROW(ok.ForwardShape({1, 4, 8, 8, 8}), TypeError);  // sub-axis is not 16
  EXPECT_THROW(BijectiveLayout(Layout("NC"), Layout("CN")).BackwardShape({1}), TypeError);
  EXPECT_THROW(BijectiveLayout(Layout("NC"), Layout("NCW")).ForwardShape({1, 2}), TypeError);
}

}  // namespace
}  // namespace relaypass::op
