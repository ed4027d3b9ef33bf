// The parts of the nn family that live in their own files; RegisterNNOps (nn.cc) calls them.
#pragma once

#include "relaypass/op/registry.h"

namespace relaypass::op {

void RegisterConvOps(OpRegistry& registry);           // conv.cc: nn.conv2d
void RegisterPoolingOps(OpRegistry& registry);        // pooling.cc: max/avg/global pooling
void RegisterNormalizationOps(OpRegistry& registry);  // normalization.cc: prelu, lrn, ...
void RegisterConvNDOps(OpRegistry& registry);         // conv_nd.cc: conv3d, conv*_transpose, pool3d
void RegisterAdaptivePoolOps(OpRegistry& registry);   // adaptive_pool.cc
void RegisterGroupNormOps(OpRegistry& registry);      // group_norm.cc: group_norm, l2_normalize
void RegisterLossOps(OpRegistry& registry);           // loss.cc: nll_loss
void RegisterMatmulOp(OpRegistry& registry);          // matmul.cc: nn.matmul
void RegisterConv2DBackwardWeightOp(OpRegistry& registry);  // conv_backward_weight.cc
void RegisterConvNCHWcOps(OpRegistry& registry);   // conv_nchwc.cc: nn.contrib_*conv2d_NCHWc
void RegisterCorrelationOp(OpRegistry& registry);  // correlation.cc: nn.correlation
void RegisterBitserialOps(OpRegistry& registry);   // bitserial.cc: nn.bitpack, nn.bitserial_*
void RegisterPadLikeOps(OpRegistry& registry);     // pad_like.cc: nn.mirror_pad, nn.dilate

}  // namespace relaypass::op
