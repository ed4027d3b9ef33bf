// tvm.relay.testing.mobilenet (v0.13): conv_block, separable_conv_block and mobile_net with
// alpha 1.0 and is_shallow false, statement for statement.
#include "relaypass/workloads/mobilenet.h"

#include "layers.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::workloads {

namespace {

using relay::Expr;
using relay::Ints;

// conv 3x3 -> batch_norm (default axis 1, whatever the layout, as in TVM) -> relu.
Expr ConvBlock(const Expr& data, const std::string& name, int64_t channels, int64_t stride,
               const std::string& layout) {
  Expr conv = layers::Conv2D(data, name + "_conv",
                             {.strides = {stride, stride},
                              .padding = {1, 1},
                              .channels = channels,
                              .kernel_size = Ints{3, 3},
                              .data_layout = layout,
                              .kernel_layout = layers::ConvKernelLayout(layout)});
  return relay::nn::relu(layers::BatchNormInfer(conv, name + "_bn", {.epsilon = 1e-5}));
}

// Depthwise 3x3 (explicitly typed weight) -> bn1 -> relu -> pointwise 1x1 -> bn2 -> relu.
Expr SeparableConvBlock(const Expr& data, const std::string& name, int64_t depthwise_channels,
                        int64_t pointwise_channels, bool downsample, const std::string& layout,
                        const std::string& dtype) {
  const int64_t stride = downsample ? 2 : 1;
  Ints wshape =
      layout == "NCHW" ? Ints{depthwise_channels, 1, 3, 3} : Ints{3, 3, depthwise_channels, 1};
  const int bn_axis = layers::ChannelAxis(layout);
  relay::Var weight = relay::var(name + "_weight", wshape, dtype);
  Expr conv1 = relay::nn::conv2d(data, weight,
                                 {.strides = {stride, stride},
                                  .padding = {1, 1},
                                  .groups = static_cast<int>(depthwise_channels),
                                  .channels = depthwise_channels,
                                  .kernel_size = Ints{3, 3},
                                  .data_layout = layout,
                                  .kernel_layout = layers::ConvKernelLayout(layout, true)});
  Expr act1 = relay::nn::relu(
      layers::BatchNormInfer(conv1, name + "_bn1", {.axis = bn_axis, .epsilon = 1e-5}));
  Expr conv2 = layers::Conv2D(act1, name + "_conv2",
                              {.strides = {1, 1},
                               .padding = {0, 0},
                               .channels = pointwise_channels,
                               .kernel_size = Ints{1, 1},
                               .data_layout = layout,
                               .kernel_layout = layers::ConvKernelLayout(layout)});
  return relay::nn::relu(
      layers::BatchNormInfer(conv2, name + "_bn2", {.axis = bn_axis, .epsilon = 1e-5}));
}

struct Block {
  int64_t depthwise_channels;
  int64_t pointwise_channels;
  bool downsample;
};

// separable_conv_block_1 .. _13 of the full (not shallow) network.
constexpr Block kBlocks[] = {
    {32, 64, false},   {64, 128, true},   {128, 128, false},   {128, 256, true},  {256, 256, false},
    {256, 512, true},  {512, 512, false}, {512, 512, false},   {512, 512, false}, {512, 512, false},
    {512, 512, false}, {512, 1024, true}, {1024, 1024, false},
};

}  // namespace

ir::Function MobileNet(const MobileNetOptions& options) {
  const std::string& layout = options.layout;
  layers::ConvKernelLayout(layout);  // rejects layouts other than NCHW / NHWC
  std::vector<int64_t> image_shape = options.image_shape;
  if (image_shape.empty()) image_shape = layout == "NHWC" ? Ints{224, 224, 3} : Ints{3, 224, 224};
  if (image_shape.size() != 3) throw Error("mobilenet: image_shape must have 3 values");
  Ints data_shape{options.batch_size};
  data_shape.insert(data_shape.end(), image_shape.begin(), image_shape.end());

  relay::Var data = relay::var("data", data_shape, options.dtype);
  Expr body = ConvBlock(data, "conv_block_1", 32, 2, layout);
  int k = 1;
  for (const Block& b : kBlocks) {
    body = SeparableConvBlock(body, "separable_conv_block_" + std::to_string(k++),
                              b.depthwise_channels, b.pointwise_channels, b.downsample, layout,
                              options.dtype);
  }
  body = relay::nn::global_avg_pool2d(body, layout);
  body = relay::nn::batch_flatten(body);
  relay::Var weight = relay::var("fc_weight");
  relay::Var bias = relay::var("fc_bias");
  body = relay::nn::dense(body, weight, options.num_classes);
  body = relay::nn::bias_add(body, bias);
  Expr net = relay::nn::softmax(body);
  return relay::function(ir::FreeVars(net), net);
}

}  // namespace relaypass::workloads
