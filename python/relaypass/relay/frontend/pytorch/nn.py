"""Convolutions, pooling, normalization, dropout and padding."""
import math

import numpy as np

from ... import expr as _expr
from ... import op as _op
from .dtypes import typed_const
from . import qnn_ops
from .registry import converter


@converter("aten::_convolution")
def convolution(ctx, inputs, input_types):
    transposed = inputs[6] == 1
    data, weight, bias = inputs[0], inputs[1], inputs[2]
    strides, padding, dilation = tuple(inputs[3]), tuple(inputs[4]), tuple(inputs[5])
    if not isinstance(weight, _expr.Expr):
        raise AssertionError("Data type {} could not be parsed in conv op".format(type(weight)))
    weight_shape = list(ctx.infer_shape(weight))
    groups = int(inputs[8])
    if transposed:
        channels, in_channels = weight_shape[1] * groups, weight_shape[0]
    else:
        channels, in_channels = weight_shape[0], weight_shape[1]
    # Depthwise: TVM reshapes the weight so Relay recognises it.
    if groups > 1 and in_channels == 1:
        weight = _op.reshape(weight, (groups, channels // groups) + tuple(weight_shape[2:]))
    kernel_size = weight_shape[2:]
    rank = len(kernel_size)
    extra = {}
    if transposed:
        op_name = ("nn.conv1d_transpose", "nn.conv2d_transpose", "nn.conv3d_transpose")[rank - 1]
        extra["output_padding"] = tuple(inputs[7])
    else:
        op_name = ("nn.conv1d", "nn.conv2d", "nn.conv3d")[rank - 1]
    data_layout = ("NCW", "NCHW", "NCDHW")[rank - 1]
    kernel_layout = ("IOW", "IOHW", "IODHW")[rank - 1] if transposed else \
        ("OIW", "OIHW", "OIDHW")[rank - 1]
    # Grouped 1-D convolution goes through conv2d over a height of 1, as in TVM.
    grouped_conv1d = groups > 1 and rank == 1 and not transposed
    if grouped_conv1d:
        op_name = "nn.conv2d"
        kernel_size = [1] + kernel_size
        strides, padding, dilation = (1,) + strides, (0,) + padding, (1,) + dilation
        data = _op.expand_dims(data, axis=2)
        weight = _op.expand_dims(weight, axis=2)
        data_layout, kernel_layout = "NCHW", "OIHW"
    ctx.require(op_name)
    conv_op = getattr(_op.nn, op_name.split(".")[1])
    out = conv_op(
        data, weight, strides=strides, padding=padding, dilation=dilation, groups=groups,
        channels=channels, kernel_size=kernel_size, data_layout=data_layout,
        kernel_layout=kernel_layout, out_layout="", out_dtype="", **extra)
    if isinstance(bias, _expr.Expr):
        out = _op.nn.bias_add(out, bias)
    if grouped_conv1d:
        out = _op.squeeze(out, axis=[2])
    return out


def _pool_sizes(ctx, inputs):
    pool_size = ctx.int_list(inputs[1])
    strides = ctx.int_list(inputs[2]) if inputs[2] else pool_size
    return pool_size, strides


@converter("aten::max_pool2d")
def max_pool2d(ctx, inputs, input_types):
    pool_size, strides = _pool_sizes(ctx, inputs)
    return _op.nn.max_pool2d(
        inputs[0], pool_size=pool_size, strides=strides, dilation=inputs[4], padding=inputs[3],
        layout="NCHW", ceil_mode=int(inputs[5]))


@converter("aten::max_pool2d_with_indices")
def max_pool2d_with_indices(ctx, inputs, input_types):
    return max_pool2d(ctx, inputs, input_types), None  # TVM returns no indices


@converter("aten::max_pool1d", needs=("nn.max_pool1d",))
def max_pool1d(ctx, inputs, input_types):
    pool_size, strides = _pool_sizes(ctx, inputs)
    return _op.nn.max_pool1d(
        inputs[0], pool_size=pool_size, strides=strides, dilation=inputs[4], padding=inputs[3],
        layout="NCW", ceil_mode=int(inputs[5]))


@converter("aten::max_pool3d")
def max_pool3d(ctx, inputs, input_types):
    data = inputs[0]
    unbatched = len(ctx.shape_of(data)) == 4
    if unbatched:
        data = _op.expand_dims(data, 0)
    pool_size, strides = _pool_sizes(ctx, inputs)
    out = _op.nn.max_pool3d(
        data, pool_size=pool_size, strides=strides, dilation=inputs[4], padding=inputs[3],
        ceil_mode=int(inputs[5]))
    return _op.squeeze(out, [0]) if unbatched else out


def _avg_pool(rank):
    op_name = "nn.avg_pool{}d".format(rank)

    def convert(ctx, inputs, input_types):
        pool_size, strides = _pool_sizes(ctx, inputs)
        pool = getattr(_op.nn, "avg_pool{}d".format(rank))

        def func(data):
            return pool(
                data, pool_size=pool_size, strides=strides, padding=inputs[3],
                dilation=(1,) * rank, ceil_mode=int(inputs[4]),
                count_include_pad=int(inputs[5]))

        if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
            return qnn_ops.apply_with_upcast(inputs[0], func)
        return func(inputs[0])

    return converter("aten::avg_pool{}d".format(rank), needs=(op_name,))(convert)


for _rank in (1, 2, 3):
    _avg_pool(_rank)


def _adaptive_pool(kind, rank):
    op_name = "adaptive_{}_pool{}d".format(kind, rank)

    def convert(ctx, inputs, input_types):
        output_size = ctx.int_list(inputs[1])
        pool = getattr(_op.nn, op_name)
        if kind == "max":
            return pool(inputs[0], output_size=output_size), None  # TVM returns no indices
        if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
            return qnn_ops.apply_with_upcast(
                inputs[0], lambda data: pool(data, output_size=output_size))
        return pool(inputs[0], output_size=output_size)

    return converter("aten::" + op_name, needs=("nn." + op_name,))(convert)


for _kind in ("avg", "max"):
    for _rank in (1, 2, 3):
        _adaptive_pool(_kind, _rank)


@converter("aten::batch_norm")
def batch_norm(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    channels = int(ctx.infer_shape(data)[1])
    scale = isinstance(inputs[1], _expr.Expr)
    center = isinstance(inputs[2], _expr.Expr)
    gamma = inputs[1] if scale else typed_const(np.ones([channels]), dtype)
    beta = inputs[2] if center else typed_const(np.zeros([channels]), dtype)
    return _op.nn.batch_norm(
        data, gamma, beta, inputs[3], inputs[4], axis=1, epsilon=float(inputs[7]),
        center=center, scale=scale)[0]


@converter("aten::instance_norm")
def instance_norm(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    channels = int(ctx.infer_shape(data)[1])
    affine = isinstance(inputs[1], _expr.Expr) and isinstance(inputs[2], _expr.Expr)
    gamma = inputs[1] if affine else typed_const(np.ones([channels]), dtype)
    beta = inputs[2] if affine else typed_const(np.zeros([channels]), dtype)
    epsilon = float(inputs[7])
    if not inputs[5]:  # use_input_stats=False: the running statistics
        return _op.nn.batch_norm(
            data, gamma, beta, inputs[3], inputs[4], axis=1, epsilon=epsilon, center=affine,
            scale=affine)[0]
    return _op.nn.instance_norm(
        data, gamma, beta, axis=1, epsilon=epsilon, center=affine, scale=affine)


@converter("aten::layer_norm")
def layer_norm(ctx, inputs, input_types):
    assert len(ctx.shape_of(inputs[1])) == 1, \
        "Support only normalization over last one dimension."
    return _op.nn.layer_norm(
        inputs[0], gamma=inputs[2], beta=inputs[3], axis=-1, epsilon=float(inputs[4]),
        center=True, scale=True)


@converter("aten::group_norm", needs=("nn.group_norm",))
def group_norm(ctx, inputs, input_types):
    return _op.nn.group_norm(
        inputs[0], gamma=inputs[2], beta=inputs[3], num_groups=inputs[1], axis=1,
        epsilon=float(inputs[4]), center=True, scale=True)


@converter("aten::dropout", "aten::feature_dropout", "aten::alpha_dropout")
def dropout(ctx, inputs, input_types):
    return _op.nn.dropout(inputs[0], float(inputs[1]))


def _pad(ctx, mode, pad_value, inputs):
    data = inputs[0]
    pad_list = inputs[1] if isinstance(inputs[1], list) else list(ctx.infer_shape(inputs[1]))
    pad_list = ctx.int_list(pad_list)
    # torch lists (before, after) pairs from the last axis backwards
    widths = [[0, 0] for _ in ctx.infer_shape(data)]
    for i in range(min(len(pad_list) // 2, 3)):
        widths[-1 - i] = [pad_list[2 * i], pad_list[2 * i + 1]]
    if not any(p for pair in widths for p in pair):
        return data
    if mode == "constant":
        return _op.nn.pad(data, widths, pad_value=pad_value, pad_mode=mode)
    return _op.nn.pad(data, widths, pad_mode=mode)


@converter("aten::pad")
def pad(ctx, inputs, input_types):
    mode = inputs[2] if len(inputs) > 2 and inputs[2] is not None else "constant"
    pad_value = inputs[3] if len(inputs) == 4 and inputs[3] is not None else 0
    if mode == "replicate":
        mode = "edge"
    elif mode == "circular":
        raise ValueError("circular mode for torch.nn.functional.pad are not supported in TVM")
    return _pad(ctx, mode, pad_value, inputs)


@converter("aten::constant_pad_nd")
def constant_pad_nd(ctx, inputs, input_types):
    return _pad(ctx, "constant", _expr.const(inputs[2]), inputs)


converter("aten::reflection_pad1d", "aten::reflection_pad2d")(
    lambda ctx, inputs, input_types: _pad(ctx, "reflect", 0, inputs))
converter("aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d")(
    lambda ctx, inputs, input_types: _pad(ctx, "edge", 0, inputs))


def _upsample_size(ctx, inputs, method):
    if inputs[1] is not None:
        return ctx.int_list(inputs[1])
    scales = inputs[3 if method != "nearest_neighbor" else 2]
    assert scales is not None, "neither out size nor scale provided"
    assert isinstance(scales, list)
    shape = ctx.infer_shape(inputs[0])
    return [int(math.floor(float(shape[2 + i]) * s)) for i, s in enumerate(scales)]


def _coordinate_mode(method, align_corners):
    if method == "nearest_neighbor":
        return "asymmetric"
    return "align_corners" if align_corners else "half_pixel"


def _upsample2d(method):
    def convert(ctx, inputs, input_types):
        size = _upsample_size(ctx, inputs, method)
        align = inputs[2] if len(inputs) > 2 and method != "nearest_neighbor" else False

        def func(data):
            return _op.image.resize2d(
                data, size, None, "NCHW", method, _coordinate_mode(method, align),
                cubic_alpha=-0.75)

        if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
            # the input's parameters were appended by the quantized graph's preparation
            return qnn_ops.apply_with_fp32_fallback(
                inputs[0], _expr.const(inputs[-2]), _expr.const(inputs[-1]), func)
        return func(inputs[0])

    return convert


converter("aten::upsample_bilinear2d")(_upsample2d("linear"))
converter("aten::upsample_bicubic2d")(_upsample2d("cubic"))
converter("aten::upsample_nearest2d")(_upsample2d("nearest_neighbor"))


def _upsample3d(method):
    def convert(ctx, inputs, input_types):
        size = _upsample_size(ctx, inputs, method)
        align = inputs[2] if len(inputs) > 2 and method == "linear" else False
        return _op.image.resize3d(
            inputs[0], size, None, "NCDHW", method, _coordinate_mode(method, align))

    return convert


converter("aten::upsample_trilinear3d", needs=("image.resize3d",))(_upsample3d("linear"))
converter("aten::upsample_nearest3d", needs=("image.resize3d",))(_upsample3d("nearest_neighbor"))


@converter("aten::pixel_shuffle")
def pixel_shuffle(ctx, inputs, input_types):
    factor = inputs[1]
    b, c, h, w = ctx.infer_shape(inputs[0])
    assert c % (factor * factor) == 0, \
        "input channel should be divisible by square of upscale_factor"
    oc = c // (factor * factor)
    data = _op.reshape(inputs[0], [b, oc, factor, factor, h, w])
    data = _op.transpose(data, [0, 1, 4, 2, 5, 3])
    return _op.reshape(data, [b, oc, h * factor, w * factor])


@converter("aten::__interpolate")
def interpolate(ctx, inputs, input_types):
    if isinstance(inputs[1], list):
        size = ctx.int_list(inputs[1][:2])
    else:
        size = [int(v) for v in ctx.try_infer_value(inputs[1])[0]]
    method, align_corners = inputs[3], inputs[4]
    if method.startswith("nearest"):
        method = "nearest_neighbor"
    elif method.startswith("bi"):
        method = method[2:]
    return _op.image.resize2d(
        inputs[0], size, None, "NCHW", method, _coordinate_mode(method, align_corners),
        cubic_alpha=-0.75)
