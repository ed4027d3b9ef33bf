"""Indexing: gather/scatter, take/select by index tensors, embedding, one_hot, masks, topk,
sorting and searching."""
from ... import expr as _expr
from ... import op as _op
from . import lists
from .context import wrap_const
from .registry import converter


@converter("aten::gather")
def gather(ctx, inputs, input_types):
    return _op.gather(inputs[0], inputs[1], inputs[2])


@converter("aten::index_select")
def index_select(ctx, inputs, input_types):
    return _op.take(inputs[0], wrap_const(inputs[2]), axis=int(inputs[1]), mode="wrap")


@converter("aten::take")
def take(ctx, inputs, input_types):
    return _op.take(inputs[0], _op.cast(wrap_const(inputs[1]), "int32"), mode="wrap")


@converter("aten::embedding")
def embedding(ctx, inputs, input_types):
    return _op.take(inputs[0], inputs[1].astype("int32"), axis=0)


@converter("aten::one_hot")
def one_hot(ctx, inputs, input_types):
    if inputs[1] == -1:
        raise NotImplementedError("Inferring the number of classes is not yet supported.")
    on_value = _expr.const(1.0, "int32")
    off_value = _expr.const(0.0, "int32")
    return _op.one_hot(inputs[0].astype("int32"), on_value, off_value, inputs[1], -1, "int32")


def _check_scatter_shapes(ctx, data, index, src, axis):
    data_shape, index_shape, src_shape = (ctx.infer_shape(v) for v in (data, index, src))
    assert len(data_shape) == len(index_shape), "Index rank is not the same as data rank"
    assert len(data_shape) == len(src_shape), "Src rank is not the same as data rank"
    assert 0 <= axis < len(data_shape), "Dim is out of bounds"
    for i, (d, n, s) in enumerate(zip(data_shape, index_shape, src_shape)):
        assert n <= s, "Index dim size should be less than src one"
        if i != axis:
            assert n <= d, "Index dim size should be less than data one"
    return index_shape


@converter("aten::scatter")
def scatter(ctx, inputs, input_types):
    assert len(inputs) in (4, 5), (
        "scatter takes 4 or 5 inputs: data, dim, index, src, reduce (optional), "
        "but {} given".format(len(inputs)))
    data, axis, index, src = inputs[0], int(inputs[1]), inputs[2], inputs[3]
    reduce = inputs[4] if len(inputs) == 5 else "update"
    if 0 in ctx.infer_shape(index):
        return data
    if not isinstance(src, _expr.Expr):  # a scalar source fills like data
        src = _op.full(_expr.const(src, ctx.infer_dtype(data)), ctx.infer_shape(index),
                       ctx.infer_dtype(data))
    _check_scatter_shapes(ctx, data, index, src, axis)
    reduce = {None: "update", "multiply": "mul"}.get(reduce, reduce)
    assert reduce in ("update", "add", "mul"), \
        'reduce arg is expected from "add", "multiply" or None'
    return _op.scatter_elements(data, index, src, axis, reduce)


@converter("aten::scatter_add")
def scatter_add(ctx, inputs, input_types):
    assert len(inputs) == 4, \
        "scatter_add takes 4 inputs (data, dim, index, src), but {} given".format(len(inputs))
    data, axis, index, src = inputs
    if 0 in ctx.infer_shape(index):
        return data
    _check_scatter_shapes(ctx, data, index, src, axis)
    return _op.scatter_elements(data, index, src, axis=axis, reduction="add")


@converter("aten::scatter_reduce")
def scatter_reduce(ctx, inputs, input_types):
    assert len(inputs) in (5, 6), (
        "scatter_reduce takes 5 or 6 inputs (data, dim, index, src, reduce, include_self), "
        "but {} given".format(len(inputs)))
    data, dim, index, src, reduce = inputs[:5]
    if len(inputs) == 6:
        assert inputs[5], "include_self=False has not been suppoted for scatter_reduce yet"
    _check_scatter_shapes(ctx, data, index, src, dim)
    modes = {"sum": "add", "prod": "mul", "mean": "mean", "amax": "max", "amin": "min"}
    assert reduce in modes, "Only {} modes are supported, but {} is gotten".format(
        list(modes), reduce)
    return _op.scatter_elements(data, index, src, axis=dim, reduction=modes[reduce])


@converter("aten::index_put")
def index_put(ctx, inputs, input_types):
    mode = "add" if inputs[3] else "update"
    return _op.scatter_nd(inputs[0], _op.stack(inputs[1], axis=0), inputs[2], mode)


@converter("aten::masked_fill")
def masked_fill(ctx, inputs, input_types):
    value = _op.cast(wrap_const(inputs[2]), input_types[0])
    return _op.where(inputs[1], value, inputs[0])


@converter("aten::nonzero", needs=("argwhere",))
def nonzero(ctx, inputs, input_types):
    out = _op.argwhere(inputs[0])
    if len(inputs) > 1 and inputs[1]:
        from .shape_ops import unbind

        return unbind(ctx, out, 1)
    return out


@converter("aten::topk")
def topk(ctx, inputs, input_types):
    data, axis = inputs[0], int(inputs[2])
    is_ascend, sort = not bool(inputs[3]), bool(inputs[4])
    k = ctx.int_value(inputs[1])
    if not sort:
        raise AssertionError("Currently supports only sorted output for topk operator.")
    outs = _op.topk(data, k=k, axis=axis, is_ascend=is_ascend, ret_type="both", dtype="int64")
    return outs[0], outs[1]


@converter("aten::sort")
def sort(ctx, inputs, input_types):
    data, dim, descending = inputs[0], inputs[1], inputs[2]
    indices = _op.argsort(data, dim, not descending)
    return _op.gather(data, dim, indices), indices


@converter("aten::argsort")
def argsort(ctx, inputs, input_types):
    return _op.argsort(inputs[0], inputs[1], not inputs[2])


def _searchsorted(ctx, sorted_sequence, values, out_int32, right, side=None, out=None,
                  sorter=None):
    assert side is None and out is None and sorter is None, "unsupported parameters"
    dtype = "int32" if out_int32 else "int64"
    scalar = len(ctx.infer_shape(values)) == 0
    if scalar:
        values = _op.expand_dims(values, 0)
    result = _op.searchsorted(sorted_sequence, values, right=right, dtype=dtype)
    return _op.squeeze(result) if scalar else result


@converter("aten::searchsorted")
def searchsorted(ctx, inputs, input_types):
    return _searchsorted(ctx, *inputs)


@converter("aten::bucketize")
def bucketize(ctx, inputs, input_types):
    return _searchsorted(ctx, inputs[1], inputs[0], inputs[2], inputs[3])


@converter("aten::grid_sampler")
def grid_sampler(ctx, inputs, input_types):
    rank = len(ctx.infer_shape(inputs[0]))
    if rank == 4:
        layout, axes = "NCHW", [0, 3, 1, 2]
    elif rank == 5:
        layout, axes = "NCDHW", [0, 4, 1, 2, 3]
    else:
        raise ValueError("only 4D and 5D are supported.")
    methods = {0: "bilinear", 1: "nearest", 2: "bicubic"}
    paddings = {0: "zeros", 1: "border", 2: "reflection"}
    if inputs[2] not in methods:
        raise ValueError("interpolation method {} is not supported".format(inputs[2]))
    if inputs[3] not in paddings:
        raise ValueError("padding_mode {} is not supported".format(inputs[3]))
    grid = _op.transpose(inputs[1], axes)
    return _op.image.grid_sample(
        inputs[0], grid, methods[inputs[2]], layout, paddings[inputs[3]], inputs[4])


@converter("aten::__getitem__")
def list_getitem(ctx, inputs, input_types):
    if lists.is_adt_list(inputs[0]):
        return lists.nth(ctx, inputs[0], inputs[1])
    return inputs[0][int(inputs[1])]


@converter("aten::len")
def list_len(ctx, inputs, input_types):
    if lists.is_adt_list(inputs[0]):
        return lists.length(ctx, inputs[0])
    return len(inputs[0])


@converter("aten::nonzero_numpy", needs=("argwhere",))
def nonzero_numpy(ctx, inputs, input_types):
    return nonzero(ctx, [inputs[0]], input_types)


@converter("aten::index", needs=("adv_index",))
def index(ctx, inputs, input_types):
    """Advanced indexing: the indexed axes moved first, adv_index, and (when they were
    consecutive) the result's new axes moved back to where torch puts them."""
    data = inputs[0]
    rank = len(ctx.infer_shape(data))
    indexed = [i for i, v in enumerate(inputs[1]) if v is not None]
    rest = [i for i in range(rank) if i not in indexed]
    consecutive = all(b - a == 1 for a, b in zip(indexed[:-1], indexed[1:]))
    indices = []
    for axis in indexed:
        value = inputs[1][axis]
        if ctx.infer_dtype(value) == "bool":  # a mask: its positions as indices
            ctx.require("argwhere")
            indices.append(_op.squeeze(_op.argwhere(value), axis=[1]))
        else:
            indices.append(value)
    out = _op.adv_index([_op.transpose(data, axes=indexed + rest)] + indices)
    if not consecutive:
        return out
    num_dims = len(ctx.infer_shape(out))
    new_dims = num_dims - len(rest)
    order = list(range(num_dims))
    order = (order[new_dims:new_dims + indexed[0]] + order[:new_dims]
             + order[new_dims + indexed[0]:])
    return _op.transpose(out, axes=order)


@converter("aten::masked_select", needs=("argwhere", "adv_index"))
def masked_select(ctx, inputs, input_types):
    positions = nonzero(ctx, [inputs[1], True], input_types)
    return _op.adv_index([inputs[0]] + list(positions))
