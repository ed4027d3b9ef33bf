"""ONNX's quantized operators through relay.frontend.from_onnx as TVM v0.13 imports them (qnn
ops; python/tvm/relay/frontend/onnx.py), a QDQ CNN against ONNX Runtime, and
FakeQuantizationToInteger on the imported QDQ graph.

Expected structures come from TVM's converters (the qnn calls each builds); expected numbers from
NumPy (hand-written quantization formulas) or from ONNX Runtime (onnxruntime-node under
<build>/ort, as make test-models installs it; those tests are skipped when it is absent).
"""
import os
import shutil
import subprocess

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import relaypass as tvm  # noqa: E402
from relaypass import relay  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def _ort_dir():
    build = os.environ.get("RELAYPASS_BINARY_DIR") or os.path.join(ROOT, "build")
    path = os.path.join(build, "ort")
    if shutil.which("node") and os.path.isdir(os.path.join(path, "node_modules",
                                                           "onnxruntime-node")):
        return path
    return None


needs_ort = pytest.mark.skipif(_ort_dir() is None,
                               reason="onnxruntime-node is not installed under <build>/ort")


def _ort_run(model, feeds, tmp_path):
    """ONNX Runtime's outputs (scripts/ort-reference.js, CPU, graph optimizations off)."""
    model_path = os.path.join(tmp_path, "model.onnx")
    onnx.save(model, model_path)
    args = []
    for name, value in feeds.items():
        path = os.path.join(tmp_path, name + ".npy")
        np.save(path, value)
        args.append(f"{name}={path}")
    out_dir = os.path.join(tmp_path, "ort")
    env = dict(os.environ, NODE_PATH=os.path.join(_ort_dir(), "node_modules"))
    subprocess.run(["node", os.path.join(ROOT, "scripts", "ort-reference.js"), model_path,
                    out_dir] + args, check=True, env=env, timeout=300)
    return [np.load(os.path.join(out_dir, o.name + ".npy")) for o in model.graph.output]


def _import(model, shape=None):
    mod, params = relay.frontend.from_onnx(model, shape=shape, freeze_params=True)
    return mod


def _text(mod):
    return mod.astext(False) if hasattr(mod, "astext") else str(mod)


def _run(mod, *inputs):
    out = relay.create_executor("debug", mod=mod).evaluate()(*inputs)
    if isinstance(out, (list, tuple)) or type(out).__name__ in ("ADT", "Tuple", "TupleValue"):
        return [o.numpy() for o in out]
    return out.numpy()


def _model(nodes, inputs, outputs, initializers=(), opset=13, contrib=False):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    opsets = [helper.make_opsetid("", opset)]
    if contrib:
        opsets.append(helper.make_opsetid("com.microsoft", 1))
    return helper.make_model(graph, opset_imports=opsets)


def _f32(name, value):
    return numpy_helper.from_array(np.asarray(value, dtype="float32"), name=name)


def _int(name, value, dtype):
    return numpy_helper.from_array(np.asarray(value, dtype=dtype), name=name)


def _vi(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def np_round(x):
    # qnn.quantize rounds halves away from zero (TVM's round; docs/qnn.md).
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


# ---- structure: the qnn calls of TVM's converters


def test_quantize_and_dequantize_linear_are_qnn_ops_with_tvms_axis():
    # TVM: QuantizeLinear-13 -> qnn.quantize(x, scale, cast(zp, int32), axis, zp's dtype);
    # DequantizeLinear-13 -> qnn.dequantize(..., axis); axis 1 by default.
    q = helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"])
    d = helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"])
    model = _model([q, d], [_vi("x", TensorProto.FLOAT, [2, 3])],
                   [_vi("y", TensorProto.FLOAT, [2, 3])],
                   [_f32("s", [0.5, 0.25, 1.0]), _int("zp", [1, 2, 3], "int8")])
    mod = _import(model)
    text = _text(mod)
    assert "qnn.quantize(" in text and "qnn.dequantize(" in text
    # int8 is qnn.quantize's default out_dtype, which the text leaves out; the type shows it.
    assert "axis=1) /* ty=Tensor[(2, 3), int8] */" in text
    assert "cast(" in text and "dtype=\"int32\"" in text
    x = np.array([[1.0, -1.3, 7.0], [100.0, 0.1, -200.0]], "float32")
    s = np.array([0.5, 0.25, 1.0], "float32")
    zp = np.array([1, 2, 3])
    # NumPy: saturate(round(x / s) + zp) per column, then (q - zp) * s.
    q_ref = np.clip(np_round(x / s) + zp, -128, 127)
    np.testing.assert_allclose(_run(mod, x), (q_ref - zp) * s, rtol=1e-6)


def test_quantize_linear_opset10_uses_axis_0_and_uint8_without_zero_point():
    q = helper.make_node("QuantizeLinear", ["x", "s"], ["y"])
    model = _model([q], [_vi("x", TensorProto.FLOAT, [4])], [_vi("y", TensorProto.UINT8, [4])],
                   [_f32("s", 2.0)], opset=10)
    mod = _import(model)
    text = _text(mod)
    assert "qnn.quantize(" in text and "out_dtype=\"uint8\"" in text and "axis=0" in text
    # NumPy: clip(round(x / 2), 0, 255); 3 / 2 = 1.5 rounds to 2 (away from zero).
    x = np.array([3.0, -4.0, 600.0, 9.0], "float32")
    np.testing.assert_array_equal(_run(mod, x), [2, 0, 255, 5])


def test_qlinear_conv_is_qnn_conv2d_bias_add_requantize():
    # TVM's QLinearConv: qnn.conv2d (channels, kernel_size from the weight), nn.bias_add of the
    # int32 bias, qnn.requantize(acc, x_scale * w_scale, 0, y_scale, y_zp, axis=1).
    node = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
                            ["y"], pads=[1, 1, 1, 1])
    w = np.arange(2 * 1 * 3 * 3).reshape(2, 1, 3, 3).astype("int8") - 8
    model = _model([node], [_vi("x", TensorProto.UINT8, [1, 1, 4, 4])],
                   [_vi("y", TensorProto.UINT8, [1, 2, 4, 4])],
                   [_f32("xs", 0.05), _int("xz", 10, "uint8"), _int("w", w, "int8"),
                    _f32("ws", [0.01, 0.02]), _int("wz", [0, 0], "int8"), _f32("ys", 0.03),
                    _int("yz", 100, "uint8"), _int("b", [50, -70], "int32")])
    mod = _import(model)
    text = _text(mod)
    assert "qnn.conv2d(" in text and "nn.bias_add(" in text and "qnn.requantize(" in text
    assert "channels=2" in text and "kernel_size=[3, 3]" in text
    assert "out_dtype=\"uint8\"" in text
    x = (np.arange(16).reshape(1, 1, 4, 4) * 9 % 256).astype("uint8")
    # NumPy: the convolution of (x - 10) padded with 0 by w, plus the bias, times
    # 0.05 * w_scale / 0.03, rounded, plus 100, saturated to uint8.
    xc = np.pad(x.astype("int64") - 10, ((0, 0), (0, 0), (1, 1), (1, 1)))
    acc = np.zeros((1, 2, 4, 4), "int64")
    for o in range(2):
        for i in range(4):
            for j in range(4):
                acc[0, o, i, j] = (xc[0, 0, i:i + 3, j:j + 3] * w[o, 0]).sum()
    acc += np.array([50, -70]).reshape(1, 2, 1, 1)
    scale = (0.05 * np.array([0.01, 0.02]) / 0.03).reshape(1, 2, 1, 1)
    ref = np.clip(np_round(acc * scale) + 100, 0, 255)
    assert np.abs(_run(mod, x).astype("int64") - ref).max() <= 1


def test_conv_integer_and_matmul_integer_are_qnn_conv2d_and_qnn_dense():
    conv = helper.make_node("ConvInteger", ["x", "w", "xz"], ["y"])
    model = _model([conv], [_vi("x", TensorProto.UINT8, [1, 1, 3, 3])],
                   [_vi("y", TensorProto.INT32, [1, 1, 2, 2])],
                   [_int("w", np.ones((1, 1, 2, 2)), "uint8"), _int("xz", 1, "uint8")])
    mod = _import(model)
    assert "qnn.conv2d(" in _text(mod)
    x = np.arange(9, dtype="uint8").reshape(1, 1, 3, 3)
    # NumPy: sums of 2x2 windows of (x - 1).
    np.testing.assert_array_equal(_run(mod, x), [[[[4, 8], [16, 20]]]])

    mm = helper.make_node("MatMulInteger", ["a", "b", "az", "bz"], ["y"])
    model = _model([mm], [_vi("a", TensorProto.UINT8, [2, 3])],
                   [_vi("y", TensorProto.INT32, [2, 2])],
                   [_int("b", [[1, 2], [3, 4], [5, 6]], "uint8"), _int("az", 2, "uint8"),
                    _int("bz", [1, 0], "uint8")])
    mod = _import(model)
    text = _text(mod)
    assert "qnn.dense(" in text and "transpose(" in text and "units=2" in text
    a = np.array([[2, 3, 4], [5, 6, 7]], "uint8")
    ref = (a.astype("int64") - 2) @ (np.array([[1, 2], [3, 4], [5, 6]]) - [1, 0])
    np.testing.assert_array_equal(_run(mod, a), ref)


def test_qlinear_matmul_requantizes_to_nearest():
    node = helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"],
                            ["y"])
    model = _model([node], [_vi("a", TensorProto.UINT8, [2, 2])],
                   [_vi("y", TensorProto.UINT8, [2, 2])],
                   [_f32("as", 0.1), _int("az", 3, "uint8"), _int("b", [[10, 20], [30, 40]],
                                                                    "uint8"),
                    _f32("bs", 0.2), _int("bz", 5, "uint8"), _f32("ys", 0.3),
                    _int("yz", 7, "uint8")])
    mod = _import(model)
    text = _text(mod)
    assert "qnn.dense(" in text and "qnn.requantize(" in text
    assert "rounding=\"TONEAREST\"" in text
    a = np.array([[4, 5], [6, 9]], "uint8")
    acc = (a.astype("int64") - 3) @ (np.array([[10, 20], [30, 40]]) - 5)
    ref = np.clip(np_round(acc * 0.1 * 0.2 / 0.3) + 7, 0, 255)
    np.testing.assert_array_equal(_run(mod, a), ref)


def test_contrib_ops_are_dequantize_float_op_quantize_and_qnn_concatenate():
    # TVM: QLinearAdd -> add of two qnn.dequantize, qnn.quantize to (C_scale, C_zero_point);
    # QLinearConcat -> qnn.concatenate.
    add = helper.make_node("QLinearAdd", ["a", "as", "az", "b", "bs", "bz", "cs", "cz"], ["c"],
                           domain="com.microsoft")
    cat = helper.make_node("QLinearConcat", ["cs", "cz", "c", "cs", "cz", "b", "bs", "bz"],
                           ["y"], domain="com.microsoft", axis=1)
    model = _model([add, cat], [_vi("a", TensorProto.UINT8, [1, 2]),
                                _vi("b", TensorProto.UINT8, [1, 2])],
                   [_vi("y", TensorProto.UINT8, [1, 4])],
                   [_f32("as", 0.5), _int("az", 10, "uint8"), _f32("bs", 0.25),
                    _int("bz", 20, "uint8"), _f32("cs", 1.0), _int("cz", 5, "uint8")],
                   contrib=True)
    mod = _import(model)
    text = _text(mod)
    for op in ("qnn.dequantize(", "add(", "qnn.quantize(", "qnn.concatenate("):
        assert op in text, op
    a = np.array([[30, 12]], "uint8")
    b = np.array([[60, 24]], "uint8")
    # NumPy: c = round((a - 10) * 0.5 + (b - 20) * 0.25) + 5; b requantized to c's parameters.
    c = np_round((a - 10.0) * 0.5 + (b - 20.0) * 0.25) + 5
    b_in_c = np_round((b - 20.0) * 0.25) + 5
    np.testing.assert_array_equal(_run(mod, a, b), np.concatenate([c, b_in_c], axis=1))


def test_contrib_op_in_another_unsupported_domain_is_still_refused():
    node = helper.make_node("QLinearAdd", ["a", "s", "z", "a", "s", "z", "s", "z"], ["c"],
                            domain="com.example")
    model = _model([node], [_vi("a", TensorProto.UINT8, [2])], [_vi("c", TensorProto.UINT8, [2])],
                   [_f32("s", 1.0), _int("z", 0, "uint8")])
    model.opset_import.append(helper.make_opsetid("com.example", 1))
    with pytest.raises(Exception, match="domain 'com.example'"):
        _import(model)


def test_bad_scale_of_a_quantized_node_is_a_clear_error():
    # A zero scale is refused at type inference (docs/qnn.md), naming the qnn op.
    q = helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["y"])
    model = _model([q], [_vi("x", TensorProto.FLOAT, [2])], [_vi("y", TensorProto.UINT8, [2])],
                   [_f32("s", 0.0), _int("zp", 0, "uint8")])
    with pytest.raises(Exception, match="scale must be positive and finite"):
        _import(model)


def test_per_channel_length_mismatch_is_a_clear_error():
    q = helper.make_node("DequantizeLinear", ["x", "s", "zp"], ["y"], axis=0)
    model = _model([q], [_vi("x", TensorProto.INT8, [3, 2])], [_vi("y", TensorProto.FLOAT, [3, 2])],
                   [_f32("s", [1.0, 2.0]), _int("zp", [0, 0], "int8")])
    with pytest.raises(Exception, match="quantized axis has 3"):
        _import(model)


# ---- numbers against ONNX Runtime


def _contrib_case(op, extra_inputs, attrs, shape, out_shape=None):
    x = helper.make_node(op, ["x", "xs", "xz"] + extra_inputs, ["y"], domain="com.microsoft",
                         **attrs)
    return _model([x], [_vi("x", TensorProto.UINT8, shape)],
                  [_vi("y", TensorProto.UINT8, out_shape or shape)],
                  [_f32("xs", 0.05), _int("xz", 128, "uint8"), _f32("ys", 0.02),
                   _int("yz", 100, "uint8"), _f32("bs", 0.03), _int("bz", 90, "uint8"),
                   _int("b", np.arange(np.prod(shape)).reshape(shape) % 251, "uint8")],
                  contrib=True)


CONTRIB_CASES = {
    "QLinearAdd": (["b", "bs", "bz", "ys", "yz"], {}, [1, 2, 4, 4], None),
    "QLinearMul": (["b", "bs", "bz", "ys", "yz"], {}, [1, 2, 4, 4], None),
    "QLinearSigmoid": (["ys", "yz"], {}, [1, 2, 4, 4], None),
    "QLinearLeakyRelu": (["ys", "yz"], {"alpha": 0.1}, [1, 2, 4, 4], None),
    "QLinearAveragePool": (["ys", "yz"], {"kernel_shape": [2, 2], "strides": [2, 2]},
                           [1, 2, 4, 4], [1, 2, 2, 2]),
    "QLinearGlobalAveragePool": (["ys", "yz"], {}, [1, 2, 4, 4], [1, 2, 1, 1]),
}


CONTRIB_CASES.update({
    # ONNX Runtime's `opset` attribute picks the Softmax: 13 reduces `axis` alone, 12 the
    # trailing axes from `axis` on.
    "QLinearSoftmax-13": (["ys", "yz"], {"axis": 1, "opset": 13}, [1, 2, 4, 4], None),
    "QLinearSoftmax-12": (["ys", "yz"], {"axis": 1, "opset": 12}, [1, 2, 4, 4], None),
})


@needs_ort
@pytest.mark.parametrize("case", sorted(CONTRIB_CASES))
def test_contrib_op_agrees_with_onnx_runtime(case, tmp_path):
    extra, attrs, shape, out_shape = CONTRIB_CASES[case]
    model = _contrib_case(case.split("-")[0], extra, attrs, shape, out_shape)
    x = (np.arange(np.prod(shape)).reshape(shape) * 37 % 256).astype("uint8")
    (ref,) = _ort_run(model, {"x": x}, str(tmp_path))
    out = _run(_import(model), x)
    # Within one quantization step: qnn.quantize rounds halves away from zero, ONNX Runtime to
    # even, and the float ops may round differently.
    assert out.shape == ref.shape
    assert np.abs(out.astype("int64") - ref.astype("int64")).max() <= 1


def _qgemm(trans_b, quantized_output):
    rng = np.random.default_rng(11)
    b = rng.integers(0, 255, size=(5, 4) if trans_b else (4, 5)).astype("uint8")
    inputs = ["a", "as", "az", "b", "bs", "bz", "c"] + (["ys", "yz"] if quantized_output else [])
    node = helper.make_node("QGemm", inputs, ["y"], domain="com.microsoft", transB=int(trans_b),
                            alpha=1.0)
    out_type = TensorProto.UINT8 if quantized_output else TensorProto.FLOAT
    return _model([node], [_vi("a", TensorProto.UINT8, [3, 4])], [_vi("y", out_type, [3, 5])],
                  [_f32("as", 0.04), _int("az", 120, "uint8"), _int("b", b, "uint8"),
                   _f32("bs", [0.01, 0.02, 0.03, 0.01, 0.02]), _int("bz", [128] * 5, "uint8"),
                   _int("c", rng.integers(-500, 500, size=5), "int32"), _f32("ys", 0.1),
                   _int("yz", 128, "uint8")], contrib=True)


def test_qgemm_is_dequantize_dense_quantize():
    text = _text(_import(_qgemm(False, True)))
    for op in ("qnn.dequantize(", "nn.dense(", "add(", "qnn.quantize("):
        assert op in text, op


@needs_ort
@pytest.mark.parametrize("trans_b", [False, True])
@pytest.mark.parametrize("quantized_output", [False, True])
def test_qgemm_agrees_with_onnx_runtime(trans_b, quantized_output, tmp_path):
    model = _qgemm(trans_b, quantized_output)
    a = (np.arange(12).reshape(3, 4) * 23 % 256).astype("uint8")
    (ref,) = _ort_run(model, {"a": a}, str(tmp_path))
    out = _run(_import(model), a)
    assert out.shape == ref.shape == (3, 5)
    if quantized_output:
        assert np.abs(out.astype("int64") - ref.astype("int64")).max() <= 1
    else:
        np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-4)


def _qdq(name, out, scale, zp, nodes, axis=None):
    kwargs = {} if axis is None else {"axis": axis}
    nodes.append(helper.make_node("QuantizeLinear", [name, scale, zp], [name + "_q"], **kwargs))
    nodes.append(helper.make_node("DequantizeLinear", [name + "_q", scale, zp], [out], **kwargs))


def qdq_cnn():
    """A small QDQ CNN as ONNX Runtime's static quantization tool writes them: activations
    QuantizeLinear + DequantizeLinear (uint8), weights int8 with per-channel DequantizeLinear,
    biases int32 dequantized at x_scale * w_scale; Conv, Relu, Add, MaxPool, GlobalAveragePool,
    Flatten, MatMul."""
    rng = np.random.default_rng(7)
    inits = []
    nodes = []

    def weight(name, shape, scale):
        w = rng.integers(-100, 100, size=shape).astype("int8")
        s = np.full(shape[0], scale, "float32") * (1 + 0.25 * np.arange(shape[0]))
        inits.extend([_int(name + "_q", w, "int8"), _f32(name + "_s", s),
                      _int(name + "_z", np.zeros(shape[0]), "int8")])
        nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s", name + "_z"],
                                      [name], axis=0))
        return s

    def bias(name, values, scale):
        inits.extend([_int(name + "_q", values, "int32"), _f32(name + "_s", scale),
                      _int(name + "_z", np.zeros(len(values)), "int32")])
        nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s", name + "_z"],
                                      [name], axis=0))

    def act(name, scale, zp):
        inits.extend([_f32(name + "_as", scale), _int(name + "_az", zp, "uint8")])
        return name + "_as", name + "_az"

    s, z = act("x", 0.02, 128)
    _qdq("x", "xd", s, z, nodes)
    ws1 = weight("w1", (4, 3, 3, 3), 0.004)
    bias("b1", rng.integers(-200, 200, size=4), 0.02 * ws1)
    nodes.append(helper.make_node("Conv", ["xd", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]))
    s, z = act("c1", 0.05, 120)
    _qdq("c1", "c1d", s, z, nodes)
    nodes.append(helper.make_node("Relu", ["c1d"], ["r1"]))
    s, z = act("r1", 0.05, 0)
    _qdq("r1", "r1d", s, z, nodes)
    ws2 = weight("w2", (4, 4, 3, 3), 0.003)
    bias("b2", rng.integers(-200, 200, size=4), 0.05 * ws2)
    nodes.append(helper.make_node("Conv", ["r1d", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]))
    s, z = act("c2", 0.04, 128)
    _qdq("c2", "c2d", s, z, nodes)
    nodes.append(helper.make_node("Add", ["c2d", "r1d"], ["a"]))
    s, z = act("a", 0.06, 110)
    _qdq("a", "ad", s, z, nodes)
    nodes.append(helper.make_node("MaxPool", ["ad"], ["p"], kernel_shape=[2, 2], strides=[2, 2]))
    nodes.append(helper.make_node("GlobalAveragePool", ["p"], ["g"]))
    s, z = act("g", 0.03, 100)
    _qdq("g", "gd", s, z, nodes)
    nodes.append(helper.make_node("Flatten", ["gd"], ["f"]))
    w3 = rng.integers(-100, 100, size=(4, 5)).astype("int8")
    inits.extend([_int("w3_q", w3, "int8"), _f32("w3_s", 0.01), _int("w3_z", 0, "int8")])
    nodes.append(helper.make_node("DequantizeLinear", ["w3_q", "w3_s", "w3_z"], ["w3"]))
    nodes.append(helper.make_node("MatMul", ["f", "w3"], ["m"]))
    s, z = act("m", 0.05, 128)
    _qdq("m", "y", s, z, nodes)
    return _model(nodes, [_vi("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                  [_vi("y", TensorProto.FLOAT, [1, 5])], inits)


def test_qdq_cnn_imports_as_qnn_quantize_and_dequantize():
    text = _text(_import(qdq_cnn()))
    assert text.count("qnn.quantize(") == 7
    assert "qnn.dequantize(" in text and "nn.conv2d(" in text


@needs_ort
def test_qdq_cnn_agrees_with_onnx_runtime_and_fq2i_makes_it_integer(tmp_path):
    model = qdq_cnn()
    x = np.random.default_rng(3).uniform(-2.5, 2.5, size=(1, 3, 8, 8)).astype("float32")
    (ref,) = _ort_run(model, {"x": x}, str(tmp_path))
    step = 0.05  # the output's scale
    mod = _import(model)
    out = _run(mod, x)
    assert out.shape == ref.shape == (1, 5)
    assert np.abs(out - ref).max() <= step * 1.001

    # FakeQuantizationToInteger: the regions between dequantize and quantize become integer
    # ops (TVM's rules), and the result stays within a step of ONNX Runtime's.
    integer = relay.transform.FakeQuantizationToInteger()(relay.transform.InferType()(mod))
    text = _text(integer)
    for op in ("qnn.conv2d(", "qnn.requantize(", "qnn.add(", "qnn.dense("):
        assert op in text, op
    assert "nn.conv2d(" not in text.replace("qnn.conv2d(", "")
    assert np.abs(_run(integer, x) - ref).max() <= step * 1.001
