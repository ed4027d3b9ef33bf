"""Tensors made from shapes and values: full, zeros, ones (and their _like/new_ forms), empty,
arange, linspace, scalar_tensor."""
import numpy as np

from ... import expr as _expr
from ... import op as _op
from .dtypes import convert_dtype_value, typed_const
from .registry import converter


def _shape_list(ctx, data):
    import torch

    if isinstance(data, (list, tuple, torch.Size)):
        return [ctx.int_value(d) for d in data]
    if isinstance(data, (torch.Tensor, np.ndarray)):
        return list(data.shape)
    if isinstance(data, _expr.Expr):
        return list(ctx.infer_shape(data))
    raise AssertionError("Data type {} could not be parsed".format(type(data)))


def _full(ctx, shape, fill_value, dtype):
    if isinstance(fill_value, _expr.Expr) and not isinstance(fill_value, _expr.Constant):
        folded, ok = ctx.try_infer_value(fill_value)
        if not ok:
            raise NotImplementedError(
                "{}: a fill value known only at run time is not supported".format(
                    ctx.current_kind))
        fill_value = folded
    if isinstance(fill_value, _expr.Constant):
        fill_value = fill_value.data.numpy()
    return _op.full(_expr.const(fill_value, dtype=dtype), _shape_list(ctx, shape), dtype=dtype)


def _dtype_or(value, default):
    return convert_dtype_value(value) if value is not None else default


@converter("aten::ones")
def ones(ctx, inputs, input_types):
    return _full(ctx, inputs[0], 1, _dtype_or(inputs[1], ctx.default_dtype))


@converter("aten::zeros")
def zeros(ctx, inputs, input_types):
    return _full(ctx, inputs[0], 0, _dtype_or(inputs[1], ctx.default_dtype))


@converter("aten::full")
def full(ctx, inputs, input_types):
    return _full(ctx, inputs[0], inputs[1], _dtype_or(inputs[2], ctx.default_dtype))


@converter("aten::new_ones")
def new_ones(ctx, inputs, input_types):
    return _full(ctx, inputs[1], 1, _dtype_or(inputs[2], input_types[0]))


@converter("aten::new_zeros")
def new_zeros(ctx, inputs, input_types):
    return _full(ctx, inputs[1], 0, _dtype_or(inputs[2], ctx.infer_dtype(inputs[0])))


@converter("aten::new_full")
def new_full(ctx, inputs, input_types):
    return _full(ctx, inputs[1], inputs[2], _dtype_or(inputs[3], ctx.infer_dtype(inputs[0])))


@converter("aten::zero_")
def zero_(ctx, inputs, input_types):
    return _full(ctx, ctx.infer_shape(inputs[0]), 0, input_types[0])


@converter("aten::fill_")
def fill_(ctx, inputs, input_types):
    return _full(ctx, ctx.infer_shape(inputs[0]), inputs[1], input_types[0])


def _like(fill):
    def convert(ctx, inputs, input_types):
        out = (_op.ones_like if fill == 1 else _op.zeros_like)(inputs[0])
        dtype = _dtype_or(inputs[1], ctx.default_dtype)
        if input_types[0] != dtype:
            out = _op.cast(out, dtype)
        return out

    return convert


converter("aten::ones_like")(_like(1))
converter("aten::zeros_like")(_like(0))


@converter("aten::full_like", needs=("full_like",))
def full_like(ctx, inputs, input_types):
    out = _op.full_like(inputs[0], _expr.const(inputs[1]))
    dtype = _dtype_or(inputs[2], ctx.default_dtype)
    if input_types[0] not in dtype:
        out = _op.cast(out, dtype)
    return out


@converter("aten::empty")
def empty(ctx, inputs, input_types):
    return _op.zeros(_shape_list(ctx, inputs[0]), convert_dtype_value(inputs[1]))


@converter("aten::empty_like")
def empty_like(ctx, inputs, input_types):
    dtype = _dtype_or(inputs[1], input_types[0])
    return _op.zeros(list(ctx.infer_shape(inputs[0])), dtype)


@converter("aten::new_empty")
def new_empty(ctx, inputs, input_types):
    return _op.zeros(_shape_list(ctx, inputs[1]), _dtype_or(inputs[2], input_types[0]))


@converter("aten::scalar_tensor")
def scalar_tensor(ctx, inputs, input_types):
    dtypes = {6: "float32", 7: "float64", 3: "int32", 4: "int64"}
    data = inputs[0]
    if isinstance(data, _expr.Constant):
        data = data.data.numpy().tolist()
    return _expr.const(data, dtypes[inputs[1]])


@converter("aten::arange", needs=("arange",))
def arange(ctx, inputs, input_types):
    # torch.arange: the given dtype, else int64 for integer bounds, else float32
    if len(inputs) not in (5, 6, 7):
        raise AssertionError("Unknown number of arguments ({}) to parse.".format(len(inputs)))
    dtype_index = len(inputs) - 4
    bounds = inputs[:dtype_index]
    types = [ctx.infer_dtype(v) if isinstance(v, _expr.Expr) else t
             for v, t in zip(bounds, input_types)]
    if inputs[dtype_index] is not None:
        dtype = convert_dtype_value(inputs[dtype_index])
    elif any(t.startswith("float") for t in types):
        dtype = "float32"
    else:
        dtype = "int64"

    def value(v):
        if isinstance(v, _expr.Expr):
            folded, _ = ctx.try_infer_value(_op.cast(v, dtype))
            return _expr.const(folded, dtype)
        return typed_const(v, dtype)

    start = value(bounds[0]) if len(bounds) > 1 else _expr.const(0, dtype)
    stop = value(bounds[1] if len(bounds) > 1 else bounds[0])
    step = value(bounds[2]) if len(bounds) > 2 else _expr.const(1, dtype)
    return _op.arange(start=start, stop=stop, step=step, dtype=dtype)


@converter("aten::linspace", needs=("arange",))
def linspace(ctx, inputs, input_types):
    start, stop, steps = inputs[:3]
    if steps != 1:
        step = (stop - start) / (steps - 1)
        stop = stop + step
    else:  # one value: start
        step, stop = 1, start + 1
    if inputs[3] is None:
        dtype = "float32"
    else:
        dtype = convert_dtype_value(inputs[3])
    return _op.arange(start=typed_const(start, dtype), stop=typed_const(stop, dtype),
                      step=typed_const(step, dtype), dtype=dtype)
