"""nn.contrib_conv2d_NCHWc and nn.contrib_depthwise_conv2d_NCHWc (TVM's x86 blocked-layout
convolutions): their types and values against NumPy's NCHW convolution
(relaypass.topi.testing.conv2d_nchw_python), the data and kernels blocked by hand."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.topi.testing import conv2d_nchw_python


def _block_data(x, c):
    n, ch, h, w = x.shape
    return x.reshape(n, ch // c, c, h, w).transpose(0, 1, 3, 4, 2)


def _unblock_data(y):
    n, outer, h, w, c = y.shape
    return y.transpose(0, 1, 4, 2, 3).reshape(n, outer * c, h, w)


def _block_kernel(k, ic, oc):
    o, i, kh, kw = k.shape
    return k.reshape(o // oc, oc, i // ic, ic, kh, kw).transpose(0, 2, 4, 5, 3, 1)


def _run(y, *args):
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(y), y))
    return relay.create_executor("graph", mod=mod).evaluate()(*args).numpy(), \
        relay.transform.InferType()(mod)["main"].ret_type


@pytest.mark.parametrize("strides,padding", [((1, 1), (1, 1)), ((2, 2), (0, 0))])
def test_conv2d_nchwc_matches_nchw(strides, padding):
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (1, 16, 9, 9)).astype("float32")
    k = rng.uniform(-1, 1, (32, 16, 3, 3)).astype("float32")
    data = relay.var("data", shape=(1, 2, 9, 9, 8))
    kernel = relay.var("kernel", shape=(4, 2, 3, 3, 8, 8))
    y = relay.nn.contrib_conv2d_nchwc(data, kernel, strides, padding, kernel_size=(3, 3),
                                      channels=32, data_layout="NCHW8c",
                                      kernel_layout="OIHW8i8o", out_layout="NCHW8c")
    out, ty = _run(y, _block_data(x, 8), _block_kernel(k, 8, 8))
    expected = conv2d_nchw_python(x, k, strides, padding)
    assert tuple(int(d) for d in ty.shape) == _block_data(expected, 8).shape
    np.testing.assert_allclose(_unblock_data(out), expected, rtol=1e-5, atol=1e-5)


def test_depthwise_conv2d_nchwc_matches_nchw():
    rng = np.random.RandomState(1)
    x = rng.uniform(-1, 1, (1, 16, 8, 8)).astype("float32")
    k = rng.uniform(-1, 1, (16, 1, 3, 3)).astype("float32")
    data = relay.var("data", shape=(1, 2, 8, 8, 8))
    kernel = relay.var("kernel", shape=(2, 1, 3, 3, 1, 8))
    y = relay.nn.contrib_depthwise_conv2d_nchwc(data, kernel, padding=(1, 1), groups=16,
                                                channels=16, kernel_size=(3, 3),
                                                data_layout="NCHW8c", kernel_layout="OIHW1i8o",
                                                out_layout="NCHW8c")
    out, _ = _run(y, _block_data(x, 8), _block_kernel(k, 1, 8))
    expected = conv2d_nchw_python(x, k, (1, 1), (1, 1), groups=16)
    np.testing.assert_allclose(_unblock_data(out), expected, rtol=1e-5, atol=1e-5)


def test_nchwc_text_and_bad_layout():
    data = relay.var("data", shape=(1, 2, 8, 8, 8))
    kernel = relay.var("kernel", shape=(4, 2, 3, 3, 8, 8))
    y = relay.nn.contrib_conv2d_nchwc(data, kernel, kernel_size=(3, 3), channels=32,
                                      kernel_layout="OIHW8i8o", out_layout="NCHW8c")
    assert "nn.contrib_conv2d_NCHWc(%data, %kernel" in relay.Function([data, kernel], y).astext()
    bad = relay.nn.contrib_conv2d_nchwc(data, kernel, kernel_size=(3, 3), channels=32,
                                        kernel_layout="OIHW8i8o", data_layout="NCHW3c")
    with pytest.raises(Exception, match="NCHW3c|layout|channels"):
        relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([data, kernel], bad)))
