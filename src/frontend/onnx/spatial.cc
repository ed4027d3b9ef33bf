#include "spatial.h"

#include <algorithm>

namespace relaypass::frontend::onnx_import {

bool IsSamePad(const NodeContext& ctx) {
  const std::string mode = ctx.attr_string("auto_pad", "NOTSET");
  return mode == "SAME_UPPER" || mode == "SAME_LOWER";
}

Ints ResolvePads(const NodeContext& ctx, const Ints& spatial, const Ints& kernel,
                 const Ints& strides, const Ints& dilations) {
  const size_t n = spatial.size();
  const std::string mode = ctx.attr_string("auto_pad", "NOTSET");
  if (mode == "VALID") return Ints(2 * n, 0);
  if (mode == "NOTSET" || mode.empty()) {
    return ctx.attr_ints_n("pads", 2 * n, Ints(2 * n, 0));
  }
  if (mode != "SAME_UPPER" && mode != "SAME_LOWER") ctx.Fail("unknown auto_pad '" + mode + "'");
  Ints pads(2 * n, 0);
  for (size_t i = 0; i < n; ++i) {
    if (spatial[i] < 0) ctx.Unsupported("auto_pad " + mode + " with `?` spatial extents");
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t out = (spatial[i] + strides[i] - 1) / strides[i];
    const int64_t extent = (kernel[i] - 1) * dilations[i] + 1;
    const int64_t total = std::max<int64_t>(0, (out - 1) * strides[i] + extent - spatial[i]);
    const int64_t small = total / 2, large = total - small;
    pads[i] = mode == "SAME_UPPER" ? small : large;
    pads[i + n] = mode == "SAME_UPPER" ? large : small;
  }
  return pads;
}

}  // namespace relaypass::frontend::onnx_import
