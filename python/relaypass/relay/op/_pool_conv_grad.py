"""Gradient rules of 2-D pooling and convolution (NCHW data, OIHW kernels), built from ops the
evaluator has (relaypass has no nn.max_pool2d_grad / avg_pool2d_grad /
conv2d_backward_weight operators):

- pooling: each window offset (i, j) is a strided slice of the padded input; its share of the
  adjoint (max: where it holds the window's maximum, the first one on ties; avg: the adjoint over
  the window's divisor) is put back at its positions by inserting zeros between elements
  (the transpose of a stride) and padding; the padding is cut at the end.
- conv2d: the data's adjoint is conv2d_transpose with the same kernel; the kernel's adjoint is a
  convolution of the (channel-major) data with the (channel-major) adjoint, strides and dilation
  exchanged, per group.
"""
import numpy as np

from ..._errors import OpNotImplemented
from ..expr import const
from . import nn as _nn
from . import tensor as _t
from . import transform as _tr
from ._tensor_grad import _dilate, _pad
from .gradient_registry import register_gradient


def _shape(expr):
    return [int(d) for d in expr.checked_type.shape]


def _ints(values):
    return [int(v) for v in values]


def _pads4(padding):
    p = _ints(padding)
    if len(p) == 1:
        return [p[0]] * 4
    if len(p) == 2:
        return [p[0], p[1], p[0], p[1]]
    return p


def _check_nchw(orig, what):
    if str(orig.attrs.layout) != "NCHW":
        raise OpNotImplemented("gradient of {}: only the NCHW layout".format(what))
    if any(d != 1 for d in _ints(orig.attrs.dilation)):
        raise OpNotImplemented("gradient of {}: only dilation 1".format(what))


def _place(value, shape, offset, strides, padded_hw, dtype):
    """``value`` (of ``shape`` N, C, OH, OW) put at rows offset[0] + oh * sh, columns
    offset[1] + ow * sw of a zero (N, C, HP, WP) tensor."""
    n, c, oh, ow = shape
    v = _dilate(value, [n, c, oh, ow], [1, 1, strides[0], strides[1]], dtype)
    dh, dw = (oh - 1) * strides[0] + 1, (ow - 1) * strides[1] + 1
    pads = [(0, 0), (0, 0), (offset[0], padded_hw[0] - offset[0] - dh),
            (offset[1], padded_hw[1] - offset[1] - dw)]
    return _pad(v, pads, dtype)


def _pool_grad(orig, grad, kind):
    _check_nchw(orig, orig.op.name)
    x = orig.args[0]
    n, c, h, w = _shape(x)
    _, _, oh, ow = _shape(orig)
    kh, kw = _ints(orig.attrs.pool_size)
    sh, sw = _ints(orig.attrs.strides)
    pt, pl, pb, pr = _pads4(orig.attrs.padding)
    hp = max(h + pt + pb, (oh - 1) * sh + kh)
    wp = max(w + pl + pr, (ow - 1) * sw + kw)
    dtype = x.checked_type.dtype
    fill = float(np.finfo(dtype).min) if kind == "max" else 0.0
    xp = _pad(x, [(0, 0), (0, 0), (pt, hp - h - pt), (pl, wp - w - pl)], dtype, fill)
    total = None
    taken = None
    if kind == "avg":
        scaled = grad / const(_avg_divisor(orig, h, w, oh, ow).astype(dtype), dtype)
    for i in range(kh):
        for j in range(kw):
            if kind == "max":
                window = _tr.strided_slice(
                    xp, [0, 0, i, j], [n, c, i + (oh - 1) * sh + 1, j + (ow - 1) * sw + 1],
                    [1, 1, sh, sw])
                hit = _tr.cast_like(_t.equal(window, orig), grad)
                if taken is not None:
                    hit = hit * (const(1.0, dtype) - taken)
                taken = hit if taken is None else taken + hit
                part = grad * hit
            else:
                part = scaled
            placed = _place(part, (n, c, oh, ow), (i, j), (sh, sw), (hp, wp), dtype)
            total = placed if total is None else total + placed
    return [_tr.strided_slice(total, [0, 0, pt, pl], [n, c, pt + h, pl + w])]


def _avg_divisor(orig, h, w, oh, ow):
    """The divisor of each output position (OH, OW), as TVM's pooling computes it."""
    kh, kw = _ints(orig.attrs.pool_size)
    sh, sw = _ints(orig.attrs.strides)
    pt, pl, pb, pr = _pads4(orig.attrs.padding)
    include = bool(orig.attrs.count_include_pad)
    div = np.zeros((oh, ow))
    for a in range(oh):
        for b in range(ow):
            hs, ws = a * sh - pt, b * sw - pl
            he, we = hs + kh, ws + kw
            if include:
                he, we = min(he, h + pb), min(we, w + pr)
            else:
                hs, ws, he, we = max(hs, 0), max(ws, 0), min(he, h), min(we, w)
            div[a, b] = max((he - hs) * (we - ws), 1)
    return div


register_gradient("nn.max_pool2d", lambda orig, grad: _pool_grad(orig, grad, "max"))
register_gradient("nn.avg_pool2d", lambda orig, grad: _pool_grad(orig, grad, "avg"))


@register_gradient("nn.conv2d")
def _conv2d_grad(orig, grad):
    attrs = orig.attrs
    if str(attrs.data_layout) != "NCHW" or str(attrs.kernel_layout) != "OIHW":
        raise OpNotImplemented("gradient of nn.conv2d: only NCHW data and OIHW kernels")
    data, weight = orig.args
    n, c, h, w = _shape(data)
    o, cg, kh, kw = _shape(weight)
    _, _, oh, ow = _shape(orig)
    strides, dilation = _ints(attrs.strides), _ints(attrs.dilation)
    pads = _pads4(attrs.padding)
    groups = int(attrs.groups)
    out_pad = []
    for size, out, k, s, d, p0, p1 in ((h, oh, kh, strides[0], dilation[0], pads[0], pads[2]),
                                       (w, ow, kw, strides[1], dilation[1], pads[1], pads[3])):
        out_pad.append(size - ((out - 1) * s - p0 - p1 + d * (k - 1) + 1))
    d_data = _nn.conv2d_transpose(grad, weight, strides=strides, padding=pads,
                                  dilation=dilation, groups=groups, channels=c,
                                  kernel_size=(kh, kw), output_padding=out_pad)
    data_t = _tr.transpose(data, [1, 0, 2, 3])  # C, N, H, W
    grad_t = _tr.transpose(grad, [1, 0, 2, 3])  # O, N, OH, OW
    og = o // groups
    parts = []
    for g in range(groups):
        dg = data_t if groups == 1 else _tr.strided_slice(data_t, [g * cg, 0, 0, 0],
                                                          [(g + 1) * cg, n, h, w])
        gg = grad_t if groups == 1 else _tr.strided_slice(grad_t, [g * og, 0, 0, 0],
                                                          [(g + 1) * og, n, oh, ow])
        r = _nn.conv2d(dg, gg, strides=dilation, padding=pads, dilation=strides)
        r = _tr.strided_slice(r, [0, 0, 0, 0], [cg, og, kh, kw])
        parts.append(_tr.transpose(r, [1, 0, 2, 3]))
    d_weight = parts[0] if groups == 1 else _tr.concatenate(parts, 0)
    return [d_data, d_weight]
