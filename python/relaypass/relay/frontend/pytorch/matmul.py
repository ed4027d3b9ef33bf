"""Matrix products: linear, addmm, matmul (dense for 2-D, broadcast batch_matmul otherwise),
baddbmm, dot, mv, einsum."""
from ... import expr as _expr
from ... import op as _op
from .dtypes import typed_const
from .registry import converter


@converter("aten::matmul", "aten::bmm", "aten::mm")
def matmul(ctx, inputs, input_types):
    assert len(inputs) == 2, "Two tensors to be multiplied are expected."
    a, b = inputs
    a_shape, b_shape = ctx.infer_shape(a), ctx.infer_shape(b)
    if not a_shape or not b_shape:
        raise AssertionError("Both arguments to matmul must be at least 1D.")
    if a_shape[-1] != (b_shape[-2] if len(b_shape) > 1 else b_shape[0]):
        raise AssertionError("Tensors being multiplied do not have compatible shapes.")
    squeeze_axes = []
    if len(a_shape) == 1:
        a, a_shape = _op.expand_dims(a, axis=0), (1,) + a_shape
        squeeze_axes.append(-2)
    if len(b_shape) == 1:
        b, b_shape = _op.expand_dims(b, axis=1), b_shape + (1,)
        squeeze_axes.append(-1)
    if len(a_shape) == 2 and len(b_shape) == 2:
        out = _op.nn.dense(a, _op.transpose(b))
    else:
        batch = _broadcast_batch(a_shape[:-2], b_shape[:-2])
        a = _op.broadcast_to(a, batch + list(a_shape[-2:]))
        b = _op.broadcast_to(b, batch + list(b_shape[-2:]))
        out = _op.nn.batch_matmul(
            _op.reshape(a, [-1, *a_shape[-2:]]), _op.reshape(b, [-1, *b_shape[-2:]]),
            transpose_b=False)
        out = _op.reshape(out, batch + [a_shape[-2], b_shape[-1]])
    return _op.squeeze(out, axis=squeeze_axes)


def _broadcast_batch(a_batch, b_batch):
    rank = max(len(a_batch), len(b_batch))
    batch = [1] * rank
    for i, dim in enumerate(reversed(a_batch)):
        batch[i] = dim
    for i, dim in enumerate(reversed(b_batch)):
        if batch[i] == 1 or dim == 1 or batch[i] == dim:
            batch[i] = max(batch[i], dim)
        else:
            raise AssertionError("Batch dimensions are not broadcastable.")
    return batch[::-1]


@converter("aten::linear")
def linear(ctx, inputs, input_types):
    data, weight, bias = inputs[0], inputs[1], inputs[2]
    a_shape, b_shape = ctx.infer_shape(data), ctx.infer_shape(weight)
    if len(a_shape) == 2 and len(b_shape) == 2:
        out = _op.nn.dense(data, weight)
    elif len(b_shape) == 1:
        out = matmul(ctx, [data, weight], input_types[:2])
    else:
        out = matmul(ctx, [data, _op.transpose(weight, axes=(1, 0))], input_types[:2])
    if isinstance(bias, _expr.Expr):
        if len(ctx.infer_shape(bias)) == 1:
            return _op.nn.bias_add(out, bias, axis=-1)
        from .elementwise import add

        return add(ctx, [out, bias], [ctx.infer_dtype(out), input_types[2]])
    return out


@converter("aten::addmm")
def addmm(ctx, inputs, input_types):
    bias, mat1, mat2, beta, alpha = inputs[:5]
    dtype = input_types[1]
    if not isinstance(alpha, _expr.Expr) and alpha != 1:
        mat1 = mat1 * typed_const(alpha, dtype)
    if not isinstance(beta, _expr.Expr) and beta != 1:
        mat2 = mat2 * typed_const(beta, dtype)  # as TVM's converter (it scales mat2 by beta)
    transposed = _op.transpose(mat2, axes=[1, 0])
    units = ctx.infer_shape(transposed)[0]
    return _op.nn.dense(mat1, transposed, units=units) + bias


@converter("aten::baddbmm")
def baddbmm(ctx, inputs, input_types):
    beta = _expr.const(float(inputs[3]))
    alpha = _expr.const(float(inputs[4]))
    return beta * inputs[0] + alpha * _op.nn.batch_matmul(inputs[1], inputs[2], transpose_b=False)


@converter("aten::dot")
def dot(ctx, inputs, input_types):
    return _op.sum(_op.multiply(inputs[0], inputs[1]))


@converter("aten::mv")
def mv(ctx, inputs, input_types):
    out = _op.nn.dense(inputs[0], _op.expand_dims(inputs[1], 0), units=None)
    return _op.squeeze(out)


@converter("aten::einsum")
def einsum(ctx, inputs, input_types):
    return _op.einsum(_expr.Tuple(list(inputs[1])), inputs[0])
