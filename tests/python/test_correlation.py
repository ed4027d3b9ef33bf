"""nn.correlation (TVM v0.13's CorrelationAttrs, CorrelationRel's ceil-divided output extents).
Expected values: NumPy's loops in relaypass.topi.testing.correlation_nchw_python, and by hand."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import run_infer_type
from relaypass.topi.testing import correlation_nchw_python


def run(func, *args):
    mod = tvm.IRModule.from_expr(func)
    return relay.create_executor("debug", mod=mod).evaluate()(*args).numpy()


@pytest.mark.parametrize("shape,k,md,s1,s2,pad,mult", [
    ((1, 3, 10, 10), 1, 4, 1, 1, 4, True),
    ((1, 3, 10, 10), 1, 5, 1, 1, 5, True),
    ((5, 1, 4, 4), 3, 1, 2, 1, 2, True),
    ((5, 1, 6, 4), 3, 1, 2, 2, 2, False),
])
def test_matches_numpy_reference(shape, k, md, s1, s2, pad, mult):
    a = relay.var("a", shape=shape)
    b = relay.var("b", shape=shape)
    y = relay.nn.correlation(a, b, k, md, s1, s2, pad, mult, "NCHW")
    border = md + (k - 1) // 2
    grid = 2 * (md // s2) + 1
    out_h = (shape[2] + 2 * pad - 2 * border + s1 - 1) // s1
    out_w = (shape[3] + 2 * pad - 2 * border + s1 - 1) // s1
    assert run_infer_type(y).checked_type == relay.TensorType(
        (shape[0], grid * grid, out_h, out_w), "float32")
    rng = np.random.default_rng(0)
    a_np = rng.uniform(size=shape).astype("float32")
    b_np = rng.uniform(size=shape).astype("float32")
    out = run(relay.Function([a, b], y), a_np, b_np)
    ref = correlation_nchw_python(a_np, b_np, k, md, s1, s2, pad, mult)
    np.testing.assert_allclose(out[:, :, :ref.shape[2], :ref.shape[3]], ref, rtol=1e-5, atol=1e-5)


def test_one_pixel_by_hand():
    # 1x1 maps, no displacement: the product of the two values over one channel.
    a = relay.var("a", shape=(1, 1, 1, 1))
    b = relay.var("b", shape=(1, 1, 1, 1))
    f = relay.Function([a, b], relay.nn.correlation(a, b, 1, 0, 1, 1, 0, True, "NCHW"))
    np.testing.assert_allclose(run(f, np.full((1, 1, 1, 1), 3, "float32"),
                                   np.full((1, 1, 1, 1), 4, "float32")), [[[[12.0]]]])


def test_bad_attrs_are_type_errors():
    a = relay.var("a", shape=(1, 1, 4, 4))
    for args in [(2, 1, 1, 1, 0), (1, 1, 0, 1, 0), (1, 9, 1, 1, 0), (1, 1, 1, 1, -1)]:
        with pytest.raises(tvm.TVMError):
            run_infer_type(relay.nn.correlation(a, a, *args, True, "NCHW"))
