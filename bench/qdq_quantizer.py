"""Static QDQ quantization of a float ONNX model as ONNX Runtime's quantization tool does it
(onnxruntime.quantization.quantize_static with QuantFormat.QDQ, per_channel=True,
activation_type=QUInt8, weight_type=QInt8, CalibrationMethod.MinMax), for the operators of a
ResNet (Conv, Relu, Add, MaxPool, GlobalAveragePool, Flatten, Gemm). That tool is not installed
here; bench/int8_resnet_bench.py uses this one. Calibration runs the float model on ONNX
Runtime through scripts/ort-reference.js (node, NODE_PATH)."""
import os
import subprocess

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def without_constant_identities(model):
    """torch's exporter writes Identity nodes that copy one initializer to another name (shared
    constants); ONNX Runtime's quantization pre-processing removes them. Here each becomes an
    initializer of its own."""
    from onnx import numpy_helper

    graph = model.graph
    inits = {t.name: t for t in graph.initializer}
    kept = []
    for node in graph.node:
        if node.op_type == "Identity" and node.input[0] in inits:
            array = numpy_helper.to_array(inits[node.input[0]])
            graph.initializer.append(numpy_helper.from_array(array, node.output[0]))
        else:
            kept.append(node)
    del graph.node[:]
    graph.node.extend(kept)
    return model


def calibrate(float_path, work, images, input_name):
    """MinMax calibration as ONNX Runtime's MinMaxCalibrater: every node output (and the graph
    input) made a graph output, the model run on each calibration image (ONNX Runtime, no graph
    optimization), the smallest minimum and largest maximum kept."""
    import onnx
    from onnx import helper

    model = without_constant_identities(onnx.load(float_path))
    tensors = [input_name] + [o for n in model.graph.node for o in n.output]
    for i, name in enumerate(tensors):
        model.graph.node.append(helper.make_node("Identity", [name], ["cal_%d" % i]))
        model.graph.output.append(helper.make_empty_tensor_value_info("cal_%d" % i))
    augmented = os.path.join(work, "calibration.onnx")
    onnx.save(model, augmented)
    ranges = {}
    for k, image in enumerate(images):
        feed = os.path.join(work, "calibration_%d.npy" % k)
        np.save(feed, image)
        out = os.path.join(work, "calibration_out")
        subprocess.run(["node", os.path.join(ROOT, "scripts", "ort-reference.js"), augmented,
                        out, "%s=%s" % (input_name, feed)], check=True)
        for i, name in enumerate(tensors):
            values = np.load(os.path.join(out, "cal_%d.npy" % i))
            low, high = float(values.min()), float(values.max())
            if name in ranges:
                low, high = min(low, ranges[name][0]), max(high, ranges[name][1])
            ranges[name] = (low, high)
    return ranges


def activation_params(low, high):
    """uint8 asymmetric (ORT's compute_scale_zp): the range widened to hold 0."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high == low:
        return np.float32(1.0), np.uint8(0)
    scale = np.float32((high - low) / 255.0)
    return scale, np.uint8(np.clip(np.round(-low / scale), 0, 255))


def weight_per_channel(weight):
    """int8 symmetric per output channel (axis 0), ORT's [-127, 127] range, zero point 0."""
    absmax = np.abs(weight.reshape(weight.shape[0], -1)).max(axis=1).astype(np.float32)
    scale = np.where(absmax > 0, absmax * 2 / 254, 1.0).astype(np.float32)
    shaped = scale.reshape((-1,) + (1,) * (weight.ndim - 1))
    return np.clip(np.round(weight / shaped), -127, 127).astype(np.int8), scale


def remove_relus(graph):
    """ORT's QDQRemovableActivation: a Relu whose input is a Conv's or Add's output used by it
    alone disappears; the producer writes the Relu's output, quantized with the Relu's range (its
    zero point is 0, so the quantization clamps as the Relu did)."""
    consumers = {}
    for node in graph.node:
        for name in node.input:
            consumers[name] = consumers.get(name, 0) + 1
    outputs = {o.name for o in graph.output}
    producer = {o: n for n in graph.node for o in n.output}
    kept = []
    for node in graph.node:
        source = producer.get(node.input[0]) if node.op_type == "Relu" else None
        if (source is not None and source.op_type in ("Conv", "Add")
                and consumers[node.input[0]] == 1 and node.input[0] not in outputs):
            source.output[0] = node.output[0]
        else:
            kept.append(node)
    del graph.node[:]
    graph.node.extend(kept)


def quantize_qdq(float_path, ranges, qdq_path):
    """The QDQ model ORT's quantize_static writes for this graph: QuantizeLinear +
    DequantizeLinear pairs (one pair per tensor, shared by its consumers) on the activations of
    Conv, Gemm, Add and GlobalAveragePool (inputs and output), MaxPool's output with its input's
    parameters, Flatten left in float; int8 per-channel weights (Conv's, Gemm's transposed B) and
    int32 biases (scale x_scale * w_scale, zero point 0) as initializers behind
    DequantizeLinear(axis=0). Returns the output's scale."""
    import onnx
    from onnx import helper, numpy_helper

    model = without_constant_identities(onnx.load(float_path))
    graph = model.graph
    remove_relus(graph)
    inits = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    quantized = {}  # tensor -> (scale name, zero point name, scale)
    new_inits = []

    def params_of(tensor):
        if tensor not in quantized:
            scale, zero = activation_params(*ranges[tensor])
            new_inits.append(numpy_helper.from_array(np.array(scale), tensor + "_scale"))
            new_inits.append(numpy_helper.from_array(np.array(zero), tensor + "_zero_point"))
            quantized[tensor] = (tensor + "_scale", tensor + "_zero_point", scale)
        return quantized[tensor]

    for node in graph.node:  # which activations are quantized, in graph order
        if node.op_type in ("Conv", "Gemm"):
            params_of(node.input[0])
            params_of(node.output[0])
        elif node.op_type in ("Add", "GlobalAveragePool"):
            for name in list(node.input) + list(node.output):
                params_of(name)
        elif node.op_type == "MaxPool" and node.input[0] in quantized:
            quantized[node.output[0]] = quantized[node.input[0]]

    graph_outputs = {o.name for o in graph.output}
    nodes = []

    def qdq_pair(tensor):
        scale, zero, _ = quantized[tensor]
        source = tensor + "_QuantizeLinear_Input" if tensor in graph_outputs else tensor
        dequantized = tensor if tensor in graph_outputs else tensor + "_DequantizeLinear_Output"
        nodes.append(helper.make_node("QuantizeLinear", [source, scale, zero],
                                      [tensor + "_QuantizeLinear_Output"],
                                      tensor + "_QuantizeLinear"))
        nodes.append(helper.make_node("DequantizeLinear",
                                      [tensor + "_QuantizeLinear_Output", scale, zero],
                                      [dequantized], tensor + "_DequantizeLinear"))

    def read(tensor):
        return tensor + "_DequantizeLinear_Output" if tensor in quantized else tensor

    def weight_and_bias(node, x_scale):
        weight = inits[node.input[1]]
        if node.op_type == "Gemm" and not any(a.name == "transB" and a.i for a in node.attribute):
            raise ValueError("%s: Gemm without transB is not quantized here" % node.name)
        q, w_scale = weight_per_channel(weight)
        names = [node.input[1] + s for s in ("_quantized", "_scale", "_zero_point")]
        new_inits.extend([numpy_helper.from_array(q, names[0]),
                          numpy_helper.from_array(w_scale, names[1]),
                          numpy_helper.from_array(np.zeros_like(q, shape=w_scale.shape),
                                                  names[2])])
        w_dequantized = node.input[1] + "_DequantizeLinear_Output"
        nodes.append(helper.make_node("DequantizeLinear", names, [w_dequantized],
                                      node.input[1] + "_DequantizeLinear", axis=0))
        inputs = [read(node.input[0]), w_dequantized]
        if len(node.input) > 2:
            b_scale = (np.float32(x_scale) * w_scale).astype(np.float32)
            b = np.round(inits[node.input[2]] / b_scale).astype(np.int32)
            b_names = [node.input[2] + s for s in ("_quantized", "_quantized_scale",
                                                    "_quantized_zero_point")]
            new_inits.extend([numpy_helper.from_array(b, b_names[0]),
                              numpy_helper.from_array(b_scale, b_names[1]),
                              numpy_helper.from_array(np.zeros_like(b), b_names[2])])
            nodes.append(helper.make_node("DequantizeLinear", b_names,
                                          [node.input[2] + "_DequantizeLinear_Output"],
                                          node.input[2] + "_DequantizeLinear", axis=0))
            inputs.append(node.input[2] + "_DequantizeLinear_Output")
        return inputs

    for tensor in quantized:  # graph inputs first
        if tensor in {i.name for i in graph.input}:
            qdq_pair(tensor)
    for node in graph.node:
        if node.op_type in ("Conv", "Gemm"):
            inputs = weight_and_bias(node, quantized[node.input[0]][2])
        else:
            inputs = [read(name) for name in node.input]
        outputs = [o + "_QuantizeLinear_Input" if o in graph_outputs and o in quantized else o
                   for o in node.output]
        copy = helper.make_node(node.op_type, inputs, outputs, node.name)
        copy.attribute.extend(node.attribute)
        nodes.append(copy)
        for name in node.output:
            if name in quantized:
                qdq_pair(name)
    used = {name for n in nodes for name in n.input}
    kept_inits = [t for t in graph.initializer if t.name in used]
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept_inits + [t for t in new_inits if t.name in used])
    onnx.checker.check_model(model)
    onnx.save(model, qdq_path)
    return float(quantized[graph.output[0].name][2])
