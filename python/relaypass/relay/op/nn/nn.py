"""Neural-network operators (tvm.relay.op.nn), by TVM's names, signatures and argument
normalisation (int strides become pairs, padding becomes 4 values)."""
from ...expr import RelayExpr, TupleWrapper, const
from .._make import call, get_pad_tuple2d, pair

__all__ = [
    "conv2d", "dense", "bias_add", "batch_norm", "relu", "leaky_relu", "softmax",
    "log_softmax", "dropout", "dropout_raw", "max_pool2d", "avg_pool2d", "global_avg_pool2d",
    "global_max_pool2d", "batch_flatten", "pad",
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


def dense(data, weight, units=None, out_dtype=""):
    """Dense layer: data * weight^T."""
    return call("nn.dense", [data, weight], units=units, out_dtype=out_dtype)


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
    if not isinstance(pad_value, RelayExpr):
        pad_value = const(pad_value)
    pad_width = [list(p) for p in pad_width]
    return call("nn.pad", [data, pad_value], pad_width=pad_width, pad_mode=pad_mode)
