"""Gradient rules of the elementwise, broadcasting, reduction and shape operators (the rules of
TVM's python/tvm/relay/op/_tensor_grad.py, written from the derivatives). Each returns one
adjoint per argument of ``orig``; broadcasting binary operators collapse their adjoints back to
each argument's shape."""
import math

from ..._errors import OpNotImplemented
from ..expr import const
from . import tensor as _t
from . import transform as _tr
from . import reduce as _r
from .gradient_registry import register_gradient


def _dtype(expr):
    return expr.checked_type.dtype


def _shape(expr):
    return [int(d) for d in expr.checked_type.shape]


def _c(value, expr):
    return const(value, _dtype(expr))


def _pad(data, pads, dtype, value=0.0):
    """nn.pad with a pad value of ``dtype``."""
    from . import nn as _nn

    return _nn.pad(data, pads, pad_value=const(value, dtype))


def _csl(grad, like):
    return _tr.collapse_sum_like(grad, like)


def _unary(name, fn):
    register_gradient(name, lambda orig, grad: [fn(orig.args[0], orig, grad)])


_unary("log", lambda x, o, g: g / x)
_unary("log2", lambda x, o, g: g / (x * _c(math.log(2.0), x)))
_unary("log10", lambda x, o, g: g / (x * _c(math.log(10.0), x)))
_unary("exp", lambda x, o, g: g * o)
_unary("sqrt", lambda x, o, g: g * _c(0.5, x) / o)
_unary("rsqrt", lambda x, o, g: g * _c(-0.5, x) * o / x)
_unary("sigmoid", lambda x, o, g: g * o * (_c(1.0, x) - o))
_unary("tanh", lambda x, o, g: g * (_c(1.0, x) - o * o))
_unary("sin", lambda x, o, g: g * _t.cos(x))
_unary("cos", lambda x, o, g: _t.negative(g * _t.sin(x)))
_unary("tan", lambda x, o, g: g / (_t.cos(x) * _t.cos(x)))
_unary("sinh", lambda x, o, g: g * _t.cosh(x))
_unary("cosh", lambda x, o, g: g * _t.sinh(x))
_unary("asin", lambda x, o, g: g / _t.sqrt(_c(1.0, x) - x * x))
_unary("acos", lambda x, o, g: _t.negative(g / _t.sqrt(_c(1.0, x) - x * x)))
_unary("atan", lambda x, o, g: g / (_c(1.0, x) + x * x))
_unary("asinh", lambda x, o, g: g / _t.sqrt(x * x + _c(1.0, x)))
_unary("acosh", lambda x, o, g: g / _t.sqrt(x * x - _c(1.0, x)))
_unary("atanh", lambda x, o, g: g / (_c(1.0, x) - x * x))
_unary("erf", lambda x, o, g: g * _c(2.0 / math.sqrt(math.pi), x) * _t.exp(_t.negative(x * x)))
_unary("abs", lambda x, o, g: _t.where(_t.less(x, _t.zeros_like(x)), _t.negative(g), g))
_unary("negative", lambda x, o, g: _t.negative(g))
_unary("nn.relu", lambda x, o, g: _t.where(_t.less(x, _t.zeros_like(x)), _t.zeros_like(x), g))
_unary("copy", lambda x, o, g: g)
_unary("annotation.checkpoint", lambda x, o, g: g)
_unary("annotation.stop_fusion", lambda x, o, g: g)
_unary("cast", lambda x, o, g: _tr.cast_like(g, x))
_unary("zeros_like", lambda x, o, g: _t.zeros_like(x))
_unary("ones_like", lambda x, o, g: _t.zeros_like(x))
for _name in ("floor", "ceil", "round", "trunc", "sign"):
    _unary(_name, lambda x, o, g: _t.zeros_like(x))


@register_gradient("clip")
def _clip_grad(orig, grad):
    x = orig.args[0]
    lo = _c(float(orig.attrs.a_min), x) * _t.ones_like(x)
    hi = _c(float(orig.attrs.a_max), x) * _t.ones_like(x)
    zeros = _t.zeros_like(x)
    return [_t.where(_t.less(x, lo), zeros, _t.where(_t.less(hi, x), zeros, grad))]


for _name in ("zeros", "ones"):
    register_gradient(_name, lambda orig, grad: [])


@register_gradient("add")
def _add_grad(orig, grad):
    x, y = orig.args
    return [_csl(grad, x), _csl(grad, y)]


@register_gradient("subtract")
def _subtract_grad(orig, grad):
    x, y = orig.args
    return [_csl(grad, x), _csl(_t.negative(grad), y)]


@register_gradient("multiply")
def _multiply_grad(orig, grad):
    x, y = orig.args
    return [_csl(grad * y, x), _csl(grad * x, y)]


@register_gradient("divide")
def _divide_grad(orig, grad):
    x, y = orig.args
    return [_csl(grad / y, x), _csl(_t.negative(grad * orig / y), y)]


@register_gradient("power")
def _power_grad(orig, grad):
    x, y = orig.args
    dx = grad * y * _t.power(x, y - _c(1.0, y))
    dy = grad * orig * _t.log(x)
    return [_csl(dx, x), _csl(dy, y)]


for _name in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
    register_gradient(_name, lambda orig, grad: [_t.zeros_like(a) for a in orig.args])


@register_gradient("maximum")
def _maximum_grad(orig, grad):
    x, y = orig.args
    zeros = _t.zeros_like(grad)
    pick_x = _t.greater_equal(x, y)
    return [_csl(_t.where(pick_x, grad, zeros), x), _csl(_t.where(pick_x, zeros, grad), y)]


@register_gradient("minimum")
def _minimum_grad(orig, grad):
    x, y = orig.args
    zeros = _t.zeros_like(grad)
    pick_x = _t.less_equal(x, y)
    return [_csl(_t.where(pick_x, grad, zeros), x), _csl(_t.where(pick_x, zeros, grad), y)]


@register_gradient("where")
def _where_grad(orig, grad):
    cond, x, y = orig.args
    zeros = _t.zeros_like(grad)
    return [_t.zeros_like(cond), _csl(_t.where(cond, grad, zeros), x),
            _csl(_t.where(cond, zeros, grad), y)]


@register_gradient("collapse_sum_like")
def _collapse_sum_like_grad(orig, grad):
    x, y = orig.args
    return [_tr.broadcast_to_like(grad, x), _t.zeros_like(y)]


@register_gradient("broadcast_to_like")
def _broadcast_to_like_grad(orig, grad):
    x, y = orig.args
    return [_csl(grad, x), _t.zeros_like(y)]


@register_gradient("broadcast_to")
def _broadcast_to_grad(orig, grad):
    return [_csl(grad, orig.args[0])]


@register_gradient("cast_like")
def _cast_like_grad(orig, grad):
    x, y = orig.args
    return [_tr.cast_like(grad, x), _t.zeros_like(y)]


def _reshape_to(grad, like):
    return _tr.reshape(grad, _shape(like))


for _name in ("reshape", "contrib_reverse_reshape", "nn.batch_flatten", "squeeze",
              "expand_dims"):
    register_gradient(_name, lambda orig, grad: [_reshape_to(grad, orig.args[0])])


@register_gradient("transpose")
def _transpose_grad(orig, grad):
    rank = len(_shape(orig.args[0]))
    axes = orig.attrs.axes
    axes = list(range(rank))[::-1] if axes is None or len(axes) == 0 else \
        [int(a) % rank for a in axes]
    inverse = [0] * rank
    for i, a in enumerate(axes):
        inverse[a] = i
    return [_tr.transpose(grad, inverse)]


@register_gradient("concatenate")
def _concatenate_grad(orig, grad):
    fields = orig.args[0].checked_type.fields
    axis = int(orig.attrs.axis)
    rank = len(fields[0].shape)
    axis = axis % rank
    indices, pos = [], 0
    for t in fields[:-1]:
        pos += int(t.shape[axis])
        indices.append(pos)
    parts = _tr.split(grad, indices, axis)
    from ..expr import Tuple, TupleGetItem

    return [Tuple([TupleGetItem(parts.astuple(), i) for i in range(len(fields))])]


def _reduced_axes(orig):
    rank = len(_shape(orig.args[0]))
    axis = orig.attrs.axis
    axes = list(range(rank)) if axis is None or len(axis) == 0 else \
        [int(a) % rank for a in axis]
    if bool(orig.attrs.exclude):
        axes = [a for a in range(rank) if a not in axes]
    return axes


def _unreduce(grad, orig):
    """``grad`` (the adjoint of a reduction's result) broadcast back to the input's shape."""
    x = orig.args[0]
    axes = _reduced_axes(orig)
    keep = [1 if i in axes else d for i, d in enumerate(_shape(x))]
    return _tr.broadcast_to_like(_tr.reshape(grad, keep), x), axes


@register_gradient("sum")
def _sum_grad(orig, grad):
    return [_unreduce(grad, orig)[0]]


@register_gradient("mean")
def _mean_grad(orig, grad):
    g, axes = _unreduce(grad, orig)
    shape = _shape(orig.args[0])
    count = 1
    for a in axes:
        count *= shape[a]
    return [g / _c(float(count), orig.args[0])]


def _extremum_grad(orig, grad):
    x = orig.args[0]
    g, axes = _unreduce(grad, orig)
    back, _ = _unreduce(orig, orig)
    mask = _tr.cast_like(_t.equal(x, back), x)
    count = _r.sum(mask, axis=axes, keepdims=True)
    return [g * mask / count]


register_gradient("max", _extremum_grad)
register_gradient("min", _extremum_grad)


@register_gradient("variance")
def _variance_grad(orig, grad):
    x, mean = orig.args
    g, axes = _unreduce(grad, orig)
    shape = _shape(x)
    count = 1
    for a in axes:
        count *= shape[a]
    if bool(orig.attrs.unbiased):
        count -= 1
    dx = g * _c(2.0 / count, x) * (x - mean)
    return [dx, _csl(_t.negative(dx), mean)]


@register_gradient("strided_slice")
def _strided_slice_grad(orig, grad):
    x = orig.args[0]
    shape = _shape(x)
    attrs = orig.attrs
    if attrs.axes is not None and len(attrs.axes) > 0:
        raise OpNotImplemented("gradient of strided_slice with axes is not supported")
    rank = len(shape)
    begin = [int(b) for b in attrs.begin] + [0] * (rank - len(attrs.begin))
    strides = [int(s) for s in (attrs.strides or [1])]
    strides = strides + [1] * (rank - len(strides))
    if str(attrs.slice_mode) == "size":  # strides are ignored in this mode
        strides = [1] * rank
    out = _shape(orig)
    pads = []
    for i in range(rank):
        b = begin[i] % shape[i] if begin[i] < 0 else min(begin[i], shape[i])
        if strides[i] < 0:
            raise OpNotImplemented("gradient of strided_slice with negative strides")
        pads.append((b, shape[i] - b - ((out[i] - 1) * strides[i] + 1)))
    g = grad
    if any(s != 1 for s in strides):
        g = _dilate(g, out, strides, _dtype(x))
    return [_pad(g, pads, _dtype(x))]


def _dilate(grad, shape, strides, dtype):
    """Insert strides-1 zeros between elements along each axis of ``grad`` (of ``shape`` and
    ``dtype``): the transpose of striding."""
    # expand each axis i to (n_i, s_i) with the value at offset 0, then merge and cut the tail.
    rank = len(shape)
    g = grad
    for i in range(rank):
        s = strides[i]
        if s == 1:
            continue
        cur = [int(d) for d in shape]
        g = _tr.expand_dims(g, i + 1)
        pads = [(0, 0)] * (rank + 1)
        pads[i + 1] = (0, s - 1)
        g = _pad(g, pads, dtype)
        merged = cur[:i] + [cur[i] * s] + cur[i + 1:]
        g = _tr.reshape(g, merged)
        begin = [0] * rank
        end = merged[:]
        end[i] = (cur[i] - 1) * s + 1
        g = _tr.strided_slice(g, begin, end)
        shape = end
    return g


@register_gradient("one_hot")
def _one_hot_grad(orig, grad):
    indices, on_value, off_value = orig.args
    attrs = orig.attrs
    mask = _tr.one_hot(indices, _t.ones_like(on_value), _t.zeros_like(off_value),
                       int(attrs.depth), int(attrs.axis), attrs.dtype)
    d_on = _r.sum(grad * mask)
    d_off = _r.sum(grad * (_t.ones_like(mask) - mask))
    return [_t.zeros_like(indices), _tr.cast_like(d_on, on_value),
            _tr.cast_like(d_off, off_value)]



@register_gradient("split")
def _split_grad(orig, grad):
    from ..expr import TupleGetItem

    count = len(orig.checked_type.fields)
    axis = int(orig.attrs.axis)
    return [_tr.concatenate([TupleGetItem(grad, i) for i in range(count)], axis)]


@register_gradient("dyn.reshape")
def _dyn_reshape_grad(orig, grad):
    x, newshape = orig.args
    return [_reshape_to(grad, x), _t.zeros_like(newshape)]


register_gradient("shape_of", lambda orig, grad: [_t.zeros_like(orig.args[0])])


@register_gradient("collapse_sum_to")
def _collapse_sum_to_grad(orig, grad):
    x, shape = orig.args
    return [_tr.broadcast_to_like(grad, x), _t.zeros_like(shape)]


for _name in ("dyn.zeros", "dyn.ones"):
    register_gradient(_name, lambda orig, grad: [_t.zeros_like(orig.args[0])])
_unary("fast_exp", lambda x, o, g: g * o)
_unary("fast_tanh", lambda x, o, g: g * (_c(1.0, x) - o * o))
_unary("fast_erf", lambda x, o, g: g * _c(2.0 / math.sqrt(math.pi), x)
       * _t.exp(_t.negative(x * x)))
_unary("reverse", lambda x, o, g: _tr.reverse(g, int(o.attrs.axis)))


@register_gradient("stack")
def _stack_grad(orig, grad):
    from ..expr import Tuple, TupleGetItem

    count = len(orig.args[0].checked_type.fields)
    axis = int(orig.attrs.axis) % len(_shape(orig))
    parts = _tr.split(grad, count, axis).astuple()
    return [Tuple([_tr.squeeze(TupleGetItem(parts, i), [axis]) for i in range(count)])]


@register_gradient("nn.pad")
def _pad_grad(orig, grad):
    x, pad_value = orig.args
    if str(orig.attrs.pad_mode) != "constant":
        raise OpNotImplemented("gradient of nn.pad: only the constant mode")
    shape = _shape(x)
    before = [int(p[0]) for p in orig.attrs.pad_width]
    inner = _tr.strided_slice(grad, before, [b + d for b, d in zip(before, shape)])
    # the pad value appears at every padded position
    d_value = _r.sum(grad) - _r.sum(inner)
    return [inner, _tr.cast_like(d_value, pad_value)]


@register_gradient("take")
def _take_grad(orig, grad):
    # The adjoint of each taken element is added at its index: scatter_nd in "add" mode on the
    # data with the taken axis moved first.
    from .. import op as _ops

    data, indices = orig.args
    attrs = orig.attrs
    if int(attrs.batch_dims) != 0:
        raise OpNotImplemented("gradient of take with batch_dims is not supported")
    shape = _shape(data)
    if attrs.axis is None:
        dshape, axis = [int(math.prod(shape))], 0
    else:
        dshape, axis = shape, int(attrs.axis) % len(shape)
    n = dshape[axis]
    idx = _t.cast(indices, "int64")
    mode = str(attrs.mode)
    if mode == "clip":
        idx = _t.clip(idx, 0, n - 1)
    elif mode == "wrap":
        size = const(n, "int64")
        idx = _t.floor_mod(_t.floor_mod(idx, size) + size, size)
    else:  # fast: indices are in range; negative ones count from the end
        idx = _t.where(_t.less(idx, const(0, "int64")), idx + const(n, "int64"), idx)
    ishape = _shape(indices)
    k = len(ishape)
    rank = len(dshape)
    perm = list(range(axis, axis + k)) + list(range(axis)) + list(range(axis + k, rank + k - 1))
    g = _tr.transpose(grad, perm) if perm != list(range(len(perm))) else grad
    target = [n] + dshape[:axis] + dshape[axis + 1:]
    out = _ops.scatter_nd(_t.zeros(target, _dtype(data)), _tr.reshape(idx, [1] + ishape), g,
                          mode="add")
    back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    if back != list(range(rank)):
        out = _tr.transpose(out, back)
    if attrs.axis is None:
        out = _tr.reshape(out, shape)
    return [out, _t.zeros_like(indices)]


@register_gradient("tile")
def _tile_grad(orig, grad):
    # out index along axis i is rep * d_i + j: view the adjoint as (r_0, d_0, r_1, d_1, ...) and
    # sum the r axes.
    x = orig.args[0]
    shape = _shape(x)
    reps = [int(r) for r in orig.attrs.reps]
    rank = max(len(shape), len(reps))
    dims = [1] * (rank - len(shape)) + shape
    reps = [1] * (rank - len(reps)) + reps
    view = [v for r, d in zip(reps, dims) for v in (r, d)]
    summed = _r.sum(_tr.reshape(grad, view), axis=list(range(0, 2 * rank, 2)))
    return [_tr.reshape(summed, shape)]


@register_gradient("repeat")
def _repeat_grad(orig, grad):
    # out index along the axis is j * repeats + k: view it as (d, repeats) and sum the repeats.
    x = orig.args[0]
    shape = _shape(x)
    axis = int(orig.attrs.axis) % len(shape)
    view = shape[:axis + 1] + [int(orig.attrs.repeats)] + shape[axis + 1:]
    return [_r.sum(_tr.reshape(grad, view), axis=[axis + 1])]
