// qnn.avg_pool2d's lowering (TVM v0.13's src/relay/qnn/op/avg_pool2d.cc): the input requantized
// to the output's scale and zero point in int32 (only cast when they match), nn.avg_pool2d with
// the op's attributes on it, then saturated to the input dtype.
#include "canonicalize.h"
#include "lowering.h"
#include "relaypass/ir/op_registry.h"
#include "relaypass/relay.h"

namespace relaypass::qnn {

Expr LowerAvgPool2D(const ir::Attrs& attrs, const Args& args, const Types& types) {
  const ir::TensorTypeNode& data_type = TensorTypeOf(types[0], "qnn.avg_pool2d");
  Expr requantized = RequantizeOrUpcast(args[0], data_type, args[1], args[2], args[3], args[4]);
  Expr pooled = ir::MakeCall(ir::GetOp("nn.avg_pool2d"), {requantized}, attrs);
  return ClipAndCast(pooled, data_type.dtype);
}

}  // namespace relaypass::qnn
