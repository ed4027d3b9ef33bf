// The CPU kernels of the dyn.* operators: each reads its run-time shape arguments and runs the
// static operator it stands for (static_call.h), so the output shape comes from the values.
#pragma once

#include "../kernels/kernels.h"

namespace relaypass::op::dyn {

using kernels::KernelFn;

// dyn.reshape, dyn.broadcast_to, dyn.zeros, dyn.ones, dyn.full, dyn.tile, dyn.expand_dims,
// dyn.squeeze, dyn.strided_slice, dyn.one_hot, dyn.topk, dyn.sparse_to_dense.
KernelFn Reshape, BroadcastTo, Zeros, Ones, Full, Tile, ExpandDims, Squeeze, StridedSlice, OneHot,
    TopK, SparseToDense;
// dyn.nn.pad, dyn.nn.upsampling, dyn.image.resize2d.
KernelFn Pad, UpSampling, Resize2D;

}  // namespace relaypass::op::dyn
