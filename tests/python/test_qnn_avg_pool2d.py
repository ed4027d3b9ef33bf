"""qnn.avg_pool2d (TVM v0.13's op). Expected values: NumPy on the dequantized data (average
pooling in float, then quantized to the output's parameters), within one quantization step."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _avg_pool_nhwc(x, k, s, pad):
    x = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    n, h, w, c = x.shape
    oh, ow = (h - k) // s + 1, (w - k) // s + 1
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            out[:, i, j, :] = x[:, i * s:i * s + k, j * s:j * s + k, :].mean(axis=(1, 2))
    return out


@pytest.mark.parametrize("dtype,in_q,out_q", [
    ("uint8", (0.5, 10), (0.5, 10)),      # same parameters: only a cast to int32
    ("int8", (0.25, -5), (0.1, 3)),       # requantized first
])
def test_avg_pool2d_matches_float(dtype, in_q, out_q):
    info = np.iinfo(dtype)
    rng = np.random.RandomState(0)
    data = rng.randint(info.min, info.max + 1, size=(1, 6, 6, 3)).astype(dtype)
    x = relay.var("x", shape=data.shape, dtype=dtype)
    y = relay.qnn.op.avg_pool2d(x, relay.const(in_q[0]), relay.const(in_q[1]),
                                relay.const(out_q[0]), relay.const(out_q[1]), pool_size=(2, 2),
                                strides=(2, 2), padding=(0, 0), dilation=(1, 1), layout="NHWC")
    mod = tvm.IRModule.from_expr(relay.Function([x], y))
    assert str(relay.transform.InferType()(mod)["main"].ret_type) == \
        "Tensor[(1, 3, 3, 3), %s]" % dtype
    out = relay.create_executor("debug", mod=mod).evaluate()(data).numpy()
    real = (data.astype("float64") - in_q[1]) * in_q[0]
    golden = np.clip(np.round(_avg_pool_nhwc(real, 2, 2, 0) / out_q[0]) + out_q[1], info.min,
                     info.max)
    np.testing.assert_allclose(out.astype("int32"), golden.astype("int32"), atol=1)


def test_avg_pool2d_bad_input():
    x = relay.var("x", shape=(1, 4, 4, 2), dtype="int32")
    y = relay.qnn.op.avg_pool2d(x, relay.const(0.5), relay.const(0), relay.const(0.5),
                                relay.const(0), (2, 2), (1, 1), (0, 0), (1, 1))
    with pytest.raises(Exception, match="int8"):
        relay.transform.InferType()(tvm.IRModule.from_expr(y))
