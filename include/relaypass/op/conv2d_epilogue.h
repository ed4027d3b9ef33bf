// nn.conv2d with an elementwise epilogue, computed in one kernel call: the shape of most of
// FuseOps' primitive functions in convolutional networks (conv2d, then bias_add, a residual add,
// clip or relu). The evaluator (src/eval/fused_conv.cc) runs such a function with it instead of
// op by op, which would write and re-read the whole output once per op, each time into a fresh
// buffer. Each output element goes through the same float operations in the same order as op by
// op, so the results are bitwise the same.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "relaypass/ir/attrs.h"
#include "relaypass/ir/ndarray.h"

namespace relaypass::op {

struct EpilogueStep {
  enum class Kind : uint8_t {
    kAddChannel,  // y + operand[c]: operand holds one value per output channel (bias_add, or add
                  // of a [C, 1, 1] / [1, C, 1, 1] tensor)
    kAddTensor,   // y + operand[i]: operand has the output's shape (a residual add)
    kClip,        // max(min(y, hi), lo), as clip
    kRelu,        // max(y, 0), as nn.relu
  };
  Kind kind = Kind::kRelu;
  ir::NDArray operand;   // float32, for the two adds
  float lo = 0, hi = 0;  // kClip
};

/// Whether Conv2DWithEpilogue takes a call with these nn.conv2d attrs: NCHW data, OIHW kernel,
/// NCHW (or default) output layout, float32 (or default) out_dtype.
bool Conv2DEpilogueSupported(const ir::AttrsNode& conv_attrs);

struct PrepackedConvWeight;  // below

/// nn.conv2d of in = {data, weight} (float32; attrs as Conv2DEpilogueSupported accepts), each
/// output element then taken through `steps` in order. Fails (relaypass::Error) on operands that do
/// not match the output. `prepacked` (may be null) is in[1] as PrepackConv2DWeight laid it out;
/// one made for another shape is not used.
ir::NDArray Conv2DWithEpilogue(const std::vector<ir::NDArray>& in, const ir::Attrs& conv_attrs,
                               const std::vector<EpilogueStep>& steps,
                               const PrepackedConvWeight* prepacked = nullptr);

/// A convolution's weight laid out in advance for the kernel's GEMM (as ONNX Runtime prepacks
/// its weights): done once for a constant weight, it saves the layout work in every call. Null
/// where the kernel has no such layout (processors without AVX-512, depthwise convolutions and
/// those with few input channels, whose kernels read the weight as it is) or where the attrs or
/// shapes are not ones Conv2DWithEpilogue takes. Holds a copy of the weight's values, about its
/// size.
std::shared_ptr<const PrepackedConvWeight> PrepackConv2DWeight(const ir::Shape& data_shape,
                                                               const ir::NDArray& weight,
                                                               const ir::AttrsNode& conv_attrs);

/// One per-channel integer step after an int8 convolution (the bias add, zero-point terms and
/// requantize of TVM's qnn lowering), as its op computes an element: add, subtract (the running
/// value first), maximum or minimum of operands[0]; clip to [lo, hi]; the fixed-point multiply
/// ((int64(v) << operands[3]) * operands[0] + operands[1]) >> operands[2], cast back to int32
/// (operands[3] optional). Each operand holds one value or one per output channel (int32 for
/// the first four kinds, int64 for the fixed-point multiply).
struct Int8ConvStep {
  enum class Kind { kAdd, kSubtract, kMaximum, kMinimum, kClip, kFixedPoint };
  Kind kind = Kind::kAdd;
  std::vector<ir::NDArray> operands;
  double lo = 0, hi = 0;
};

/// nn.conv2d of uint8 NCHW data by an int8 OIHW weight into int32 (out_dtype "int32", no
/// negative padding) with `steps` applied to every result and the result cast to `out_dtype`
/// (int32, uint8 or int8), all in the kernel before the results are stored. An empty NDArray
/// where the kernel does not do that (another layout, dtype or group count, operands of another
/// size, a processor without AVX-512 VNNI and DQ): the caller then runs the ops.
ir::NDArray Conv2DInt8WithSteps(const std::vector<ir::NDArray>& in, const ir::Attrs& conv_attrs,
                                const std::vector<Int8ConvStep>& steps, ir::DataType out_dtype);

}  // namespace relaypass::op
