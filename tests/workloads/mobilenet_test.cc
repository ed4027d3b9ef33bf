// mobilenet.get_workload: parameter order and counts, typed depthwise weights, TVM's attrs in
// both layouts.
#include <gtest/gtest.h>

#include "relaypass/text/printer.h"
#include "relaypass/workloads/mobilenet.h"
#include "relaypass/workloads/workloads.h"
#include "test_util.h"

namespace relaypass::workloads {
namespace {

using testing::ParamNames;
using testing::ParamType;
using testing::ReturnType;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(MobileNetTest, ParameterOrderAndCount) {
  Workload w = GetWorkload("mobilenet");
  std::vector<std::string> names = ParamNames(w.mod);
  ASSERT_EQ(names.size(), 138u);
  EXPECT_EQ(w.params.size(), 137u);
  const std::vector<std::string> head = {"data",
                                         "conv_block_1_conv_weight",
                                         "conv_block_1_bn_gamma",
                                         "conv_block_1_bn_beta",
                                         "conv_block_1_bn_moving_mean",
                                         "conv_block_1_bn_moving_var",
                                         "separable_conv_block_1_weight",
                                         "separable_conv_block_1_bn1_gamma",
                                         "separable_conv_block_1_bn1_beta",
                                         "separable_conv_block_1_bn1_moving_mean",
                                         "separable_conv_block_1_bn1_moving_var",
                                         "separable_conv_block_1_conv2_weight",
                                         "separable_conv_block_1_bn2_gamma"};
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + head.size()), head);
  EXPECT_EQ(names[names.size() - 2], "fc_weight");
  EXPECT_EQ(names.back(), "fc_bias");
  EXPECT_EQ(ReturnType(w.mod), "Tensor[(1, 1000), float32]");
}

TEST(MobileNetTest, NchwShapesAndAttrs) {
  Workload w = GetWorkload("mobilenet");
  EXPECT_EQ(ParamType(w.mod, "conv_block_1_conv_weight"), "Tensor[(32, 3, 3, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "separable_conv_block_1_weight"), "Tensor[(32, 1, 3, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "separable_conv_block_13_weight"), "Tensor[(1024, 1, 3, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "separable_conv_block_12_conv2_weight"),
            "Tensor[(1024, 512, 1, 1), float32]");
  EXPECT_EQ(ParamType(w.mod, "fc_weight"), "Tensor[(1000, 1024), float32]");
  const std::string text = text::PrettyPrint(w.mod);
  // The depthwise weight is annotated in the source, so its parameter prints its type.
  EXPECT_TRUE(Contains(text,
                       "%separable_conv_block_1_weight: Tensor[(32, 1, 3, 3), float32] /* "
                       "ty=Tensor[(32, 1, 3, 3), float32] */"));
  EXPECT_TRUE(Contains(text,
                       "nn.conv2d(%data, %conv_block_1_conv_weight, strides=[2, 2], "
                       "padding=[1, 1, 1, 1], channels=32, kernel_size=[3, 3]) /* "
                       "ty=Tensor[(1, 32, 112, 112), float32] */"));
  EXPECT_TRUE(Contains(text,
                       "nn.conv2d(%3, %separable_conv_block_1_weight, padding=[1, 1, 1, 1], "
                       "groups=32, channels=32, kernel_size=[3, 3])"));
  EXPECT_TRUE(Contains(text, "%separable_conv_block_1_bn1_moving_var) /* ty=("));
  EXPECT_FALSE(Contains(text, "epsilon"));  // 1e-5 is the default
  EXPECT_TRUE(Contains(text, "nn.bias_add(%"));
  EXPECT_FALSE(Contains(text, "axis=-1"));  // bias_add keeps its default axis 1
  EXPECT_TRUE(Contains(text, "/* ty=Tensor[(1, 1024, 7, 7), float32] */"));
}

TEST(MobileNetTest, NhwcTypeChecksWithTvmQuirks) {
  Workload w = GetWorkload("mobilenet", {.layout = "NHWC", .batch_size = 2});
  EXPECT_EQ(ParamType(w.mod, "data"), "Tensor[(2, 224, 224, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "conv_block_1_conv_weight"), "Tensor[(3, 3, 3, 32), float32]");
  // conv_block_1's batch_norm keeps the default axis 1, which is W in NHWC (112 wide).
  EXPECT_EQ(ParamType(w.mod, "conv_block_1_bn_gamma"), "Tensor[(112), float32]");
  EXPECT_EQ(ParamType(w.mod, "separable_conv_block_1_weight"), "Tensor[(3, 3, 32, 1), float32]");
  EXPECT_EQ(ParamType(w.mod, "separable_conv_block_1_bn1_gamma"), "Tensor[(32), float32]");
  EXPECT_EQ(ParamType(w.mod, "separable_conv_block_2_conv2_weight"),
            "Tensor[(1, 1, 64, 128), float32]");
  EXPECT_EQ(ParamType(w.mod, "fc_bias"), "Tensor[(1000), float32]");
  EXPECT_EQ(ReturnType(w.mod), "Tensor[(2, 1000), float32]");
  EXPECT_EQ(w.params.size(), 137u);
  const std::string text = text::PrettyPrint(w.mod);
  EXPECT_TRUE(Contains(text,
                       "groups=32, channels=32, kernel_size=[3, 3], data_layout=\"NHWC\", "
                       "kernel_layout=\"HWOI\")"));
  EXPECT_TRUE(Contains(text,
                       "channels=64, kernel_size=[1, 1], data_layout=\"NHWC\", "
                       "kernel_layout=\"HWIO\")"));
  EXPECT_TRUE(Contains(text, "%separable_conv_block_1_bn1_moving_var, axis=3)"));
  EXPECT_TRUE(Contains(text, "%conv_block_1_bn_moving_var) /* ty=("));
  EXPECT_TRUE(Contains(text, "layout=\"NHWC\") /* ty=Tensor[(2, 1, 1, 1024), float32] */"));
}

}  // namespace
}  // namespace relaypass::workloads
