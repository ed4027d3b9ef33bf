"""Neural-network operators (tvm.relay.op.nn), by TVM's names, signatures and argument
normalisation (int strides become pairs, padding becomes 4 values)."""
from ...expr import RelayExpr, TupleWrapper, const
from .._make import call, get_pad_tuple2d, pair

__all__ = [
    "conv2d", "dense", "bias_add", "batch_norm", "relu", "leaky_relu", "softmax",
    "log_softmax", "dropout", "dropout_raw", "max_pool2d", "avg_pool2d", "global_avg_pool2d",
    "global_max_pool2d", "batch_flatten", "pad", "prelu", "batch_matmul", "lrn",
    "instance_norm", "layer_norm", "depth_to_space", "space_to_depth", "upsampling",
    "upsampling3d", "mirror_pad", "dilate", "conv2d_backward_weight", "correlation", "conv3d",
    "conv1d_transpose", "conv2d_transpose", "conv3d_transpose", "max_pool3d", "avg_pool3d",
    "conv1d", "max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_avg_pool2d",
    "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
    "group_norm", "l2_normalize", "nll_loss", "matmul", "global_max_pool1d", "global_avg_pool1d",
    "contrib_conv2d_nchwc", "contrib_depthwise_conv2d_nchwc",
    "global_max_pool3d", "global_avg_pool3d",
    "bitpack", "bitserial_conv2d", "bitserial_dense",
]


def conv2d(data, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
           channels=None, kernel_size=None, data_layout="NCHW", kernel_layout="OIHW",
           out_layout="", out_dtype=""):
    """2-D convolution."""
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    return call("nn.conv2d", [data, weight], strides=pair(strides),
                padding=get_pad_tuple2d(padding), dilation=pair(dilation), groups=groups,
                channels=channels, kernel_size=kernel_size, data_layout=data_layout,
                kernel_layout=kernel_layout, out_layout=out_layout, out_dtype=out_dtype)


def _conv2d_nchwc(op_name, data, kernel, strides, padding, dilation, groups, channels,
                  kernel_size, data_layout, kernel_layout, out_layout, out_dtype):
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    return call(op_name, [data, kernel], strides=pair(strides),
                padding=get_pad_tuple2d(padding), dilation=pair(dilation), groups=groups,
                channels=channels, kernel_size=kernel_size, data_layout=data_layout,
                kernel_layout=kernel_layout, out_layout=out_layout, out_dtype=out_dtype)


def contrib_conv2d_nchwc(data, kernel, strides=(1, 1), padding=(0, 0), dilation=(1, 1),
                         groups=1, channels=None, kernel_size=None, data_layout="NCHW8c",
                         kernel_layout="OIHW", out_layout="", out_dtype=""):
    """2-D convolution on channel-blocked layouts (nn.contrib_conv2d_NCHWc, TVM's x86 form)."""
    return _conv2d_nchwc("nn.contrib_conv2d_NCHWc", data, kernel, strides, padding, dilation,
                         groups, channels, kernel_size, data_layout, kernel_layout, out_layout,
                         out_dtype)


def contrib_depthwise_conv2d_nchwc(data, kernel, strides=(1, 1), padding=(0, 0),
                                   dilation=(1, 1), groups=1, channels=None, kernel_size=None,
                                   data_layout="NCHW8c", kernel_layout="OIHW", out_layout="",
                                   out_dtype=""):
    """Depthwise 2-D convolution on channel-blocked layouts
    (nn.contrib_depthwise_conv2d_NCHWc)."""
    return _conv2d_nchwc("nn.contrib_depthwise_conv2d_NCHWc", data, kernel, strides, padding,
                         dilation, groups, channels, kernel_size, data_layout, kernel_layout,
                         out_layout, out_dtype)


def conv2d_backward_weight(grad, data, strides=(1, 1), padding=(0, 0), dilation=(1, 1),
                           groups=1, channels=None, kernel_size=None, grad_layout="NCHW",
                           data_layout="NCHW", kernel_layout="OIHW", out_dtype=""):
    """The gradient of conv2d with respect to its weight (TVM's Conv2DAttrs: data_layout holds
    grad_layout, kernel_layout data_layout and out_layout kernel_layout)."""
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    return call("nn.conv2d_backward_weight", [grad, data], strides=pair(strides),
                padding=get_pad_tuple2d(padding), dilation=pair(dilation), groups=groups,
                channels=channels, kernel_size=kernel_size, data_layout=grad_layout,
                kernel_layout=data_layout, out_layout=kernel_layout, out_dtype=out_dtype)


def deformable_conv2d(data, offset, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1),
                      deformable_groups=1, groups=1, channels=None, kernel_size=None,
                      data_layout="NCHW", kernel_layout="OIHW", out_layout="", out_dtype=""):
    """2-D deformable convolution: each kernel tap samples the data at its offset position."""
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    return call("nn.deformable_conv2d", [data, offset, weight], strides=pair(strides),
                padding=get_pad_tuple2d(padding), dilation=pair(dilation),
                deformable_groups=deformable_groups, groups=groups, channels=channels,
                kernel_size=kernel_size, data_layout=data_layout, kernel_layout=kernel_layout,
                out_layout=out_layout, out_dtype=out_dtype)


def dense(data, weight, units=None, out_dtype=""):
    """Dense layer: data * weight^T."""
    return call("nn.dense", [data, weight], units=units, out_dtype=out_dtype)


def matmul(tensor_a, tensor_b, units=None, out_dtype="", transpose_a=False, transpose_b=False):
    """tensor_a times tensor_b, either optionally transposed. As TVM's, the (not transpose_a,
    transpose_b) case is nn.dense."""
    if not transpose_a and transpose_b:
        return dense(tensor_a, tensor_b, units, out_dtype)
    return call("nn.matmul", [tensor_a, tensor_b], units=units, out_dtype=out_dtype,
                transpose_a=transpose_a, transpose_b=transpose_b)


def bias_add(data, bias, axis=1):
    return call("nn.bias_add", [data, bias], axis=axis)


def batch_norm(data, gamma, beta, moving_mean, moving_var, axis=1, epsilon=1e-5, center=True,
               scale=True):
    """Batch normalisation; returns a TupleWrapper (normalised data, mean, var)."""
    result = call("nn.batch_norm", [data, gamma, beta, moving_mean, moving_var], axis=axis,
                  epsilon=epsilon, center=center, scale=scale)
    return TupleWrapper(result, 3)


def relu(data):
    return call("nn.relu", [data])


def leaky_relu(data, alpha=0.01):
    return call("nn.leaky_relu", [data], alpha=alpha)


def softmax(data, axis=-1):
    return call("nn.softmax", [data], axis=axis)


def log_softmax(data, axis=-1):
    return call("nn.log_softmax", [data], axis=axis)


def dropout_raw(data, rate=0.5):
    return call("nn.dropout", [data], rate=rate)


def dropout(data, rate=0.5):
    return TupleWrapper(dropout_raw(data, rate), 2)[0]


def max_pool2d(data, pool_size=(1, 1), strides=(1, 1), dilation=(1, 1), padding=(0, 0),
               layout="NCHW", out_layout="", ceil_mode=False):
    return call("nn.max_pool2d", [data], pool_size=pair(pool_size), strides=pair(strides),
                dilation=pair(dilation), padding=get_pad_tuple2d(padding), layout=layout,
                out_layout=out_layout, ceil_mode=ceil_mode)


def avg_pool2d(data, pool_size=(1, 1), strides=(1, 1), dilation=(1, 1), padding=(0, 0),
               layout="NCHW", out_layout="", ceil_mode=False, count_include_pad=False):
    return call("nn.avg_pool2d", [data], pool_size=pair(pool_size), strides=pair(strides),
                dilation=pair(dilation), padding=get_pad_tuple2d(padding), layout=layout,
                out_layout=out_layout, ceil_mode=ceil_mode, count_include_pad=count_include_pad)


def global_avg_pool2d(data, layout="NCHW", out_layout=""):
    return call("nn.global_avg_pool2d", [data], layout=layout, out_layout=out_layout)


def global_max_pool2d(data, layout="NCHW", out_layout=""):
    return call("nn.global_max_pool2d", [data], layout=layout, out_layout=out_layout)


def batch_flatten(data):
    return call("nn.batch_flatten", [data])


def pad(data, pad_width, pad_value=0, pad_mode="constant"):
    """Pad ``data``; pad_value is an expression or a scalar (made an int32/float32 const)."""
    from ...expr import Constant
    from ..dyn.nn import _make as _dyn_nn_make

    if isinstance(pad_width, Constant):
        pad_width = [list(i) for i in pad_width.data.numpy()]
    if not isinstance(pad_value, RelayExpr):
        pad_value = const(pad_value)
    if isinstance(pad_width, RelayExpr):
        return _dyn_nn_make.pad(data, pad_width, pad_value, pad_mode)
    pad_width = [list(p) for p in pad_width]
    return call("nn.pad", [data, pad_value], pad_width=pad_width, pad_mode=pad_mode)


def _tuple(value, n):
    if isinstance(value, int):
        return (value,) * n
    return tuple(value)


def _pad_tuple3d(padding):
    padding = _tuple(padding, 3)
    if len(padding) == 3:
        return padding + padding
    return padding


def prelu(data, alpha, axis=1):
    return call("nn.prelu", [data, alpha], axis=axis)


def batch_matmul(tensor_a, tensor_b, out_dtype="", transpose_a=False, transpose_b=True):
    return call("nn.batch_matmul", [tensor_a, tensor_b], out_dtype=out_dtype,
                transpose_a=transpose_a, transpose_b=transpose_b)


def lrn(data, size=5, axis=1, bias=2, alpha=0.00001, beta=0.75):
    return call("nn.lrn", [data], size=size, axis=axis, bias=bias, alpha=alpha, beta=beta)


def instance_norm(data, gamma, beta, axis=1, epsilon=1e-5, center=True, scale=True):
    return call("nn.instance_norm", [data, gamma, beta], axis=axis, epsilon=epsilon,
                center=center, scale=scale)


def layer_norm(data, gamma, beta, axis=-1, epsilon=1e-5, center=True, scale=True):
    return call("nn.layer_norm", [data, gamma, beta], axis=axis, epsilon=epsilon,
                center=center, scale=scale)


def depth_to_space(data, block_size, layout="NCHW", mode="DCR"):
    return call("nn.depth_to_space", [data], block_size=block_size, layout=layout, mode=mode)


def space_to_depth(data, block_size, layout="NCHW"):
    return call("nn.space_to_depth", [data], block_size=block_size, layout=layout)


def upsampling(data, scale_h=1, scale_w=1, layout="NCHW", method="nearest_neighbor",
               align_corners=False):
    from ...expr import Constant
    from ..dyn.nn import _make as _dyn_nn_make

    if isinstance(scale_h, Constant):
        scale_h = scale_h.data.numpy().item()
    if isinstance(scale_w, Constant):
        scale_w = scale_w.data.numpy().item()
    if isinstance(scale_h, RelayExpr) or isinstance(scale_w, RelayExpr):
        if not isinstance(scale_h, RelayExpr):
            scale_h = const(scale_h, "float64")
        if not isinstance(scale_w, RelayExpr):
            scale_w = const(scale_w, "float64")
        return _dyn_nn_make.upsampling(data, scale_h, scale_w, layout, method, align_corners)
    return call("nn.upsampling", [data], scale_h=scale_h, scale_w=scale_w, layout=layout,
                method=method, align_corners=align_corners)


def correlation(data1, data2, kernel_size, max_displacement, stride1, stride2, padding,
                is_multiply, layout):
    """TVM's relay.nn.correlation (FlowNet): an int padding is used for both sides."""
    if isinstance(padding, int):
        padding = (padding, padding)
    return call("nn.correlation", [data1, data2], kernel_size=kernel_size,
                max_displacement=max_displacement, stride1=stride1, stride2=stride2,
                padding=list(padding), is_multiply=is_multiply, layout=layout)


def bitpack(data, bits=1, pack_axis=1, bit_axis=2, pack_type="uint32", name="BitPack"):
    """TVM's relay.nn.bitpack: packs ``data``'s bits along ``pack_axis`` into ``pack_type``
    words, a ``bits`` axis at ``bit_axis``. Types only: relaypass has no bitserial kernels."""
    return call("nn.bitpack", [data], bits=bits, pack_axis=pack_axis, bit_axis=bit_axis,
                pack_type=pack_type, name=name)


def bitserial_conv2d(data, weight, strides=(1, 1), padding=(0, 0), channels=None,
                     kernel_size=(3, 3), activation_bits=1, weight_bits=1, data_layout="NCHW",
                     kernel_layout="OIHW", pack_dtype="uint32", out_dtype="int16",
                     unipolar=True):
    """TVM's relay.nn.bitserial_conv2d (types only: relaypass has no bitserial kernels)."""
    return call("nn.bitserial_conv2d", [data, weight], strides=list(strides),
                padding=list(padding), channels=channels, kernel_size=list(kernel_size),
                activation_bits=activation_bits, weight_bits=weight_bits,
                data_layout=data_layout, kernel_layout=kernel_layout, pack_dtype=pack_dtype,
                out_dtype=out_dtype, unipolar=unipolar)


def bitserial_dense(data, weight, units=None, data_bits=1, weight_bits=1, pack_dtype="uint32",
                    out_dtype="int16", unipolar=True):
    """TVM's relay.nn.bitserial_dense (types only: relaypass has no bitserial kernels)."""
    return call("nn.bitserial_dense", [data, weight], units=units, data_bits=data_bits,
                weight_bits=weight_bits, pack_dtype=pack_dtype, out_dtype=out_dtype,
                unipolar=unipolar)


def mirror_pad(data, pad_width, mode="SYMMETRIC"):
    return call("nn.mirror_pad", [data], mode=mode, pad_width=[list(p) for p in pad_width])


def dilate(data, strides, dilation_value=0.0):
    return call("nn.dilate", [data], strides=list(strides), dilation_value=dilation_value)


def upsampling3d(data, scale_d=1, scale_h=1, scale_w=1, layout="NCDHW",
                 method="nearest_neighbor", coordinate_transformation_mode="half_pixel"):
    from ...expr import Constant
    from ..dyn.nn import _make as _dyn_nn_make

    scales = [scale_d, scale_h, scale_w]
    scales = [s.data.numpy().item() if isinstance(s, Constant) else s for s in scales]
    if any(isinstance(s, RelayExpr) for s in scales):
        scales = [s if isinstance(s, RelayExpr) else const(s, "float64") for s in scales]
        return _dyn_nn_make.upsampling3d(data, *scales, layout, method,
                                         coordinate_transformation_mode)
    return call("nn.upsampling3d", [data], scale_d=scales[0], scale_h=scales[1],
                scale_w=scales[2], layout=layout, method=method,
                coordinate_transformation_mode=coordinate_transformation_mode)


def conv3d(data, weight, strides=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1), groups=1,
           channels=None, kernel_size=None, data_layout="NCDHW", kernel_layout="OIDHW",
           out_layout="", out_dtype=""):
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size,) * 3
    return call("nn.conv3d", [data, weight], strides=_tuple(strides, 3),
                padding=_pad_tuple3d(padding), dilation=_tuple(dilation, 3), groups=groups,
                channels=channels, kernel_size=kernel_size, data_layout=data_layout,
                kernel_layout=kernel_layout, out_layout=out_layout, out_dtype=out_dtype)


def _conv_transpose(name, n, data, weight, strides, padding, dilation, groups, channels,
                    kernel_size, data_layout, kernel_layout, out_layout, output_padding,
                    out_dtype):
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size,) * n
    if n == 2:
        padding = get_pad_tuple2d(padding)
    elif n == 3:
        padding = _pad_tuple3d(padding)
    else:
        padding = _tuple(padding, 1)
    return call(name, [data, weight], channels=channels, kernel_size=kernel_size,
                strides=_tuple(strides, n), padding=padding,
                output_padding=_tuple(output_padding, n), dilation=_tuple(dilation, n),
                groups=groups, data_layout=data_layout, kernel_layout=kernel_layout,
                out_layout=out_layout, out_dtype=out_dtype)


def conv1d_transpose(data, weight, strides=(1,), padding=(0,), dilation=(1,), groups=1,
                     channels=None, kernel_size=None, data_layout="NCW", kernel_layout="IOW",
                     out_layout="", output_padding=(0,), out_dtype=""):
    return _conv_transpose("nn.conv1d_transpose", 1, data, weight, strides, padding, dilation,
                           groups, channels, kernel_size, data_layout, kernel_layout, out_layout,
                           output_padding, out_dtype)


def conv2d_transpose(data, weight, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
                     channels=None, kernel_size=None, data_layout="NCHW", kernel_layout="IOHW",
                     out_layout="", output_padding=(0, 0), out_dtype=""):
    return _conv_transpose("nn.conv2d_transpose", 2, data, weight, strides, padding, dilation,
                           groups, channels, kernel_size, data_layout, kernel_layout, out_layout,
                           output_padding, out_dtype)


def conv3d_transpose(data, weight, strides=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1),
                     groups=1, channels=None, kernel_size=None, data_layout="NCDHW",
                     kernel_layout="IODHW", out_layout="", output_padding=(0, 0, 0),
                     out_dtype=""):
    return _conv_transpose("nn.conv3d_transpose", 3, data, weight, strides, padding, dilation,
                           groups, channels, kernel_size, data_layout, kernel_layout, out_layout,
                           output_padding, out_dtype)


def max_pool3d(data, pool_size=(1, 1, 1), strides=(1, 1, 1), dilation=(1, 1, 1),
               padding=(0, 0, 0), layout="NCDHW", out_layout="", ceil_mode=False):
    return call("nn.max_pool3d", [data], pool_size=_tuple(pool_size, 3),
                strides=_tuple(strides, 3), dilation=_tuple(dilation, 3),
                padding=_tuple(padding, 3), layout=layout, out_layout=out_layout,
                ceil_mode=ceil_mode)


def avg_pool3d(data, pool_size=(1, 1, 1), strides=(1, 1, 1), dilation=(1, 1, 1),
               padding=(0, 0, 0), layout="NCDHW", out_layout="", ceil_mode=False,
               count_include_pad=False):
    return call("nn.avg_pool3d", [data], pool_size=_tuple(pool_size, 3),
                strides=_tuple(strides, 3), dilation=_tuple(dilation, 3),
                padding=_tuple(padding, 3), layout=layout, out_layout=out_layout,
                ceil_mode=ceil_mode, count_include_pad=count_include_pad)


def _pad_tuple1d(padding):
    """TVM's get_pad_tuple1d: one value pads both sides."""
    padding = _tuple(padding, 1)
    return padding + padding if len(padding) == 1 else padding


def conv1d(data, weight, strides=1, padding=0, dilation=1, groups=1, channels=None,
           kernel_size=None, data_layout="NCW", kernel_layout="OIW", out_layout="",
           out_dtype=""):
    """1-D convolution."""
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size,)
    return call("nn.conv1d", [data, weight], strides=_tuple(strides, 1),
                padding=_pad_tuple1d(padding), dilation=_tuple(dilation, 1), groups=groups,
                channels=channels, kernel_size=kernel_size, data_layout=data_layout,
                kernel_layout=kernel_layout, out_layout=out_layout, out_dtype=out_dtype)


def max_pool1d(data, pool_size=(1,), strides=(1,), dilation=(1,), padding=(0,), layout="NCW",
               out_layout="", ceil_mode=False):
    """1-D max pooling."""
    return call("nn.max_pool1d", [data], pool_size=_tuple(pool_size, 1),
                strides=_tuple(strides, 1), dilation=_tuple(dilation, 1),
                padding=_pad_tuple1d(padding), layout=layout, out_layout=out_layout,
                ceil_mode=ceil_mode)


def avg_pool1d(data, pool_size=(1,), strides=(1,), dilation=(1,), padding=(0,), layout="NCW",
               out_layout="", ceil_mode=False, count_include_pad=False):
    """1-D average pooling."""
    return call("nn.avg_pool1d", [data], pool_size=_tuple(pool_size, 1),
                strides=_tuple(strides, 1), dilation=_tuple(dilation, 1),
                padding=_pad_tuple1d(padding), layout=layout, out_layout=out_layout,
                ceil_mode=ceil_mode, count_include_pad=count_include_pad)


def _output_size(output_size):
    """TVM's adaptive pools: None is no size (keep the input's); an int is one size for every
    spatial axis; a None inside the sizes keeps that axis' extent (stored as -1)."""
    if output_size is None:
        return []
    if isinstance(output_size, int):
        return [output_size]
    return [-1 if size is None else size for size in output_size]


def _adaptive(name, default_layout):
    def adaptive_pool(data, output_size=None, layout=default_layout, out_layout=""):
        return call(name, [data], output_size=_output_size(output_size), layout=layout,
                    out_layout=out_layout)

    adaptive_pool.__name__ = name.split(".")[1]
    adaptive_pool.__doc__ = "Adaptive pooling to output_size (TVM's relay.nn.{})".format(
        adaptive_pool.__name__)
    return adaptive_pool


adaptive_avg_pool1d = _adaptive("nn.adaptive_avg_pool1d", "NCW")
adaptive_avg_pool2d = _adaptive("nn.adaptive_avg_pool2d", "NCHW")
adaptive_avg_pool3d = _adaptive("nn.adaptive_avg_pool3d", "NCDHW")
adaptive_max_pool1d = _adaptive("nn.adaptive_max_pool1d", "NCW")
adaptive_max_pool2d = _adaptive("nn.adaptive_max_pool2d", "NCHW")
adaptive_max_pool3d = _adaptive("nn.adaptive_max_pool3d", "NCDHW")


def global_max_pool1d(data, layout="NCW", out_layout=""):
    """TVM's relay.nn.global_max_pool1d: adaptive max pooling to one element."""
    return adaptive_max_pool1d(data, [1], layout, out_layout)


def global_avg_pool1d(data, layout="NCW", out_layout=""):
    """TVM's relay.nn.global_avg_pool1d: adaptive average pooling to one element."""
    return adaptive_avg_pool1d(data, [1], layout, out_layout)


def global_max_pool3d(data, layout="NCDHW", out_layout=""):
    """TVM's relay.nn.global_max_pool3d: adaptive max pooling to 1x1x1."""
    return adaptive_max_pool3d(data, [1, 1, 1], layout, out_layout)


def global_avg_pool3d(data, layout="NCDHW", out_layout=""):
    """TVM's relay.nn.global_avg_pool3d: adaptive average pooling to 1x1x1."""
    return adaptive_avg_pool3d(data, [1, 1, 1], layout, out_layout)



def group_norm(data, gamma, beta, num_groups, axis=1, epsilon=1e-5, center=True, scale=True):
    """Group normalization over groups of channels along ``axis``."""
    return call("nn.group_norm", [data, gamma, beta], num_groups=num_groups, axis=axis,
                epsilon=epsilon, center=center, scale=scale)


def l2_normalize(data, eps, axis=None):
    """data / sqrt(max(sum(data * data, axis), eps))."""
    return call("nn.l2_normalize", [data], eps=eps, axis=None if axis is None else list(axis))


def nll_loss(predictions, targets, weights, reduction="mean", ignore_index=-100):
    """Negative log likelihood loss (reduction "mean", "sum" or "none")."""
    return call("nn.nll_loss", [predictions, targets, weights], reduction=reduction,
                ignore_index=ignore_index)


def cross_entropy(predictions, targets):
    """-sum(log(predictions) * targets) / batch, for 2-D predictions and targets of one shape."""
    return call("nn.cross_entropy", [predictions, targets])


def cross_entropy_with_logits(predictions, targets):
    """-sum(predictions * targets) / batch, predictions being log probabilities."""
    return call("nn.cross_entropy_with_logits", [predictions, targets])
