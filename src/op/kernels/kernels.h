// The CPU kernels of the built-in operators (op::Kernel), one declaration per op; each family file
// sets them in the op's registration. Every kernel computes its output shape from its inputs and
// attrs (the result type is only a hint for half-precision results), takes float32 first, the
// integer and bool dtypes where the op is defined for them, and float16/bfloat16 by widening.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/ndarray.h"
#include "relaypass/ir/type.h"
#include "relaypass/op/layout.h"

namespace relaypass::op::kernels {

using KernelFn = std::vector<ir::NDArray>(const std::vector<ir::NDArray>& inputs,
                                          const ir::Attrs& attrs, const ir::Type& out_type);

// elementwise.cc: numpy-style broadcasting binary ops, comparisons (bool result), unary math.
KernelFn Add, Subtract, Multiply, Divide, Maximum, Minimum, Power;
KernelFn Less, Greater, Equal, NotEqual, LessEqual, GreaterEqual;
KernelFn Negative, Sqrt, Rsqrt, Exp, Log, Tanh, Sigmoid, Relu, Clip, Abs, Floor, Ceil, Round, Trunc,
    Sin, Cos, Erf, LeakyRelu;
KernelFn Tan, Sinh, Cosh, Asin, Acos, Atan, Asinh, Acosh, Atanh, Sign, ZerosLike, OnesLike, Copy;
KernelFn FloorModK, TruncModK, RightShift, LeftShift, LogicalAnd, LogicalOr, LogicalXor, LogicalNot,
    IsNan, IsInf, IsFinite, Where, Full, Zeros, Ones;
KernelFn TruncModOp, FloorDivideOp, BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNotOp, Log2, Log10,
    FullLike;
KernelFn BiasAdd;

// indexing.cc: take, strided_slice, broadcast_to, tile, reverse, gather, gather_nd, one_hot,
// cumsum, topk, trilu; argmax / argmin.
KernelFn Take, StridedSlice, BroadcastTo, Tile, Reverse, Gather, GatherND, OneHot, CumSum, TopK,
    Trilu, ArgMax, ArgMin, Einsum, ScatterElements, ScatterND, ReverseSequence, BroadcastToLike,
    CastLike;
// indexing.cc (more): sequence_mask, matrix_set_diag, slice_like.
KernelFn SequenceMask, MatrixSetDiag, SliceLike;
// indexing.cc (more): sort, argsort (stable), searchsorted.
KernelFn Sort, ArgSort, SearchSorted;

// sparse.cc: sparse_to_dense, sparse_fill_empty_rows.
KernelFn SparseToDense, SparseFillEmptyRows;

// range.cc: arange, meshgrid.
KernelFn Arange, Meshgrid;

// unique.cc: argwhere, unique (result sizes from the data's values).
KernelFn ArgWhere, Unique;

// adv_index.cc: adv_index (numpy's advanced indexing of the leading axes).
KernelFn AdvIndex;

// signal.cc: stft.
KernelFn Stft;

// vision.cc: vision.roi_align.
KernelFn ROIAlign;

// deformable_conv.cc: nn.deformable_conv2d (NCHW / OIHW).
KernelFn DeformableConv2D;

// pad_like.cc: nn.mirror_pad, nn.dilate.
KernelFn MirrorPad, Dilate;

// image.cc: image.resize2d, image.resize3d, nn.upsampling, nn.upsampling3d, nn.depth_to_space,
// nn.space_to_depth, image.crop_and_resize, image.affine_grid; grid_sample.cc: image.grid_sample
// (NCHW and NCDHW).
KernelFn Resize2D, Resize3D, UpSampling, UpSampling3D, DepthToSpace, SpaceToDepth, GridSample,
    CropAndResize, AffineGrid;

// convnd.cc: direct N-d convolution and transposed convolution (NC... / OI... layouts), 3-D
// pooling.
KernelFn Conv1D, Conv3D, Conv1DTranspose, Conv2DTranspose, Conv3DTranspose, MaxPool1D, AvgPool1D,
    MaxPool3D, AvgPool3D;

// loss.cc: nn.nll_loss, nn.cross_entropy, nn.cross_entropy_with_logits.
KernelFn NLLLoss, CrossEntropy, CrossEntropyWithLogits;

// random.cc: TVM's Threefry generator and the draws on it (the next key first, then the values).
KernelFn ThreefryGenerate, ThreefrySplit, Uniform, Normal, Multinomial;

// reshape_like.cc: reshape_like, and its result shape (shared with its type relation): data's
// dims before lhs_begin, shape_like's dims [rhs_begin, rhs_end), data's dims from lhs_end;
// nullopt (and `error` set) when a range is out of bounds.
KernelFn ReshapeLike;
std::optional<std::vector<int64_t>> ReshapeLikeShape(const std::vector<int64_t>& data,
                                                     const std::vector<int64_t>& like,
                                                     const ir::AttrsNode& attrs,
                                                     std::string* error);

// group_norm.cc: nn.group_norm, nn.l2_normalize.
KernelFn GroupNorm, L2Normalize;

// adaptive_pool.cc: nn.adaptive_{avg,max}_pool{1,2,3}d in layouts with unsplit spatial axes.
KernelFn AdaptiveAvgPool1D, AdaptiveAvgPool2D, AdaptiveAvgPool3D, AdaptiveMaxPool1D,
    AdaptiveMaxPool2D, AdaptiveMaxPool3D;

// norm.cc (more): prelu, lrn, instance_norm, layer_norm; dense.cc: batch_matmul.
KernelFn PRelu, LRN, InstanceNorm, LayerNorm, BatchMatmul;

// conv2d.cc: any data/kernel/out layout convertible to NCHW/OIHW; groups, depthwise; im2col and
// BLAS sgemm/dgemm for float types.
KernelFn Conv2D;

// pool.cc: any layout with unsplit H and W (NCHW, NHWC, NCHW16c, ...).
KernelFn MaxPool2D, AvgPool2D, GlobalAvgPool2D, GlobalMaxPool2D;

// dense.cc: data [.., K] x weight [N, K]^T via BLAS.
KernelFn Dense;
// nn.dense's product, out[.., n] = sum_k data[.., k] * weight[n, k], in out_dtype (nn.matmul's
// too); `op` names the operator in errors.
ir::NDArray DenseProduct(const ir::NDArray& data, const ir::NDArray& weight, ir::DataType out_dtype,
                         const char* op);

// matmul.cc: nn.matmul (optionally transposed operands).
KernelFn Matmul;

// norm.cc: inference batch_norm (as SimplifyInference computes it), softmax, dropout (identity).
KernelFn BatchNorm, Softmax, LogSoftmax, Dropout, Identity;

// transform.cc: data movement.
KernelFn BatchFlatten, Pad, ExpandDims, Squeeze, Reshape, Transpose, Concatenate, Split, Repeat,
    Cast, LayoutTransform;
// transform.cc (more): contrib_reverse_reshape; shape_of and ndarray_size (from the shape only).
KernelFn ReverseReshape, ShapeOf, NdarraySize;

// reduce.cc
KernelFn Sum, Mean, Prod, Max, Min, All, Any, Variance;
// reduce.cc: collapse_sum_like / collapse_sum_to, the sum over the axes that broadcasting the
// target shape to the data's adds or stretches.
KernelFn CollapseSumLike, CollapseSumTo;

// layout.cc: `x` in layout `src` rearranged into layout `dst` (same primal axes); the result's
// shape is BijectiveLayout's, as in the type relation.
ir::NDArray TransformLayout(const ir::NDArray& x, const Layout& src, const Layout& dst);
// Axes permuted: output axis i is input axis perm[i].
ir::NDArray Permute(const ir::NDArray& x, const std::vector<int>& perm);

}  // namespace relaypass::op::kernels

namespace relaypass::op {
// strided_slice's canonical form on a static shape (indexing.cc), shared by the type relation
// and the kernel: per axis {begin, stride, count}; on bad attributes sets *error.
std::vector<std::array<int64_t, 3>> StridedSlicePlan(const ir::AttrsNode& attrs,
                                                     const std::vector<int64_t>& shape,
                                                     std::string* error);

// einsum's equation resolved against the operand shapes (indexing.cc): every label with its
// extent, each operand's axes and the output's as label numbers; on a bad equation or shapes
// sets *error.
struct EinsumPlan {
  std::vector<int64_t> sizes;              // per label
  std::vector<std::vector<int>> operands;  // per operand axis: its label
  std::vector<int> output;                 // per output axis: its label
};
EinsumPlan MakeEinsumPlan(const std::string& equation,
                          const std::vector<std::vector<int64_t>>& shapes, std::string* error);
}  // namespace relaypass::op
