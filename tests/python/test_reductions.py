"""relay.all / any / variance / std / mean_variance / mean_std / logsumexp (TVM v0.13's
definitions in python/tvm/relay/op/reduce.py), on every executor. Expected values come from
NumPy (np.all, np.any, np.var and np.std with ddof, np.log(np.sum(np.exp(...))))."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay, te

EXECUTORS = ["debug", "graph", "vm"]
RNG = np.random.default_rng(7)


def _run(kind, params, body, *args):
    return relay.create_executor(kind).evaluate(relay.Function(params, body))(*args)


@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("axis,keepdims,exclude", [
    (None, False, False), (1, True, False), ((0, 2), False, False), (1, False, True),
])
def test_variance_and_std_match_numpy(kind, axis, keepdims, exclude):
    data = RNG.uniform(size=(3, 4, 5)).astype("float32")
    x = relay.var("x", shape=data.shape)
    np_axis = axis
    if exclude:
        np_axis = tuple(i for i in range(3) if i != axis)
    for unbiased in (False, True):
        ddof = 1 if unbiased else 0
        var = _run(kind, [x], relay.variance(x, axis, keepdims, exclude, unbiased), data)
        np.testing.assert_allclose(
            var.numpy(), np.var(data, axis=np_axis, ddof=ddof, keepdims=keepdims), rtol=1e-5)
        std = _run(kind, [x], relay.std(x, axis, keepdims, exclude, unbiased), data)
        np.testing.assert_allclose(
            std.numpy(), np.std(data, axis=np_axis, ddof=ddof, keepdims=keepdims), rtol=1e-5)


def test_variance_text_and_type_are_tvms():
    x = relay.var("x", shape=(2, 3, 4))
    z = relay.variance(x, axis=1, keepdims=True, unbiased=True)
    text = relay.Function([x], z).astext()
    # TVM prints the mean (keepdims=True) and the variance call with its non-default attrs.
    assert "%0 = mean(%x, axis=[1], keepdims=True);" in text
    assert "variance(%x, %0, axis=[1], keepdims=True, unbiased=True)" in text
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(z))
    assert mod["main"].ret_type == relay.TensorType((2, 1, 4), "float32")


def test_variance_of_a_mean_of_another_rank_is_a_type_error():
    x = relay.var("x", shape=(2, 3))
    m = relay.var("m", shape=(2,))
    bad = relay.op.reduce._variance(x, m, [1], False, False, False)
    with pytest.raises(Exception, match="variance: the mean"):
        relay.transform.InferType()(tvm.IRModule.from_expr(bad))


@pytest.mark.parametrize("kind", EXECUTORS)
def test_all_and_any_match_numpy(kind):
    data = RNG.choice([True, False], size=(3, 4, 2))
    x = relay.var("x", shape=data.shape, dtype="bool")
    for axis in (None, 0, (1, 2)):
        for keepdims in (False, True):
            got_all = _run(kind, [x], relay.all(x, axis, keepdims), data).numpy()
            got_any = _run(kind, [x], relay.any(x, axis, keepdims), data).numpy()
            np.testing.assert_array_equal(got_all, np.all(data, axis=axis, keepdims=keepdims))
            np.testing.assert_array_equal(got_any, np.any(data, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("kind", EXECUTORS)
def test_logsumexp_mean_variance_mean_std(kind):
    data = RNG.uniform(-3, 3, size=(2, 3, 4)).astype("float32")
    x = relay.var("x", shape=data.shape)
    got = _run(kind, [x], relay.logsumexp(x, axis=1), data).numpy()
    np.testing.assert_allclose(got, np.log(np.sum(np.exp(data), axis=1)), rtol=1e-5)
    mean, var = _run(kind, [x], relay.mean_variance(x, axis=2, unbiased=True).astuple(), data)
    np.testing.assert_allclose(mean.numpy(), np.mean(data, axis=2), rtol=1e-5)
    np.testing.assert_allclose(var.numpy(), np.var(data, axis=2, ddof=1), rtol=1e-5)
    mean, std = _run(kind, [x], relay.mean_std(x, axis=(0, 1)).astuple(), data)
    np.testing.assert_allclose(mean.numpy(), np.mean(data, axis=(0, 1)), rtol=1e-5)
    np.testing.assert_allclose(std.numpy(), np.std(data, axis=(0, 1)), rtol=1e-5)


def test_reductions_keep_a_symbolic_dimension():
    # TVM v0.13 (test_op_level4.py's TestReduceFunctions): sum over axis 1 of (d1, d2, d3) with
    # keepdims is (d1, 1, d3).
    d1, d2, d3 = te.var("d1"), te.var("d2"), te.var("d3")
    assert d1.name == "d1" and d1.dtype == "int32"
    x = relay.var("x", relay.TensorType((d1, d2, d3), "float32"))
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(relay.sum(x, axis=1, keepdims=True)))
    assert mod["main"].body.checked_type == relay.TensorType((d1, 1, d3), "float32")
