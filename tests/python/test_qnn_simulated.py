"""qnn.simulated_quantize / qnn.simulated_dequantize (TVM v0.13). Expected values: NumPy with
TOPI's formulas (round half away from zero, clip to the code's dtype, per-channel parameters
along axis), and qnn.quantize / qnn.dequantize on the same data, which they simulate."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _run(expr, *args):
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    return relay.create_executor("graph", mod=mod).evaluate()(*args).numpy()


def _round_away(x):
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32"])
def test_simulated_quantize_matches_quantize(dtype):
    rng = np.random.RandomState(0)
    data = rng.uniform(-100, 100, size=(3, 4)).astype("float32")
    x = relay.var("x", shape=(3, 4))
    sim = relay.qnn.op.simulated_quantize(x, relay.const(0.5), relay.const(7), out_dtype=dtype)
    real = relay.qnn.op.quantize(x, relay.const(0.5), relay.const(7), out_dtype=dtype)
    got = _run(sim, data)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, _run(real, data).astype("float32"))
    info = np.iinfo(dtype)
    np.testing.assert_array_equal(got, np.clip(_round_away(data / 0.5) + 7, info.min, info.max))


def test_simulated_quantize_per_channel_and_run_time_code():
    rng = np.random.RandomState(1)
    data = rng.uniform(-10, 10, size=(2, 3)).astype("float32")
    scales = np.array([0.1, 0.5, 2.0], "float32")
    zps = np.array([0, 3, -2], "int32")
    x = relay.var("x", shape=(2, 3))
    code = relay.var("code", shape=(), dtype="int32")
    y = relay.qnn.op.simulated_quantize(x, relay.const(scales), relay.const(zps), axis=1,
                                        out_dtype=code)
    expected = np.clip(_round_away(data / scales) + zps, -128, 127)
    np.testing.assert_array_equal(_run(y, data, np.array(1, "int32")), expected)
    np.testing.assert_array_equal(_run(y, data, np.array(0, "int32")), data)  # disable
    with pytest.raises(Exception, match="dtype code"):
        _run(y, data, np.array(9, "int32"))


def test_simulated_dequantize_matches_dequantize():
    data = np.arange(-6, 6, dtype="int8").reshape(3, 4)
    x = relay.var("x", shape=(3, 4))
    y = relay.qnn.op.simulated_dequantize(x, relay.const(0.25), relay.const(-2), in_dtype="int8")
    xi = relay.var("xi", shape=(3, 4), dtype="int8")
    real = relay.qnn.op.dequantize(xi, relay.const(0.25), relay.const(-2))
    np.testing.assert_array_equal(_run(y, data.astype("float32")), _run(real, data))


def test_simulated_quantize_bad_dtype_name():
    x = relay.var("x", shape=(2,))
    with pytest.raises(ValueError, match="dtype must be one of"):
        relay.qnn.op.simulated_quantize(x, relay.const(1.0), relay.const(0), out_dtype="int4")
