"""Indexing and layout: strided slice/set, gather, one_hot, dilation, sequence_mask and
matrix_set_diag, as TOPI's NumPy reference functions compute them."""
import numpy as np


def _slice_tuple(ndim, begin, end, strides):
    """Python slices for each axis: the given begin/end/stride where the lists reach, the whole
    axis past them."""
    def pick(values, i):
        return values[i] if values is not None and i < len(values) else None

    return tuple(slice(pick(begin, i), pick(end, i), pick(strides, i)) for i in range(ndim))


def strided_slice_python(data, begin, end, strides, slice_mode="end", axes=None):
    """NumPy slicing data[begin:end:stride] per axis. begin, end and strides list the first axes
    (or the axes in `axes`); the remaining axes are kept whole. slice_mode "size": end[i] is the
    slice's length from begin[i] (a negative length: to the axis's end) and strides are ignored.
    Returns a view of data."""
    strides = [] if strides is None else list(strides)
    begin, end = list(begin), list(end)
    if axes is not None:
        full_begin = [0] * data.ndim
        full_end = list(data.shape)
        full_strides = [1] * data.ndim
        for i, axis in enumerate(axes):
            full_begin[axis] = begin[i]
            full_end[axis] = end[i]
            if i < len(strides):
                full_strides[axis] = strides[i]
        begin, end, strides = full_begin, full_end, full_strides
    if slice_mode == "size":
        sized_end = []
        for i, length in enumerate(end):
            start = begin[i] if i < len(begin) else 0
            sized_end.append(None if length < 0 else start + length)
        end, strides = sized_end, None
    elif slice_mode != "end":
        raise ValueError("slice_mode must be 'end' or 'size', got {}".format(slice_mode))
    return data[_slice_tuple(data.ndim, begin, end, strides)]


def strided_set_python(data, v, begin, end, strides):
    """A copy of data whose slice data[begin:end:stride] (per axis, as in strided_slice_python's
    "end" mode) is set to v (broadcast)."""
    out = np.array(data, copy=True)
    out[_slice_tuple(out.ndim, list(begin), list(end), None if strides is None else list(strides))] = v
    return out


def gather_python(data, axis, indices):
    """out[i_0, ..., i_k] = data[i_0, ..., indices[i_0, ..., i_k], ..., i_k] with the index
    replaced on `axis`; out has indices's shape and data's dtype."""
    indices = np.asarray(indices)
    grid = list(np.indices(indices.shape, sparse=True))
    grid[axis] = indices
    return np.asarray(data)[tuple(grid)].astype(np.asarray(data).dtype)


def one_hot(indices, on_value, off_value, depth, axis, dtype):
    """A tensor with a new axis of length depth at `axis` (-1: last): on_value where the position
    along that axis equals the index, off_value elsewhere. Returns `dtype`."""
    indices = np.asarray(indices)
    out_ndim = indices.ndim + 1
    if axis < 0:
        axis += out_ndim
    positions = np.arange(depth).reshape([depth] + [1] * (out_ndim - axis - 1))
    hit = np.expand_dims(indices, axis) == positions
    return np.where(hit, on_value, off_value).astype(dtype)


def dilate_python(input_np, strides, dilation_value=0.0, out_dtype=None):
    """Insert strides[i] - 1 copies of dilation_value between neighbouring elements of each axis
    i: output extent (n - 1) * stride + 1, input element k at k * stride. Returns out_dtype
    (default: the input's dtype)."""
    input_np = np.asarray(input_np)
    if len(strides) != input_np.ndim:
        raise ValueError("Input dimension and strides size dismatch : {} vs {}".format(
            input_np.ndim, len(strides)))
    dtype = input_np.dtype if out_dtype is None else out_dtype
    shape = tuple((n - 1) * s + 1 if n > 0 else 0 for n, s in zip(input_np.shape, strides))
    out = np.full(shape, dilation_value, dtype=dtype)
    out[tuple(slice(None, None, s) for s in strides)] = input_np
    return out


def sequence_mask(data, valid_length, mask_value, axis):
    """Set data's elements past each sequence's valid length to mask_value. data is
    [MAX_LENGTH, batch_size, ...] (axis 0) or [batch_size, MAX_LENGTH, ...] (axis 1);
    valid_length [batch_size]. The result's dtype is NumPy's promotion of data, int64 and
    mask_value's type (float64 for float data, as TOPI's reference gives)."""
    data = np.asarray(data)
    if axis not in (0, 1):
        raise ValueError("axis must be 0 or 1, got {}".format(axis))
    batch_axis = 1 - axis
    pos_shape = [1] * data.ndim
    pos_shape[axis] = data.shape[axis]
    len_shape = [1] * data.ndim
    len_shape[batch_axis] = data.shape[batch_axis]
    masked = np.arange(data.shape[axis]).reshape(pos_shape) >= np.reshape(valid_length, len_shape)
    out_dtype = np.result_type(data.dtype, np.int64, type(mask_value))
    return np.where(masked, mask_value, data).astype(out_dtype)


def matrix_set_diag(input_np, diagonal, k=0, align="RIGHT_LEFT"):
    """A copy of input_np ([..., rows, cols]) with diagonals replaced.

    k an int: diagonal k (0 main, > 0 above, < 0 below) takes diagonal[..., i] at its i-th
    element. k a pair (lo, hi), lo < hi: diagonals lo..hi from diagonal[..., hi - d, :] (the
    highest first); a diagonal shorter than diagonal's last axis is aligned to its right or left
    as `align` says, the first word for diagonals d >= 0, the second for d < 0 (RIGHT_LEFT,
    LEFT_RIGHT, LEFT_LEFT, RIGHT_RIGHT)."""
    out = np.array(input_np, copy=True)
    diagonal = np.asarray(diagonal)
    rows, cols = out.shape[-2:]

    def put(d, values):
        i = np.arange(values.shape[-1])
        r, c = (i, i + d) if d >= 0 else (i - d, i)
        out[..., r, c] = values

    if isinstance(k, (tuple, list)):
        if len(k) < 2 or k[0] == k[1]:
            k = k[0]
        else:
            lo, hi = k
            width = diagonal.shape[-1]
            for d in range(lo, hi + 1):
                length = min(cols - max(d, 0), rows + min(d, 0))
                side = align.split("_")[0] if d >= 0 else align.split("_")[1]
                start = width - length if side == "RIGHT" else 0
                put(d, diagonal[..., hi - d, start:start + length])
            return out
    put(k, diagonal)
    return out
