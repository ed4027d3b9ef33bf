"""nn.conv2d_backward_weight (TVM v0.13's Conv2DBackwardWeightRel on Conv2DAttrs). Expected values:
a hand-computed 1-channel case, and NumPy's loops in topi.testing.conv2d_backward_weight_python
(dw[k, c, r, s] = sum of dy[n, k, p, q] * x[n, c', p * stride - pad + r, q * stride - pad + s])."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import run_infer_type
from relaypass.topi.testing import conv2d_backward_weight_python


def run(func, *args):
    mod = tvm.IRModule.from_expr(func)
    return relay.create_executor("debug", mod=mod).evaluate()(*args).numpy()


def test_one_channel_by_hand():
    # x = [[1, 2], [3, 4]], dy = 1 everywhere on a 1x1 kernel: dw = sum(x) = 10.
    x = relay.var("x", shape=(1, 1, 2, 2))
    dy = relay.var("dy", shape=(1, 1, 2, 2))
    # one data and one gradient channel with groups 1 is TVM's depthwise case: channels is needed
    f = relay.Function([dy, x], relay.nn.conv2d_backward_weight(dy, x, kernel_size=(1, 1),
                                                                channels=1))
    out = run(f, np.ones((1, 1, 2, 2), "float32"), np.array([[[[1, 2], [3, 4]]]], "float32"))
    np.testing.assert_allclose(out, [[[[10.0]]]])


@pytest.mark.parametrize("dy_shape,x_shape,stride,padding,groups,channels", [
    ((2, 8, 8, 8), (2, 4, 8, 8), (1, 1), (1, 1), 1, None),
    ((2, 6, 4, 4), (2, 3, 9, 9), (2, 2), (0, 0), 1, None),
    ((1, 4, 6, 6), (1, 4, 6, 6), (1, 1), (1, 1), 4, 4),
    ((1, 4, 6, 6), (1, 2, 6, 6), (1, 1), (1, 1), 2, None),
])
def test_matches_numpy_reference(dy_shape, x_shape, stride, padding, groups, channels):
    dy = relay.var("dy", shape=dy_shape)
    x = relay.var("x", shape=x_shape)
    y = relay.nn.conv2d_backward_weight(dy, x, strides=stride, padding=padding,
                                        kernel_size=(3, 3), groups=groups, channels=channels,
                                        out_dtype="float32")
    expected_shape = (dy_shape[1], x_shape[1] // groups, 3, 3)
    assert run_infer_type(y).checked_type == relay.TensorType(expected_shape, "float32")
    rng = np.random.default_rng(0)
    dy_np = rng.standard_normal(dy_shape).astype("float32")
    x_np = rng.standard_normal(x_shape).astype("float32")
    out = run(relay.Function([dy, x], y), dy_np, x_np)
    ref = conv2d_backward_weight_python(dy_np, x_np, (3, 3), stride, padding, groups=groups,
                                        channels=channels)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


def test_attrs_are_tvms_conv2d_attrs():
    dy = relay.var("dy", shape=(1, 2, 4, 4))
    x = relay.var("x", shape=(1, 2, 4, 4))
    y = relay.nn.conv2d_backward_weight(dy, x, kernel_size=3, padding=1)
    assert y.attrs.data_layout == "NCHW" and y.attrs.kernel_layout == "NCHW"
    assert y.attrs.out_layout == "OIHW"
    assert list(y.attrs.padding) == [1, 1, 1, 1]


def test_bad_inputs_are_type_errors():
    dy = relay.var("dy", shape=(1, 4, 4, 4))
    x = relay.var("x", shape=(1, 4, 4, 4))
    with pytest.raises(tvm.TVMError, match="kernel_size"):
        run_infer_type(relay.nn.conv2d_backward_weight(dy, x))
    with pytest.raises(tvm.TVMError, match="depth wise"):
        run_infer_type(relay.nn.conv2d_backward_weight(dy, x, kernel_size=3, groups=4))
    with pytest.raises(tvm.TVMError):
        run_infer_type(relay.nn.conv2d_backward_weight(dy, x, kernel_size=3, groups=3))
    with pytest.raises(tvm.TVMError):
        run_infer_type(relay.nn.conv2d_backward_weight(dy, x, kernel_size=3, strides=(0, 1)))
