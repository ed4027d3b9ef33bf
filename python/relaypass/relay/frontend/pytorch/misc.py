"""Scalars, sizes, casts and device queries: the glue ops between tensors and Python values,
and the losses TVM composes from existing operators."""
import numpy as np

from ... import expr as _expr
from ... import op as _op
from .registry import converter


@converter("aten::size")
def size(ctx, inputs, input_types):
    # As TVM's: a constant, unless the size asked for is known only at run time (a `?` extent,
    # after a run-time list's stack, say): then shape_of, int32 as TVM's.
    shape = ctx.infer_shape(inputs[0])
    axis = int(inputs[1]) if len(inputs) > 1 else None
    dynamic = [d < 0 for d in shape]
    if (axis is None and any(dynamic)) or (axis is not None and dynamic[axis]):
        shape_dynamic = _op.shape_of(inputs[0], dtype="int32")
        if axis is None:
            return shape_dynamic
        return _op.take(shape_dynamic, _expr.const(axis), 0)
    if axis is not None:
        return _expr.const(shape[axis])
    return _expr.const(shape)


@converter("aten::numel")
def numel(ctx, inputs, input_types):
    return _op.ndarray_size(inputs[0])


@converter("aten::_shape_as_tensor")
def shape_as_tensor(ctx, inputs, input_types):
    shape = ctx.infer_shape(inputs[0])
    if any(d < 0 for d in shape):  # a `?` extent: the shape at run time, as TVM's
        return _op.shape_of(inputs[0], dtype="int64")
    return _expr.const(np.array(shape), dtype="int64")


@converter("prim::NumToTensor")
def num_to_tensor(ctx, inputs, input_types):
    value = inputs[0]
    if isinstance(value, _expr.Expr):
        return value
    return value * np.ones([]).astype(input_types[0])


@converter("prim::ImplicitTensorToNum", "aten::ScalarImplicit")
def tensor_to_num(ctx, inputs, input_types):
    return inputs[0]


@converter("aten::Int")
def to_int(ctx, inputs, input_types):
    if isinstance(inputs[0], _expr.Expr):
        return inputs[0]
    return int(inputs[0])


@converter("aten::Bool")
def to_bool(ctx, inputs, input_types):
    assert len(inputs) == 1
    return inputs[0]


@converter("aten::Float")
def to_float(ctx, inputs, input_types):
    assert len(inputs) == 1
    return _op.cast(inputs[0], "float32")


@converter("aten::device", "prim::device")
def device(ctx, inputs, input_types):
    return None


_CASTS = {5: "float16", 6: "float32", 7: "float64", 3: "int32", 4: "int64"}
# TVM's aten::to casts only to the types above and returns the data unchanged for any other:
# a silent wrong answer for those relaypass can represent (cast here too) and an error for those
# it cannot (complex; quantized types go through the quantized converters).
_MORE_CASTS = {0: "uint8", 1: "int8", 2: "int16", 11: "bool", 15: "bfloat16"}
_NO_DTYPE = {8: "complex32", 9: "complex64", 10: "complex128"}


@converter("aten::to")
def to(ctx, inputs, input_types):
    data = inputs[0]
    dtype = inputs[1] if inputs[1] is not None and not isinstance(inputs[1], str) else inputs[2]
    if isinstance(dtype, int) and dtype in _NO_DTYPE:
        raise NotImplementedError("aten::to: relaypass has no %s dtype" % _NO_DTYPE[dtype])
    if isinstance(data, _expr.Expr) and isinstance(dtype, int) and dtype in _MORE_CASTS:
        if _MORE_CASTS[dtype] != ctx.infer_dtype(data):
            return _op.cast(data, _MORE_CASTS[dtype])
        return data
    if isinstance(data, _expr.Expr):
        if dtype in _CASTS and _CASTS[dtype] != ctx.infer_dtype(data):
            return _op.cast(data, _CASTS[dtype])
        return data
    if dtype in _CASTS:
        return (float if "float" in _CASTS[dtype] else int)(data)
    return data


@converter("aten::type_as")
def type_as(ctx, inputs, input_types):
    assert len(inputs) == 2 and len(input_types) == 2
    return _op.cast(inputs[0], input_types[1])


@converter("aten::is_floating_point")
def is_floating_point(ctx, inputs, input_types):
    assert len(inputs) == 1
    dtype = ctx.infer_dtype(inputs[0]) if isinstance(inputs[0], _expr.Expr) else input_types[0]
    return _expr.const(dtype in ("float32", "float64", "float16", "bfloat16"))


def _reduction(value, reduction):
    # torch's Reduction enum: 0 none, 1 mean, 2 sum
    if reduction == 0:
        return value
    return _op.mean(value) if reduction == 1 else _op.sum(value)


@converter("aten::l1_loss")
def l1_loss(ctx, inputs, input_types):
    assert len(inputs) == 3
    return _reduction(_op.abs(_op.subtract(inputs[0], inputs[1])), inputs[2])


@converter("aten::mse_loss")
def mse_loss(ctx, inputs, input_types):
    assert len(inputs) == 3
    delta = _op.subtract(inputs[0], inputs[1])
    return _reduction(_op.power(delta, _expr.const(2, input_types[0])), inputs[2])


def _reduction_name(reduction):
    return {0: "none", 1: "mean"}.get(reduction, "sum")


@converter("aten::nll_loss", "aten::nll_loss2d", "aten::nll_loss_nd", needs=("nn.nll_loss",))
def nll_loss(ctx, inputs, input_types):
    assert len(inputs) == 5
    predictions, targets, weights, reduction, ignore_index = inputs
    if weights is None:
        num_class = ctx.infer_shape(predictions)[1]
        weights = _op.full(_expr.const(1), (num_class,), dtype=input_types[0])
    return _op.nn.nll_loss(predictions, targets, weights, _reduction_name(reduction),
                           ignore_index)


@converter("aten::cross_entropy_loss", needs=("nn.nll_loss", "nn.cross_entropy_with_logits"))
def cross_entropy_loss(ctx, inputs, input_types):
    data, target, weights, reduction, ignore_index, label_smoothing = inputs[:6]
    if ctx.infer_shape(data) != ctx.infer_shape(target):  # class indices
        if weights is None:
            num_class = ctx.infer_shape(data)[1]
            weights = _op.full(_expr.const(1), (num_class,), dtype=input_types[0])
        return _op.nn.nll_loss(_op.nn.log_softmax(data), target, weights,
                               _reduction_name(reduction), ignore_index)
    assert reduction == 1, "reduction not supported in cross_entropy_loss"
    assert ignore_index == -100, "ignore_index not supported in cross_entropy_loss"
    assert label_smoothing == 0.0, "label_smoothing not supported in cross_entropy_loss"
    assert weights is None, "weight not supported in cross_entropy_loss"
    return _op.nn.cross_entropy_with_logits(_op.nn.log_softmax(data), target)


def _int_expr(value):
    return value if isinstance(value, _expr.Expr) else _expr.const(int(value), "int32")


@converter("aten::__range_length")
def range_length(ctx, inputs, input_types):
    """The trip count TorchScript computes for `range(lo, hi, step)` (beyond TVM v0.13's table:
    PyTorch's own formula, on ints at import or int32 values at run time)."""
    lo, hi, step = inputs[0], inputs[1], inputs[2]
    step = ctx.int_value(step)  # TorchScript's step is a constant in practice
    if step == 0:
        raise ValueError("aten::__range_length: range() arg 3 must not be zero")
    if not isinstance(lo, _expr.Expr) and not isinstance(hi, _expr.Expr):
        lo, hi = int(lo), int(hi)
        if step > 0:
            return max(0, (hi - lo + step - 1) // step)
        return max(0, (lo - hi - step - 1) // -step)
    span = _op.subtract(_int_expr(hi), _int_expr(lo)) if step > 0 else \
        _op.subtract(_int_expr(lo), _int_expr(hi))
    size = abs(step)
    count = _op.floor_divide(_op.add(span, _expr.const(size - 1, "int32")),
                             _expr.const(size, "int32"))
    return _op.maximum(count, _expr.const(0, "int32"))


@converter("aten::__derive_index")
def derive_index(ctx, inputs, input_types):
    """The loop variable of `range(start, ..., step)` at trip `index`: start + index * step."""
    index, start, step = inputs[0], inputs[1], inputs[2]
    if not any(isinstance(v, _expr.Expr) for v in (index, start, step)):
        return int(start) + int(index) * int(step)
    return _op.add(_int_expr(start), _op.multiply(_int_expr(index), _int_expr(step)))
