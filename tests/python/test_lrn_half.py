"""nn.lrn on float16 computes every step in float16, as TVM's topi.nn.lrn does in that type: the
expected values are NumPy's float16 arithmetic in topi.nn.lrn's order (each square, each step of
the window's sum, alpha *, / size, bias +, power, the division), bit for bit."""
import numpy as np

import relaypass as tvm
from relaypass import relay


def _lrn_float16(x, size, axis, bias, alpha, beta):
    radius = size // 2
    out = np.empty_like(x)
    sqr_sum = np.zeros_like(x)
    n = x.shape[axis]
    for index in np.ndindex(*x.shape):
        c = index[axis]
        total = np.float16(0)
        for j in range(max(0, c - radius), min(n, c - radius + size)):
            at = list(index)
            at[axis] = j
            v = x[tuple(at)]
            total = np.float16(total + np.float16(v * v))
        sqr_sum[index] = total
    scaled = (np.float16(alpha) * sqr_sum).astype("float16") / np.float16(size)
    denominator = np.power((np.float16(bias) + scaled.astype("float16")).astype("float16"),
                           np.float16(beta)).astype("float16")
    out[...] = (x / denominator).astype("float16")
    return out


def test_lrn_float16_rounds_each_step():
    shape = (1, 5, 10, 10)
    x = np.random.RandomState(0).uniform(-1, 1, size=shape).astype("float16")
    v = relay.var("x", shape=shape, dtype="float16")
    f = relay.Function([v], relay.nn.lrn(v, size=5, axis=1, bias=0.5, alpha=0.00001, beta=0.75))
    got = relay.create_executor("graph", mod=tvm.IRModule.from_expr(f)).evaluate()(x).numpy()
    expected = _lrn_float16(x, 5, 1, 0.5, 0.00001, 0.75)
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, expected)
