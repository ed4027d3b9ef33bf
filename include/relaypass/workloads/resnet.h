// ResNet v2 (pre-activation) with the exact structure, names and parameter order of TVM v0.13's
// tvm.relay.testing.resnet (relay_semantics.md 4.1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::workloads {

struct ResNetOptions {
  int num_layers = 18;  // 18, 34, 50, 101, 152, 200, 269; CIFAR (height <= 28): 6n+2 or 9n+2
  int64_t batch_size = 1;
  int64_t num_classes = 1000;
  /// Without the batch, in `layout` order. Empty: (3, 224, 224) for NCHW, (224, 224, 3) for NHWC
  /// (TVM's default is (3, 224, 224) whatever the layout; NHWC callers there pass their own).
  std::vector<int64_t> image_shape{};
  std::string layout = "NCHW";  // or "NHWC" (kernel layout HWIO)
  std::string dtype = "float32";
};

/// resnet.get_net: the untyped function over FreeVars(net) (data first; weights and BN parameters
/// are unannotated vars). Throws relaypass::Error for an unsupported depth or layout.
ir::Function ResNet(const ResNetOptions& options = {});

}  // namespace relaypass::workloads
