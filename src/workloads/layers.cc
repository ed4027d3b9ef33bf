#include "layers.h"

#include "relaypass/support/error.h"

namespace relaypass::workloads::layers {

relay::Expr BatchNormInfer(relay::Expr data, const std::string& name,
                           const relay::nn::BatchNormArgs& args) {
  relay::Var gamma = relay::var(name + "_gamma");
  relay::Var beta = relay::var(name + "_beta");
  relay::Var moving_mean = relay::var(name + "_moving_mean");
  relay::Var moving_var = relay::var(name + "_moving_var");
  return relay::get_item(
      relay::nn::batch_norm(std::move(data), gamma, beta, moving_mean, moving_var, args), 0);
}

relay::Expr Conv2D(relay::Expr data, const std::string& name, const relay::nn::Conv2DArgs& args) {
  return relay::nn::conv2d(std::move(data), relay::var(name + "_weight"), args);
}

relay::Expr DenseAddBias(relay::Expr data, const std::string& name, int64_t units) {
  relay::Var weight = relay::var(name + "_weight");
  relay::Var bias = relay::var(name + "_bias");
  return relay::nn::bias_add(relay::nn::dense(std::move(data), weight, units), bias, -1);
}

std::string ConvKernelLayout(const std::string& data_layout, bool is_depthwise) {
  if (data_layout == "NCHW") return "OIHW";
  if (data_layout == "NHWC") return is_depthwise ? "HWOI" : "HWIO";
  throw Error("unsupported data layout '" + data_layout + "' (known: NCHW, NHWC)");
}

int ChannelAxis(const std::string& data_layout) {
  size_t at = data_layout.find('C');
  if (at == std::string::npos) throw Error("data layout '" + data_layout + "' has no C axis");
  return static_cast<int>(at);
}

}  // namespace relaypass::workloads::layers
