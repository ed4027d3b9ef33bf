"""Ops that move data without computing: reshapes, transposes, slices, splits, joins, expands."""
import sys

from ... import expr as _expr
from ... import op as _op
from . import lists
from .context import wrap_const
from .registry import converter


def unbind(ctx, data, axis):
    """The slices of ``data`` along ``axis``, each squeezed (TVM's common.unbind)."""
    count = ctx.infer_shape(data)[axis]
    parts = _op.split(data, count, axis)
    return [_op.squeeze(parts[i], axis=[axis]) for i in range(count)]


@converter("aten::squeeze")
def squeeze(ctx, inputs, input_types):
    if len(inputs) == 1:
        return _op.squeeze(inputs[0], None)
    axes = inputs[1] if isinstance(inputs[1], list) else [inputs[1]]
    return _op.squeeze(inputs[0], [int(a) for a in axes])


@converter("aten::unsqueeze")
def unsqueeze(ctx, inputs, input_types):
    return _op.expand_dims(inputs[0], int(inputs[1]), 1)


@converter("aten::cat")
def cat(ctx, inputs, input_types):
    data = inputs[0]
    if lists.is_adt_list(data):
        return lists.cat(ctx, data, inputs[1])
    return _op.concatenate(data, int(inputs[1]))


@converter("aten::stack")
def stack(ctx, inputs, input_types):
    if lists.is_adt_list(inputs[0]):
        return lists.stack(ctx, inputs[0], inputs[1])
    return _op.stack(inputs[0], inputs[1])


@converter("aten::slice")
def slice_(ctx, inputs, input_types):
    data = inputs[0]
    shape = list(ctx.infer_shape(data))
    dim = int(inputs[1])
    stride = int(inputs[4])
    begin_value = 0 if inputs[2] is None else ctx.int_value(inputs[2])
    end_value = None if inputs[3] is None else ctx.int_value(inputs[3])
    # The whole axis: nothing to slice (TVM's fast path).
    if begin_value == 0 and (end_value is None or end_value >= sys.maxsize) and stride == 1:
        return data
    if end_value is None or end_value >= sys.maxsize:
        end_value = shape[dim]
    begin = [0] * len(shape)
    begin[dim] = begin_value
    end = shape
    end[dim] = end_value
    strides = [1] * len(shape)
    strides[dim] = stride
    return _op.strided_slice(data, begin=begin, end=end, strides=strides, slice_mode="end")


@converter("aten::narrow")
def narrow(ctx, inputs, input_types):
    start = ctx.int_value(inputs[2])
    length = ctx.int_value(inputs[3])
    return slice_(ctx, [inputs[0], inputs[1], start, start + length, 1], input_types)


@converter("aten::split")
def split(ctx, inputs, input_types):
    data, size, dim = inputs[0], int(inputs[1]), int(inputs[2])
    extent = ctx.infer_shape(data)[dim]
    return _op.split(data, list(range(size, extent, size)), dim)


@converter("aten::split_with_sizes")
def split_with_sizes(ctx, inputs, input_types):
    data, sections, dim = inputs[0], inputs[1], int(inputs[2])
    if len(sections) == 1:
        return _expr.TupleWrapper(_expr.Tuple([data]), 1)
    indices, index = [], 0
    for section in sections[:-1]:
        index += ctx.int_value(section)
        indices.append(index)
    return _op.split(data, indices, dim)


@converter("aten::tensor_split")
def tensor_split(ctx, inputs, input_types):
    import torch

    data, sections, dim = inputs[0], inputs[1], int(inputs[2])
    if isinstance(sections, torch.Tensor):
        sections = sections.tolist()
    if isinstance(sections, (list, tuple)):
        return _op.split(data, list(sections), dim)
    count = int(sections)
    extent = ctx.infer_shape(data)[dim]
    size, rest = extent // count, extent % count
    # the first `rest` parts have one more element (torch.tensor_split)
    indices, index = [], 0
    for i in range(count - 1):
        index += size + (1 if i < rest else 0)
        indices.append(index)
    return _op.split(data, indices, dim)


@converter("aten::chunk", "aten::unsafe_chunk")
def chunk(ctx, inputs, input_types):
    data, chunks, axis = inputs[0], int(inputs[1]), int(inputs[2])
    extent = int(ctx.infer_shape(data)[axis])
    size = extent // (chunks - 1) if extent % chunks else extent // chunks
    return _op.split(data, list(range(size, extent, size)), axis)


@converter("aten::unbind")
def unbind_op(ctx, inputs, input_types):
    return unbind(ctx, inputs[0], int(inputs[1]))


@converter("aten::select")
def select(ctx, inputs, input_types):
    return _op.take(inputs[0], wrap_const(inputs[2]), axis=int(inputs[1]), mode="wrap")


@converter("aten::transpose", "aten::t", "aten::permute")
def transpose(ctx, inputs, input_types):
    data = inputs[0]
    if not isinstance(data, _expr.Expr):
        data = _expr.const(data)
    ndims = len(ctx.infer_shape(data))
    axes = list(range(ndims))
    if len(inputs) == 1:  # aten::t
        if ndims >= 2:
            axes[-1], axes[-2] = ndims - 2, ndims - 1
    elif len(inputs) == 3:
        src, dst = [int(inputs[i]) + (ndims if int(inputs[i]) < 0 else 0) for i in (1, 2)]
        axes[src], axes[dst] = dst, src
    else:
        axes = inputs[1]
    return _op.transpose(data, axes)


@converter("aten::numpy_T")
def numpy_t(ctx, inputs, input_types):
    return _op.transpose(inputs[0])


@converter("aten::flatten")
def flatten(ctx, inputs, input_types):
    data = inputs[0]
    ndim = len(ctx.infer_shape(data))
    start, end = int(inputs[1]), int(inputs[2])
    start += ndim if start < 0 else 0
    end += ndim if end < 0 else 0
    assert start <= end, "start dim cannot come after end dim"
    # TVM's form: reshape with 0 (keep), -1 and 1s, then squeeze the 1s away
    new_shape = [0] * start + [-1] + [1] * (end - start) + [0] * (ndim - end - 1)
    out = _op.reshape(data, new_shape)
    squeeze_axes = list(range(start + 1, end + 1))
    return _op.squeeze(out, axis=squeeze_axes) if squeeze_axes else out


def _static_shape(ctx, values):
    return [ctx.int_value(v) for v in values]


@converter("aten::view")
def view(ctx, inputs, input_types):
    if len(inputs) == 3:
        shape = [inputs[1], ctx.infer_shape(inputs[2])[0]]
    elif isinstance(inputs[1], list):
        shape = inputs[1]
    else:
        shape = list(ctx.infer_shape(inputs[1]))
    return _op.reshape(inputs[0], _static_shape(ctx, shape))


@converter("aten::reshape")
def reshape(ctx, inputs, input_types):
    return _op.reshape(inputs[0], _static_shape(ctx, inputs[1]))


@converter("aten::reshape_as")
def reshape_as(ctx, inputs, input_types):
    return _op.reshape(inputs[0], list(ctx.infer_shape(inputs[1])))


@converter("aten::expand")
def expand(ctx, inputs, input_types):
    out = inputs[0]
    shape = list(ctx.infer_shape(out))
    sizes = list(inputs[1])
    if len(shape) < len(sizes):
        added = len(sizes) - len(shape)
        out = _op.expand_dims(out, axis=0, num_newaxis=added)
        shape = [1] * added + shape
    for i, size in enumerate(sizes):
        if size != -1 and shape[i] == 1:
            size = ctx.int_value(size)
            if size != -1:
                out = _op.repeat(out, size, axis=i)
    return out


@converter("aten::expand_as")
def expand_as(ctx, inputs, input_types):
    target = inputs[1]
    dtype = ctx.infer_dtype(inputs[0])
    if dtype != ctx.infer_dtype(target):
        target = _op.cast(target, dtype)
    return _op.broadcast_to_like(inputs[0], target)


@converter("aten::broadcast_tensors")
def broadcast_tensors(ctx, inputs, input_types):
    import torch

    shapes = [ctx.infer_shape(t) for t in inputs[0]]
    shape = list(torch.broadcast_shapes(*shapes))
    return [_op.broadcast_to(t, shape) for t in inputs[0]]


@converter("aten::repeat")
def repeat(ctx, inputs, input_types):
    return _op.tile(inputs[0], reps=ctx.int_list(inputs[1]))


@converter("aten::repeat_interleave")
def repeat_interleave(ctx, inputs, input_types):
    data = inputs[0]
    if isinstance(inputs[1], int):
        repeats = inputs[1]
    elif isinstance(inputs[1], _expr.Expr):
        repeats = ctx.int_value(inputs[1])
    else:
        raise AssertionError("Only repeat with one value as repeat is currently supported.")
    axis = inputs[2]
    if axis is None:  # torch flattens when no axis is given
        data, axis = _op.reshape(data, [-1]), 0
    return _op.repeat(data, repeats=repeats, axis=axis)


@converter("aten::flip")
def flip(ctx, inputs, input_types):
    return _op.reverse(inputs[0], axis=inputs[1][0])


@converter("aten::contiguous", "aten::detach", "aten::IntImplicit", "aten::tensor")
def identity(ctx, inputs, input_types):
    return inputs[0]


@converter("aten::clone", needs=("copy",))
def clone(ctx, inputs, input_types):
    return _op.copy(inputs[0])


@converter("aten::tril", "aten::triu")
def trilu(ctx, inputs, input_types):
    upper = ctx.current_kind == "aten::triu"
    return _op.trilu(inputs[0], inputs[1] if inputs[1] else 0, upper)


@converter("aten::meshgrid", needs=("meshgrid",))
def meshgrid(ctx, inputs, input_types):
    return _op.meshgrid(inputs[0], indexing="ij")


@converter("aten::roll", needs=("arange",))
def roll(ctx, inputs, input_types):
    x, shifts, dims = inputs
    shape = ctx.infer_shape(x)
    start, step = _expr.const(0, "int64"), _expr.const(1, "int64")
    out = x
    for i, dim in enumerate(dims):
        extent = _expr.const(shape[dim], "int64")
        indices = _op.mod(
            _op.arange(start, extent, step, "int64") - _expr.const(shifts[i], "int64") + extent,
            extent)
        # the roll indices along the last axis, tiled, then moved to `dim`
        axes = list(range(len(shape)))
        axes = axes[:dim] + [-1] + axes[dim:-1]
        indices = _op.transpose(_op.tile(indices, shape[:dim] + shape[dim + 1:] + (1,)), axes)
        out = _op.gather(out, dim, indices)
    return out
