"""nn.max_pool1d / avg_pool1d / max_pool3d / avg_pool3d on channel-last layouts (NWC, NDHWC) and
other orderings of NCW / NCDHW, as TVM's Pool1DRel / Pool3DRel accept them.

Expected values: types from TVM's relations (the output in the data's layout, spatial extents
(in + pads - pool) / stride + 1); numbers from NumPy (the windows computed here by hand)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _run(expr, *inputs):
    func = relay.Function(relay.analysis.free_vars(expr), expr)
    return relay.create_executor("debug").evaluate(func)(*inputs).numpy()


def _type(expr):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    return mod["main"].body.checked_type


def test_pool1d_nwc_types_and_values():
    data = np.random.RandomState(0).uniform(-1, 1, (2, 7, 3)).astype("float32")  # N, W, C
    x = relay.var("x", shape=data.shape)
    mx = relay.nn.max_pool1d(x, pool_size=2, strides=2, padding=[1, 0], layout="NWC")
    assert _type(mx) == relay.TensorType((2, 4, 3), "float32")
    padded = np.pad(data, ((0, 0), (1, 0), (0, 0)), constant_values=-np.inf)
    want = np.stack([padded[:, 2 * i:2 * i + 2, :].max(axis=1) for i in range(4)], axis=1)
    np.testing.assert_array_equal(_run(mx, data), want)
    av = relay.nn.avg_pool1d(x, pool_size=3, strides=1, layout="NWC")
    want = np.stack([data[:, i:i + 3, :].mean(axis=1) for i in range(5)], axis=1)
    np.testing.assert_allclose(_run(av, data), want, rtol=1e-6)


def test_pool3d_ndhwc_matches_ncdhw():
    data = np.random.RandomState(1).uniform(-1, 1, (1, 4, 5, 6, 2)).astype("float32")
    x = relay.var("x", shape=data.shape)
    y = relay.nn.avg_pool3d(x, pool_size=(2, 2, 2), strides=(2, 2, 2), layout="NDHWC",
                            padding=(0, 1, 0, 0, 1, 0))
    assert _type(y) == relay.TensorType((1, 2, 3, 3, 2), "float32")
    # The average of each 2x2x2 window, count_include_pad=False: NumPy over the valid cells.
    padded = np.pad(data, ((0, 0), (0, 0), (1, 1), (0, 0), (0, 0)), constant_values=np.nan)
    want = np.empty((1, 2, 3, 3, 2), "float32")
    for d in range(2):
        for h in range(3):
            for w in range(3):
                win = padded[:, 2 * d:2 * d + 2, 2 * h:2 * h + 2, 2 * w:2 * w + 2, :]
                want[:, d, h, w, :] = np.nanmean(win, axis=(1, 2, 3))
    np.testing.assert_allclose(_run(y, data), want, rtol=1e-6)


def test_bad_pool_layouts_are_type_errors():
    x = relay.var("x", shape=(1, 4, 3))
    with pytest.raises(tvm.error.RelayTypeError, match="not an ordering of NCW"):
        _type(relay.nn.max_pool1d(x, layout="NHW"))
    with pytest.raises(tvm.error.RelayTypeError, match="out_layout"):
        _type(relay.nn.max_pool1d(x, layout="NWC", out_layout="NCW"))
