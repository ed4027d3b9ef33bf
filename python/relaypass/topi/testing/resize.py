"""Image resizing (1-D, 2-D, 3-D; nearest neighbor, linear, cubic) as TOPI's NumPy reference
functions compute it. The output extent of each resized axis is round(in * scale).

All three interpolations are products of one-dimensional ones, so the data is resized one axis
at a time (nearest: a gather; linear: a blend of 2 neighbours; cubic: of 4 neighbours, the
indices clamped to the axis)."""
import numpy as np


def _source_coordinate(out_index, in_len, out_len, mode):
    """The input coordinate output index `out_index` maps to."""
    scale = in_len / out_len
    if mode == "half_pixel":
        return (out_index + 0.5) * scale - 0.5
    if mode == "align_corners":
        if out_len > 1:
            return out_index * ((in_len - 1) / (out_len - 1))
        return np.zeros_like(out_index, dtype=np.float64)
    if mode == "asymmetric":
        return out_index * scale
    raise ValueError("Unsupported coordinate_transformation_mode: {}".format(mode))


def _cubic_weights(t, alpha=-0.5):
    """Keys' cubic convolution weights of the 4 neighbours floor(x) - 1 .. floor(x) + 2, for the
    fractional part t of x."""
    def kernel(d):  # the cubic kernel at distance d >= 0
        d = np.abs(d)
        near = ((alpha + 2) * d - (alpha + 3)) * d * d + 1
        far = ((d - 5) * d + 8) * d * alpha - 4 * alpha
        return np.where(d <= 1, near, np.where(d < 2, far, 0.0))

    return [kernel(t + 1), kernel(t), kernel(1 - t), kernel(2 - t)]


def _resize_axis(data, axis, out_len, method, mode):
    in_len = data.shape[axis]
    out_index = np.arange(out_len, dtype=np.float64)
    x = _source_coordinate(out_index, in_len, out_len, mode)

    def take(indices):
        return np.take(data, np.clip(indices, 0, in_len - 1), axis=axis)

    def blend(values, weights):
        shape = [1] * data.ndim
        shape[axis] = out_len
        return sum(v * np.reshape(w, shape) for v, w in zip(values, weights))

    if method == "nearest_neighbor":
        # align_corners rounds half up; the other modes round down.
        near = np.floor(x + 0.5) if mode == "align_corners" else np.floor(x)
        return take(near.astype(np.int64))
    base = np.floor(x)
    frac = x - base
    base = base.astype(np.int64)
    if method == "linear":
        return blend([take(base), take(base + 1)], [1.0 - frac, frac])
    if method == "cubic":
        return blend([take(base + k) for k in (-1, 0, 1, 2)], _cubic_weights(frac))
    raise ValueError("Unknown resize method {}".format(method))


def _resize(data, spatial_axes, scale, method, mode):
    data = np.asarray(data)
    if len(scale) != len(spatial_axes):
        raise ValueError("scale {} does not have {} entries".format(scale, len(spatial_axes)))
    out = data.astype(np.float64)
    for axis, s in zip(spatial_axes, scale):
        out = _resize_axis(out, axis, int(round(data.shape[axis] * s)), method, mode)
    return out.astype(data.dtype)


def _nchw_packed(layout):
    return layout[:4] == "NCHW" and "c" in layout and "n" in layout


def resize1d_python(
    data, scale, layout="NCW", method="nearest_neighbor",
    coordinate_transformation_mode="align_corners",
):
    """Resize the width of NCW or NWC data by scale (a 1-tuple). method: nearest_neighbor,
    linear or cubic; coordinate_transformation_mode: half_pixel, align_corners or asymmetric.
    Returns data's dtype."""
    axes = {"NCW": [2], "NWC": [1]}.get(layout)
    if axes is None:
        raise ValueError("unsupported layout {}".format(layout))
    return _resize(data, axes, tuple(scale), method, coordinate_transformation_mode)


def resize2d_python(
    data, scale, layout="NCHW", method="nearest_neighbor",
    coordinate_transformation_mode="align_corners",
):
    """Resize height and width of NCHW, NHWC or packed NCHWinic data by scale (scale_h, scale_w).
    method and coordinate_transformation_mode as for resize1d_python. Returns data's dtype."""
    if layout == "NHWC":
        axes = [1, 2]
    elif layout == "NCHW" or _nchw_packed(layout):
        axes = [2, 3]
    else:
        raise ValueError("unsupported layout {}".format(layout))
    return _resize(data, axes, tuple(scale), method, coordinate_transformation_mode)


def resize3d_python(
    data, scale, layout="NCDHW", method="nearest_neighbor",
    coordinate_transformation_mode="align_corners",
):
    """Resize depth, height and width of NCDHW or NDHWC data by scale (d, h, w). method and
    coordinate_transformation_mode as for resize1d_python. Returns data's dtype."""
    axes = {"NCDHW": [2, 3, 4], "NDHWC": [1, 2, 3]}.get(layout)
    if axes is None:
        raise ValueError("unsupported layout {}".format(layout))
    return _resize(data, axes, tuple(scale), method, coordinate_transformation_mode)
