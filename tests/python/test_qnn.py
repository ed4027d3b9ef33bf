"""relay.qnn: the quantized operators, their lowering (relay.qnn.transform.CanonicalizeOps) and
their evaluation. Expected values are NumPy computations of TVM's formulas (src/relay/qnn/op/*.cc
and utils.cc), written out below; a few are worked by hand in the comments."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.contrib import graph_executor


def _run(expr, *inputs, executor="debug"):
    params = relay.analysis.free_vars(expr)
    mod = tvm.IRModule.from_expr(relay.Function(params, expr))
    return relay.create_executor(executor, mod=mod).evaluate()(*inputs).numpy()


def _built(expr, *inputs):
    """relay.build + the graph executor, as TVM's qnn tests run them."""
    params = relay.analysis.free_vars(expr)
    mod = tvm.IRModule.from_expr(relay.Function(params, expr))
    with tvm.transform.PassContext(opt_level=3):
        lib = relay.build(mod, "llvm")
    module = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
    for p, value in zip(params, inputs):
        module.set_input(p.name_hint, value)
    module.run()
    return module.get_output(0).numpy()


def _f(v):
    return relay.const(np.float32(v), "float32") if np.ndim(v) == 0 else relay.const(
        np.array(v, "float32"))


def _i(v):
    return relay.const(np.int32(v), "int32") if np.ndim(v) == 0 else relay.const(
        np.array(v, "int32"))


# ---- NumPy references of TVM's formulas

def np_fixed_point_multiply(x, multiplier, rounding):
    """TVM's GetFixedPointMultiplierShift + the int64 multiply, rounding offset and shift."""
    mantissa, exponent = np.frexp(multiplier)
    fixed = int(np.round(mantissa * (1 << 31)))
    if fixed == 1 << 31:
        fixed //= 2
        exponent += 1
    left = max(exponent, 0)
    right = max(-exponent, 0) + 31
    x = x.astype(np.int64) << left
    x = x * fixed
    pos = 1 << (right - 1)
    offset = np.where(x >= 0, pos, pos - 1) if rounding == "TONEAREST" else pos
    return ((x + offset) >> right).astype(np.int32)


def np_requantize(q, in_scale, in_zp, out_scale, out_zp, out_dtype, rounding="UPWARD"):
    x = q.astype(np.int32) - in_zp
    multiplier = float(np.float32(in_scale)) / float(np.float32(out_scale))
    if in_scale != out_scale:
        x = np_fixed_point_multiply(x, multiplier, rounding)
    info = np.iinfo(out_dtype)
    return np.clip(x + out_zp, info.min, info.max).astype(out_dtype)


def np_round(x):
    """TVM's relay round as it runs (llvm.round): halves away from zero."""
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


def np_quantize(x, scale, zp, dtype):
    info = np.iinfo(dtype)
    return np.clip(np_round(x / np.float32(scale)) + zp, info.min, info.max).astype(dtype)


# ---- quantize / dequantize

def test_quantize_rounds_halves_away_from_zero_and_saturates():
    x = np.array([-300.0, -1.5, -0.5, 0.5, 1.5, 2.5, 300.0], "float32")
    q = relay.qnn.op.quantize(relay.var("x", shape=(7,)), _f(1.0), _i(0), out_dtype="int8")
    # round(-0.5) = -1, round(2.5) = 3 (TVM's round runs as llvm.round); +-300 saturate.
    np.testing.assert_array_equal(_run(q, x), [-128, -2, -1, 1, 2, 3, 127])
    np.testing.assert_array_equal(_run(q, x), np_quantize(x, 1.0, 0, "int8"))


def test_quantize_per_channel_axis_0():
    x = np.arange(-6, 6, dtype="float32").reshape(3, 4)
    scales, zps = [0.5, 1.0, 2.0], [1, 0, -1]
    q = relay.qnn.op.quantize(relay.var("x", shape=(3, 4)), _f(scales), _i(zps), axis=0,
                              out_dtype="int8")
    want = np.stack([np_quantize(x[c], scales[c], zps[c], "int8") for c in range(3)])
    np.testing.assert_array_equal(_run(q, x), want)


def test_dequantize_uint8_and_per_tensor_vector_args():
    q = np.array([0, 1, 127, 254, 255], "uint8")
    expr = relay.qnn.op.dequantize(relay.var("q", shape=(5,), dtype="uint8"), _f([0.5]), _i([127]))
    # 0.5 * (q - 127)
    np.testing.assert_array_equal(_run(expr, q), [-63.5, -63.0, 0.0, 63.5, 64.0])


def test_dequantize_with_computed_scale():
    x = relay.var("x", shape=(2, 2), dtype="int8")
    s = relay.var("s", shape=(), dtype="float32")
    z = relay.var("z", shape=(), dtype="int32")
    expr = relay.qnn.op.dequantize(x, s * s, z + z)
    data = np.array([[-4, 0], [2, 10]], "int8")
    got = _run(expr, data, np.float32(2.0), np.int32(1))
    np.testing.assert_array_equal(got, 4.0 * (data.astype("float32") - 2))


# ---- requantize

@pytest.mark.parametrize("rounding", ["UPWARD", "TONEAREST"])
@pytest.mark.parametrize("compute_dtype", ["int64", "float32", "float64"])
def test_requantize_downscale_by_16(rounding, compute_dtype):
    data = np.arange(0, -32, -1).astype("int32")
    expr = relay.qnn.op.requantize(relay.var("x", shape=(32,), dtype="int32"), _f(1.0), _i(0),
                                   _f(16.0), _i(0), rounding=rounding,
                                   compute_dtype=compute_dtype, out_dtype="int8")
    # -8/16 = -0.5: UPWARD gives 0, TONEAREST (away from zero) -1; likewise -24/16 = -1.5.
    counts = [9, 16, 7] if rounding == "UPWARD" else [8, 16, 8]
    want = np.repeat([0, -1, -2], counts)
    np.testing.assert_array_equal(_run(expr, data), want)
    np.testing.assert_array_equal(_built(expr, data), want)


def test_requantize_non_power_of_two_matches_fixed_point_reference():
    rng = np.random.default_rng(0)
    data = rng.integers(-5000, 5000, size=(64,)).astype("int32")
    for rounding in ("UPWARD", "TONEAREST"):
        expr = relay.qnn.op.requantize(relay.var("x", shape=(64,), dtype="int32"), _f(0.37),
                                       _i(3), _f(1.9), _i(-2), rounding=rounding,
                                       out_dtype="int8")
        want = np_requantize(data, 0.37, 3, 1.9, -2, "int8", rounding)
        np.testing.assert_array_equal(_run(expr, data), want)


def test_requantize_config_supplies_the_unset_rounding():
    data = np.array([-8, -24, 8, 24], "int32")
    x = relay.var("x", shape=(4,), dtype="int32")
    with relay.qnn.op.requantize_config(rounding="TONEAREST"):
        expr = relay.qnn.op.requantize(x, _f(1.0), _i(0), _f(16.0), _i(0), out_dtype="int8")
        np.testing.assert_array_equal(_built(expr, data), [-1, -2, 1, 2])
    # Outside the block the default, UPWARD: -0.5 -> 0, -1.5 -> -1.
    np.testing.assert_array_equal(_built(expr, data), [0, -1, 1, 2])


def test_requantize_per_channel():
    data = np.array([[100, -100], [100, -100]], "int32")
    expr = relay.qnn.op.requantize(relay.var("x", shape=(2, 2), dtype="int32"), _f([1.0, 0.25]),
                                   _i([0, 0]), _f(0.5), _i(0), axis=1, out_dtype="int16")
    # column 0: 100 * 2 = 200; column 1: -100 * 0.5 = -50
    np.testing.assert_array_equal(_run(expr, data), [[200, -50], [200, -50]])


# ---- binary ops

def test_add_requantizes_both_inputs():
    a = np.array([0, 10, 100, 255], "uint8")
    b = np.array([255, 10, 0, 255], "uint8")
    x = relay.var("a", shape=(4,), dtype="uint8")
    y = relay.var("b", shape=(4,), dtype="uint8")
    expr = relay.qnn.op.add(x, y, _f(0.5), _i(10), _f(0.25), _i(0), _f(1.0), _i(5))
    qa = np_requantize(a, 0.5, 10, 1.0, 5, "int32")
    qb = np_requantize(b, 0.25, 0, 1.0, 5, "int32")
    want = np.clip(qa + qb - 5, 0, 255).astype("uint8")
    np.testing.assert_array_equal(_run(expr, a, b), want)


def test_subtract_and_mul():
    a = np.array([-128, -3, 0, 7, 127], "int8")
    b = np.array([127, 3, 0, -7, 127], "int8")
    x = relay.var("a", shape=(5,), dtype="int8")
    y = relay.var("b", shape=(5,), dtype="int8")
    sub = relay.qnn.op.subtract(x, y, _f(0.1), _i(0), _f(0.1), _i(0), _f(0.1), _i(0))
    # Same scales and zero points: a - b, saturated to int8.
    np.testing.assert_array_equal(
        _run(sub, a, b), np.clip(a.astype(int) - b, -128, 127).astype("int8"))
    mul = relay.qnn.op.mul(x, y, _f(0.5), _i(0), _f(0.5), _i(0), _f(1.0), _i(0))
    product = a.astype(np.int32) * b.astype(np.int32)
    np.testing.assert_array_equal(_run(mul, a, b), np_requantize(product, 0.25, 0, 1.0, 0, "int8"))


# ---- dense, conv2d, batch_matmul, concatenate

def test_dense_with_zero_points_and_per_channel_kernel_zero_point():
    rng = np.random.default_rng(1)
    data = rng.integers(0, 255, size=(3, 5)).astype("uint8")
    weight = rng.integers(-128, 127, size=(4, 5)).astype("int8")
    kzp = np.array([0, 1, -2, 3], "int32")
    expr = relay.qnn.op.dense(relay.var("d", shape=(3, 5), dtype="uint8"), relay.const(weight),
                              _i(7), _i(kzp), _f(0.5), _f([0.1, 0.2, 0.3, 0.4]), units=4)
    want = (data.astype(np.int32) - 7) @ (weight.astype(np.int32) - kzp[:, None]).T
    np.testing.assert_array_equal(_run(expr, data), want)


def test_conv2d_pads_with_the_input_zero_point():
    data = np.full((1, 1, 2, 2), 5, "uint8")
    weight = np.ones((1, 1, 3, 3), "int8")
    expr = relay.qnn.op.conv2d(relay.var("d", shape=(1, 1, 2, 2), dtype="uint8"),
                               relay.const(weight), _i(5), _i(0), _f(1.0), _f(1.0),
                               kernel_size=(3, 3), channels=1, padding=(1, 1))
    # Every real value is 5 - 5 = 0, and the padding stands for the zero point: all sums 0.
    np.testing.assert_array_equal(_run(expr, data), np.zeros((1, 1, 2, 2), "int32"))


def test_conv2d_matches_numpy_reference():
    rng = np.random.default_rng(2)
    data = rng.integers(0, 255, size=(1, 2, 4, 4)).astype("uint8")
    weight = rng.integers(-128, 127, size=(3, 2, 2, 2)).astype("int8")
    expr = relay.qnn.op.conv2d(relay.var("d", shape=(1, 2, 4, 4), dtype="uint8"),
                               relay.const(weight), _i(128), _i(2), _f(1.0), _f(1.0),
                               kernel_size=(2, 2), channels=3, strides=(2, 2))
    d = data.astype(np.int64) - 128
    w = weight.astype(np.int64) - 2
    want = np.zeros((1, 3, 2, 2), np.int64)
    for o in range(3):
        for i in range(2):
            for j in range(2):
                want[0, o, i, j] = np.sum(d[0, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2] * w[o])
    np.testing.assert_array_equal(_run(expr, data), want)


@pytest.mark.parametrize("per_channel", [False, True])
def test_conv2d_transpose_matches_numpy_reference(per_channel):
    """TVM's lowering (int16 operands minus zero points, nn.conv2d_transpose), against a NumPy
    scatter of each shifted input value times the shifted kernel (IOHW), stride 2, padding 1;
    the same through relay.build, and relay.qnn.transform.Legalize lowers it without a target."""
    rng = np.random.default_rng(3)
    data = rng.integers(0, 255, size=(1, 2, 3, 3)).astype("uint8")
    weight = rng.integers(-128, 127, size=(2, 3, 3, 3)).astype("int8")
    kernel_scale = _f(0.5) if not per_channel else relay.const(np.array([0.5, 1, 2], "float32"))
    d_var = relay.var("d", shape=(1, 2, 3, 3), dtype="uint8")
    expr = relay.qnn.op.conv2d_transpose(d_var, relay.const(weight), _i(100), _i(3), _f(1.0),
                                         kernel_scale, strides=(2, 2), padding=(1, 1),
                                         kernel_size=(3, 3), channels=3)
    d = data.astype(np.int64) - 100
    w = weight.astype(np.int64) - 3
    full = np.zeros((1, 3, 7, 7), np.int64)  # (3 - 1) * 2 + 3 before the padding is cut
    for c in range(2):
        for y in range(3):
            for x in range(3):
                full[0, :, 2 * y:2 * y + 3, 2 * x:2 * x + 3] += d[0, c, y, x] * w[c]
    want = full[:, :, 1:6, 1:6]
    np.testing.assert_array_equal(_run(expr, data), want)
    np.testing.assert_array_equal(_built(expr, data), want)
    mod = tvm.IRModule.from_expr(relay.Function([d_var], expr))
    legalized = relay.qnn.transform.Legalize()(relay.transform.InferType()(mod))
    assert "qnn.conv2d_transpose" not in legalized.astext()
    assert "nn.conv2d_transpose" in legalized.astext()


def test_batch_matmul():
    x = np.arange(12, dtype="int8").reshape(1, 3, 4)
    y = np.arange(8, dtype="int8").reshape(1, 2, 4)
    expr = relay.qnn.op.batch_matmul(relay.var("x", shape=(1, 3, 4), dtype="int8"),
                                     relay.var("y", shape=(1, 2, 4), dtype="int8"),
                                     _i(1), _i(2), _f(1.0), _f(1.0))
    want = (x.astype(np.int32) - 1) @ np.swapaxes(y.astype(np.int32) - 2, 1, 2)
    np.testing.assert_array_equal(_run(expr, x, y), want)


def test_concatenate_requantizes_mismatched_inputs():
    a = np.array([[10, 20]], "uint8")
    b = np.array([[10, 20]], "uint8")
    expr = relay.qnn.op.concatenate(
        [relay.var("a", shape=(1, 2), dtype="uint8"), relay.var("b", shape=(1, 2), dtype="uint8")],
        [_f(1.0), _f(2.0)], [_i(0), _i(0)], _f(1.0), _i(0), axis=0)
    # a keeps its values; b's scale 2 doubles them.
    np.testing.assert_array_equal(_run(expr, a, b), [[10, 20], [20, 40]])


def test_unary_tanh_is_dequantize_tanh_quantize():
    q = np.arange(-128, 128, dtype="int8")
    expr = relay.qnn.op.tanh(relay.var("q", shape=(256,), dtype="int8"), _f(0.05), _i(0),
                             _f(1.0 / 127), _i(0))
    real = np.tanh((q.astype(np.int32) * np.float32(0.05)).astype("float32"))
    want = np_quantize(real, np.float32(1.0 / 127), 0, "int8")
    np.testing.assert_allclose(_run(expr, q), want, atol=1)


# ---- the passes, text and errors

def test_canonicalize_ops_leaves_no_qnn_call():
    x = relay.var("x", shape=(4,), dtype="int32")
    expr = relay.qnn.op.requantize(x, _f(0.5), _i(1), _f(0.25), _i(0), out_dtype="int8")
    mod = tvm.IRModule.from_expr(relay.Function([x], expr))
    text = mod.astext()
    assert "qnn.requantize" in text and 'out_dtype="int8"' in text
    lowered = relay.qnn.transform.CanonicalizeOps()(mod)
    assert "qnn." not in lowered.astext()
    data = np.array([-3, 0, 5, 100], "int32")
    got = relay.create_executor(mod=lowered).evaluate()(data).numpy()
    np.testing.assert_array_equal(got, np_requantize(data, 0.5, 1, 0.25, 0, "int8"))


def test_fold_constant_leaves_qnn_calls_unless_asked():
    expr = relay.qnn.op.dequantize(relay.const(np.array([4], "int8")), _f(0.5), _i(0))
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([], expr)))
    assert "qnn.dequantize" in relay.transform.FoldConstant()(mod).astext()
    folded = relay.transform.FoldConstant(fold_qnn=True)(mod)
    assert "qnn.dequantize" not in folded.astext()
    np.testing.assert_array_equal(relay.create_executor(mod=folded).evaluate()().numpy(), [2.0])


def test_bad_inputs_are_type_errors():
    x = relay.var("x", shape=(2, 3), dtype="float32")
    with pytest.raises(tvm.error.TVMError, match="qnn.quantize"):
        relay.transform.InferType()(tvm.IRModule.from_expr(
            relay.Function([x], relay.qnn.op.quantize(x, _f([1.0, 2.0]), _i(0), axis=1))))
    y = relay.var("y", shape=(2, 3), dtype="float32")
    with pytest.raises(tvm.error.TVMError, match="qnn.dequantize"):
        relay.transform.InferType()(tvm.IRModule.from_expr(
            relay.Function([y], relay.qnn.op.dequantize(y, _f(1.0), _i(0)))))
    z = relay.var("z", shape=(2,), dtype="int8")
    with pytest.raises(tvm.error.TVMError, match="axis 5 is out of range"):
        relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function(
            [z], relay.qnn.op.requantize(z, _f([1.0, 2.0]), _i(0), _f(1.0), _i(0), axis=5))))



def _type_error(expr):
    with pytest.raises(tvm.error.TVMError) as info:
        relay.transform.InferType()(tvm.IRModule.from_expr(
            relay.Function(relay.analysis.free_vars(expr), expr)))
    return str(info.value)


def test_bad_quantization_parameters_of_every_kind_are_clear_type_errors():
    # docs/quantization.md, "Bad input": what TVM's lowering would divide by, flip or wrap.
    x = relay.var("x", shape=(1, 2, 4, 4), dtype="uint8")
    w = relay.var("w", shape=(3, 2, 1, 1), dtype="int8")
    conv = relay.qnn.op.conv2d(x, w, _i(0), _i(0), _f(0.5), _f([1.0, -1.0, 1.0]),
                               kernel_size=(1, 1), channels=3)
    message = _type_error(conv)
    assert "qnn.conv2d" in message and "kernel scale" in message and "got -1 at 1" in message
    q = relay.var("q", shape=(2, 3), dtype="int32")
    message = _type_error(relay.qnn.op.requantize(q, _f(1.0), _i(0), _f(1.0), _i(-129),
                                                  out_dtype="int8"))
    assert "output zero point -129 is outside the range of int8 [-128, 127]" in message
    f = relay.var("f", shape=(2, 3), dtype="float32")
    assert "axis 2 is out of range" in _type_error(relay.qnn.op.quantize(f, _f(1.0), _i(0),
                                                                         axis=2))
    a = relay.var("a", shape=(1, 2), dtype="int8")
    b = relay.var("b", shape=(1, 2), dtype="int8")
    cat = relay.qnn.op.concatenate((a, b), (_f(1.0), _f(float("nan"))), (_i(0), _i(0)),
                                   _f(1.0), _i(0), axis=1)
    assert "input scale 1 must be positive and finite" in _type_error(cat)
    add = relay.qnn.op.add(a, b, _f([1.0, 2.0, 3.0]), _i(0), _f(1.0), _i(0), _f(1.0), _i(0))
    assert "has 3 values but the quantized axis has 2" in _type_error(add)


# ---- FakeQuantizationToInteger

def _fq2i(expr):
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    return mod, relay.transform.FakeQuantizationToInteger()(mod)


def test_fake_quantized_conv_becomes_qnn_conv2d_with_equal_results():
    x = relay.var("x", shape=[1, 2, 6, 6], dtype="int8")
    w = relay.var("w", shape=[4, 2, 3, 3], dtype="int8")
    conv = relay.nn.conv2d(relay.qnn.op.dequantize(x, _f(2.0), _i(0)),
                           relay.qnn.op.dequantize(w, _f(0.5), _i(0)), kernel_size=[3, 3])
    expr = relay.qnn.op.quantize(relay.nn.relu(conv), _f(4.0), _i(-3), out_dtype="int8")
    mod, mod_int = _fq2i(expr)
    text = mod_int.astext()
    assert "qnn.conv2d" in text and "qnn.dequantize" not in text and "nn.relu" not in text
    rng = np.random.default_rng(3)
    x_np = rng.integers(-128, 127, size=[1, 2, 6, 6]).astype("int8")
    w_np = rng.integers(-128, 127, size=[4, 2, 3, 3]).astype("int8")
    want = relay.create_executor(mod=mod).evaluate()(x_np, w_np).numpy()
    got = relay.create_executor(mod=mod_int).evaluate()(x_np, w_np).numpy()
    np.testing.assert_array_equal(got, want)
    # The float graph's own value, from NumPy: conv of 2x and 0.5w is the integer conv.
    acc = np.zeros([1, 4, 4, 4], np.int64)
    for o in range(4):
        for i in range(4):
            for j in range(4):
                acc[0, o, i, j] = np.sum(x_np[0, :, i:i + 3, j:j + 3].astype(np.int64) * w_np[o])
    np.testing.assert_array_equal(want, np_quantize(np.maximum(acc, 0).astype("float32"), 4.0,
                                                    -3, "int8"))


def test_fake_quantized_add_and_identity_ops():
    a = relay.var("a", shape=[2, 3], dtype="uint8")
    b = relay.var("b", shape=[2, 3], dtype="uint8")
    s = relay.add(relay.qnn.op.dequantize(a, _f(0.5), _i(10)),
                  relay.qnn.op.dequantize(b, _f(0.25), _i(3)))
    expr = relay.qnn.op.quantize(relay.reshape(s, [3, 2]), _f(1.0), _i(0), out_dtype="uint8")
    mod, mod_int = _fq2i(expr)
    assert "qnn.add" in mod_int.astext() and "qnn.dequantize" not in mod_int.astext()
    a_np = np.arange(6, dtype="uint8").reshape(2, 3) * 40
    b_np = np.arange(6, dtype="uint8").reshape(2, 3) * 7
    want = relay.create_executor(mod=mod).evaluate()(a_np, b_np).numpy()
    got = relay.create_executor(mod=mod_int).evaluate()(a_np, b_np).numpy()
    assert np.all(np.abs(want.astype(int) - got.astype(int)) <= 1)


def test_region_with_an_op_without_rule_stays_or_fails_hard():
    x = relay.var("x", shape=[4], dtype="int8")
    expr = relay.qnn.op.quantize(relay.cos(relay.qnn.op.dequantize(x, _f(1.0), _i(0))), _f(1.0),
                                 _i(0))
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    kept = relay.transform.FakeQuantizationToInteger()(mod)
    assert "qnn.dequantize" in kept.astext()
    with pytest.raises(tvm.error.TVMError, match="no rewrite rule for cos"):
        relay.transform.FakeQuantizationToInteger(hard_fail=True)(mod)


def test_list_fake_quantized_op_freqs():
    x = relay.var("x", shape=[4, 8], dtype="int8")
    w = relay.var("w", shape=[2, 8], dtype="int8")
    dense = relay.nn.dense(relay.qnn.op.dequantize(x, _f(1.0), _i(0)),
                           relay.qnn.op.dequantize(w, _f(1.0), _i(0)))
    expr = relay.qnn.op.quantize(relay.nn.relu(dense), _f(1.0), _i(0))
    freqs = relay.analysis.list_fake_quantized_op_freqs(tvm.IRModule.from_expr(expr))
    assert freqs == {"nn.dense": 1, "nn.relu": 1}


def test_use_qat_converts_single_ops_on_dequantized_inputs():
    a = relay.var("a", shape=[1, 4, 2], dtype="int8")
    b = relay.var("b", shape=[1, 4, 2], dtype="int8")
    matmul = relay.nn.batch_matmul(relay.qnn.op.dequantize(a, _f(2.0), _i(0)),
                                   relay.qnn.op.dequantize(b, _f(6.0), _i(0)))
    expr = relay.erf(matmul)  # no quantize: only use_qat converts the matmul
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(expr))
    assert "qnn.batch_matmul" not in relay.transform.FakeQuantizationToInteger()(mod).astext()
    qat = relay.transform.FakeQuantizationToInteger(use_qat=True)(mod)
    text = qat.astext()
    assert "qnn.batch_matmul" in text and "nn.batch_matmul(" not in text.replace("qnn.", "")
    rng = np.random.default_rng(4)
    a_np = rng.integers(-128, 127, size=[1, 4, 2]).astype("int8")
    b_np = rng.integers(-128, 127, size=[1, 4, 2]).astype("int8")
    want = relay.create_executor(mod=mod).evaluate()(a_np, b_np).numpy()
    got = relay.create_executor(mod=qat).evaluate()(a_np, b_np).numpy()
    # erf of 12 * (a @ b^T): the integer matmul times 12 is the float product exactly.
    np.testing.assert_allclose(got, want, rtol=1e-6)


def _infer(expr):
    return relay.transform.InferType()(tvm.IRModule.from_expr(expr))


@pytest.mark.parametrize("scale", [0.0, -1.0, float("nan"), float("inf")])
def test_a_constant_scale_that_is_not_positive_and_finite_is_a_type_error(scale):
    # TVM's lowering divides by the scale: 0 gives inf/NaN, a negative one flips every sign.
    x = relay.var("x", shape=(2, 4), dtype="float32")
    q = relay.var("q", shape=(2, 4), dtype="int8")
    with pytest.raises(tvm.error.TVMError, match="output scale must be positive and finite"):
        _infer(relay.qnn.op.quantize(x, relay.const(scale), relay.const(0)))
    with pytest.raises(tvm.error.TVMError, match="input scale must be positive and finite"):
        _infer(relay.qnn.op.dequantize(q, relay.const(scale), relay.const(0)))
    # One bad value among per-channel scales is named by its position.
    scales = np.ones(4, "float32")
    scales[2] = scale
    with pytest.raises(tvm.error.TVMError, match="must be positive and finite, got .* at 2"):
        _infer(relay.qnn.op.dequantize(q, relay.const(scales), relay.const(np.zeros(4, "int32")),
                                       axis=1))


def test_an_output_zero_point_outside_the_output_dtype_is_a_type_error():
    x = relay.var("x", shape=(2, 4), dtype="float32")
    with pytest.raises(tvm.error.TVMError, match=r"output zero point 300 is outside the range of "
                       r"int8 \[-128, 127\]"):
        _infer(relay.qnn.op.quantize(x, relay.const(0.5), relay.const(300), out_dtype="int8"))
    with pytest.raises(tvm.error.TVMError, match=r"outside the range of uint8 \[0, 255\]"):
        _infer(relay.qnn.op.quantize(x, relay.const(0.5), relay.const(-1), out_dtype="uint8"))
    i32 = relay.var("i", shape=(2, 4), dtype="int32")
    with pytest.raises(tvm.error.TVMError, match="output zero point 128 is outside"):
        _infer(relay.qnn.op.requantize(i32, relay.const(0.5), relay.const(0), relay.const(0.25),
                                       relay.const(128), out_dtype="int8"))
    # An input's zero point is subtracted in int32 (no wrap), as TVM's tests use it: accepted.
    q = relay.var("q", shape=(2, 4), dtype="int8")
    _infer(relay.qnn.op.dequantize(q, relay.const(0.5), relay.const(212)))


def test_per_channel_parameters_must_match_the_axis():
    q = relay.var("q", shape=(2, 4), dtype="int8")
    with pytest.raises(tvm.error.TVMError, match="input scale has 3 values but the quantized axis "
                       "has 4"):
        _infer(relay.qnn.op.dequantize(q, relay.const(np.ones(3, "float32")),
                                       relay.const(np.zeros(3, "int32")), axis=1))
