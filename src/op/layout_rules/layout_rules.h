// The layout rules of the built-in operators (TVM's FInferCorrectLayout implementations, v0.13)
// and the ConvertLayout hooks (TVM's FTVMConvertOpLayout from python/tvm/relay/op/nn/_nn.py).
// Each op's registration points at one of them: `def.infer_layout = layout_rules::Conv2D;`.
#pragma once

#include <string>
#include <vector>

#include "relaypass/op/infer_layout.h"

namespace relaypass::op::layout_rules {

// The signature every rule has (see InferCorrectLayout).
using Rule = InferLayoutOutput(const ir::Attrs& attrs, const Layouts* new_in_layouts,
                               const Layouts& old_in_layouts,
                               const std::vector<ir::Type>& old_in_types);

// elementwise.cc: every input and the output take the first defined input layout (the new one
// after a rewrite). Unary math, clip, cast, nn.relu, nn.dropout.
Rule ElemwiseArbitrary;
// broadcast.cc: binary broadcast ops. The larger-rank input decides; an undefined one gets the
// trailing sub-layout of matching rank; after a rewrite the smaller operand is transformed like
// the larger one, with split factors of 1 where its dimension is 1.
Rule BinaryBroadcast;
// conv2d.cc: inputs [data_layout, kernel_layout], output out_layout or data_layout; incoming
// layouts are ignored.
Rule Conv2D;
// batch_norm.cc: data follows the incoming layout and `axis` moves with its axis letter; the four
// parameters and the two statistics outputs are "C".
Rule BatchNorm;
// normalization.cc: layer_norm / instance_norm as BatchNorm with gamma and beta and one output;
// prelu keeps the old data layout, alpha "C".
Rule Normalization;
Rule PRelu;
// pooling.cc: the `layout` attr follows the incoming layout unless out_layout is set.
Rule Pool2D;
// dense.cc: fixed "NC", "NC" -> "NC".
Rule Dense;
// concatenate.cc: all fields share one layout; `axis` follows its axis letter.
Rule Concatenate;
// transpose.cc: `axes` are re-expressed in the incoming layout; the output layout is the
// permuted input layout.
Rule Transpose;
// pad.cc: `pad_width` is re-ordered for the incoming layout unless a split axis is padded.
Rule Pad;
// squeeze.cc: the squeezed axes follow their letters; the output drops them.
Rule Squeeze;
// reduce.cc: sum/mean; the reduced axes follow their letters (packed sub-axes included).
Rule Reduce;
// split.cc: `axis` follows its letter; every piece has the incoming layout (indices are divided
// by the split factor of a packed axis, or the old layout is kept when they do not divide).
Rule Split;

// convert_conv2d.cc: data_layout := desired[0]; kernel_layout := desired[1], or for "default"
// OIHW (NCHW), HWIO / HWOI for depthwise (NHWC), HWOI (HWNC).
ir::Expr ConvertConv2D(const ir::Attrs& attrs, const std::vector<ir::Expr>& args,
                       const std::vector<ir::Type>& arg_types,
                       const std::vector<std::string>& desired_layouts);
// convert_pool2d.cc: the hook of pooling op `op_name`: layout and out_layout := desired[0].
ConvertOpLayout ConvertPool2D(const std::string& op_name);

}  // namespace relaypass::op::layout_rules
