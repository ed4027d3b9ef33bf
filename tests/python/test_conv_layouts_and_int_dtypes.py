"""Convolution layouts beyond the channel-first ones (nn.conv1d NWC, nn.conv3d NDHWC / DHWIO,
nn.conv2d_transpose NHWC / HWOI and OIHW kernels), integer convolutions (int8 data, int32
out_dtype), integer 1-D / 3-D pooling, global 1-D pooling and the dtype name "float". Expected
values: NumPy references in relaypass.topi.testing (conv1d_ncw_python, conv3d_ndhwc_python,
conv2d_transpose_nchw_python, poolnd_python: direct loops over the definitions) and TVM's rule that
"float" names float32."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.testing import run_infer_type
from relaypass.topi import testing as ref


def run(func, *args):
    mod = tvm.IRModule.from_expr(func)
    return relay.create_executor("debug", mod=mod).evaluate()(*args).numpy()


def test_conv1d_nwc_and_int8():
    rng = np.random.default_rng(0)
    x_ncw = rng.integers(-8, 8, size=(2, 3, 9)).astype("int8")
    w_oiw = rng.integers(-8, 8, size=(4, 3, 3)).astype("int8")
    expected = ref.conv1d_ncw_python(x_ncw.astype("int32"), w_oiw.astype("int32"), 1, 1, 1)
    x = relay.var("x", shape=(2, 9, 3), dtype="int8")
    w = relay.var("w", shape=(4, 3, 3), dtype="int8")
    y = relay.nn.conv1d(x, w, padding=(1, 1), data_layout="NWC", out_dtype="int32")
    assert run_infer_type(y).checked_type == relay.TensorType((2, 9, 4), "int32")
    out = run(relay.Function([x, w], y), x_ncw.transpose(0, 2, 1).copy(), w_oiw)
    np.testing.assert_array_equal(out, expected.transpose(0, 2, 1))


def test_conv3d_ndhwc_dhwio():
    rng = np.random.default_rng(1)
    x_np = rng.standard_normal((1, 4, 5, 6, 3)).astype("float32")
    w_np = rng.standard_normal((2, 2, 2, 3, 4)).astype("float32")
    x = relay.var("x", shape=x_np.shape)
    w = relay.var("w")
    y = relay.nn.conv3d(x, w, kernel_size=(2, 2, 2), channels=4, data_layout="NDHWC",
                        kernel_layout="DHWIO")
    yy = run_infer_type(y)
    assert yy.checked_type == relay.TensorType((1, 3, 4, 5, 4), "float32")
    assert yy.args[1].checked_type == relay.TensorType((2, 2, 2, 3, 4), "float32")
    out = run(relay.Function([x, w], y), x_np, w_np)
    np.testing.assert_allclose(out, ref.conv3d_ndhwc_python(x_np, w_np, 1, 0), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("data_layout,kernel_layout", [("NCHW", "OIHW"), ("NHWC", "HWOI")])
def test_conv2d_transpose_other_layouts(data_layout, kernel_layout):
    rng = np.random.default_rng(2)
    x_nchw = rng.standard_normal((1, 3, 5, 5)).astype("float32")
    w_iohw = rng.standard_normal((3, 6, 3, 3)).astype("float32")
    expected = ref.conv2d_transpose_nchw_python(x_nchw, w_iohw, (2, 2), (1, 1), (0, 0))
    x_np = x_nchw if data_layout == "NCHW" else x_nchw.transpose(0, 2, 3, 1).copy()
    # OIHW names the transposed convolution's kernel [out, in, h, w]; HWOI is [h, w, out, in]
    w_np = (w_iohw.transpose(1, 0, 2, 3) if kernel_layout == "OIHW"
            else w_iohw.transpose(2, 3, 1, 0)).copy()
    x = relay.var("x", shape=x_np.shape)
    w = relay.var("w", shape=w_np.shape)
    y = relay.nn.conv2d_transpose(x, w, channels=6, kernel_size=(3, 3), strides=(2, 2),
                                  padding=(1, 1), data_layout=data_layout,
                                  kernel_layout=kernel_layout)
    out = run(relay.Function([x, w], y), x_np, w_np)
    if data_layout == "NHWC":
        out = out.transpose(0, 3, 1, 2)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5)


def test_layouts_that_are_not_orderings_are_type_errors():
    x = relay.var("x", shape=(1, 3, 8))
    w = relay.var("w", shape=(2, 3, 3))
    for kwargs in [{"data_layout": "NCH"}, {"kernel_layout": "OIWW"},
                   {"out_layout": "NWC"}]:
        with pytest.raises(tvm.TVMError):
            run_infer_type(relay.nn.conv1d(x, w, **kwargs))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8"])
def test_integer_pooling(dtype):
    data = np.array([[[5, 1, 7, 2, 9, 3]]], dtype=dtype)
    x = relay.var("x", shape=data.shape, dtype=dtype)
    mx = run(relay.Function([x], relay.nn.max_pool1d(x, pool_size=2, strides=2)), data)
    np.testing.assert_array_equal(mx, [[[5, 7, 9]]])
    # avg: the integer sum over the window size, truncated (6 / 2, 9 / 2, 12 / 2)
    av = run(relay.Function([x], relay.nn.avg_pool1d(x, pool_size=2, strides=2)), data)
    np.testing.assert_array_equal(av, [[[3, 4, 6]]])
    x3 = relay.var("x3", shape=(1, 1, 1, 1, 6), dtype=dtype)
    mx3 = run(relay.Function([x3], relay.nn.max_pool3d(x3, pool_size=(1, 1, 3),
                                                       strides=(1, 1, 3))), data.reshape(x3.type_annotation.concrete_shape))
    np.testing.assert_array_equal(mx3.reshape(-1), [7, 9])


def test_global_pool1d():
    data = np.arange(12, dtype="float32").reshape(2, 2, 3)
    x = relay.var("x", shape=data.shape)
    np.testing.assert_allclose(run(relay.Function([x], relay.nn.global_max_pool1d(x)), data),
                               data.max(axis=2, keepdims=True))
    np.testing.assert_allclose(run(relay.Function([x], relay.nn.global_avg_pool1d(x)), data),
                               data.mean(axis=2, keepdims=True))


def test_float_names_float32():
    assert relay.TensorType((), "float") == relay.TensorType((), "float32")
    assert relay.TensorType((2,), "int").dtype == "int32"
