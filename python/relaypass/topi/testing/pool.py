"""Pooling: N-d max/avg pooling, adaptive pooling and the gradient of 2-D pooling, as TOPI's
NumPy reference functions compute them."""
import itertools
import math

import numpy as np

from ._common import wide_dtype


def _lowest(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return np.finfo(dtype).min
    if dtype.kind in "iu":
        return np.iinfo(dtype).min
    return 0


def _channel_first_perm(layout, ndim):
    """The axes of `layout` (e.g. "NHWC") in the order N, C, then the spatial axes in the order
    the canonical layout (NCW, NCHW, NCDHW) has them."""
    canonical = {3: "NCW", 4: "NCHW", 5: "NCDHW"}.get(ndim)
    if canonical is None:
        raise ValueError("{}-dimensional data is not supported".format(ndim))
    if layout is None or layout == canonical:
        return None
    if sorted(layout) != sorted(canonical):
        raise ValueError("layout {} does not match {}-dimensional data".format(layout, ndim))
    return [layout.index(axis) for axis in canonical]


def poolnd_python(
    np_data,
    kernel,
    strides,
    dilation,
    padding_before,
    padding_after,
    pool_type,
    count_include_pad=True,
    ceil_mode=False,
    dtype="float32",
    layout=None,
):
    """Max or average pooling over the spatial axes of 3-, 4- or 5-D data.

    layout (default: NCW, NCHW or NCDHW by rank) names the data's axes; kernel, strides,
    dilation, padding_before and padding_after list one value per spatial axis in the order the
    channel-first layout has them. Output extent per axis: (in + before + after
    - (kernel - 1) * dilation - 1) / stride + 1, rounded down, or up with ceil_mode (windows then
    running past the padded data use only the part inside it).

    avg: the window's sum over the number of elements counted, which is every element of the
    window inside the padded data when count_include_pad, otherwise only the data's own elements
    (0 when there are none). max: the window's largest element, padding taking part as 0 when
    count_include_pad and as the dtype's lowest value otherwise (as TOPI's reference does).
    Returns `dtype`, in the data's layout.
    """
    data = np.asarray(np_data)
    perm = _channel_first_perm(layout, data.ndim)
    if perm is not None:
        data = np.transpose(data, perm)
    nsp = data.ndim - 2
    spatial = data.shape[2:]
    out_size = []
    for i in range(nsp):
        span = spatial[i] + padding_before[i] + padding_after[i] - (kernel[i] - 1) * dilation[i] - 1
        steps = span / strides[i]
        out_size.append(int(math.ceil(steps) if ceil_mode else math.floor(steps)) + 1)

    if pool_type not in ("max", "avg"):
        raise ValueError("Pool type {} is not supported".format(pool_type))
    pad_value = _lowest(dtype) if pool_type == "max" and not count_include_pad else 0
    padded_len = [spatial[i] + padding_before[i] + padding_after[i] for i in range(nsp)]
    padded = np.full(data.shape[:2] + tuple(padded_len), pad_value, dtype=dtype)
    inner = tuple(slice(b, b + n) for b, n in zip(padding_before, spatial))
    padded[(slice(None), slice(None)) + inner] = data

    # Per axis: the padded-data position of tap j of output o, whether it is inside the padded
    # data, and whether it is one of the data's own elements.
    positions, inside, real = [], [], []
    for i in range(nsp):
        pos = (np.arange(out_size[i])[:, None] * strides[i]
               + np.arange(kernel[i])[None, :] * dilation[i])
        positions.append(np.minimum(pos, padded_len[i] - 1))
        inside.append(pos < padded_len[i])
        real.append((pos >= padding_before[i]) & (pos < padding_before[i] + spatial[i]))

    # Gather every window: shape [N, C, out_0, k_0, out_1, k_1, ...].
    windows = padded
    for i in range(nsp):
        windows = np.take(windows, positions[i], axis=2 + 2 * i)

    def outer(masks):
        full = np.ones((), dtype=bool)
        for m in masks:
            full = np.logical_and.outer(full, m)
        return full

    inside_all = outer(inside)
    tap_axes = tuple(3 + 2 * i for i in range(nsp))
    if pool_type == "max":
        result = np.where(inside_all, windows, _lowest(windows.dtype)).max(axis=tap_axes)
    else:
        acc = wide_dtype(windows.dtype)
        total = np.where(inside_all, windows, 0).astype(acc).sum(axis=tap_axes)
        counted = inside_all & outer(real) if not count_include_pad else inside_all
        count = counted.sum(axis=tuple(1 + 2 * i for i in range(nsp)))
        with np.errstate(divide="ignore", invalid="ignore"):
            result = np.where(count > 0, total / np.maximum(count, 1), 0)
    result = result.astype(dtype)
    if perm is not None:
        result = np.transpose(result, np.argsort(perm))
    return result


def _adaptive_bounds(out_index, out_len, in_len):
    """The input range [start, end) adaptive pooling reduces for one output index."""
    return (out_index * in_len) // out_len, -((-(out_index + 1) * in_len) // out_len)


def adaptive_pool(np_data, out_size, pool_type, layout):
    """Adaptive max or average pooling of 3-, 4- or 5-D data in layout NCW, NCHW, NCDHW, NWC,
    NHWC or NDHWC to spatial size out_size (an int for 1-D, or a tuple): output index o of an
    axis of input length n reduces input indices floor(o * n / out) to ceil((o + 1) * n / out)
    (exclusive). Returns np_data's dtype."""
    data = np.asarray(np_data)
    if isinstance(out_size, int):
        out_size = (out_size,)
    out_size = tuple(out_size)
    if layout in ("NCW", "NCHW", "NCDHW"):
        spatial_axes = list(range(2, data.ndim))
    elif layout in ("NWC", "NHWC", "NDHWC"):
        spatial_axes = list(range(1, data.ndim - 1))
    else:
        raise ValueError("unsupported layout {}".format(layout))
    if len(spatial_axes) != len(out_size):
        raise ValueError("out_size {} does not match layout {}".format(out_size, layout))
    reduce = np.mean if pool_type == "avg" else np.max
    out_shape = list(data.shape)
    for axis, size in zip(spatial_axes, out_size):
        out_shape[axis] = size
    out = np.zeros(out_shape, dtype=data.dtype)
    for index in itertools.product(*[range(s) for s in out_size]):
        src = [slice(None)] * data.ndim
        dst = [slice(None)] * data.ndim
        for axis, o, size in zip(spatial_axes, index, out_size):
            start, end = _adaptive_bounds(o, size, data.shape[axis])
            src[axis] = slice(start, end)
            dst[axis] = o
        out[tuple(dst)] = reduce(data[tuple(src)], axis=tuple(spatial_axes))
    return out


def pool_grad_nchw(
    a_np, out_grad_np, pool_size, strides, padding, pool_type, ceil_mode, count_include_pad=True
):
    """Gradient of 2-D max or average pooling, NCHW.

    a_np [batch, channel, height, width] is the pooling's input, out_grad_np the gradient of its
    output (whose shape gives the output positions); padding is (top, left, bottom, right). The
    window of output (i, j) covers rows i * stride_h to i * stride_h + pool_h of the zero-padded
    input (cut at the padded input's end). avg: each window spreads its output gradient evenly
    over its elements, counting every element (count_include_pad) or the input's own elements
    only. max: the window's gradient goes to its largest element (the first one on ties),
    padding taking part as 0. ceil_mode is accepted for TOPI's signature: out_grad_np's shape
    already fixes the windows. Returns float64 of a_np's shape.
    """
    batch, channels, in_h, in_w = a_np.shape
    kh, kw = pool_size
    sh, sw = strides
    pt, pl, pb, pr = padding
    padded = np.zeros((batch, channels, in_h + pt + pb, in_w + pl + pr), dtype=a_np.dtype)
    padded[:, :, pt:pt + in_h, pl:pl + in_w] = a_np
    is_real = np.zeros(padded.shape[2:], dtype=bool)
    is_real[pt:pt + in_h, pl:pl + in_w] = True
    grad = np.zeros(padded.shape, dtype=np.float64)
    out_h, out_w = out_grad_np.shape[2:]
    n_idx, c_idx = np.meshgrid(np.arange(batch), np.arange(channels), indexing="ij")
    for i in range(out_h):
        for j in range(out_w):
            rows = slice(i * sh, i * sh + kh)
            cols = slice(j * sw, j * sw + kw)
            g = np.asarray(out_grad_np[:, :, i, j], dtype=np.float64)
            if pool_type == "avg":
                count = is_real[rows, cols].sum() if not count_include_pad else is_real[rows, cols].size
                grad[:, :, rows, cols] += (g / max(count, 1))[:, :, None, None]
            elif pool_type == "max":
                window = padded[:, :, rows, cols]
                flat = window.reshape(batch, channels, -1).argmax(axis=2)
                r, c = np.unravel_index(flat, window.shape[2:])
                np.add.at(grad, (n_idx, c_idx, r + rows.start, c + cols.start), g)
            else:
                raise ValueError("Pool type {} is not supported".format(pool_type))
    return grad[:, :, pt:pt + in_h, pl:pl + in_w]
