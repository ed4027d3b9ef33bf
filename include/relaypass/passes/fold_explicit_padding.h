// FoldExplicitPadding (TVM v0.13's src/relay/transforms/fold_explicit_padding.cc): an nn.pad in
// constant mode that pads only spatial axes (H, W, D of the consumer's layout), followed by
//  - nn.conv2d / nn.conv3d with a pad value of 0,
//  - nn.avg_pool2d / nn.avg_pool3d with a pad value of 0 (if the pool itself pads, only when it
//    counts the padding; an unpadded pool then gets count_include_pad=True),
//  - nn.max_pool2d / nn.max_pool3d with the dtype's lowest value as the pad value,
// is folded into the consumer's padding attribute. Repeats until no pad folds (TVM rewrites to a
// fixed point), so pad(pad(x)) folds twice.
#pragma once

#include "relaypass/transform/pass.h"
#include "relaypass/transform/registry.h"

namespace relaypass::passes {

/// Function pass "FoldExplicitPadding", opt_level 0, requires InferType. (TVM's PassInfo name is
/// " FoldExplicitPadding", with a leading space; relaypass's carries the registered name.)
transform::Pass FoldExplicitPadding();
void RegisterFoldExplicitPadding(transform::PassRegistry& registry);

}  // namespace relaypass::passes
