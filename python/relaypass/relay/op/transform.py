"""Shape and layout operators (tvm.relay.op.transform), by TVM's names and signatures."""
from ..expr import Tuple, TupleWrapper, const  # noqa: F401 (relay.op.const, as TVM's)
from ._make import call
from .dyn import _make as _dyn_make


def _static_or_expr(value):
    """A shape-like argument as TVM's wrappers take it: a Constant becomes its values (the static
    op), another expression stays an expression (the dyn op)."""
    from ..expr import Constant

    if isinstance(value, Constant):
        return [int(v) for v in value.data.numpy().reshape(-1)]
    return value


def _is_expr(value):
    from ..expr import RelayExpr

    return isinstance(value, RelayExpr)


def expand_dims(data, axis, num_newaxis=1):
    if _is_expr(axis):
        return _dyn_make.expand_dims(data, axis, num_newaxis)
    if not isinstance(axis, int) and not hasattr(axis, "__index__"):
        raise ValueError("Unknown type for axis: {}".format(type(axis)))
    return call("expand_dims", [data], axis=int(axis), num_newaxis=int(num_newaxis))


def squeeze(data, axis=None):
    axis = _static_or_expr(axis)
    if _is_expr(axis):
        return _dyn_make.squeeze(data, axis)
    if isinstance(axis, int):
        axis = [axis]
    return call("squeeze", [data], axis=axis)


def reshape(data, newshape, allowzero=False):
    newshape = _static_or_expr(newshape)
    if _is_expr(newshape):
        return _dyn_make.reshape(data, newshape, allowzero)
    if isinstance(newshape, int):
        newshape = [newshape]
    return call("reshape", [data], newshape=[int(d) for d in newshape], allowzero=allowzero)


def transpose(data, axes=None):
    if axes is not None:
        axes = list(axes)
    return call("transpose", [data], axes=axes)


def concatenate(data, axis):
    data = list(data)
    if not data:
        raise ValueError("relay.concatenate requires data to be non-empty.")
    if not isinstance(axis, int):
        raise ValueError("For now, we only support integer axis")
    return call("concatenate", [Tuple(data)], axis=axis)


def stack(data, axis):
    """Join a sequence of tensors of one shape (or a tuple expression) along a new ``axis``."""
    from ..expr import RelayExpr

    if not isinstance(data, RelayExpr):
        data = list(data)
        if not data:
            raise ValueError("relay.stack requires data to be non-empty.")
        data = Tuple(data)
    if not isinstance(axis, int):
        raise ValueError("For now, we only support integer axis")
    return call("stack", [data], axis=axis)


def split(data, indices_or_sections, axis=0):
    """Split ``data`` into equal sections or at indices; returns a TupleWrapper."""
    if isinstance(indices_or_sections, int):
        ret_size = indices_or_sections
    else:
        indices_or_sections = list(indices_or_sections)
        ret_size = len(indices_or_sections) + 1
    return TupleWrapper(
        call("split", [data], indices_or_sections=indices_or_sections, axis=axis), ret_size
    )


def layout_transform(data, src_layout, dst_layout):
    return call("layout_transform", [data], src_layout=src_layout, dst_layout=dst_layout)


def repeat(data, repeats, axis):
    return call("repeat", [data], repeats=int(repeats), axis=axis)


def _ints(v):
    if v is None:
        return None
    if isinstance(v, int):
        return [v]
    return [int(x) for x in v]


def take(data, indices, axis=None, batch_dims=0, mode="clip"):
    return call("take", [data, indices], batch_dims=batch_dims, axis=axis, mode=mode)


def strided_slice(data, begin, end, strides=None, axes=None, slice_mode="end"):
    from ..expr import const

    strides = strides or [1]
    begin, end, strides = (_static_or_expr(v) for v in (begin, end, strides))
    if _is_expr(begin) or _is_expr(end) or _is_expr(strides):
        # TVM's wrapper: the dyn op, begin made non-negative and clipped to the data's extents.
        if not _is_expr(begin):
            begin = const(_ints(begin))
        if not _is_expr(end):
            end = const(_ints(end))
        if not _is_expr(strides):
            strides = const(_ints(strides))
        from .tensor import shape_of, where

        ishape = cast_like(shape_of(data), begin)
        ishape_slice = slice_like(ishape, begin)
        zero = cast_like(const(0), begin)
        begin = where(begin < zero, begin + ishape_slice, begin)
        begin = where(begin >= ishape_slice, ishape_slice, begin)
        if axes is not None:
            raise AssertionError("Axes argument for dynamic parameter is not supported yet.")
        return _dyn_make.strided_slice(data, begin, end, strides, slice_mode)
    return call("strided_slice", [data], begin=_ints(begin), end=_ints(end),
                strides=_ints(strides), slice_mode=slice_mode, axes=_ints(axes))


def broadcast_to(data, shape):
    shape = _static_or_expr(shape)
    if _is_expr(shape):
        return _dyn_make.broadcast_to(data, shape)
    return call("broadcast_to", [data], shape=_ints(shape))


def broadcast_to_like(data, broadcast_type):
    return call("broadcast_to_like", [data, broadcast_type])


def cast_like(data, dtype_like):
    return call("cast_like", [data, dtype_like])


def tile(data, reps):
    reps = _static_or_expr(reps)
    if _is_expr(reps):
        return _dyn_make.tile(data, reps)
    return call("tile", [data], reps=_ints(reps))


def reverse(data, axis):
    return call("reverse", [data], axis=axis)


def gather(data, axis, indices):
    return call("gather", [data, indices], axis=axis)


def gather_nd(data, indices, batch_dims=0, index_rank=None):
    return call("gather_nd", [data, indices], batch_dims=batch_dims, index_rank=index_rank)


def one_hot(indices, on_value, off_value, depth, axis, dtype):
    from ..expr import Constant

    if isinstance(depth, Constant):
        depth = depth.data.numpy().item()
    if _is_expr(depth):
        return _dyn_make.one_hot(indices, on_value, off_value, depth, axis, dtype)
    return call("one_hot", [indices, on_value, off_value], depth=int(depth), axis=axis,
                dtype=dtype)


def cumsum(data, axis=None, dtype=None, exclusive=None):
    if exclusive is not None:
        exclusive = int(bool(exclusive))
    return call("cumsum", [data], axis=axis, dtype=dtype or "", exclusive=exclusive)


def trilu(data, k, upper=True):
    from ..expr import RelayExpr, const

    if not isinstance(k, RelayExpr):
        k = const(k, dtype="int32")
    return call("trilu", [data, k], upper=upper)


def topk(data, k=1, axis=-1, ret_type="both", is_ascend=False, dtype="int32"):
    """The k largest (or smallest) values along ``axis``; a TupleWrapper for ret_type both."""
    from ..expr import Constant

    if isinstance(k, Constant):
        k = k.data.numpy().item()
    if _is_expr(k):
        out = _dyn_make.topk(data, k, axis, ret_type, is_ascend, dtype)
    else:
        out = call("topk", [data], k=int(k), axis=axis, ret_type=ret_type, is_ascend=is_ascend,
                   dtype=dtype)
    if ret_type == "both":
        return TupleWrapper(out, 2)
    return out


def reshape_like(data, shape_like, lhs_begin=0, lhs_end=None, rhs_begin=0, rhs_end=None):
    """``data`` reshaped to its dimensions before ``lhs_begin``, ``shape_like``'s dimensions
    [``rhs_begin``, ``rhs_end``), and its dimensions from ``lhs_end`` (TVM's reshape_like)."""
    return call("reshape_like", [data, shape_like], lhs_begin=lhs_begin, lhs_end=lhs_end,
                rhs_begin=rhs_begin, rhs_end=rhs_end)


def collapse_sum_like(data, collapse_type):
    """``data`` summed over the axes that broadcasting ``collapse_type``'s shape to it adds."""
    return call("collapse_sum_like", [data, collapse_type])


def collapse_sum_to(data, shape):
    """``data`` summed down to ``shape`` (a list, tuple or constant; TVM keeps a constant's
    values in the call's ``shape`` attribute too)."""
    from ..expr import Constant, const

    if isinstance(shape, (list, tuple)):
        shape = const(list(shape), "int32")
    values = None
    if isinstance(shape, Constant):
        values = [int(v) for v in shape.data.numpy().reshape(-1)]
    return call("collapse_sum_to", [data, shape], shape=values)


def reverse_reshape(data, newshape):
    """reshape with newshape's special values (0, -1, -2, -3, -4) applied from the right."""
    if isinstance(newshape, int):
        newshape = [newshape]
    return call("contrib_reverse_reshape", [data], newshape=list(newshape))


def sequence_mask(data, valid_length, mask_value=0, axis=0):
    """Positions at or past ``valid_length[b]`` along ``axis`` (0 or 1) set to ``mask_value``."""
    return call("sequence_mask", [data, valid_length], mask_value=float(mask_value), axis=axis)


def matrix_set_diag(data, diagonal, k=0, align="RIGHT_LEFT"):
    """``data`` with diagonal ``k`` (or diagonals ``k[0]..k[1]``) of its innermost matrices
    replaced; ``align`` as TensorFlow's MatrixSetDiagV3."""
    if isinstance(k, (tuple, list)):
        k_one, k_two = int(k[0]), int(k[1])
    else:
        k_one = k_two = int(k)
    return call("matrix_set_diag", [data, diagonal], k1=k_one, k2=k_two,
                super_diag_right_align=align[:5] == "RIGHT",
                sub_diag_right_align=align[-5:] == "RIGHT")


def slice_like(data, shape_like, axes=None):
    """``data`` sliced from the start to ``shape_like``'s extents on ``axes`` (default all)."""
    return call("slice_like", [data, shape_like], axes=_ints(axes))


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0):
    """A dense tensor of ``output_shape`` holding ``default_value`` except at ``sparse_indices``,
    which take ``sparse_values``; an expression ``output_shape`` makes dyn.sparse_to_dense."""
    from ..expr import const

    if not _is_expr(default_value):
        default_value = const(default_value)
    if _is_expr(output_shape):
        return _dyn_make.sparse_to_dense(sparse_indices, output_shape, sparse_values,
                                         default_value)
    return call("sparse_to_dense", [sparse_indices, sparse_values, default_value],
                output_shape=_ints(output_shape))


def sparse_fill_empty_rows(sparse_indices, sparse_values, dense_shape, default_value):
    """TVM's sparse_fill_empty_rows: (new_sparse_indices, new_sparse_values,
    empty_row_indicator) as a Tuple, cast to the input dtypes and bool as TVM's wrapper does."""
    from ..expr import Tuple
    from .tensor import cast

    out = TupleWrapper(call("sparse_fill_empty_rows",
                            [sparse_indices, sparse_values, dense_shape, default_value]), 3)
    new_sparse_indices = cast_like(out[0], sparse_indices)
    new_sparse_values = cast_like(out[1], sparse_values)
    empty_row_indicator = cast(out[2], "bool")
    return Tuple((new_sparse_indices, new_sparse_values, empty_row_indicator))


def arange(start, stop=None, step=None, dtype="float32"):
    """TVM's arange: values from ``start`` (0 when only one bound is given) up to, not including,
    ``stop``, ``step`` apart (1 by default), as a 1-D tensor of ``dtype``. The bounds are scalar
    expressions; when all three are constants the result's extent is known statically."""
    from ..expr import RelayExpr, const

    if step is None:
        step = const(1, dtype)
    if stop is None:
        stop = start
        start = const(0, dtype=dtype)
    start, stop, step = (v if isinstance(v, RelayExpr) else const(v, dtype)
                         for v in (start, stop, step))
    return call("arange", [start, stop, step], dtype=dtype)


def meshgrid(data, indexing="ij"):
    """TVM's meshgrid: one grid per scalar or 1-D tensor of ``data``, each the shape of all their
    extents ("xy" indexing swaps the first two), as a TupleWrapper."""
    from ..expr import Tuple

    data = list(data)
    return TupleWrapper(call("meshgrid", [Tuple(data)], indexing=indexing), len(data))


def argwhere(condition):
    """TVM's argwhere: the coordinates of the non-zero elements of ``condition``, one int32 row
    each; the number of rows is known at run time only."""
    return call("argwhere", [condition])


def unique(data, is_sorted=True, return_counts=False):
    """TVM's unique of a 1-D tensor: (output, indices, inverse_indices, num_unique[, counts]) as
    a TupleWrapper; output, indices and counts are padded to the data's length and only their
    first num_unique[0] values are meaningful."""
    out = call("unique", [data], sorted=bool(is_sorted), return_counts=bool(return_counts))
    return TupleWrapper(out, 5 if return_counts else 4)


def adv_index(inputs):
    """TVM's adv_index: numpy-style advanced indexing of ``inputs[0]``'s leading axes by the
    index tensors ``inputs[1:]`` (broadcast against each other)."""
    from ..expr import Tuple

    return call("adv_index", [Tuple(list(inputs))])


def stft(data, n_fft, hop_length=None, win_length=None, window=None, normalized=False,
         onesided=True):
    """TVM's stft: the short-time Fourier transform of 1-D data or a 2-D batch,
    [batch,] rows, frames, 2 (real, imaginary); hop_length defaults to n_fft // 4, win_length
    to n_fft and the window to n_fft int32 ones, as TVM's wrapper."""
    from .tensor import ones

    if hop_length is None:
        hop_length = n_fft // 4
    if win_length is None:
        win_length = n_fft
    if window is None:
        window = ones([n_fft], "int32")
    return call("stft", [data, window], n_fft=int(n_fft), hop_length=int(hop_length),
                win_length=int(win_length), normalized=bool(normalized), onesided=bool(onesided))


def strided_set(data, v, begin, end, strides=None):
    """TVM's relay.strided_set: ``data`` with the strided slice begin:end:strides (1-D integer
    tensors; strides defaults to const([1])) set to ``v``."""
    from ..expr import const as _const

    if strides is None:
        strides = _const([1], dtype="int32")
    return call("strided_set", [data, v, begin, end, strides])
