// The type relations of the qnn ops (TVM's src/relay/qnn/op/*.cc Rel functions): dtype checks,
// the scale and zero point types, and the shape rule, which each op borrows from its nn
// counterpart (qnn.conv2d's from nn.conv2d, ...).
#pragma once

#include "relaypass/ir/op_registry.h"

namespace relaypass::qnn {

// Each relation is built once the op layer's ops exist (it looks up the nn relation it reuses).
ir::TypeRelation QuantizeRel();
ir::TypeRelation DequantizeRel();
ir::TypeRelation RequantizeRel();
ir::TypeRelation BinaryRel(const ir::OpRegistry& registry);           // qnn.add, qnn.mul, ...
ir::TypeRelation DenseRel(const ir::OpRegistry& registry);            // qnn.dense
ir::TypeRelation Conv2DRel(const ir::OpRegistry& registry);           // qnn.conv2d
ir::TypeRelation Conv2DTransposeRel(const ir::OpRegistry& registry);  // qnn.conv2d_transpose
ir::TypeRelation BatchMatmulRel(const ir::OpRegistry& registry);      // qnn.batch_matmul
ir::TypeRelation ConcatenateRel(const ir::OpRegistry& registry);      // qnn.concatenate
ir::TypeRelation UnaryRel();  // qnn.tanh, qnn.exp, ..., qnn.leaky_relu
ir::TypeRelation SoftmaxRel();
ir::TypeRelation AvgPool2DRel(
    const ir::OpRegistry&
        registry);  // qnn.avg_pool2d  // qnn.softmax (activations.cc): the unary rule, int8 only

}  // namespace relaypass::qnn
