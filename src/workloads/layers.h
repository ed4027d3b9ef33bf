// The helpers of tvm.relay.testing.layers: ops whose parameters are fresh variables named after
// the layer (`<name>_weight`, `<name>_gamma`, ...), shared by the resnet and mobilenet builders.
#pragma once

#include <string>

#include "relaypass/relay.h"

namespace relaypass::workloads::layers {

// layers.batch_norm_infer: batch_norm(data, <name>_gamma, <name>_beta, <name>_moving_mean,
// <name>_moving_var, args)[0], all four parameters untyped.
relay::Expr BatchNormInfer(relay::Expr data, const std::string& name,
                           const relay::nn::BatchNormArgs& args);

// layers.conv2d: conv2d(data, <name>_weight, args) with an untyped weight.
relay::Expr Conv2D(relay::Expr data, const std::string& name, const relay::nn::Conv2DArgs& args);

// layers.dense_add_bias: bias_add(dense(data, <name>_weight, units), <name>_bias, axis=-1).
relay::Expr DenseAddBias(relay::Expr data, const std::string& name, int64_t units);

// layers.conv_kernel_layout: OIHW for NCHW; HWIO (HWOI if depthwise) for NHWC. Throws
// relaypass::Error for any other data layout.
std::string ConvKernelLayout(const std::string& data_layout, bool is_depthwise = false);

// Index of 'C' in the data layout (the batch-norm axis).
int ChannelAxis(const std::string& data_layout);

}  // namespace relaypass::workloads::layers
