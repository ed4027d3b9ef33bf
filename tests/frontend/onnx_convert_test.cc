// ONNX nodes convert as TVM v0.13's from_onnx converts them: the printed Relay of small models
// built here, and their results on the evaluator.
#include <gtest/gtest.h>

#include "onnx_builder.h"
#include "relaypass/eval/interpreter.h"
#include "relaypass/frontend/onnx.h"
#include "relaypass/text/printer.h"

namespace relaypass::frontend {
namespace {

using test::OnnxGraph;

std::string Print(const OnnxGraph& g, const OnnxOptions& options = {}) {
  return text::PrettyPrint(FromOnnxBytes(g.Bytes(), options).mod);
}

TEST(OnnxConvertTest, ConvBiasReluWithParams) {
  OnnxGraph g;
  g.Input("x", {1, 2, 5, 5});
  g.Initializer("w", {3, 2, 3, 3}, std::vector<float>(54, 0.5f));
  g.Initializer("b", {3}, {1, 2, 3});
  onnx::NodeProto& conv = g.Node("Conv", {"x", "w", "b"}, {"c"});
  OnnxGraph::IntsAttr(conv, "pads", {1, 1, 1, 1});
  OnnxGraph::IntsAttr(conv, "strides", {2, 2});
  g.Node("Relu", {"c"}, {"y"});
  g.Output("y");
  OnnxOptions options;
  options.freeze_params = false;
  OnnxModel m = FromOnnxBytes(g.Bytes(), options);
  EXPECT_EQ(text::PrettyPrint(m.mod),
            "def @main(%x: Tensor[(1, 2, 5, 5), float32] /* ty=Tensor[(1, 2, 5, 5), float32] */, "
            "%w: Tensor[(3, 2, 3, 3), float32] /* ty=Tensor[(3, 2, 3, 3), float32] */, "
            "%b: Tensor[(3), float32] /* ty=Tensor[(3), float32] */) -> Tensor[(1, 3, 3, 3), "
            "float32] {\n"
            "  %0 = nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], channels=3, "
            "kernel_size=[3, 3]) /* ty=Tensor[(1, 3, 3, 3), float32] */;\n"
            "  %1 = nn.bias_add(%0, %b) /* ty=Tensor[(1, 3, 3, 3), float32] */;\n"
            "  nn.relu(%1) /* ty=Tensor[(1, 3, 3, 3), float32] */\n"
            "}\n");
  EXPECT_EQ(m.params.size(), 2u);
  EXPECT_EQ(m.input_names, std::vector<std::string>{"x"});
  // Frozen (the default): the initializers are constants and params is empty.
  OnnxModel frozen = FromOnnxBytes(g.Bytes());
  EXPECT_TRUE(frozen.params.empty());
  EXPECT_NE(text::PrettyPrint(frozen.mod).find("nn.conv2d(%x, meta[relay.Constant][0]"),
            std::string::npos);
}

TEST(OnnxConvertTest, GemmAsDenseWithTranspose) {
  OnnxGraph g;
  g.Input("a", {2, 4});
  g.Input("b", {4, 3});
  g.Input("c", {3});
  onnx::NodeProto& n = g.Node("Gemm", {"a", "b", "c"}, {"y"});
  OnnxGraph::FloatAttr(n, "beta", 2.0f);
  g.Output("y");
  const std::string printed = Print(g);
  EXPECT_NE(printed.find("%0 = transpose(%b, axes=[1, 0])"), std::string::npos) << printed;
  EXPECT_NE(printed.find("%1 = nn.dense(%a, %0, units=3)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("%2 = multiply(2f /* ty=float32 */, %c)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("add(%1, %2)"), std::string::npos) << printed;
}

TEST(OnnxConvertTest, ShapeArithmeticFoldsAtImport) {
  // Reshape(x, Concat(Gather(Shape(x), 0), [-1])): the shape folds to a constant.
  OnnxGraph g;
  g.Input("x", {2, 3, 4});
  g.Node("Shape", {"x"}, {"s"});
  onnx::NodeProto& c0 = g.Node("Constant", {}, {"zero"});
  {
    auto* a = c0.add_attribute();
    a->set_name("value");
    a->set_type(onnx::AttributeProto::TENSOR);
    a->mutable_t()->set_data_type(onnx::TensorProto::INT64);
    a->mutable_t()->add_int64_data(0);
  }
  g.Node("Gather", {"s", "zero"}, {"n"});
  g.Node("Unsqueeze", {"n", "axes"}, {"n1"});
  g.IntInitializer("axes", {0});
  g.IntInitializer("minus1", {-1});
  g.Node("Concat", {"n1", "minus1"}, {"shape"}).add_attribute()->CopyFrom([] {
    onnx::AttributeProto a;
    a.set_name("axis");
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(0);
    return a;
  }());
  g.Node("Reshape", {"x", "shape"}, {"y"});
  g.Output("y");
  EXPECT_EQ(Print(g),
            "def @main(%x: Tensor[(2, 3, 4), float32] /* ty=Tensor[(2, 3, 4), float32] */) -> "
            "Tensor[(2, 12), float32] {\n"
            "  reshape(%x, newshape=[2, -1]) /* ty=Tensor[(2, 12), float32] */\n"
            "}\n");
}

TEST(OnnxConvertTest, SoftmaxBeforeOpset13CoercesTo2D) {
  OnnxGraph g(11);
  g.Input("x", {2, 3, 4});
  g.Node("Softmax", {"x"}, {"y"});
  g.Output("y");
  const std::string printed = Print(g);
  EXPECT_NE(printed.find("reshape(%x, newshape=[2, -1])"), std::string::npos) << printed;
  EXPECT_NE(printed.find("nn.softmax(%0)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("newshape=[2, 3, 4]"), std::string::npos) << printed;
}

TEST(OnnxConvertTest, PoolsBatchNormFlattenRunOnTheEvaluator) {
  OnnxGraph g;
  g.Input("x", {1, 2, 4, 4});
  g.Initializer("s", {2}, {1, 2});
  g.Initializer("bias", {2}, {0, 1});
  g.Initializer("m", {2}, {0, 0});
  g.Initializer("v", {2}, {1, 1});
  g.Node("BatchNormalization", {"x", "s", "bias", "m", "v"}, {"bn"});
  onnx::NodeProto& mp = g.Node("MaxPool", {"bn"}, {"p"});
  OnnxGraph::IntsAttr(mp, "kernel_shape", {2, 2});
  OnnxGraph::IntsAttr(mp, "strides", {2, 2});
  g.Node("GlobalAveragePool", {"p"}, {"g"});
  g.Node("Flatten", {"g"}, {"y"});
  g.Output("y");
  OnnxModel m = FromOnnxBytes(g.Bytes());
  ir::NDArray x = ir::NDArray::Empty({1, 2, 4, 4}, ir::DataType::Float32());
  for (int i = 0; i < 32; ++i) x.mutable_data<float>()[i] = static_cast<float>(i);
  std::vector<ir::NDArray> out = eval::RunMain(m.mod, {x});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].shape(), (ir::Shape{1, 2}));
  // Channel 0: maxima of 2x2 windows of 0..15 are 5, 7, 13, 15 (mean 10); channel 1 is
  // 2 * (16..31) + 1 with maxima 43, 47, 59, 63 (mean 53), up to batch norm's epsilon.
  EXPECT_NEAR(out[0].data<float>()[0], 10.0f, 1e-3);
  EXPECT_NEAR(out[0].data<float>()[1], 53.0f, 1e-2);
}

// MaxPool's Indices output. Expected values by hand: the first maximum of each window in
// row-major window order (ONNX Runtime's rule: a later equal value does not replace it), as a
// flat index into the input; padding never wins.
std::vector<ir::NDArray> MaxPoolWithIndices(int64_t storage_order) {
  OnnxGraph g;
  g.Input("x", {1, 2, 3, 3});
  onnx::NodeProto& mp = g.Node("MaxPool", {"x"}, {"y", "i"});
  OnnxGraph::IntsAttr(mp, "kernel_shape", {2, 2});
  OnnxGraph::IntsAttr(mp, "pads", {1, 1, 0, 0});
  OnnxGraph::IntAttr(mp, "storage_order", storage_order);
  g.Output("y");
  g.Output("i");
  OnnxModel m = FromOnnxBytes(g.Bytes());
  // Channel 0 below, channel 1 the same plus 10 (its flat indices start at 9).
  const float channel[9] = {1, 3, 3, 2, 0, 3, 1, 1, 1};
  ir::NDArray x = ir::NDArray::Empty({1, 2, 3, 3}, ir::DataType::Float32());
  for (int k = 0; k < 18; ++k) x.mutable_data<float>()[k] = channel[k % 9] + (k < 9 ? 0 : 10);
  return eval::RunMain(m.mod, {x});
}

TEST(OnnxConvertTest, MaxPoolIndicesAreTheFirstMaximumOfEachWindow) {
  std::vector<ir::NDArray> out = MaxPoolWithIndices(0);
  ASSERT_EQ(out.size(), 2u);
  ASSERT_EQ(out[1].shape(), (ir::Shape{1, 2, 3, 3}));
  ASSERT_EQ(out[1].dtype(), ir::DataType::Int64());
  const std::vector<int64_t> want = {0, 1, 1, 3, 1, 1, 3, 3, 5, 9, 10, 10, 12, 10, 10, 12, 12, 14};
  const std::vector<float> values = {1, 3, 3, 2, 3, 3, 2, 2, 3, 11, 13, 13, 12, 13, 13, 12, 12, 13};
  for (int k = 0; k < 18; ++k) {
    EXPECT_EQ(out[1].data<int64_t>()[k], want[k]) << k;
    EXPECT_EQ(out[0].data<float>()[k], values[k]) << k;
  }
}

TEST(OnnxConvertTest, MaxPoolIndicesInColumnMajorStorageOrder) {
  std::vector<ir::NDArray> out = MaxPoolWithIndices(1);
  ASSERT_EQ(out.size(), 2u);
  // The same elements as above, counted w * H + h within each channel.
  const std::vector<int64_t> want = {0, 3, 3, 1, 3, 3, 1, 1, 7, 9, 12, 12, 10, 12, 12, 10, 10, 16};
  for (int k = 0; k < 18; ++k) EXPECT_EQ(out[1].data<int64_t>()[k], want[k]) << k;
}

// Resize by a scale that does not give a whole output size: ONNX samples at the given scale,
// TVM's graph at input / output size. Expected values: ONNX's own backend test data
// (test_resize_downsample_scales_linear and _linear_align_corners, onnx 1.12).
std::vector<float> ResizeBy06(const std::string& coordinate_mode, std::string* printed) {
  OnnxGraph g;
  g.Input("x", {1, 1, 2, 4});
  g.Initializer("scales", {4}, {1, 1, 0.6f, 0.6f});
  onnx::NodeProto& n = g.Node("Resize", {"x", "", "scales"}, {"y"});
  OnnxGraph::StringAttr(n, "mode", "linear");
  OnnxGraph::StringAttr(n, "coordinate_transformation_mode", coordinate_mode);
  g.Output("y");
  OnnxModel m = FromOnnxBytes(g.Bytes());
  *printed = text::PrettyPrint(m.mod);
  ir::NDArray x = ir::NDArray::Empty({1, 1, 2, 4}, ir::DataType::Float32());
  for (int i = 0; i < 8; ++i) x.mutable_data<float>()[i] = static_cast<float>(i + 1);
  std::vector<ir::NDArray> out = eval::RunMain(m.mod, {x});
  return std::vector<float>(out[0].data<float>(), out[0].data<float>() + out[0].size());
}

TEST(OnnxConvertTest, ResizeByAFractionalScaleSamplesWhereOnnxDoes) {
  std::string printed;
  std::vector<float> half_pixel = ResizeBy06("half_pixel", &printed);
  ASSERT_EQ(half_pixel.size(), 2u);
  EXPECT_NEAR(half_pixel[0], 2.6666665f, 1e-5);
  EXPECT_NEAR(half_pixel[1], 4.3333331f, 1e-5);
  // Written as a region of interest, since image.resize2d samples at input / output size.
  EXPECT_NE(printed.find("coordinate_transformation_mode=\"tf_crop_and_resize\""),
            std::string::npos)
      << printed;
  std::vector<float> align_corners = ResizeBy06("align_corners", &printed);
  ASSERT_EQ(align_corners.size(), 2u);
  EXPECT_NEAR(align_corners[0], 1.0f, 1e-5);
  EXPECT_NEAR(align_corners[1], 3.142857f, 1e-5);
}

TEST(OnnxConvertTest, ResizeByAWholeScaleKeepsTvmsGraph) {
  // 4 x 4 by 0.5: a whole output size, where sampling at the scale and at input / output size
  // agree, so the graph is TVM's (half_pixel, no roi).
  OnnxGraph g;
  g.Input("x", {1, 1, 4, 4});
  g.Initializer("scales", {4}, {1, 1, 0.5f, 0.5f});
  onnx::NodeProto& n = g.Node("Resize", {"x", "", "scales"}, {"y"});
  OnnxGraph::StringAttr(n, "mode", "linear");
  g.Output("y");
  const std::string printed = Print(g);
  EXPECT_EQ(printed.find("tf_crop_and_resize"), std::string::npos) << printed;
  EXPECT_NE(printed.find("image.resize2d(%x, size=[2, 2]"), std::string::npos) << printed;
}

TEST(OnnxConvertTest, SupportedOpsListed) {
  std::vector<std::string> ops = SupportedOnnxOps();
  for (const char* op : {"Conv", "Gemm", "MatMul", "BatchNormalization", "Relu", "Reshape"}) {
    EXPECT_NE(std::find(ops.begin(), ops.end(), op), ops.end()) << op;
  }
}

}  // namespace
}  // namespace relaypass::frontend
