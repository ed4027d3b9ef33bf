"""qnn.leaky_relu and qnn.softmax (TVM v0.13's ops), and FakeQuantizationToInteger's rules for
nn.leaky_relu, nn.conv2d_transpose and the optional nn.softmax. Expected values: NumPy on the
dequantized data (dequantize, the float op, quantize), within one quantization step, as TVM's
tests check these ops."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _run(expr, *args, kind="debug"):
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    return relay.create_executor(kind, mod=mod).evaluate()(*args).numpy()


def _quantize(x, scale, zero_point, dtype):
    info = np.iinfo(dtype)
    return np.clip(np.round(x / scale) + zero_point, info.min, info.max).astype(dtype)


@pytest.mark.parametrize("dtype,in_q,out_q,alpha", [
    ("uint8", (0.125, 60), (0.6, 17), 0.9),    # TVM's test_qnn_leaky_relu parameters
    ("int8", (0.05, -3), (0.05, -3), 0.1),
    ("int8", (0.1, 10), (0.02, -20), 0.3),
])
def test_leaky_relu_matches_float(dtype, in_q, out_q, alpha):
    info = np.iinfo(dtype)
    data = np.arange(info.min, info.max + 1, dtype=dtype).reshape(1, -1)
    x = relay.var("x", shape=data.shape, dtype=dtype)
    y = relay.qnn.op.leaky_relu(x, alpha, relay.const(in_q[0]), relay.const(in_q[1]),
                                relay.const(out_q[0]), relay.const(out_q[1]))
    real = (data.astype("float64") - in_q[1]) * in_q[0]
    golden = _quantize(np.where(real < 0, alpha * real, real), out_q[0], out_q[1], dtype)
    for kind in ("debug", "vm"):
        out = _run(y, data, kind=kind)
        assert out.dtype == np.dtype(dtype)
        np.testing.assert_allclose(out.astype("int32"), golden.astype("int32"), atol=1)


def test_leaky_relu_lowers_to_integer_ops():
    x = relay.var("x", shape=(2, 3), dtype="int8")
    y = relay.qnn.op.leaky_relu(x, 0.2, relay.const(0.1), relay.const(0), relay.const(0.1),
                                relay.const(0))
    mod = tvm.IRModule.from_expr(y)
    lowered = relay.qnn.transform.CanonicalizeOps()(relay.transform.InferType()(mod))
    text = lowered.astext()
    assert "qnn." not in text and "where(" in text and "float" not in text.split("->")[-1]


def test_softmax_is_close_to_float_softmax_and_keeps_order():
    rng = np.random.RandomState(0)
    data = np.sort(rng.randint(-128, 127, size=(5, 10)).astype("int8"), axis=1)
    for scale in (1.0, 0.1, 0.05):
        x = relay.var("x", shape=data.shape, dtype="int8")
        y = relay.qnn.op.softmax(x, relay.const(scale), relay.const(0), relay.const(1.0 / 256),
                                 relay.const(-128), axis=1)
        out = _run(y, data)
        assert out.dtype == np.int8
        assert np.all(np.diff(out.astype("int32"), axis=1) >= 0)  # softmax keeps the order
        real = data.astype("float64") * scale
        e = np.exp(real - real.max(axis=1, keepdims=True))
        expected = e / e.sum(axis=1, keepdims=True)
        got = (out.astype("float64") + 128) / 256
        # The integer algorithm approximates exp in base 2 (TVM's; its own test checks only the
        # order): within 0.1 of the float softmax here.
        np.testing.assert_allclose(got, expected, atol=0.1)


def test_softmax_refuses_uint8():
    x = relay.var("x", shape=(2, 4), dtype="uint8")
    y = relay.qnn.op.softmax(x, relay.const(0.1), relay.const(0), relay.const(1.0 / 256),
                             relay.const(0))
    with pytest.raises(Exception, match="int8"):
        relay.transform.InferType()(tvm.IRModule.from_expr(y))


def _fq2i(expr, **kwargs):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    return mod, relay.transform.FakeQuantizationToInteger(**kwargs)(mod)


def _compare_fq2i(out, args, expected_op):
    mod, mod_int = _fq2i(out, hard_fail=True)
    assert expected_op in mod_int.astext()
    ref = relay.create_executor("debug", mod=mod).evaluate()(*args).numpy().astype("int32")
    got = relay.create_executor("debug", mod=mod_int).evaluate()(*args).numpy().astype("int32")
    np.testing.assert_allclose(got, ref, atol=1)


def test_fq2i_conv2d_transpose():
    x = relay.var("x", shape=(1, 2, 6, 6), dtype="int8")
    w = relay.var("w", shape=(2, 3, 3, 3), dtype="int8")
    deq = relay.qnn.op.dequantize(x, relay.const(0.5), relay.const(0))
    conv = relay.nn.conv2d_transpose(deq, relay.qnn.op.dequantize(w, relay.const(0.25),
                                                                  relay.const(0)),
                                     kernel_size=(3, 3), channels=3, kernel_layout="IOHW")
    out = relay.qnn.op.quantize(conv, relay.const(4.0), relay.const(0), out_dtype="int8")
    rng = np.random.RandomState(1)
    _compare_fq2i(out, [rng.randint(-10, 10, size=(1, 2, 6, 6)).astype("int8"),
                        rng.randint(-10, 10, size=(2, 3, 3, 3)).astype("int8")],
                  "qnn.conv2d_transpose")


def test_fq2i_leaky_relu():
    x = relay.var("x", shape=(2, 50), dtype="uint8")
    deq = relay.qnn.op.dequantize(x, relay.const(2.0), relay.const(114))
    act = relay.nn.leaky_relu(deq, 0.1)
    out = relay.qnn.op.quantize(act, relay.const(2.0), relay.const(114), out_dtype="uint8")
    data = np.arange(100, dtype="uint8").reshape(2, 50) * 2
    _compare_fq2i(out, [data], "qnn.leaky_relu")


def test_fq2i_softmax_only_when_optional():
    x = relay.var("x", shape=(3, 8), dtype="int8")
    deq = relay.qnn.op.dequantize(x, relay.const(0.1), relay.const(0))
    out = relay.qnn.op.quantize(relay.nn.softmax(deq, axis=1), relay.const(1.0 / 256),
                                relay.const(-128), out_dtype="int8")
    mod, plain = _fq2i(out, hard_fail=False)
    assert "qnn.softmax" not in plain.astext()
    _, optional = _fq2i(out, hard_fail=True, optional_qnn_ops=["nn.softmax"])
    assert "qnn.softmax" in optional.astext()
