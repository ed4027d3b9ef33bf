"""aten::_native_multi_head_attention, the fused attention that torch.nn.MultiheadAttention runs
in eval mode (torchvision's ViT traces to it). TVM v0.13 has no converter for it; this one
writes PyTorch 1.13's computation with Relay operators: the packed q/k/v projection, q scaled by
1/sqrt(head_dim), per-head softmax(q k^T) v, the output projection; the attention weights
(averaged over heads, or per head) as the second result."""
import math

from ... import expr as _expr
from ... import op as _op
from .registry import converter


@converter("aten::_native_multi_head_attention", needs=("nn.batch_matmul", "nn.softmax"))
def native_multi_head_attention(ctx, inputs, input_types):
    query, key, value = inputs[0], inputs[1], inputs[2]
    embed_dim, heads = int(inputs[3]), int(inputs[4])
    qkv_weight, qkv_bias, proj_weight, proj_bias = inputs[5:9]
    mask = inputs[9] if len(inputs) > 9 else None
    average = bool(inputs[11]) if len(inputs) > 11 and inputs[11] is not None else True
    if mask is not None:
        raise NotImplementedError("aten::_native_multi_head_attention with a mask is not "
                                  "supported by relaypass's PyTorch frontend")
    q_shape, kv_shape = ctx.infer_shape(query), ctx.infer_shape(key)
    if len(q_shape) != 3 or q_shape[-1] != embed_dim or embed_dim % heads:
        raise NotImplementedError("aten::_native_multi_head_attention: expected (batch, length, "
                                  "%d) inputs with %d heads" % (embed_dim, heads))
    batch, length, source = q_shape[0], q_shape[1], kv_shape[1]
    head_dim = embed_dim // heads
    weights = _op.split(qkv_weight, 3, axis=0)
    biases = _op.split(qkv_bias, 3, axis=0)

    def project(x, i, n):
        y = _op.nn.bias_add(_op.nn.dense(x, weights[i]), biases[i], axis=-1)
        y = _op.reshape(y, (batch, n, heads, head_dim))
        return _op.reshape(_op.transpose(y, (0, 2, 1, 3)), (batch * heads, n, head_dim))

    q = _op.divide(project(query, 0, length), _expr.const(math.sqrt(head_dim), "float32"))
    k, v = project(key, 1, source), project(value, 2, source)
    attention = _op.nn.softmax(_op.nn.batch_matmul(q, k), axis=-1)
    out = _op.nn.batch_matmul(attention, _op.transpose(v, (0, 2, 1)))
    out = _op.transpose(_op.reshape(out, (batch, heads, length, head_dim)), (0, 2, 1, 3))
    out = _op.reshape(out, (batch, length, embed_dim))
    out = _op.nn.bias_add(_op.nn.dense(out, proj_weight), proj_bias, axis=-1)
    attention = _op.reshape(attention, (batch, heads, length, source))
    if average:
        attention = _op.mean(attention, axis=1)
    return out, attention  # the node's two outputs
