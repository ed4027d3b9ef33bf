"""Activation functions, as TVM's converters compose them from Relay operators."""
from ... import expr as _expr
from ... import op as _op
from . import qnn_ops
from .registry import converter


@converter("aten::relu")
def relu(ctx, inputs, input_types):
    if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
        assert len(inputs) == 3, "Input quant param not found in op inputs"
        return qnn_ops.quantized_relu(inputs[0], _expr.const(inputs[2], dtype="int32"))
    return _op.nn.relu(inputs[0])


@converter("aten::relu6")
def relu6(ctx, inputs, input_types):
    return _op.clip(inputs[0], 0.0, 6.0)


@converter("aten::prelu")
def prelu(ctx, inputs, input_types):
    data = inputs[0]
    shape = ctx.shape_of(data)
    axis = 0 if len(shape) == 1 else 1
    alpha = _op.broadcast_to(inputs[1], (shape[axis],))
    return _op.nn.prelu(data, alpha, axis)


@converter("aten::leaky_relu")
def leaky_relu(ctx, inputs, input_types):
    return _op.nn.leaky_relu(inputs[0], float(inputs[1]))


@converter("aten::elu")
def elu(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    alpha = _expr.const(-float(inputs[1]), dtype=dtype)
    one = _expr.const(1, dtype=dtype)
    return alpha * _op.nn.relu(one - _op.exp(data)) + _op.nn.relu(data)


@converter("aten::celu")
def celu(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    alpha = _expr.const(float(inputs[1]), dtype=dtype)
    zero = _expr.const(0, dtype)
    one = _expr.const(1, dtype=dtype)
    return alpha * _op.minimum(zero, _op.exp(data / alpha) - one) + _op.nn.relu(data)


@converter("aten::gelu")
def gelu(ctx, inputs, input_types):
    # data * normcdf(data), the cdf through erf (TVM's "true" gelu)
    data, dtype = inputs[0], input_types[0]
    half = _expr.const(0.5, dtype=dtype)
    return data * (half + _op.erf(data * _expr.const(0.5**0.5, dtype=dtype)) * half)


@converter("aten::selu")
def selu(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    alpha = _expr.const(-1.6732632423543772848170429916717, dtype=dtype)
    gamma = _expr.const(1.0507009873554804934193349852946, dtype=dtype)
    one = _expr.const(1.0, dtype=dtype)
    return gamma * (alpha * _op.nn.relu(one - _op.exp(data)) + _op.nn.relu(data))


@converter("aten::silu")
def silu(ctx, inputs, input_types):
    return inputs[0] * _op.sigmoid(inputs[0])


@converter("aten::glu")
def glu(ctx, inputs, input_types):
    halves = _op.split(inputs[0], 2, inputs[1])
    return halves[0] * _op.sigmoid(halves[1])


@converter("aten::log_sigmoid")
def log_sigmoid(ctx, inputs, input_types):
    # min(0, x) - log1p(exp(-|x|)), stable for large |x|
    data, dtype = inputs[0], input_types[0]
    smaller = _op.minimum(_expr.const(0, dtype=dtype), data)
    z = _op.exp(-_op.abs(data))
    return smaller - _op.log(z + _expr.const(1, dtype=dtype))


@converter("aten::sigmoid")
def sigmoid(ctx, inputs, input_types):
    if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
        assert len(inputs) == 3, "Input quant param not found in op inputs"
        return qnn_ops.quantized_sigmoid(inputs)
    return _op.sigmoid(inputs[0])


@converter("aten::hardtanh")
def hardtanh(ctx, inputs, input_types):
    if qnn_ops.is_quantized_tensor(ctx, inputs[0]) and len(inputs) == 5:
        scale, zero_point = inputs[3], inputs[4]
        low = qnn_ops.quantize_scalar(float(inputs[1]), scale, zero_point)
        high = qnn_ops.quantize_scalar(float(inputs[2]), scale, zero_point)
        return _op.clip(inputs[0], low, high)
    return _op.clip(inputs[0], float(inputs[1]), float(inputs[2]))


def _hard_sigmoid(data):
    return _op.clip(data + _expr.const(3.0), 0.0, 6.0) / _expr.const(6.0)


@converter("aten::hardsigmoid")
def hardsigmoid(ctx, inputs, input_types):
    if qnn_ops.is_quantized_tensor(ctx, inputs[0]):
        # TVM keeps the input's parameters for the output (PyTorch's 1/256, -128 broke its
        # accuracy, its comment says)
        scale, zero_point = _expr.const(inputs[1]), _expr.const(inputs[2])
        data = qnn_ops.dequantize_with(inputs[0], scale, zero_point)
        return qnn_ops.quantize_with(_hard_sigmoid(data), scale, zero_point)
    return _hard_sigmoid(inputs[0])


@converter("aten::hardswish")
def hardswish(ctx, inputs, input_types):
    return inputs[0] * _hard_sigmoid(inputs[0])


@converter("aten::softplus", needs=("full_like",))
def softplus(ctx, inputs, input_types):
    data, dtype = inputs[0], input_types[0]
    beta = _expr.const(float(inputs[1]), dtype=dtype)
    threshold = int(inputs[2]) if inputs[2] else 20
    threshold_ = _op.full_like(data, fill_value=_expr.const(threshold))
    value = _op.log(_op.exp(data * beta) + _expr.const(1.0, dtype=dtype)) / beta
    return _op.where(_op.greater(data * beta, threshold_), data, value)


@converter("aten::threshold", needs=("full_like",))
def threshold(ctx, inputs, input_types):
    data = inputs[0]
    threshold_ = _op.full_like(data, fill_value=_expr.const(float(inputs[1])))
    value = _op.full_like(data, fill_value=_expr.const(float(inputs[2])))
    return _op.where(_op.greater(data, threshold_), data, value)


@converter("aten::softmax")
def softmax(ctx, inputs, input_types):
    return _op.nn.softmax(inputs[0], axis=int(inputs[1]))


@converter("aten::log_softmax")
def log_softmax(ctx, inputs, input_types):
    return _op.nn.log_softmax(inputs[0], int(inputs[1]))
