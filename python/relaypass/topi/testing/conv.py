"""Convolutions (1-D, 2-D, 3-D, channel-first and channel-last), transposed convolutions and the
gradient of conv2d with respect to its weight, as TOPI's NumPy reference functions compute them.

All go through two N-d kernels: _conv_nd (a sum over the kernel's taps of a strided window of the
padded input times that tap's weight matrix) and _conv_transpose_nd (each input element scattered
into the output through the kernel). Sums are accumulated in float64 (int64 for integer inputs);
each function returns the dtype TOPI's reference returns, noted in its docstring.
"""
import itertools

import numpy as np

from ._common import as_tuple, pad_before_after, wide_dtype


def _conv_nd(data, weight, strides, pad_before, pad_after, dilation, groups=1):
    """data [N, C, *spatial], weight [O, C // groups, *kernel] -> [N, O, *out] (wide dtype)."""
    data = np.asarray(data)
    weight = np.asarray(weight)
    nsp = data.ndim - 2
    acc = wide_dtype(np.result_type(data.dtype, weight.dtype))
    batch, in_c = data.shape[:2]
    out_c = weight.shape[0]
    kernel = weight.shape[2:]
    if in_c % groups or out_c % groups:
        raise ValueError("channels ({}, {}) are not divisible by groups {}".format(in_c, out_c, groups))
    if weight.shape[1] * groups != in_c:
        raise ValueError("weight has {} input channels per group, data {} channels in {} groups"
                         .format(weight.shape[1], in_c, groups))
    pad_width = [(0, 0), (0, 0)] + [(b, a) for b, a in zip(pad_before, pad_after)]
    padded = np.pad(data.astype(acc), pad_width)
    out_size = [
        (padded.shape[2 + i] - (kernel[i] - 1) * dilation[i] - 1) // strides[i] + 1
        for i in range(nsp)
    ]
    out = np.zeros((batch, out_c) + tuple(out_size), dtype=acc)
    cg, og = in_c // groups, out_c // groups
    for g in range(groups):
        x_g = padded[:, g * cg:(g + 1) * cg]
        w_g = weight[g * og:(g + 1) * og].astype(acc)
        for tap in itertools.product(*[range(k) for k in kernel]):
            window = tuple(
                slice(t * d, t * d + (o - 1) * s + 1, s)
                for t, d, o, s in zip(tap, dilation, out_size, strides)
            )
            x = x_g[(slice(None), slice(None)) + window]  # [N, cg, *out]
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", x, w_g[(Ellipsis,) + tap])
    return out


def _conv_transpose_nd(data, weight, strides, pad_before, pad_after, output_padding, groups=1):
    """data [N, C, *spatial], weight [C, F // groups, *kernel] -> [N, F, *out] (wide dtype), where
    out = (in - 1) * stride + kernel + output_padding - pad_before - pad_after: input element i
    reaches output positions i * stride + tap - pad_before."""
    data = np.asarray(data)
    weight = np.asarray(weight)
    nsp = data.ndim - 2
    acc = wide_dtype(np.result_type(data.dtype, weight.dtype))
    batch, in_c = data.shape[:2]
    spatial = data.shape[2:]
    kernel = weight.shape[2:]
    for op, s in zip(output_padding, strides):
        if not 0 <= op < s:
            raise ValueError("output_padding {} must be smaller than the stride {}".format(op, s))
    if in_c % groups or weight.shape[0] != in_c:
        raise ValueError("weight's first axis ({}) must be the data's channels ({}), "
                         "divisible by groups {}".format(weight.shape[0], in_c, groups))
    cg, fg = in_c // groups, weight.shape[1]
    out_size = [
        (spatial[i] - 1) * strides[i] + kernel[i] + output_padding[i] - pad_before[i] - pad_after[i]
        for i in range(nsp)
    ]
    full = [max((spatial[i] - 1) * strides[i] + kernel[i], pad_before[i] + out_size[i])
            for i in range(nsp)]
    buf = np.zeros((batch, fg * groups) + tuple(full), dtype=acc)
    for g in range(groups):
        x_g = data[:, g * cg:(g + 1) * cg].astype(acc)
        w_g = weight[g * cg:(g + 1) * cg].astype(acc)
        for tap in itertools.product(*[range(k) for k in kernel]):
            window = tuple(
                slice(t, t + (n - 1) * s + 1, s) for t, n, s in zip(tap, spatial, strides)
            )
            contrib = np.einsum("nc...,cf->nf...", x_g, w_g[(Ellipsis,) + tap])
            buf[(slice(None), slice(g * fg, (g + 1) * fg)) + window] += contrib
    crop = tuple(slice(b, b + o) for b, o in zip(pad_before, out_size))
    return buf[(slice(None), slice(None)) + crop]


# ----------------------------------------------------------------------------- convolutions


def conv1d_ncw_python(a_np, w_np, stride, padding, dilation):
    """1-D convolution, NCW. a_np [batch, in_channel, in_width], w_np [num_filter, in_channel,
    filter_width]; stride and dilation an int or a 1-element list; padding an int, (left, right),
    "VALID" or "SAME" ("SAME" pads for the dilated kernel). Returns float64
    [batch, num_filter, out_width]."""
    stride = as_tuple(stride, 1, "stride")
    dilation = as_tuple(dilation, 1, "dilation")
    dilated = (w_np.shape[2] - 1) * dilation[0] + 1
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        before, after = [padding[0]], [padding[1]]
    else:
        before, after = pad_before_after(padding, (dilated,))
    return _conv_nd(a_np, w_np, stride, before, after, dilation).astype(np.float64)


def conv2d_nchw_python(a_np, w_np, stride, padding, groups=1):
    """2-D convolution, NCHW. a_np [batch, in_channel, in_height, in_width], w_np [num_filter,
    in_channel // groups, filter_height, filter_width]; stride an int or (h, w); padding an int,
    (h, w), (top, left, bottom, right), "VALID" or "SAME". Returns a_np's dtype
    [batch, num_filter, out_height, out_width]."""
    before, after = pad_before_after(padding, w_np.shape[2:])
    out = _conv_nd(a_np, w_np, as_tuple(stride, 2, "stride"), before, after, (1, 1), groups)
    return out.astype(a_np.dtype)


def conv2d_nhwc_python(a_np, w_np, stride, padding, groups=1):
    """2-D convolution, NHWC. a_np [batch, in_height, in_width, in_channel], w_np [filter_height,
    filter_width, in_channel // groups, num_filter] (HWIO); stride and padding as for
    conv2d_nchw_python. Returns float64 [batch, out_height, out_width, num_filter]."""
    before, after = pad_before_after(padding, w_np.shape[:2])
    out = _conv_nd(
        np.transpose(a_np, (0, 3, 1, 2)), np.transpose(w_np, (3, 2, 0, 1)),
        as_tuple(stride, 2, "stride"), before, after, (1, 1), groups,
    )
    return np.transpose(out, (0, 2, 3, 1)).astype(np.float64)


def conv3d_ncdhw_python(a_np, w_np, stride, padding, groups=1):
    """3-D convolution, NCDHW. a_np [batch, in_channel, in_depth, in_height, in_width], w_np
    [num_filter, in_channel // groups, filter_depth, filter_height, filter_width]; stride an int or
    (d, h, w); padding an int, (d, h, w), (front, top, left, back, bottom, right), "VALID" or
    "SAME". Returns float64 [batch, num_filter, out_depth, out_height, out_width]."""
    before, after = pad_before_after(padding, w_np.shape[2:])
    out = _conv_nd(a_np, w_np, as_tuple(stride, 3, "stride"), before, after, (1, 1, 1), groups)
    return out.astype(np.float64)


def conv3d_ndhwc_python(a_np, w_np, stride, padding, groups=1):
    """3-D convolution, NDHWC. a_np [batch, in_depth, in_height, in_width, in_channel], w_np
    [filter_depth, filter_height, filter_width, in_channel // groups, num_filter] (DHWIO); stride
    and padding as for conv3d_ncdhw_python. Returns a_np's dtype
    [batch, out_depth, out_height, out_width, num_filter]."""
    before, after = pad_before_after(padding, w_np.shape[:3])
    out = _conv_nd(
        np.transpose(a_np, (0, 4, 1, 2, 3)), np.transpose(w_np, (4, 3, 0, 1, 2)),
        as_tuple(stride, 3, "stride"), before, after, (1, 1, 1), groups,
    )
    return np.transpose(out, (0, 2, 3, 4, 1)).astype(a_np.dtype)


# ------------------------------------------------------------------- transposed convolutions


def conv1d_transpose_ncw_python(a_np, w_np, stride, padding, output_padding):
    """Transposed 1-D convolution, NCW. a_np [batch, in_channel, in_width], w_np [in_channel,
    num_filter, filter_width]; stride an int or [stride]; padding an int, (left, right), "VALID"
    or "SAME"; output_padding a 1-element sequence (or int), smaller than the stride. Returns
    float64 [batch, num_filter, (in_width - 1) * stride + filter_width + output_padding
    - left - right]."""
    stride = as_tuple(stride, 1, "stride")
    opad = as_tuple(output_padding, 1, "output_padding")
    if isinstance(padding, (list, tuple)) and len(padding) == 2:
        before, after = [padding[0]], [padding[1]]
    else:
        before, after = pad_before_after(padding, w_np.shape[2:])
    return _conv_transpose_nd(a_np, w_np, stride, before, after, opad).astype(np.float64)


def conv2d_transpose_nchw_python(a_np, w_np, stride, padding, output_padding, groups=1):
    """Transposed 2-D convolution, NCHW. a_np [batch, in_channel, in_height, in_width], w_np
    [in_channel, num_filter // groups, filter_height, filter_width] (IOHW); stride an int or
    (h, w); padding as for conv2d_nchw_python; output_padding an int or (h, w), each smaller than
    its stride. Returns float64 [batch, num_filter, out_height, out_width]."""
    before, after = pad_before_after(padding, w_np.shape[2:])
    return _conv_transpose_nd(
        a_np, w_np, as_tuple(stride, 2, "stride"), before, after,
        as_tuple(output_padding, 2, "output_padding"), groups,
    ).astype(np.float64)


_TO_IOHW = {"HWIO": (2, 3, 0, 1), "HWOI": (3, 2, 0, 1), "OIHW": (1, 0, 2, 3), "IOHW": (0, 1, 2, 3)}


def conv2d_transpose_nhwc_python(
    a_nhwc, weight, weight_format, stride, padding, output_padding=(0, 0)
):
    """Transposed 2-D convolution, NHWC. a_nhwc [batch, in_height, in_width, in_channel]; weight
    in weight_format, one of HWIO, HWOI, OIHW, IOHW (I the input channels); stride, padding and
    output_padding as for conv2d_transpose_nchw_python. Returns float64
    [batch, out_height, out_width, num_filter]."""
    if np.ndim(a_nhwc) != 4 or np.ndim(weight) != 4:
        raise ValueError("a_nhwc and weight must both have 4 dimensions")
    if weight_format not in _TO_IOHW:
        raise ValueError("Valid weight_formats are HWIO, HWOI, OIHW or IOHW")
    out = conv2d_transpose_nchw_python(
        np.transpose(a_nhwc, (0, 3, 1, 2)), np.transpose(weight, _TO_IOHW[weight_format]),
        stride, padding, output_padding,
    )
    return np.transpose(out, (0, 2, 3, 1))


def conv3d_transpose_ncdhw_python(a_np, w_np, stride, padding, output_padding, groups=1):
    """Transposed 3-D convolution, NCDHW. a_np [batch, in_channel, in_depth, in_height, in_width],
    w_np [in_channel, num_filter // groups, filter_depth, filter_height, filter_width]; stride an
    int or (d, h, w); padding as for conv3d_ncdhw_python; output_padding an int or (d, h, w).
    Returns float64 [batch, num_filter, out_depth, out_height, out_width]."""
    before, after = pad_before_after(padding, w_np.shape[2:])
    return _conv_transpose_nd(
        a_np, w_np, as_tuple(stride, 3, "stride"), before, after,
        as_tuple(output_padding, 3, "output_padding"), groups,
    ).astype(np.float64)


# ------------------------------------------------------------------------- weight gradient


def conv2d_backward_weight_python(
    dy_np, x_np, kernel_size, stride, padding, layout="NCHW", groups=1, channels=None
):
    """Gradient of conv2d with respect to its weight.

    dw[k, c, r, s] = sum over n, p, q of dy[n, k, p, q] * x[n, c', p * stride_h - pad_h + r,
    q * stride_w - pad_w + s] (zero outside x), where c' is input channel c of output channel k's
    group. dy_np [batch, num_filter, out_height, out_width] and x_np [batch, in_channel, in_height,
    in_width] in NCHW (or both NHWC with layout="NHWC"); kernel_size, stride and padding pairs
    (padding: the top and left padding). Returns dy_np's dtype, [num_filter, in_channel // groups,
    filter_height, filter_width] for NCHW, [num_filter, filter_height, filter_width,
    in_channel // groups] for NHWC. channels (the number of output channels) is accepted for
    TOPI's signature; the output channels are dy_np's.
    """
    if layout == "NHWC":
        dw = conv2d_backward_weight_python(
            np.transpose(dy_np, (0, 3, 1, 2)), np.transpose(x_np, (0, 3, 1, 2)),
            kernel_size, stride, padding, "NCHW", groups, channels,
        )
        return np.transpose(dw, (0, 2, 3, 1))
    if layout != "NCHW":
        raise ValueError("layout must be NCHW or NHWC, got {}".format(layout))
    batch, in_c, in_h, in_w = x_np.shape
    _, out_c, out_h, out_w = dy_np.shape
    kh, kw = as_tuple(kernel_size, 2, "kernel_size")
    sh, sw = as_tuple(stride, 2, "stride")
    ph, pw = as_tuple(padding, 2, "padding")[:2]
    if in_c % groups or out_c % groups:
        raise ValueError("channels ({}, {}) not divisible by groups {}".format(in_c, out_c, groups))
    acc = wide_dtype(np.result_type(dy_np.dtype, x_np.dtype))
    # Zero-pad x so that every tap's window (rows r - ph + p * sh) lies inside the array.
    need_h = (out_h - 1) * sh + kh
    need_w = (out_w - 1) * sw + kw
    xpad = np.pad(
        x_np.astype(acc),
        [(0, 0), (0, 0), (ph, max(0, need_h - ph - in_h)), (pw, max(0, need_w - pw - in_w))],
    )
    cg, og = in_c // groups, out_c // groups
    dw = np.zeros((out_c, cg, kh, kw), dtype=acc)
    dy = dy_np.astype(acc)
    for g in range(groups):
        for r in range(kh):
            for s in range(kw):
                xs = xpad[:, g * cg:(g + 1) * cg, r:r + (out_h - 1) * sh + 1:sh,
                          s:s + (out_w - 1) * sw + 1:sw]
                dw[g * og:(g + 1) * og, :, r, s] = np.einsum(
                    "nkpq,ncpq->kc", dy[:, g * og:(g + 1) * og], xs)
    return dw.astype(dy_np.dtype)
