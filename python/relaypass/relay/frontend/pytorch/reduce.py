"""Reductions: sum, prod, mean, max/min (also elementwise), arg reductions, std/var, norms,
logsumexp, all/any, cumsum."""
import numpy as np

from ... import expr as _expr
from ... import op as _op
from .dtypes import convert_dtype_value
from . import qnn_ops
from .registry import converter


def _axis(ctx, value):
    if isinstance(value, int):
        return int(value)
    if isinstance(value, list) and value and all(isinstance(v, int) for v in value):
        return value
    return list(ctx.infer_shape(value))


def _reduce(name):
    def convert(ctx, inputs, input_types):
        axis, keepdims = None, False
        if len(inputs) > 2:  # torch passes data, dim, keepdim (and dtype)
            axis, keepdims = _axis(ctx, inputs[1]), bool(inputs[2])
        return getattr(_op, name)(inputs[0], axis=axis, keepdims=keepdims)

    return convert


for _kind, _name in (("aten::sum", "sum"), ("aten::prod", "prod"), ("aten::argmin", "argmin"),
                     ("aten::argmax", "argmax")):
    converter(_kind)(_reduce(_name))


@converter("aten::mean")
def mean(ctx, inputs, input_types):
    axis = inputs[1] if inputs[1] else None
    keepdims = int(inputs[2]) if len(inputs) > 2 and inputs[2] else False
    exclude = int(inputs[3]) if len(inputs) > 3 and inputs[3] else False

    def func(data):
        return _op.mean(data, axis, keepdims, exclude)

    if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
        assert len(inputs) == 6, "Input quant param not found in op inputs"
        # as PyTorch's qreduction: through float, back to the input's parameters
        return qnn_ops.apply_with_fp32_fallback(
            inputs[0], _expr.const(inputs[4]), _expr.const(inputs[5]), func)
    return func(inputs[0])


def _min_max(elementwise, reduction):
    def convert(ctx, inputs, input_types):
        if len(inputs) == 1:
            (data,) = ctx.promote(inputs[:1], input_types[:1])
            return getattr(_op, reduction)(data)
        if isinstance(inputs[1], (list, int)):
            (data,) = ctx.promote(inputs[:1], input_types[:1])
            keepdims = inputs[2] if len(inputs) > 2 else False
            # torch.max(x, dim) also returns indices, which TVM leaves unset
            return getattr(_op, reduction)(data, axis=inputs[1], keepdims=keepdims), None
        lhs, rhs = ctx.promote(inputs[:2], input_types[:2])
        return getattr(_op, elementwise)(lhs, rhs)

    return convert


converter("aten::max", "aten::amax")(_min_max("maximum", "max"))
converter("aten::min", "aten::amin")(_min_max("minimum", "min"))


def _std_var_args(inputs):
    if len(inputs) == 2:
        return None, False, bool(inputs[1])
    return inputs[1], bool(inputs[3]), bool(inputs[2])


@converter("aten::std")
def std(ctx, inputs, input_types):
    axis, keepdims, unbiased = _std_var_args(inputs)
    return _op.std(inputs[0], axis=axis, keepdims=keepdims, unbiased=unbiased)


@converter("aten::var")
def var(ctx, inputs, input_types):
    axis, keepdims, unbiased = _std_var_args(inputs)
    return _op.variance(inputs[0], axis=axis, keepdims=keepdims, unbiased=unbiased)


@converter("aten::var_mean")
def var_mean(ctx, inputs, input_types):
    axis, keepdims, unbiased = _std_var_args(inputs)
    m, v = _op.mean_variance(inputs[0], axis, keepdims, False, unbiased)
    return v, m


@converter("aten::norm")
def norm(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    axis, keepdims = None, False
    if len(inputs) > 3:
        axis, keepdims = inputs[2], bool(inputs[3])
    order = inputs[1]
    if order == np.inf:
        return _op.max(_op.abs(data), axis=axis, keepdims=keepdims)
    if order == -np.inf:
        return _op.min(_op.abs(data), axis=axis, keepdims=keepdims)
    reci_order = _expr.const(1.0 / order, dtype=dtype)
    powered = _op.power(_op.abs(data), _expr.const(order))
    return _op.power(_op.sum(powered, axis=axis, keepdims=keepdims), reci_order)


@converter("aten::frobenius_norm")
def frobenius_norm(ctx, inputs, input_types):
    data = inputs[0]
    axis, keepdims = None, False
    if len(inputs) > 2:
        axis = inputs[1] if len(inputs[1]) > 0 else None
        keepdims = bool(inputs[2])
    return _op.sqrt(_op.sum(data * data, axis=axis, keepdims=keepdims))


@converter("aten::logsumexp")
def logsumexp(ctx, inputs, input_types):
    (data,) = ctx.promote(inputs[:1], input_types[:1])
    assert isinstance(inputs[1], list), "dim is expected to be a list"
    keepdims = inputs[2] if len(inputs) > 2 else False
    return _op.logsumexp(data, axis=inputs[1], keepdims=keepdims)


def _all_any(name):
    def convert(ctx, inputs, input_types):
        axis = inputs[1] if len(inputs) >= 2 else None
        keepdims = inputs[2] if len(inputs) >= 3 else False
        data = inputs[0]
        if ctx.infer_dtype(data) != "bool":
            data = _op.cast(data, "bool")
        return getattr(_op, name)(data, axis=axis, keepdims=keepdims)

    return convert


converter("aten::all")(_all_any("all"))
converter("aten::any")(_all_any("any"))


@converter("aten::cumsum")
def cumsum(ctx, inputs, input_types):
    dtype = convert_dtype_value(inputs[2]) if inputs[2] is not None else None
    return _op.cumsum(inputs[0], axis=inputs[1], dtype=dtype)


@converter("aten::_weight_norm")
def weight_norm(ctx, inputs, input_types):
    weight_v, weight_g, dim = inputs[0], inputs[1], inputs[2]
    dtype = input_types[0]
    norm_v = _op.power(
        _op.sum(_op.power(_op.abs(weight_v), _expr.const(2.0)), axis=dim, exclude=True,
                keepdims=True),
        _expr.const(0.5, dtype=dtype))
    return weight_g * (weight_v / norm_v)
