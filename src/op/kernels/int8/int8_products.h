// The int8 products on the int8 GEMM (int8_gemm.h), on the current variant (CurrentInt8Isa):
// what nn.dense / nn.matmul, nn.batch_matmul and nn.conv2d run when op::Int8GemmKindFor says
// their operands are uint8/int8 with out_dtype int32.
#pragma once

#include "../conv_geometry.h"
#include "isa/panel_epilogue.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/op/int8_kernels.h"

namespace relaypass::op::kernels {

/// data [.., k] times weight [n, k] transposed: int32 [.., n].
ir::NDArray Int8Dense(const ir::NDArray& data, const ir::NDArray& weight);

/// nn.batch_matmul: x [b, m, k] (or [b, k, m] with transpose_a) times y [b, n, k] (or [b, k, n]
/// without transpose_b) per batch, a batch of 1 broadcasting: int32 [b, m, n].
ir::NDArray Int8BatchMatmul(const ir::NDArray& x_in, const ir::NDArray& y_in, bool transpose_a,
                            bool transpose_b);

/// The convolution of NCHW data (padding >= 0) by an OIHW weight (g from conv2d.cc): int32 NCHW.
/// Patches are gathered per image and group (im2col, pixel-major, from a channels-last copy of
/// the padded image: one run of channels per kernel tap) straight into the GEMM's packed layout,
/// and multiplied by the group's weight rows reordered to match.
ir::NDArray Int8Conv2D(const ConvGeometry& g, const ir::NDArray& data, const ir::NDArray& weight);

/// Int8Conv2D on the VNNI panel path with `epilogue` (isa/panel_epilogue.h) applied to every
/// result before it is stored as `out_dtype` (int32, or uint8 / int8 for epilogue.out_bytes 1);
/// an empty NDArray where that path does not apply (int8_products.cc PanelPathApplies, and
/// AVX-512DQ).
ir::NDArray Int8Conv2DWithEpilogue(const ConvGeometry& g, const ir::NDArray& data,
                                   const ir::NDArray& weight, const RelaypassInt8Epilogue& epilogue,
                                   ir::DataType out_dtype);

}  // namespace relaypass::op::kernels
