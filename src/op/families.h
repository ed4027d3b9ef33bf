// Registration entry points of the operator families; RegisterBuiltinOps (registry.cc) calls
// each once.
#pragma once

#include "relaypass/op/registry.h"

namespace relaypass::op {

void RegisterTensorOps(OpRegistry& registry);      // tensor.cc: elementwise and broadcast
void RegisterNNOps(OpRegistry& registry);          // nn.cc: conv, pooling, norm, dense, ...
void RegisterTransformOps(OpRegistry& registry);   // transform.cc: reshape, layout, cast, ...
void RegisterReshapeLikeOp(OpRegistry& registry);  // reshape_like.cc
void RegisterRandomOps(OpRegistry& registry);      // random.cc: random.threefry_*, uniform, normal
void RegisterReduceOps(OpRegistry& registry);      // reduce.cc: sum, mean, argmax, ...
void RegisterIndexingOps(OpRegistry& registry);    // indexing.cc: take, strided_slice, ...
void RegisterImageOps(OpRegistry& registry);       // image.cc: resize2d, upsampling, ...
void RegisterFastMathOps(OpRegistry& registry);    // fast_math.cc: fast_exp, ... (after nn)
void RegisterStackOp(OpRegistry& registry);        // stack.cc: stack
void RegisterAnnotationOps(OpRegistry& registry);  // annotation.cc: compiler_begin/end
void RegisterDebugOp(OpRegistry& registry);        // debug.cc: debug (a callback by name)
void RegisterSparseOps(OpRegistry& registry);      // sparse.cc: sparse_to_dense, ...
void RegisterRangeOps(OpRegistry& registry);       // range.cc: arange, meshgrid
void RegisterUniqueOps(OpRegistry& registry);      // unique.cc: argwhere, unique
void RegisterAdvIndexOp(OpRegistry& registry);     // adv_index.cc: adv_index
void RegisterStridedSetOp(OpRegistry& registry);   // strided_set.cc: strided_set
void RegisterSignalOps(OpRegistry& registry);      // signal.cc: stft
void RegisterVisionOps(OpRegistry& registry);      // vision.cc: vision.roi_align
void RegisterNMSOps(OpRegistry& registry);         // vision_nms.cc: get_valid_counts, NMS
void RegisterDeformableConvOp(OpRegistry& registry);  // deformable_conv.cc
void RegisterDynOps(OpRegistry& registry);  // dyn/transform.cc: dyn.* (after the static ops)

}  // namespace relaypass::op
