// resnet.get_workload: TVM's exact text for resnet-18, parameter order and counts, NHWC and CIFAR
// variants.
#include <gtest/gtest.h>

#include "relaypass/ir/type_infer.h"
#include "relaypass/support/error.h"
#include "relaypass/text/printer.h"
#include "relaypass/workloads/init.h"
#include "relaypass/workloads/resnet.h"
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

TEST(ResNetTest, ResNet18PrintsExactlyAsTvm) {
  // tests/data/resnet18_nchw.relay: the module printed by pass_instrument_tutorial
  // (relay_mod.astext(show_meta_data=False) after resnet.get_workload(num_layers=18)).
  Workload w = GetWorkload("resnet-18");
  const std::string expected = testing::ReadTestData("resnet18_nchw.relay");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(text::AsText(w.mod, false), expected);
}

TEST(ResNetTest, ParameterCountsWithValues) {
  const std::pair<const char*, size_t> cases[] = {{"resnet-18", 99}, {"resnet-50", 259}};
  for (const auto& [name, count] : cases) {
    Workload w = GetWorkload(name);
    std::vector<std::string> names = ParamNames(w.mod);
    EXPECT_EQ(names.size(), count + 1) << name;
    EXPECT_EQ(names.front(), "data") << name;
    EXPECT_EQ(w.params.size(), count) << name;
    EXPECT_EQ(w.params.count("data"), 0u) << name;
    EXPECT_EQ(ReturnType(w.mod), "Tensor[(1, 1000), float32]") << name;
  }
}

TEST(ResNetTest, DeeperNetsTypeCheck) {
  // Without InitParams (tens of millions of draws): structure and types only.
  const std::pair<int, size_t> cases[] = {{34, 179}, {101, 514}, {152, 769}};
  for (const auto& [depth, count] : cases) {
    ResNetOptions options;
    options.num_layers = depth;
    ir::IRModule mod = ir::InferTypes(ir::IRModule::FromExpr(ResNet(options)));
    EXPECT_EQ(ParamNames(mod).size(), count + 1) << depth;
    EXPECT_EQ(ReturnType(mod), "Tensor[(1, 1000), float32]") << depth;
  }
}

TEST(ResNetTest, BottleneckParameterOrderAndShapes) {
  Workload w = GetWorkload("resnet-50");
  std::vector<std::string> names = ParamNames(w.mod);
  const std::vector<std::string> head = {"data",
                                         "bn_data_gamma",
                                         "bn_data_beta",
                                         "bn_data_moving_mean",
                                         "bn_data_moving_var",
                                         "conv0_weight",
                                         "bn0_gamma",
                                         "bn0_beta",
                                         "bn0_moving_mean",
                                         "bn0_moving_var",
                                         "stage1_unit1_bn1_gamma",
                                         "stage1_unit1_bn1_beta",
                                         "stage1_unit1_bn1_moving_mean",
                                         "stage1_unit1_bn1_moving_var",
                                         "stage1_unit1_conv1_weight",
                                         "stage1_unit1_bn2_gamma",
                                         "stage1_unit1_bn2_beta",
                                         "stage1_unit1_bn2_moving_mean",
                                         "stage1_unit1_bn2_moving_var",
                                         "stage1_unit1_conv2_weight",
                                         "stage1_unit1_bn3_gamma",
                                         "stage1_unit1_bn3_beta",
                                         "stage1_unit1_bn3_moving_mean",
                                         "stage1_unit1_bn3_moving_var",
                                         "stage1_unit1_conv3_weight",
                                         "stage1_unit1_sc_weight",
                                         "stage1_unit2_bn1_gamma"};
  ASSERT_GE(names.size(), head.size());
  EXPECT_EQ(std::vector<std::string>(names.begin(), names.begin() + head.size()), head);
  const std::vector<std::string> tail = {"bn1_gamma",      "bn1_beta",   "bn1_moving_mean",
                                         "bn1_moving_var", "fc1_weight", "fc1_bias"};
  EXPECT_EQ(std::vector<std::string>(names.end() - tail.size(), names.end()), tail);

  EXPECT_EQ(ParamType(w.mod, "stage1_unit1_conv1_weight"), "Tensor[(64, 64, 1, 1), float32]");
  EXPECT_EQ(ParamType(w.mod, "stage1_unit1_conv2_weight"), "Tensor[(64, 64, 3, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "stage1_unit1_conv3_weight"), "Tensor[(256, 64, 1, 1), float32]");
  EXPECT_EQ(ParamType(w.mod, "stage2_unit1_conv1_weight"), "Tensor[(128, 256, 1, 1), float32]");
  EXPECT_EQ(ParamType(w.mod, "stage2_unit1_sc_weight"), "Tensor[(512, 256, 1, 1), float32]");
  EXPECT_EQ(ParamType(w.mod, "fc1_weight"), "Tensor[(1000, 2048), float32]");
  // The stride sits on the first 1x1 conv of the unit.
  const std::string text = text::PrettyPrint(w.mod);
  EXPECT_TRUE(Contains(text,
                       "%stage2_unit1_conv1_weight, strides=[2, 2], padding=[0, 0, 0, 0], "
                       "channels=128, kernel_size=[1, 1])"));
}

TEST(ResNetTest, BatchSizeReachesDataAndOutput) {
  Workload w = GetWorkload("resnet-18", {.layout = "NCHW", .batch_size = 4});
  EXPECT_EQ(ParamType(w.mod, "data"), "Tensor[(4, 3, 224, 224), float32]");
  EXPECT_EQ(ReturnType(w.mod), "Tensor[(4, 1000), float32]");
}

TEST(ResNetTest, NhwcTypeChecksWithLayoutAttrs) {
  Workload w = GetWorkload("resnet-18", {.layout = "NHWC"});
  EXPECT_EQ(ParamType(w.mod, "data"), "Tensor[(1, 224, 224, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "conv0_weight"), "Tensor[(7, 7, 3, 64), float32]");
  EXPECT_EQ(ParamType(w.mod, "stage2_unit1_sc_weight"), "Tensor[(1, 1, 64, 128), float32]");
  EXPECT_EQ(ParamType(w.mod, "bn_data_gamma"), "Tensor[(3), float32]");
  EXPECT_EQ(ParamType(w.mod, "fc1_weight"), "Tensor[(1000, 512), float32]");
  EXPECT_EQ(ReturnType(w.mod), "Tensor[(1, 1000), float32]");
  EXPECT_EQ(w.params.size(), 99u);
  const std::string text = text::PrettyPrint(w.mod);
  EXPECT_TRUE(Contains(text, "epsilon=2e-05f, scale=False) /* ty=(Tensor[(1, 224, 224, 3), "));
  EXPECT_TRUE(Contains(text,
                       "nn.batch_norm(%data, %bn_data_gamma, %bn_data_beta, "
                       "%bn_data_moving_mean, %bn_data_moving_var, axis=3, epsilon=2e-05f, "
                       "scale=False)"));
  EXPECT_TRUE(Contains(text,
                       "nn.conv2d(%1, %conv0_weight, strides=[2, 2], padding=[3, 3, 3, 3], "
                       "channels=64, kernel_size=[7, 7], data_layout=\"NHWC\", "
                       "kernel_layout=\"HWIO\") /* ty=Tensor[(1, 112, 112, 64), float32] */"));
  EXPECT_TRUE(Contains(text,
                       "nn.max_pool2d(%5, pool_size=[3, 3], strides=[2, 2], "
                       "padding=[1, 1, 1, 1], layout=\"NHWC\") /* ty=Tensor[(1, 56, 56, 64), "
                       "float32] */"));
  EXPECT_TRUE(Contains(text,
                       "nn.global_avg_pool2d(%85, layout=\"NHWC\") /* ty=Tensor[(1, 1, 1, "
                       "512), float32] */"));
  EXPECT_TRUE(Contains(text, "nn.bias_add(%88, %fc1_bias, axis=-1)"));
}

TEST(ResNetTest, Nhwc50TypeChecks) {
  Workload w = GetWorkload("resnet-50", {.layout = "NHWC", .batch_size = 2});
  EXPECT_EQ(ParamType(w.mod, "stage1_unit1_conv3_weight"), "Tensor[(1, 1, 64, 256), float32]");
  EXPECT_EQ(ReturnType(w.mod), "Tensor[(2, 1000), float32]");
  EXPECT_EQ(w.params.size(), 259u);
}

TEST(ResNetTest, CifarVariant) {
  // resnet-20 on 28x28 images: three stages of 3 basic units, 3x3 stem without pooling.
  ResNetOptions options;
  options.num_layers = 20;
  options.num_classes = 10;
  options.image_shape = {3, 28, 28};
  ir::Function net = ResNet(options);
  EXPECT_EQ(net->params.size(), 105u);  // data + 4 + 1 + 9 * 10 + 3 + 6
  Workload w = CreateWorkload(net);
  EXPECT_EQ(ParamType(w.mod, "conv0_weight"), "Tensor[(16, 3, 3, 3), float32]");
  EXPECT_EQ(ParamType(w.mod, "stage3_unit3_conv2_weight"), "Tensor[(64, 64, 3, 3), float32]");
  EXPECT_EQ(ReturnType(w.mod), "Tensor[(1, 10), float32]");
  EXPECT_FALSE(Contains(text::PrettyPrint(w.mod), "max_pool2d"));
}

TEST(ResNetTest, RejectsUnknownDepthAndLayout) {
  EXPECT_THROW(GetWorkload("resnet-19"), Error);
  EXPECT_THROW(GetWorkload("resnet-18", {.layout = "NCWH"}), Error);
  EXPECT_THROW(GetWorkload("resnet"), Error);
}

}  // namespace
}  // namespace relaypass::workloads
