"""Converters of PyTorch's quantized operators to the QNN dialect, as TVM v0.13's qnn_torch.py
converts them. Their input scales and zero points were appended to the node's inputs by
qnn_graph.add_input_quant_params_to_op_inputs; conv and linear take their weight as
[weight, scale, zero point, bias (, stride, padding, dilation, groups, output_padding)]."""
from ... import expr as _expr
from ... import op as _op
from ...qnn.op import qnn as _qnn
from .registry import converter


# Helpers the float converters use on quantized (uint8) tensors
def is_quantized_tensor(ctx, data):
    """TVM decides from the inferred dtype: a quantized tensor is uint8 in Relay (a module saved
    and loaded back loses the TorchScript dtypes). relaypass asks only in a quantized graph, so
    that a float graph's uint8 tensors keep the float converters."""
    return ctx.quantized and isinstance(data, _expr.Expr) and ctx.infer_dtype(data) == "uint8"


def apply_with_upcast(data, func):
    """``func`` on the int32 values, cast back to uint8 (pooling on quantized tensors)."""
    return _op.cast(func(_op.cast(data, dtype="int32")), "uint8")


def apply_with_fp32_fallback(data, input_scale, input_zero_point, func_fp32):
    """dequantize, ``func_fp32``, quantize to the input's parameters (mean, upsampling)."""
    dequantized = _qnn.dequantize(data, input_scale, input_zero_point)
    out = func_fp32(dequantized)
    return _qnn.quantize(out, input_scale, input_zero_point, out_dtype="uint8", axis=1)


def quantized_relu(data, input_zero_point):
    """max(x, zero point): PyTorch's qrelu."""
    return _op.maximum(data, _op.cast(input_zero_point, dtype="uint8"))


def dequantize_with(data, scale, zero_point):
    return _qnn.dequantize(data, scale, zero_point, axis=1)


def quantize_with(data, scale, zero_point):
    return _qnn.quantize(data, scale, zero_point, out_dtype="uint8")


def _numpy(const):
    return const.data.numpy()


def _scalar(const):
    return _numpy(const).item(0)


# Quantize / dequantize
@converter("aten::quantize_per_tensor")
def quantize_per_tensor(ctx, inputs, input_types):
    axis = 1 if len(ctx.infer_shape(inputs[0])) > 1 else 0
    return _qnn.quantize(inputs[0], _expr.const(inputs[1]), _expr.const(inputs[2]),
                         out_dtype="uint8", axis=axis)


@converter("aten::dequantize")
def dequantize(ctx, inputs, input_types):
    assert len(inputs) == 3, "Input quant params not found in op inputs"
    return _qnn.dequantize(inputs[0], _expr.const(inputs[1]), _expr.const(inputs[2]))


# Conv and linear
def _bias_and_requantize(output, bias, input_scale, weight_scale, output_scale,
                         output_zero_point, with_relu):
    """The int32 bias added, requantized to the output's parameters (scale input * weight, per
    channel for per-channel weights), clipped to uint8 (from the zero point with relu). PyTorch
    adds the bias in float; TVM adds it quantized, in int32."""
    requant_input_scale = _expr.const(_numpy(input_scale) * _numpy(weight_scale))
    requantize_input = _op.nn.bias_add(output, bias) if bias is not None else output
    requantized = _qnn.requantize(
        requantize_input, requant_input_scale, _expr.const(0, "int32"), output_scale,
        output_zero_point, out_dtype="int32", axis=1)
    clip_min = _scalar(output_zero_point) if with_relu else 0
    return _op.cast(_op.clip(requantized, clip_min, 255.0), dtype="uint8")


def _quantized_conv2d(with_relu):
    def convert(ctx, inputs, input_types):
        conv_params = inputs[1]
        weight, weight_scale, weight_zero_point, bias = conv_params[:4]
        if len(conv_params) > 4:  # PyTorch 1.6 or newer: attributes in the packed params
            strides, padding, dilation, groups = conv_params[4:8]
            assert len(inputs) == 6, "Input quant params not found in op inputs"
            output_scale, output_zero_point = _expr.const(inputs[2]), _expr.const(inputs[3])
            input_scale, input_zero_point = _expr.const(inputs[4]), _expr.const(inputs[5])
        else:
            strides, padding, dilation, groups = inputs[2:6]
            assert len(inputs) == 10, "Input quant params not found in op inputs"
            output_scale, output_zero_point = _expr.const(inputs[6]), _expr.const(inputs[7])
            input_scale, input_zero_point = _expr.const(inputs[8]), _expr.const(inputs[9])
        weight_shape = ctx.infer_shape(weight)
        data = inputs[0]
        if padding[0] != 0 or padding[1] != 0:
            # padded with the input's zero point (a quantized 0), then conv without padding
            data = _op.nn.pad(
                data, pad_width=((0, 0), (0, 0), (padding[0], padding[0]),
                                 (padding[1], padding[1])),
                pad_value=float(_scalar(input_zero_point)))
        conv_out = _qnn.conv2d(
            data, weight, input_zero_point, weight_zero_point, input_scale, weight_scale,
            kernel_size=(weight_shape[2], weight_shape[3]), dilation=dilation, strides=strides,
            padding=(0, 0), groups=groups, channels=weight_shape[0])
        return _bias_and_requantize(conv_out, bias, input_scale, weight_scale, output_scale,
                                    output_zero_point, with_relu)

    return convert


converter("quantized::conv2d")(_quantized_conv2d(False))
converter("quantized::conv2d_relu")(_quantized_conv2d(True))


def _linear(with_relu):
    def convert(ctx, inputs, input_types):
        weight, weight_scale, weight_zero_point, bias = inputs[1][:4]
        output_scale, output_zero_point = _expr.const(inputs[2]), _expr.const(inputs[3])
        assert len(inputs) == 6, "Input quant params not found in op inputs"
        input_scale, input_zero_point = _expr.const(inputs[4]), _expr.const(inputs[5])
        dense = _qnn.dense(inputs[0], weight, input_zero_point, weight_zero_point, input_scale,
                           weight_scale, units=ctx.infer_shape(weight)[0])
        return _bias_and_requantize(dense, bias, input_scale, weight_scale, output_scale,
                                    output_zero_point, with_relu)

    return convert


converter("quantized::linear")(_linear(False))
converter("quantized::linear_relu")(_linear(True))


@converter("quantized::linear_dynamic")
def linear_dynamic(ctx, inputs, input_types):
    """The input quantized at run time with PyTorch's ChooseQuantizationParams (reduce_range:
    qmax 127), qnn.dense, dequantized, the float bias added."""
    weight, weight_scale, weight_zero_point, bias = inputs[1][:4]
    data = inputs[0]
    low = _op.minimum(_op.min(data), _expr.const(0.0, dtype="float32"))
    high = _op.maximum(_op.max(data), _expr.const(0.0, dtype="float32"))
    qmax = 127
    input_scale = (high - low) / _expr.const(qmax, dtype="float32")
    zero_point_from_min = -(low / input_scale)
    input_zero_point = _op.cast(_op.round(_op.clip(zero_point_from_min, 0.0, qmax)), "int32")
    qdata = _qnn.quantize(data, input_scale, input_zero_point, out_dtype="uint8")
    data_shape = ctx.infer_shape(data)
    if len(data_shape) > 2:
        qdata = _op.reverse_reshape(qdata, [-1, 0])
    units = ctx.infer_shape(weight)[0]
    dense = _qnn.dense(qdata, weight, input_zero_point, weight_zero_point, input_scale,
                       weight_scale, units=units)
    out = _qnn.dequantize(dense, input_scale * weight_scale,
                          input_zero_point=_expr.const(0, "int32"), axis=1)
    if len(data_shape) > 2:
        out = _op.reshape(out, list(data_shape[:-1]) + [units])
    return out + bias if bias is not None else out


# Binary ops
def _binop(qnn_op, with_relu):
    def convert(ctx, inputs, input_types):
        output_scale, output_zero_point = _expr.const(inputs[2]), _expr.const(inputs[3])
        assert len(inputs) == 8, "Input quant params not found in op inputs"
        out = qnn_op(inputs[0], inputs[1], _expr.const(inputs[4]), _expr.const(inputs[5]),
                     _expr.const(inputs[6]), _expr.const(inputs[7]), output_scale,
                     output_zero_point)
        if with_relu:
            return _op.clip(out, _scalar(output_zero_point), 255)
        return out

    return convert


converter("quantized::add")(_binop(_qnn.add, False))
converter("quantized::add_relu")(_binop(_qnn.add, True))
converter("quantized::mul")(_binop(_qnn.mul, False))
converter("quantized::mul_relu")(_binop(_qnn.mul, True))


@converter("quantized::cat")
def cat(ctx, inputs, input_types):
    output_scale, output_zero_point = _expr.const(inputs[2]), _expr.const(inputs[3])
    count = (len(inputs) - 4) // 2
    scales = [_expr.const(inputs[4 + 2 * i]) for i in range(count)]
    zero_points = [_expr.const(inputs[5 + 2 * i]) for i in range(count)]
    return _qnn.concatenate(inputs[0], scales, zero_points, output_scale, output_zero_point,
                            inputs[1])


@converter("quantized::add_scalar")
def add_scalar(ctx, inputs, input_types):
    """Only the parameters change unless the scalar moves the zero point out of [0, 255]; then
    through float (as TVM)."""
    assert len(inputs) == 6, "Input quant params not found in op inputs"
    scale, zero_point, scalar = inputs[4], inputs[5], inputs[1]
    c_q = round(scalar / scale)
    if 0 > zero_point - c_q or 255 < zero_point - c_q:
        dequantized = _qnn.dequantize(inputs[0], _expr.const(scale), _expr.const(zero_point))
        added = _op.add(dequantized, _expr.const(c_q * scale))
        return _qnn.quantize(added, _expr.const(inputs[2]), _expr.const(inputs[3]), axis=1,
                             out_dtype="uint8")
    return inputs[0]


@converter("quantized::mul_scalar")
def mul_scalar(ctx, inputs, input_types):
    """A positive scalar changes only the scale, zero gives zeros, a negative one mirrors the
    values (PyTorch's qmul)."""
    assert len(inputs) == 6, "Input quant params not found in op inputs"
    scalar = inputs[1]
    if scalar > 0.0:
        return inputs[0]
    if scalar == 0.0:
        return _op.full(_expr.const(0), ctx.infer_shape(inputs[0]), dtype="uint8")
    # TVM computes 255 - q in wrapping int8 arithmetic; int32 gives the same values
    mirrored = _expr.const(255, dtype="int32") - _op.cast(inputs[0], "int32")
    return _op.cast(mirrored, "uint8")


# Activations
def quantize_scalar(value, scale, zero_point):
    return max(0, min(round(zero_point + value / scale), 255))


@converter("quantized::relu6")
def relu6(ctx, inputs, input_types):
    assert len(inputs) == 4, "Input quant params not found in op inputs"
    scale, zero_point = inputs[2], inputs[3]
    return _op.clip(inputs[0], zero_point, quantize_scalar(6.0, scale, zero_point))


@converter("quantized::hardswish")
def hardswish(ctx, inputs, input_types):
    """Through float, as PyTorch's kernel (and TVM) do."""
    assert len(inputs) == 5, "Input quant params not found in op inputs"
    output_scale, output_zero_point = _expr.const(inputs[1]), _expr.const(inputs[2])
    dequantized = _qnn.dequantize(inputs[0], _expr.const(inputs[3]), _expr.const(inputs[4]),
                                  axis=1)
    hard_sigmoid = _op.clip(dequantized + _expr.const(3.0), 0.0, 6.0) / _expr.const(6.0)
    return _qnn.quantize(dequantized * hard_sigmoid, output_scale, output_zero_point,
                         out_dtype="uint8")


@converter("quantized::conv_transpose2d", needs=("qnn.conv2d_transpose",))
def conv_transpose2d(ctx, inputs, input_types):
    """qnn.conv2d_transpose on the IOHW weight with the packed attributes (PyTorch 1.7 or newer),
    then the bias and requantize as conv2d."""
    weight, weight_scale, weight_zero_point, bias = inputs[1][:4]
    strides, padding, dilation, groups, output_padding = inputs[1][4:9]
    output_scale, output_zero_point = _expr.const(inputs[2]), _expr.const(inputs[3])
    assert len(inputs) == 6, "Input quant params not found in op inputs"
    input_scale, input_zero_point = _expr.const(inputs[4]), _expr.const(inputs[5])
    weight_shape = list(ctx.infer_shape(weight))
    conv_out = _qnn.conv2d_transpose(
        inputs[0], weight, input_zero_point, weight_zero_point, input_scale, weight_scale,
        kernel_size=(weight_shape[2], weight_shape[3]), dilation=dilation, strides=strides,
        padding=padding, groups=groups, channels=weight_shape[1],
        output_padding=output_padding, out_dtype="int32", kernel_layout="IOHW")
    return _bias_and_requantize(conv_out, bias, input_scale, weight_scale, output_scale,
                                output_zero_point, False)


def quantized_sigmoid(inputs):
    """aten::sigmoid on a quantized tensor (inputs: data, its scale and zero point): qnn.sigmoid
    back to the input's parameters. PyTorch's quantized sigmoid outputs at scale 1/256, but the
    ops after it find their input parameters by walking back to the last quantized op with
    explicit output parameters, here the one before the sigmoid, so the output keeps them (as
    TVM's hardsigmoid does)."""
    scale, zero_point = _expr.const(inputs[1]), _expr.const(inputs[2])
    return _qnn.sigmoid(inputs[0], scale, zero_point, scale, zero_point)
