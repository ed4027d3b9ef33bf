// tvm.relay.testing.resnet (v0.13): get_net, resnet and residual_unit, statement for statement.
#include "relaypass/workloads/resnet.h"

#include "layers.h"
#include "relaypass/ir/visitor.h"
#include "relaypass/relay.h"
#include "relaypass/support/error.h"

namespace relaypass::workloads {

namespace {

using relay::Expr;
using relay::Ints;

// Depth, widths and block kind (get_net).
struct Plan {
  std::vector<int64_t> units;
  std::vector<int64_t> filter_list;
  bool bottle_neck = false;
};

Plan PlanFor(int num_layers, int64_t height) {
  Plan plan;
  if (height <= 28) {  // CIFAR: three stages of equal depth
    int64_t per_unit = 0;
    if ((num_layers - 2) % 9 == 0 && num_layers >= 164) {
      per_unit = (num_layers - 2) / 9;
      plan.filter_list = {16, 64, 128, 256};
      plan.bottle_neck = true;
    } else if ((num_layers - 2) % 6 == 0 && num_layers < 164) {
      per_unit = (num_layers - 2) / 6;
      plan.filter_list = {16, 16, 32, 64};
    } else {
      throw Error("no experiments done on num_layers " + std::to_string(num_layers) +
                  ", you can do it yourself");
    }
    if (per_unit < 1)
      throw Error("resnet: num_layers " + std::to_string(num_layers) + " too small");
    plan.units = {per_unit, per_unit, per_unit};
    return plan;
  }
  plan.bottle_neck = num_layers >= 50;
  plan.filter_list = plan.bottle_neck ? std::vector<int64_t>{64, 256, 512, 1024, 2048}
                                      : std::vector<int64_t>{64, 64, 128, 256, 512};
  switch (num_layers) {
    case 18:
      plan.units = {2, 2, 2, 2};
      break;
    case 34:
      plan.units = {3, 4, 6, 3};
      break;
    case 50:
      plan.units = {3, 4, 6, 3};
      break;
    case 101:
      plan.units = {3, 4, 23, 3};
      break;
    case 152:
      plan.units = {3, 8, 36, 3};
      break;
    case 200:
      plan.units = {3, 24, 36, 3};
      break;
    case 269:
      plan.units = {3, 30, 48, 8};
      break;
    default:
      throw Error("no experiments done on num_layers " + std::to_string(num_layers) +
                  ", you can do it yourself");
  }
  return plan;
}

struct Layouts {
  std::string data;
  std::string kernel;
  int bn_axis;
};

relay::nn::BatchNormArgs BN(const Layouts& l) {
  return {.axis = l.bn_axis, .epsilon = 2e-5};
}

// A square conv (kernel, stride and padding the same on both axes).
relay::nn::Conv2DArgs Conv(int64_t channels, int64_t kernel, int64_t stride, int64_t pad,
                           const Layouts& l) {
  return {.strides = {stride, stride},
          .padding = {pad, pad},
          .channels = channels,
          .kernel_size = Ints{kernel, kernel},
          .data_layout = l.data,
          .kernel_layout = l.kernel};
}

Expr ResidualUnit(const Expr& data, int64_t num_filter, int64_t stride, bool dim_match,
                  const std::string& name, bool bottle_neck, const Layouts& l) {
  Expr act1 = relay::nn::relu(layers::BatchNormInfer(data, name + "_bn1", BN(l)));
  Expr body;
  if (bottle_neck) {
    const int64_t mid = num_filter / 4;  // int(num_filter * 0.25)
    Expr conv1 = layers::Conv2D(act1, name + "_conv1", Conv(mid, 1, stride, 0, l));
    Expr act2 = relay::nn::relu(layers::BatchNormInfer(conv1, name + "_bn2", BN(l)));
    Expr conv2 = layers::Conv2D(act2, name + "_conv2", Conv(mid, 3, 1, 1, l));
    Expr act3 = relay::nn::relu(layers::BatchNormInfer(conv2, name + "_bn3", BN(l)));
    body = layers::Conv2D(act3, name + "_conv3", Conv(num_filter, 1, 1, 0, l));
  } else {
    Expr conv1 = layers::Conv2D(act1, name + "_conv1", Conv(num_filter, 3, stride, 1, l));
    Expr act2 = relay::nn::relu(layers::BatchNormInfer(conv1, name + "_bn2", BN(l)));
    body = layers::Conv2D(act2, name + "_conv2", Conv(num_filter, 3, 1, 1, l));
  }
  Expr shortcut =
      dim_match ? data : layers::Conv2D(act1, name + "_sc", Conv(num_filter, 1, stride, 0, l));
  return relay::add(body, shortcut);
}

}  // namespace

ir::Function ResNet(const ResNetOptions& options) {
  Layouts l{options.layout, layers::ConvKernelLayout(options.layout),
            layers::ChannelAxis(options.layout)};
  std::vector<int64_t> image_shape = options.image_shape;
  if (image_shape.empty()) {
    image_shape = options.layout == "NHWC" ? Ints{224, 224, 3} : Ints{3, 224, 224};
  }
  if (image_shape.size() != 3) throw Error("resnet: image_shape must have 3 values");
  const int64_t height = image_shape[options.layout == "NHWC" ? 0 : 1];
  const Plan plan = PlanFor(options.num_layers, height);

  Ints data_shape{options.batch_size};
  data_shape.insert(data_shape.end(), image_shape.begin(), image_shape.end());
  relay::Var data = relay::var("data", data_shape, options.dtype);
  relay::nn::BatchNormArgs bn_data = BN(l);
  bn_data.scale = false;
  Expr body = layers::BatchNormInfer(data, "bn_data", bn_data);
  if (height <= 32) {  // such as CIFAR-10
    body = layers::Conv2D(body, "conv0", Conv(plan.filter_list[0], 3, 1, 1, l));
  } else {  // often 224, such as ImageNet
    body = layers::Conv2D(body, "conv0", Conv(plan.filter_list[0], 7, 2, 3, l));
    body = relay::nn::relu(layers::BatchNormInfer(body, "bn0", BN(l)));
    body = relay::nn::max_pool2d(
        body, {.pool_size = {3, 3}, .strides = {2, 2}, .padding = {1, 1}, .layout = l.data});
  }
  for (size_t i = 0; i < plan.units.size(); ++i) {
    const int64_t num_filter = plan.filter_list[i + 1];
    const std::string stage = "stage" + std::to_string(i + 1);
    body = ResidualUnit(body, num_filter, i == 0 ? 1 : 2, false, stage + "_unit1", plan.bottle_neck,
                        l);
    for (int64_t j = 2; j <= plan.units[i]; ++j) {
      body = ResidualUnit(body, num_filter, 1, true, stage + "_unit" + std::to_string(j),
                          plan.bottle_neck, l);
    }
  }
  body = relay::nn::relu(layers::BatchNormInfer(body, "bn1", BN(l)));
  body = relay::nn::global_avg_pool2d(body, l.data);
  body = relay::nn::batch_flatten(body);
  body = layers::DenseAddBias(body, "fc1", options.num_classes);
  Expr net = relay::nn::softmax(body);
  return relay::function(ir::FreeVars(net), net);
}

}  // namespace relaypass::workloads
