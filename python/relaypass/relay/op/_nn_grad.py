"""Gradient rules of the neural-network operators (softmax, dense, batch_matmul, bias_add,
pooling, conv2d, cross_entropy), written from the derivatives as TVM's _tensor_grad.py defines them."""
from ..._errors import OpNotImplemented
from ..expr import const
from . import tensor as _t
from . import transform as _tr
from . import reduce as _r
from . import nn as _nn
from .gradient_registry import register_gradient


def _shape(expr):
    return [int(d) for d in expr.checked_type.shape]


def _c(value, expr):
    return const(value, expr.checked_type.dtype)


@register_gradient("nn.softmax")
def _softmax_grad(orig, grad):
    axis = int(orig.attrs.axis)
    return [(grad - _r.sum(grad * orig, axis=axis, keepdims=True)) * orig]


@register_gradient("nn.log_softmax")
def _log_softmax_grad(orig, grad):
    axis = int(orig.attrs.axis)
    return [grad - _r.sum(grad, axis=axis, keepdims=True) * _t.exp(orig)]


@register_gradient("nn.bias_add")
def _bias_add_grad(orig, grad):
    data, bias = orig.args
    rank = len(_shape(data))
    axis = int(orig.attrs.axis) % rank
    return [_tr.collapse_sum_like(grad, data),
            _r.sum(grad, axis=[a for a in range(rank) if a != axis])]


@register_gradient("nn.dense")
def _dense_grad(orig, grad):
    # y = x w^T: dx = g w, dw = g^T x
    data, weight = orig.args
    return [_tr.collapse_sum_like(_nn.dense(grad, _tr.transpose(weight)), data),
            _tr.collapse_sum_like(_nn.dense(_tr.transpose(grad), _tr.transpose(data)), weight)]


@register_gradient("nn.matmul")
def _matmul_grad(orig, grad):
    # The products TVM's matmul_grad takes for each (transpose_a, transpose_b).
    a, b = orig.args
    ta, tb = bool(orig.attrs.transpose_a), bool(orig.attrs.transpose_b)
    if ta and tb:
        da = _nn.matmul(b, grad, transpose_a=True, transpose_b=True)
        db = _nn.matmul(grad, a, transpose_a=True, transpose_b=True)
    elif ta:
        da = _nn.matmul(b, grad, transpose_b=True)
        db = _nn.matmul(a, grad)
    elif tb:
        return _dense_grad(orig, grad)
    else:
        da = _nn.matmul(grad, b, transpose_b=True)
        db = _nn.matmul(a, grad, transpose_a=True)
    return [_tr.collapse_sum_like(da, a), _tr.collapse_sum_like(db, b)]


@register_gradient("nn.batch_matmul")
def _batch_matmul_grad(orig, grad):
    a, b = orig.args
    ta, tb = bool(orig.attrs.transpose_a), bool(orig.attrs.transpose_b)
    da = _nn.batch_matmul(grad, b, transpose_a=False, transpose_b=not tb)
    db = _nn.batch_matmul(a, grad, transpose_a=not ta, transpose_b=False)
    if ta:
        da = _tr.transpose(da, [0, 2, 1])
    if tb:
        db = _tr.transpose(db, [0, 2, 1])
    return [_tr.collapse_sum_like(da, a), _tr.collapse_sum_like(db, b)]


@register_gradient("nn.global_avg_pool2d")
def _global_avg_pool2d_grad(orig, grad):
    data = orig.args[0]
    if str(orig.attrs.layout) != "NCHW":
        raise OpNotImplemented("gradient of global_avg_pool2d: only the NCHW layout")
    n, c, h, w = _shape(data)
    return [_tr.broadcast_to_like(grad / _c(float(h * w), data), data)]


@register_gradient("nn.leaky_relu")
def _leaky_relu_grad(orig, grad):
    x = orig.args[0]
    alpha = _c(float(orig.attrs.alpha), x)
    return [_t.where(_t.less(x, _t.zeros_like(x)), grad * alpha, grad)]


def _over_batch_size(grad, x):
    # TVM's rules divide the adjoint by x's first extent, read at run time (shape_of, take).
    batch_size = _tr.take(_t.shape_of(x), const(0, dtype="int32"), axis=0)
    return grad / _t.cast(batch_size, x.checked_type.dtype)


@register_gradient("nn.cross_entropy")
def _cross_entropy_grad(orig, grad):
    # y = -sum(t * log(x)) / batch: dx = -g t / x, dt = -g log(x) (TVM's cross_entropy_grad)
    x, y = orig.args
    grad = _over_batch_size(grad, x)
    return [-grad * y / x, -grad * _t.log(x)]


@register_gradient("nn.cross_entropy_with_logits")
def _cross_entropy_with_logits_grad(orig, grad):
    # y = -sum(t * x) / batch: dx = -g t, dt = -g x (TVM's cross_entropy_with_logits_grad)
    x, y = orig.args
    grad = _over_batch_size(grad, x)
    return [-grad * y, -grad * x]
