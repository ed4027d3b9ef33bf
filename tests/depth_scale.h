// The sizes of the deep-graph tests (million-node chains, deep let nests), scaled by the
// environment variable RELAYPASS_DEPTH_SCALE: a factor in (0, 1], 1 when unset. The sanitizer
// builds (`make test-sanitize`) set it to 0.1, so the same tests run on 100,000-node chains in
// a reasonable time there; a release build tests the full sizes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace relaypass::testing {

inline double DepthScale() {
  const char* text = std::getenv("RELAYPASS_DEPTH_SCALE");
  if (!text || !*text) return 1.0;
  const double scale = std::strtod(text, nullptr);
  return scale > 0 && scale <= 1 ? scale : 1.0;
}

// `n` scaled by RELAYPASS_DEPTH_SCALE, rounded down to an even number (chains alternate two ops)
// and at least 2.
inline int64_t ScaledDepth(int64_t n) {
  const auto scaled = static_cast<int64_t>(static_cast<double>(n) * DepthScale());
  return std::max<int64_t>(2, scaled - scaled % 2);
}

}  // namespace relaypass::testing
