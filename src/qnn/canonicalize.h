// The lowerings of the qnn ops to integer Relay (TVM's FTVMQnnCanonicalize functions), one per
// op, registered by name in canonicalize_table.cc. Each takes the call's attrs, its arguments and
// the original argument types followed by the result type.
#pragma once

#include <string>
#include <vector>

#include "relaypass/qnn/qnn.h"

namespace relaypass::qnn {

using Args = std::vector<ir::Expr>;
using Types = std::vector<ir::Type>;

// canonicalize_quantize.cc
ir::Expr LowerQuantize(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerDequantize(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerRequantize(const ir::Attrs& attrs, const Args& args, const Types& types);
// canonicalize_binary.cc
ir::Expr LowerAdd(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerSubtract(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerMul(const ir::Attrs& attrs, const Args& args, const Types& types);
// canonicalize_matmul.cc: qnn.dense, qnn.batch_matmul, qnn.conv2d
ir::Expr LowerDense(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerBatchMatmul(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerConv2D(const ir::Attrs& attrs, const Args& args, const Types& types);
// TVM's generic qnn_conv2d_transpose_legalize (python/tvm/relay/qnn/op/legalizations.py), which
// it runs for every target: int16 operands minus their zero points, nn.conv2d_transpose.
ir::Expr LowerConv2DTranspose(const ir::Attrs& attrs, const Args& args, const Types& types);
// canonicalize_misc.cc: qnn.concatenate and the unary ops
ir::Expr LowerConcatenate(const ir::Attrs& attrs, const Args& args, const Types& types);
// The unary ops' float computation (qnn.tanh: tanh, ...) on the dequantized input.
CanonicalizeFunc LowerUnary(const std::string& op_name);
// activations.cc: qnn.leaky_relu and qnn.softmax.
ir::Expr LowerLeakyRelu(const ir::Attrs& attrs, const Args& args, const Types& types);
ir::Expr LowerSoftmax(const ir::Attrs& attrs, const Args& args, const Types& types);
// pooling.cc: qnn.avg_pool2d.
ir::Expr LowerAvgPool2D(const ir::Attrs& attrs, const Args& args, const Types& types);

// The qnn.* calls of `expr` (typed) replaced by their lowerings, inner calls first.
ir::Expr LowerQnnCalls(const ir::Expr& expr);

}  // namespace relaypass::qnn
