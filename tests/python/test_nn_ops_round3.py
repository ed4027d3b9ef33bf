"""Operators added for the PyTorch frontend and TVM's tests: 1-D convolution and pooling,
adaptive pooling, group norm, l2_normalize, bitwise and division operators. Expected values come
from NumPy (the reference computations below, written from the operators' definitions in TVM's
topi); each op runs on the debug executor (its kernel after SimplifyInference) and on
relay.build's graph executor."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.contrib import graph_executor

RNG = np.random.default_rng(7)


def run_both(expr, inputs):
    """(debug executor result, relay.build result) of `expr` over its free vars `inputs`."""
    mod = tvm.IRModule.from_expr(relay.Function(relay.analysis.free_vars(expr), expr))
    args = [inputs[v.name_hint] for v in mod["main"].params]
    debug = relay.create_executor("debug", mod=mod).evaluate()(*args).numpy()
    lib = relay.build(mod, target="llvm")
    module = graph_executor.GraphModule(lib["default"](tvm.cpu()))
    for v, a in zip(mod["main"].params, args):
        module.set_input(v.name_hint, a)
    module.run()
    return debug, module.get_output(0).numpy()


def adaptive_ref(x, out_sizes, reduce):
    """Adaptive pooling over the trailing len(out_sizes) axes (NC... layouts)."""
    s = len(out_sizes)
    spatial = x.shape[-s:]
    out = np.empty(x.shape[:-s] + tuple(out_sizes), dtype=x.dtype)
    for index in np.ndindex(*out_sizes):
        window = tuple(slice(i * n // m, -((-(i + 1) * n) // m))
                       for i, n, m in zip(index, spatial, out_sizes))
        region = x[(Ellipsis,) + window]
        out[(Ellipsis,) + index] = reduce(region, axis=tuple(range(-s, 0)))
    return out


@pytest.mark.parametrize("rank,shape,size", [(1, (2, 3, 10), (4,)), (2, (1, 2, 7, 9), (3, 4)),
                                             (3, (1, 2, 5, 6, 7), (2, 3, 4))])
@pytest.mark.parametrize("kind", ["avg", "max"])
def test_adaptive_pool_matches_numpy(rank, shape, size, kind):
    x = RNG.standard_normal(shape).astype("float32")
    op = getattr(relay.nn, "adaptive_{}_pool{}d".format(kind, rank))
    debug, built = run_both(op(relay.var("x", shape=shape), output_size=size), {"x": x})
    expected = adaptive_ref(x, size, np.mean if kind == "avg" else np.max)
    np.testing.assert_allclose(debug, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(built, expected, rtol=1e-5, atol=1e-6)


def test_adaptive_pool_output_size_forms():
    def out_shape(expr):
        mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
        return tuple(int(d) for d in mod["main"].ret_type.shape)

    x = relay.var("x", shape=(1, 3, 8, 6))
    assert out_shape(relay.nn.adaptive_avg_pool2d(x, output_size=1)) == (1, 3, 1, 1)
    assert out_shape(relay.nn.adaptive_avg_pool2d(x)) == (1, 3, 8, 6)
    assert out_shape(relay.nn.adaptive_max_pool2d(x, (None, 2))) == (1, 3, 8, 2)
    nhwc = relay.nn.adaptive_avg_pool2d(relay.var("y", shape=(1, 8, 6, 3)), (2, 3),
                                        layout="NHWC")
    assert out_shape(nhwc) == (1, 2, 3, 3)


def conv1d_ref(x, w, stride, pad, dilation):
    x = np.pad(x, ((0, 0), (0, 0), pad))
    n, c, width = x.shape
    o, _, k = w.shape
    out_w = (width - dilation * (k - 1) - 1) // stride + 1
    out = np.zeros((n, o, out_w), dtype=np.float64)
    for i in range(out_w):
        taps = x[:, :, i * stride: i * stride + dilation * (k - 1) + 1: dilation]
        out[:, :, i] = np.einsum("nck,ock->no", taps, w)
    return out


def test_conv1d_matches_numpy():
    x = RNG.standard_normal((2, 3, 17)).astype("float32")
    w = RNG.standard_normal((4, 3, 3)).astype("float32")
    expr = relay.nn.conv1d(relay.var("x", shape=x.shape), relay.var("w", shape=w.shape),
                           strides=2, padding=(1, 2), dilation=2)
    debug, built = run_both(expr, {"x": x, "w": w})
    expected = conv1d_ref(x, w, 2, (1, 2), 2)
    np.testing.assert_allclose(debug, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(built, expected, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool1d_matches_numpy(kind):
    x = RNG.standard_normal((2, 3, 11)).astype("float32")
    op = relay.nn.max_pool1d if kind == "max" else relay.nn.avg_pool1d
    expr = op(relay.var("x", shape=x.shape), pool_size=3, strides=2, padding=1)
    debug, built = run_both(expr, {"x": x})
    # Padding 1 on each side; max ignores the padding, avg divides by in-bounds taps
    # (count_include_pad=False).
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1)), constant_values=np.nan)
    windows = np.stack([padded[:, :, i * 2: i * 2 + 3] for i in range(6)], axis=2)
    expected = np.nanmax(windows, -1) if kind == "max" else np.nanmean(windows, -1)
    np.testing.assert_allclose(debug, expected, rtol=1e-6)
    np.testing.assert_allclose(built, expected, rtol=1e-6)


def test_group_norm_matches_numpy_and_simplify_inference_unpacks_it():
    x = RNG.standard_normal((2, 6, 4, 5)).astype("float32")
    gamma = RNG.standard_normal(6).astype("float32")
    beta = RNG.standard_normal(6).astype("float32")
    expr = relay.nn.group_norm(relay.var("x", shape=x.shape), relay.const(gamma),
                               relay.const(beta), num_groups=3, epsilon=1e-5)
    debug, built = run_both(expr, {"x": x})
    grouped = x.reshape(2, 3, 2, 4, 5).astype("float64")
    mean = grouped.mean(axis=(2, 3, 4), keepdims=True)
    var = grouped.var(axis=(2, 3, 4), keepdims=True)
    expected = ((grouped - mean) / np.sqrt(var + 1e-5)).reshape(x.shape)
    expected = expected * gamma.reshape(6, 1, 1) + beta.reshape(6, 1, 1)
    np.testing.assert_allclose(debug, expected, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(built, expected, rtol=1e-4, atol=1e-5)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(
        relay.Function(relay.analysis.free_vars(expr), expr)))
    unpacked = relay.transform.SimplifyInference()(mod)
    assert "nn.group_norm" not in unpacked.astext() and "variance" in unpacked.astext()


def test_group_norm_groups_must_divide_the_channels():
    expr = relay.nn.group_norm(relay.var("x", shape=(1, 6, 2)), relay.var("g"), relay.var("b"),
                               num_groups=4)
    with pytest.raises(tvm.error.DiagnosticError if hasattr(tvm.error, "DiagnosticError")
                       else Exception, match="num_groups"):
        relay.transform.InferType()(tvm.IRModule.from_expr(
            relay.Function(relay.analysis.free_vars(expr), expr)))


@pytest.mark.parametrize("axis", [None, (1,), (0, 2)])
def test_l2_normalize_matches_numpy(axis):
    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    debug, built = run_both(relay.nn.l2_normalize(relay.var("x", shape=x.shape), 1e-3, axis),
                            {"x": x})
    sums = np.sum(x.astype("float64") ** 2, axis=axis, keepdims=True)
    expected = x / np.sqrt(np.maximum(sums, 1e-3))
    np.testing.assert_allclose(debug, expected, rtol=1e-5)
    np.testing.assert_allclose(built, expected, rtol=1e-5)


@pytest.mark.parametrize("name,ref,dtype", [
    ("bitwise_and", np.bitwise_and, "int32"), ("bitwise_or", np.bitwise_or, "int8"),
    ("bitwise_xor", np.bitwise_xor, "uint8"), ("bitwise_and", np.bitwise_and, "bool"),
    ("floor_divide", np.floor_divide, "int32"), ("floor_divide", np.floor_divide, "float32"),
    ("trunc_mod", np.fmod, "int32"), ("trunc_mod", np.fmod, "float32")])
def test_binary_operators_match_numpy(name, ref, dtype):
    if dtype == "bool":
        a, b = RNG.integers(0, 2, (3, 4)).astype(bool), RNG.integers(0, 2, (4,)).astype(bool)
    elif dtype.startswith("float"):
        a = RNG.uniform(-9, 9, (3, 4)).astype(dtype)
        b = RNG.choice([-2.5, -1.5, 0.75, 3.0], (4,)).astype(dtype)
    else:
        info = np.iinfo(dtype)
        a = RNG.integers(max(info.min, -100), min(info.max, 100), (3, 4)).astype(dtype)
        b = RNG.choice([v for v in (-3, -1, 2, 5, 7) if info.min <= v], (4,)).astype(dtype)
    expr = getattr(relay, name)(relay.var("a", shape=a.shape, dtype=dtype),
                                relay.var("b", shape=b.shape, dtype=dtype))
    debug, built = run_both(expr, {"a": a, "b": b})
    np.testing.assert_allclose(debug, ref(a, b), rtol=1e-6)
    np.testing.assert_allclose(built, ref(a, b), rtol=1e-6)


@pytest.mark.parametrize("name,ref,dtype", [
    ("log2", np.log2, "float32"), ("log10", np.log10, "float64"),
    ("bitwise_not", np.invert, "int16"), ("bitwise_not", np.invert, "bool"),
    ("copy", np.copy, "int64")])
def test_unary_operators_match_numpy(name, ref, dtype):
    if dtype == "bool":
        a = RNG.integers(0, 2, (5,)).astype(bool)
    elif dtype.startswith("float"):
        a = RNG.uniform(0.1, 50, (5,)).astype(dtype)
    else:
        a = RNG.integers(-50, 50, (5,)).astype(dtype)
    debug, built = run_both(getattr(relay, name)(relay.var("a", shape=a.shape, dtype=dtype)),
                            {"a": a})
    np.testing.assert_allclose(debug, ref(a), rtol=1e-6)
    np.testing.assert_allclose(built, ref(a), rtol=1e-6)


def test_integer_floor_divide_by_zero_is_an_error():
    a = relay.var("a", shape=(2,), dtype="int32")
    mod = tvm.IRModule.from_expr(relay.Function([a], relay.floor_divide(a, relay.const(0))))
    with pytest.raises(tvm.TVMError if hasattr(tvm, "TVMError") else Exception,
                       match="division by zero"):
        relay.create_executor("debug", mod=mod).evaluate()(np.array([1, 2], "int32"))


def test_full_like_fills_in_the_data_dtype():
    # Expected: NumPy's full_like (the fill value cast to the data's dtype).
    x = np.arange(6, dtype="int32").reshape(2, 3)
    debug, built = run_both(relay.full_like(relay.var("x", shape=(2, 3), dtype="int32"),
                                            relay.const(2.75)), {"x": x})
    np.testing.assert_array_equal(debug, np.full_like(x, 2.75))
    np.testing.assert_array_equal(built, np.full_like(x, 2.75))
    with pytest.raises(Exception, match="should be a scalar"):
        relay.transform.InferType()(tvm.IRModule.from_expr(
            relay.full_like(relay.var("y", shape=(2,)), relay.const(np.ones(2, "float32")))))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_matches_numpy(reduction):
    # Expected: TVM's topi definition in NumPy (ignore_index 1 contributes neither loss nor
    # weight).
    pred = RNG.standard_normal((3, 4, 5)).astype("float32")
    targets = RNG.integers(0, 4, (3, 5)).astype("int32")
    weights = RNG.uniform(0.5, 2, 4).astype("float32")
    expr = relay.nn.nll_loss(relay.var("p", shape=pred.shape), relay.var("t", shape=targets.shape,
                                                                          dtype="int32"),
                             relay.var("w", shape=weights.shape), reduction, ignore_index=1)
    debug, built = run_both(expr, {"p": pred, "t": targets, "w": weights})
    picked = np.take_along_axis(pred, targets[:, None, :], axis=1)[:, 0, :]
    w = np.where(targets == 1, 0.0, weights[targets])
    loss = -picked * w
    expected = {"none": loss, "sum": loss.sum(), "mean": loss.sum() / w.sum()}[reduction]
    np.testing.assert_allclose(debug, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(built, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("src,dst", [((1, 1), (5, 1)), ((1, 1), (1, 7)), ((3, 1, 4), (2, 3, 5, 4)),
                                     ((4,), (3, 4)), ((2, 1), (2, 3)), ((1, 3, 1), (2, 3, 4)),
                                     ((2, 3), (2, 3)), ((1,), (0, 4))])
def test_broadcast_to_matches_numpy(src, dst):
    # broadcast_to copies blocks and doubles them in place (a 2 GiB broadcast of a (1, 1) bool took
    # 16 s element by element: the Python-API fuzzer's hang 20:9705); expected: np.broadcast_to.
    x = np.arange(int(np.prod(src)), dtype="int16").reshape(src)
    debug, built = run_both(relay.broadcast_to(relay.var("x", shape=src, dtype="int16"), dst),
                            {"x": x})
    np.testing.assert_array_equal(debug, np.broadcast_to(x, dst))
    np.testing.assert_array_equal(built, np.broadcast_to(x, dst))


def test_one_bias_or_alpha_value_applies_to_every_channel():
    # TVM's bias_add is add(data, expand_dims(bias)): a bias of one value broadcasts (NumPy's
    # x + b); prelu with one alpha scales every channel's negatives by it (by hand: x * 0.5).
    x = np.array([[[-2.0, 1.0], [3.0, -4.0]]], "float32")
    data = relay.var("data", shape=(relay.Any(), relay.Any(), relay.Any()))
    bias = relay.const(np.array([1.5], "float32"))
    alpha = relay.const(np.array([0.5], "float32"))
    for body, expected in ((relay.nn.bias_add(data, bias), x + 1.5),
                           (relay.nn.prelu(data, alpha), np.where(x < 0, 0.5 * x, x))):
        out = relay.create_executor("vm").evaluate(relay.Function([data], body))(x)
        np.testing.assert_allclose(out.numpy(), expected)


def test_uint1_is_bool():
    # TVM's bool is uint1: a condition of dtype uint1 is a bool scalar.
    assert relay.TensorType((), "uint1") == relay.TensorType((), "bool")


def test_conv1d_transpose_reads_the_first_output_padding_value():
    # TVM's relation reads output_padding[0] only (its test_any passes two values): the result
    # is the one of a single value.
    x = relay.var("x", shape=(1, 2, 5))
    w = relay.const(np.arange(12, dtype="float32").reshape(2, 3, 2))
    data = np.arange(10, dtype="float32").reshape(1, 2, 5)
    outs = []
    for padding in ((1,), (1, 1)):
        body = relay.nn.conv1d_transpose(x, w, strides=(2,), output_padding=padding)
        outs.append(relay.create_executor("graph").evaluate(relay.Function([x], body))(data).numpy())
    assert outs[0].shape == (1, 3, 11)
    np.testing.assert_array_equal(outs[0], outs[1])


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (True, True)])
def test_matmul_matches_numpy_and_its_gradient_checks(ta, tb):
    # Expected values: NumPy's matmul of the (transposed) operands; the gradient against finite
    # differences (relay.testing.check_grad).
    rng = np.random.default_rng(4)
    a = rng.uniform(-1, 1, (2, 3, 4) if not ta else (2, 4, 3)).astype("float32")
    b = rng.uniform(-1, 1, (4, 5) if not tb else (5, 4)).astype("float32")
    x, w = relay.var("x", shape=a.shape), relay.var("w", shape=b.shape)
    func = relay.Function([x, w], relay.nn.matmul(x, w, transpose_a=ta, transpose_b=tb))
    out = relay.create_executor("graph").evaluate(func)(a, b)
    expected = np.matmul(a.swapaxes(-1, -2) if ta else a, b.T if tb else b)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)
    # The gradient, on 2-D operands (TVM's matmul_grad is for those; its test_matmul_grad too).
    a2 = a[0]
    x2 = relay.var("x", shape=a2.shape, dtype="float64")
    w2 = relay.var("w", shape=b.shape, dtype="float64")
    func2 = relay.Function([x2, w2], relay.nn.matmul(x2, w2, transpose_a=ta, transpose_b=tb))
    relay.testing.check_grad(func2, inputs=[a2.astype("float64"), b.astype("float64")])
