// MobileNet v1 (alpha 1.0, not shallow) with the exact structure, names and parameter order of
// TVM v0.13's tvm.relay.testing.mobilenet (relay_semantics.md 4.2).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "relaypass/ir/expr.h"

namespace relaypass::workloads {

struct MobileNetOptions {
  int64_t batch_size = 1;
  int64_t num_classes = 1000;
  /// Without the batch, in `layout` order. Empty: (3, 224, 224) for NCHW, (224, 224, 3) for NHWC.
  std::vector<int64_t> image_shape{};
  std::string layout = "NCHW";  // or "NHWC" (kernel layouts HWIO, depthwise HWOI)
  std::string dtype = "float32";
};

/// mobilenet.mobile_net: the untyped function over FreeVars(net) (data first; the depthwise weights
/// are annotated, everything else is not). Throws relaypass::Error for an unsupported layout.
ir::Function MobileNet(const MobileNetOptions& options = {});

}  // namespace relaypass::workloads
