"""Preparing a quantized TorchScript graph for conversion, as TVM v0.13's qnn_torch.py does.

PyTorch keeps a quantized tensor's scale and zero point inside the QTensor, so they are not in the
graph. TVM (and this module) find them statically: each quantized op's input parameters are the
output parameters of the quantized op that produced the input (found by walking back through
first inputs), and are appended to the op's inputs as extra prim::Constant inputs. The weights of
quantized conv and linear modules live in packed-param objects; they are unpacked into float
weights (quantized back in the graph by qnn.quantize, or kept as int8 with keep_quantized_weight)
and a bias quantized with the input scale times the weight scale."""
import numpy as np

from ... import expr as _expr
from .... import nd as _nd
from ...qnn.op import qnn as _qnn

# Node kinds that mark a graph as quantized (TVM's check in from_pytorch).
QUANTIZED_MARKERS = ("aten::quantize_per_tensor", "quantized::linear_dynamic")

# Where each quantized op keeps its output scale and zero point among its inputs (qconv has them
# at (2, 3) since PyTorch 1.6).
_OUTPUT_QPARAM_INDICES = {
    "aten::quantize_per_tensor": (1, 2),
    "quantized::conv2d": (2, 3),
    "quantized::conv2d_relu": (2, 3),
    "quantized::linear": (2, 3),
    "quantized::linear_relu": (2, 3),
    "quantized::add_relu": (2, 3),
    "quantized::add": (2, 3),
    "quantized::mul_relu": (2, 3),
    "quantized::mul": (2, 3),
    "quantized::cat": (2, 3),
    "quantized::mul_scalar": (2, 3),
    "quantized::add_scalar": (2, 3),
    "quantized::hardswish": (1, 2),
    "quantized::conv_transpose2d": (2, 3),
}

# How many quantized tensors each op takes: a (scale, zero point) pair is appended per tensor.
_NUM_QUANTIZED_INPUTS = {
    "quantized::conv2d": 1,
    "quantized::conv2d_relu": 1,
    "quantized::linear": 1,
    "quantized::linear_relu": 1,
    "quantized::add_relu": 2,
    "quantized::add": 2,
    "quantized::mul_relu": 2,
    "quantized::mul": 2,
    "aten::dequantize": 1,
    "aten::mean": 1,
    "aten::sigmoid": 1,
    "aten::upsample_nearest2d": 1,
    "aten::upsample_bilinear2d": 1,
    "aten::relu_": 1,
    "aten::relu": 1,
    "quantized::add_scalar": 1,
    "quantized::mul_scalar": 1,
    "quantized::relu6": 1,
    "quantized::hardswish": 1,
    "aten::hardsigmoid": 1,
    "quantized::conv_transpose2d": 1,
    # not in TVM's list (its hardtanh clips the integers at the float bounds): relaypass clips a
    # quantized tensor at the bounds quantized with its parameters, as PyTorch's qhardtanh does
    "aten::hardtanh": 1,
    "aten::hardtanh_": 1,
}


def is_quantized_graph(op_names):
    return any(name in op_names for name in QUANTIZED_MARKERS)


def _quant_param_for_input(value):
    """The (scale, zero point) TorchScript values of the quantized op that produced ``value``,
    walking back through first inputs (TVM's depth-first search, iterative here); (None, None)
    when no quantized op is found (the value is not quantized)."""
    node = value.node()
    while True:
        indices = _OUTPUT_QPARAM_INDICES.get(node.kind())
        if indices is not None:
            return node.inputsAt(indices[0]), node.inputsAt(indices[1])
        inputs = list(node.inputs())
        if not inputs:
            return None, None
        node = inputs[0].node()


def _add_scalar_output_qparams(scale, zero_point, scalar):
    """quantized::add_scalar's output parameters as PyTorch computes them (qadd.cpp)."""
    q_min, q_max = 0, 255
    c_q = round(scalar / scale)
    if q_min > zero_point - c_q:
        return (float(q_max) - (zero_point - c_q)) / (float(q_max) - q_min) * scale, q_min
    if q_max < zero_point - c_q:
        return (float(zero_point - c_q) - q_min) / (float(q_max) - q_min) * scale, q_max
    return scale, zero_point - c_q


def _mul_scalar_output_qparams(scale, zero_point, scalar):
    """quantized::mul_scalar's output parameters as PyTorch computes them (qmul.cpp)."""
    q_min, q_max = 0, 255
    if scalar > 0.0:
        return scalar * scale, zero_point
    if scalar == 0.0:
        return 1.0, 0
    return abs(scalar) * scale, q_max - (zero_point - q_min)


def _constant_before(graph, node, value, is_float):
    """A new float or int prim::Constant inserted before ``node``; its output value."""
    import torch

    const = graph.create("prim::Constant")
    const.insertBefore(node)
    if is_float:
        const.f_("value", float(value))
        const.output().setType(torch._C.FloatType.get())  # pylint: disable=protected-access
    else:
        const.i_("value", int(value))
        const.output().setType(torch._C.IntType.get())  # pylint: disable=protected-access
    return const.output()


def _add_scalar_op_output_qparams(graph, node, scale, zero_point):
    """{add,mul}_scalar carry no output parameters in the graph; they are computed as PyTorch
    does and appended (so that later ops find them)."""
    scalar = node.inputsAt(1).node().f("value")
    if node.kind() == "quantized::mul_scalar":
        out_scale, out_zero_point = _mul_scalar_output_qparams(scale, zero_point, scalar)
    else:
        out_scale, out_zero_point = _add_scalar_output_qparams(scale, zero_point, scalar)
    node.addInput(_constant_before(graph, node, out_scale, True))
    node.addInput(_constant_before(graph, node, out_zero_point, False))


def add_input_quant_params_to_op_inputs(graph):
    """Appends each quantized input's (scale, zero point) to the inputs of the ops that need them
    (TVM's function of this name). Returns {packed-param value name: input scale} for quantizing
    the biases of conv and linear."""
    input_scales_for_bias = {}
    for node in list(graph.nodes()):
        kind = node.kind()
        if kind != "quantized::cat" and kind not in _NUM_QUANTIZED_INPUTS:
            continue
        if kind == "quantized::cat":  # any number of inputs, from the list it takes
            quantized_inputs = list(node.inputsAt(0).node().inputs())
            pairs = [_quant_param_for_input(value) for value in quantized_inputs]
        else:
            pairs = [_quant_param_for_input(node.inputsAt(i))
                     for i in range(_NUM_QUANTIZED_INPUTS[kind])]
            pairs = [pair for pair in pairs if pair[0] is not None and pair[1] is not None]
        if kind in ("quantized::add_scalar", "quantized::mul_scalar"):
            scale = pairs[0][0].node().f("value")
            zero_point = pairs[0][1].node().i("value")
            _add_scalar_op_output_qparams(graph, node, scale, zero_point)
        for scale, zero_point in pairs:
            node.addInput(scale)
            node.addInput(zero_point)
        if "quantized::conv" in kind or "quantized::linear" in kind:
            assert len(pairs) == 1, "One quantized parameter expected for qconv or qlinear."
            input_scales_for_bias[node.inputsAt(1).debugName()] = pairs[0][0].node().f("value")
    return input_scales_for_bias


def inline_input_quant_params_for_fx(graph, state_dict):
    """FX-quantized modules give aten::quantize_per_tensor its scale and zero point as module
    attributes (prim::GetAttr of a tensor) where eager mode has constants; each is replaced by a
    prim::Constant of its value (TVM's function of this name, which recognises the attributes by
    the names '_input_scale' / '_input_zero_point'; PyTorch 1.13's FX also names them
    '<module>_scale_0', so relaypass takes any attribute in those two positions)."""
    for node in list(graph.nodes()):
        if node.kind() != "aten::quantize_per_tensor":
            continue
        for index, is_float in ((1, True), (2, False)):
            attr = node.inputsAt(index).node()
            if attr.kind() != "prim::GetAttr":
                continue
            names = []
            current = attr
            while current.kind() == "prim::GetAttr":
                names.append(current.s("name"))
                current = current.inputsAt(0).node()
            full_name = ".".join(reversed(names))
            assert full_name in state_dict, "%s not found in param dict." % full_name
            value = state_dict[full_name].detach().cpu().numpy()
            node.replaceInput(index, _constant_before(graph, node, value, is_float))


class QuantizedWeight:
    """One packed conv or linear weight, unpacked: the float weight, its scale (a number, or one
    per output channel) and zero point, the float bias, and for conv the packed attributes."""

    def __init__(self, qweight, bias, conv_params=None):
        import torch

        self.weight = qweight.dequantize().numpy()
        if qweight.qscheme() == torch.per_tensor_affine:
            scale, zero_point = qweight.q_scale(), int(qweight.q_zero_point())
        else:
            scale = qweight.q_per_channel_scales().numpy()
            zero_points = qweight.q_per_channel_zero_points().numpy()
            # QNN's per-channel kernels take one zero point (TVM's assumption too)
            assert np.all(zero_points == 0), \
                "The values of zero points should be all zero for per channel"
            zero_point = 0
        self.bias = None if bias is None else bias.detach().numpy()
        self.scale = _expr.const(scale)
        self.zero_point = _expr.const(zero_point, dtype="int32")
        self.conv_attrs = None
        if conv_params is not None:
            self.conv_attrs = [conv_params.stride(), conv_params.padding(),
                               conv_params.dilation(), conv_params.groups(),
                               conv_params.output_padding()]
        self.weight_var = None
        self.bias_var = None


def get_weight_quant_params(script_module, packed_param_names):
    """{'conv._packed_params': QuantizedWeight} for each packed conv / linear parameter the graph
    uses (TVM's get_weight_quant_params: modules whose original name has 'Conv', or
    LinearPackedParams)."""
    import torch

    wanted = set(packed_param_names)
    found = {}
    for name, module in script_module.named_modules():
        if not isinstance(module, torch.jit.RecursiveScriptModule):
            continue
        is_conv = "Conv" in module.original_name
        if not is_conv and module.original_name != "LinearPackedParams":
            continue
        key = name + "._packed_params"
        if key not in wanted:
            continue
        state_dict = module.state_dict()
        if not state_dict and not hasattr(module, "_packed_params"):
            continue  # a module saved and loaded back holds nothing here (as TVM skips it)
        if not state_dict:
            packed = module._packed_params  # pylint: disable=protected-access
        else:
            assert len(state_dict) == 1
            packed = list(state_dict.values())[0]
        if is_conv:
            qweight, bias = torch.ops.quantized.conv2d_unpack(packed)
            found[key] = QuantizedWeight(qweight, bias, packed if not state_dict else None)
        else:
            qweight, bias = torch.ops.quantized.linear_unpack(packed)
            found[key] = QuantizedWeight(qweight, bias)
    return found


def quantize_numpy(weight, scale, zero_point, out_dtype):
    """TVM's quantize_numpy: round(zero_point + weight / scale) clipped to ``out_dtype`` (a
    per-channel scale along axis 0)."""
    info = np.iinfo(out_dtype)
    scale = np.asarray(scale)
    if scale.ndim > 0:
        scale = np.reshape(scale, [weight.shape[0]] + [1] * (weight.ndim - 1))
    return np.clip(np.round(zero_point + weight / scale), info.min, info.max).astype(out_dtype)


def add_quant_params_to_outputs(outputs, packed_param_map, quant_params, input_scales_for_bias,
                                keep_quantized_weight=False):
    """Binds each packed-param value to [weight, scale, zero point, bias (+ conv attributes)]: the
    weight a float variable quantized by qnn.quantize (int8, axis 0), or with
    keep_quantized_weight an int8 variable holding the quantized weight; the bias quantized to
    int32 with scale input_scale * weight_scale (a float variable for dynamic quantization, whose
    input scale is known only at run time)."""
    for node_name, packed_name in packed_param_map.items():
        qparam = quant_params[packed_name]
        weight_scale = qparam.scale.data.numpy()
        prefix = packed_name[: -len("._packed_params")]
        if keep_quantized_weight:
            qparam.weight_var = _expr.var(prefix + "_weight", shape=qparam.weight.shape,
                                          dtype="int8")
            qparam.weight = quantize_numpy(qparam.weight, weight_scale,
                                           qparam.zero_point.data.numpy(), np.int8)
            qweight = qparam.weight_var
        else:
            qparam.weight_var = _expr.var(prefix + "_weight", shape=qparam.weight.shape,
                                          dtype="float32")
            qweight = _qnn.quantize(qparam.weight_var, qparam.scale, qparam.zero_point,
                                    out_dtype="int8", axis=0)
        qbias = None
        if qparam.bias is not None:
            if node_name not in input_scales_for_bias:
                qparam.bias_var = _expr.var(prefix + "_bias", shape=qparam.bias.shape,
                                            dtype="float32")
                qbias = qparam.bias_var
            elif keep_quantized_weight:
                qparam.bias_var = _expr.var(prefix + "_bias", shape=qparam.bias.shape,
                                            dtype="int32")
                qparam.bias = quantize_numpy(
                    qparam.bias, input_scales_for_bias[node_name] * weight_scale, 0, np.int32)
                qbias = qparam.bias_var
            else:
                qparam.bias_var = _expr.var(prefix + "_bias", shape=qparam.bias.shape,
                                            dtype="float32")
                qbias = _qnn.quantize(
                    qparam.bias_var,
                    _expr.const(input_scales_for_bias[node_name] * weight_scale),
                    _expr.const(0, "int32"), out_dtype="int32", axis=0)
        params = [qweight, qparam.scale, qparam.zero_point, qbias]
        if qparam.conv_attrs is not None:
            params += qparam.conv_attrs
        outputs[node_name] = params


def add_quant_params(tensors, quant_params):
    """The unpacked weights and biases into the import's params, under their variables' names."""
    for qparam in quant_params.values():
        if qparam.weight_var is None:
            continue
        tensors[qparam.weight_var.name_hint] = _nd.array(qparam.weight)
        if qparam.bias is not None:
            tensors[qparam.bias_var.name_hint] = _nd.array(qparam.bias)
