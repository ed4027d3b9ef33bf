"""The qnn.* operators with TVM v0.13's Python signatures and defaults
(python/tvm/relay/qnn/op/qnn.py). Scales and zero points are Relay expressions, usually constants;
a Python number is taken as a float32 scale or an int32 zero point."""
from .... import _core
from ...expr import Expr, Tuple, TupleWrapper, const
from ...op._make import call, get_pad_tuple2d, pair

__all__ = [
    "RequantizeConfig", "requantize_config", "requantize", "quantize", "dequantize",
    "concatenate", "conv2d", "conv2d_transpose", "add", "subtract", "mul", "dense", "batch_matmul",
    "tanh", "exp", "sqrt", "rsqrt", "erf", "sigmoid", "hardswish", "log", "abs", "leaky_relu",
    "softmax", "avg_pool2d", "simulated_quantize", "simulated_dequantize", "SQNN_DTYPE_TO_CODE",
]


def _scale(value):
    return value if isinstance(value, Expr) else const(float(value), "float32")


def _zero_point(value):
    return value if isinstance(value, Expr) else const(int(value), "int32")


class RequantizeConfig:
    """The rounding and compute dtype of requantizes built with rounding="None" /
    compute_dtype="None"; a context manager (TVM's relay.qnn.op.RequantizeConfig)."""

    _node_defaults = {"rounding": "UPWARD", "compute_dtype": "int64"}

    def __init__(self, rounding="UPWARD", compute_dtype="int64"):
        self.rounding = rounding
        self.compute_dtype = compute_dtype

    def __enter__(self):
        _core.qnn_enter_requantize_config(self.rounding, self.compute_dtype)
        return self

    def __exit__(self, ptype, value, trace):
        _core.qnn_exit_requantize_config()

    @staticmethod
    def current():
        rounding, compute_dtype = _core.qnn_current_requantize_config()
        return RequantizeConfig(rounding, compute_dtype)


def requantize_config(**kwargs):
    """A RequantizeConfig: the given fields, TVM's defaults for the others."""
    unknown = set(kwargs) - set(RequantizeConfig._node_defaults)
    if unknown:
        raise ValueError("requantize_config: unknown fields %s" % sorted(unknown))
    fields = dict(RequantizeConfig._node_defaults, **kwargs)
    return RequantizeConfig(**fields)


def requantize(data, input_scale, input_zero_point, output_scale, output_zero_point, axis=-1,
               rounding="None", compute_dtype="None", out_dtype="int8"):
    """Q_output = zp_output + (scale_input / scale_output) * (Q_input - zp_input)."""
    return call("qnn.requantize", [data, _scale(input_scale), _zero_point(input_zero_point),
                                   _scale(output_scale), _zero_point(output_zero_point)],
                axis=axis, rounding=rounding, compute_dtype=compute_dtype, out_dtype=out_dtype)


def quantize(data, output_scale, output_zero_point, axis=-1, out_dtype="int8"):
    """clip(round(data / output_scale) + output_zero_point) in out_dtype."""
    return call("qnn.quantize", [data, _scale(output_scale), _zero_point(output_zero_point)],
                out_dtype=out_dtype, axis=axis)


def dequantize(data, input_scale, input_zero_point, axis=-1, out_dtype="float32"):
    """input_scale * (data - input_zero_point) in out_dtype."""
    return call("qnn.dequantize", [data, _scale(input_scale), _zero_point(input_zero_point)],
                out_dtype=out_dtype, axis=axis)


def concatenate(data, input_scales, input_zero_points, output_scale, output_zero_point, axis):
    """Concatenates quantized tensors along `axis`, requantized to the output's parameters."""
    if isinstance(data, (list, tuple)):
        data = Tuple(list(data))
    elif isinstance(data, TupleWrapper):
        data = data.tuple_value
    if not isinstance(axis, int):
        raise ValueError("For now, we only support integer axis")
    input_scales = Tuple([_scale(s) for s in input_scales])
    input_zero_points = Tuple([_zero_point(z) for z in input_zero_points])
    return call("qnn.concatenate", [data, input_scales, input_zero_points, _scale(output_scale),
                                    _zero_point(output_zero_point)], axis=axis)


def conv2d(data, kernel, input_zero_point, kernel_zero_point, input_scale, kernel_scale,
           kernel_size, channels, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
           data_layout="NCHW", kernel_layout="OIHW", out_layout="", out_dtype="int32"):
    """Quantized 2D convolution; int32 (out_dtype) sums of (data - zp) * (kernel - zp)."""
    return call("qnn.conv2d", [data, kernel, _zero_point(input_zero_point),
                               _zero_point(kernel_zero_point), _scale(input_scale),
                               _scale(kernel_scale)],
                strides=strides, padding=get_pad_tuple2d(padding), dilation=dilation,
                groups=groups, channels=channels, kernel_size=kernel_size,
                data_layout=data_layout, kernel_layout=kernel_layout, out_layout=out_layout,
                out_dtype=out_dtype)


def conv2d_transpose(data, weight, input_zero_point, kernel_zero_point, input_scale,
                     kernel_scale, strides=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
                     channels=None, kernel_size=None, data_layout="NCHW", kernel_layout="IOHW",
                     out_layout="", output_padding=(0, 0), out_dtype="int32"):
    """Quantized transposed 2D convolution: int32 (out_dtype) sums of (data - zp) * (kernel -
    zp); the output's scale is input_scale * kernel_scale, its zero point 0."""
    return call("qnn.conv2d_transpose", [data, weight, _zero_point(input_zero_point),
                                         _zero_point(kernel_zero_point), _scale(input_scale),
                                         _scale(kernel_scale)],
                strides=strides, padding=get_pad_tuple2d(padding), dilation=dilation,
                groups=groups, channels=channels, kernel_size=kernel_size,
                data_layout=data_layout, kernel_layout=kernel_layout, out_layout=out_layout,
                output_padding=output_padding, out_dtype=out_dtype)


def _binary(name, lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point, output_scale,
            output_zero_point, lhs_axis, rhs_axis):
    return call(name, [lhs, rhs, _scale(lhs_scale), _zero_point(lhs_zero_point),
                       _scale(rhs_scale), _zero_point(rhs_zero_point), _scale(output_scale),
                       _zero_point(output_zero_point)], lhs_axis=lhs_axis, rhs_axis=rhs_axis)


def add(lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point, output_scale,
        output_zero_point, lhs_axis=-1, rhs_axis=-1):
    """Quantized addition with numpy-style broadcasting."""
    return _binary("qnn.add", lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
                   output_scale, output_zero_point, lhs_axis, rhs_axis)


def subtract(lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point, output_scale,
             output_zero_point, lhs_axis=-1, rhs_axis=-1):
    """Quantized subtraction with numpy-style broadcasting."""
    return _binary("qnn.subtract", lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale,
                   rhs_zero_point, output_scale, output_zero_point, lhs_axis, rhs_axis)


def mul(lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point, output_scale,
        output_zero_point, lhs_axis=-1, rhs_axis=-1):
    """Quantized multiplication with numpy-style broadcasting."""
    return _binary("qnn.mul", lhs, rhs, lhs_scale, lhs_zero_point, rhs_scale, rhs_zero_point,
                   output_scale, output_zero_point, lhs_axis, rhs_axis)


def dense(data, weight, input_zero_point, kernel_zero_point, input_scale, kernel_scale, units,
          out_dtype="int32"):
    """Quantized dense: int32 (out_dtype) sums of (data - zp) * (weight - zp)."""
    return call("qnn.dense", [data, weight, _zero_point(input_zero_point),
                              _zero_point(kernel_zero_point), _scale(input_scale),
                              _scale(kernel_scale)], units=units, out_dtype=out_dtype)


def batch_matmul(x, y, x_zero_point, y_zero_point, x_scale, y_scale, out_dtype="int32"):
    """Quantized batch matmul of x [b, m, k] and y [b, n, k] (y transposed)."""
    return call("qnn.batch_matmul", [x, y, _zero_point(x_zero_point), _zero_point(y_zero_point),
                                     _scale(x_scale), _scale(y_scale)],
                out_dtype=out_dtype, transpose_a=False, transpose_b=True)


def _unary(name):
    def op(x, scale, zero_point, output_scale, output_zero_point):
        return call("qnn." + name, [x, _scale(scale), _zero_point(zero_point),
                                    _scale(output_scale), _zero_point(output_zero_point)])

    op.__name__ = name
    op.__doc__ = "Quantized %s: dequantize, %s, quantize to the output's parameters." % (name, name)
    return op


tanh = _unary("tanh")
exp = _unary("exp")
sqrt = _unary("sqrt")
rsqrt = _unary("rsqrt")
erf = _unary("erf")
sigmoid = _unary("sigmoid")
hardswish = _unary("hardswish")
log = _unary("log")
abs = _unary("abs")  # noqa: A001 (TVM's name)


def leaky_relu(x, alpha, input_scale, input_zero_point, output_scale, output_zero_point):
    """Quantized leaky relu (int8 or uint8): the input requantized to the output's parameters,
    the part below the input's zero point scaled by ``alpha`` in fixed point."""
    return call("qnn.leaky_relu", [x, _scale(input_scale), _zero_point(input_zero_point),
                                   _scale(output_scale), _zero_point(output_zero_point)],
                alpha=float(alpha))


def softmax(x, scale, zero_point, output_scale, output_zero_point, axis=-1):
    """Quantized softmax of int8 data along ``axis``, by TVM's integer algorithm."""
    return call("qnn.softmax", [x, _scale(scale), _zero_point(zero_point),
                                _scale(output_scale), _zero_point(output_zero_point)],
                axis=int(axis))


def avg_pool2d(data, input_scale, input_zero_point, output_scale, output_zero_point, pool_size,
               strides, padding, dilation, ceil_mode=False, count_include_pad=True, layout="NHWC",
               out_layout=""):
    """Quantized 2-D average pooling (TVM's signature; its layout defaults to NHWC): the input
    requantized to the output's parameters in int32, averaged, saturated to the input dtype."""
    return call("qnn.avg_pool2d", [data, _scale(input_scale), _zero_point(input_zero_point),
                                   _scale(output_scale), _zero_point(output_zero_point)],
                pool_size=pair(pool_size), strides=pair(strides),
                padding=get_pad_tuple2d(padding), dilation=pair(dilation),
                ceil_mode=bool(ceil_mode), count_include_pad=bool(count_include_pad),
                layout=layout, out_layout=out_layout)



# The dtype codes of simulated_quantize / simulated_dequantize (TVM's SQNN_DTYPE_TO_CODE).
SQNN_DTYPE_TO_CODE = {"disable": 0, "int8": 1, "uint8": 2, "int32": 3}


def _simulated(op_name, data, scale, zero_point, axis, dtype):
    from ...op.transform import reshape

    if isinstance(dtype, str):
        if dtype not in SQNN_DTYPE_TO_CODE:
            raise ValueError("%s: dtype must be one of %s, got %r"
                             % (op_name, sorted(SQNN_DTYPE_TO_CODE), dtype))
        dtype = const(SQNN_DTYPE_TO_CODE[dtype], "int32")
    # As TVM: the parameters reshaped to one dimension (one value or one per channel).
    return call(op_name, [data, dtype, reshape(_scale(scale), [-1]),
                          reshape(_zero_point(zero_point), [-1])], axis=int(axis))


def simulated_quantize(data, output_scale, output_zero_point, axis=-1, out_dtype="int8"):
    """qnn.quantize simulated in floating point: ``out_dtype`` a name of SQNN_DTYPE_TO_CODE or
    an int32 code tensor given at run time ("disable" passes the data through)."""
    return _simulated("qnn.simulated_quantize", data, output_scale, output_zero_point, axis,
                      out_dtype)


def simulated_dequantize(data, input_scale, input_zero_point, axis=-1, in_dtype="int8"):
    """qnn.dequantize simulated in floating point on float data holding quantized values."""
    return _simulated("qnn.simulated_dequantize", data, input_scale, input_zero_point, axis,
                      in_dtype)
