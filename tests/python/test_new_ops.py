"""The operators added for the ONNX importer, from Python with TVM v0.13's signatures: their
attributes, printed text and values against numpy."""
import numpy as np

import relaypass as tvm
from relaypass import relay


def _run(expr, *inputs):
    params = relay.analysis.free_vars(expr)
    mod = tvm.IRModule.from_expr(relay.Function(params, expr))
    return relay.create_executor(mod=mod).evaluate()(*inputs)


def test_indexing_ops_match_numpy():
    x_np = np.arange(12, dtype="float32").reshape(3, 4)
    x = relay.var("x", shape=(3, 4))
    idx = relay.const(np.array([2, 0], "int64"))
    np.testing.assert_allclose(_run(relay.take(x, idx, axis=1), x_np).numpy(), x_np[:, [2, 0]])
    np.testing.assert_allclose(
        _run(relay.strided_slice(x, [0, 1], [3, 4], [2, 2]), x_np).numpy(), x_np[0:3:2, 1:4:2])
    np.testing.assert_allclose(
        _run(relay.where(relay.greater(x, relay.const(5.0)), x, relay.zeros_like(x)),
             x_np).numpy(),
        np.where(x_np > 5, x_np, 0))
    np.testing.assert_allclose(_run(relay.tile(x, (2, 1)), x_np).numpy(), np.tile(x_np, (2, 1)))
    np.testing.assert_allclose(
        _run(relay.broadcast_to(relay.var("y", shape=(1, 4)), (3, 4)), x_np[:1]).numpy(),
        np.broadcast_to(x_np[:1], (3, 4)))
    np.testing.assert_allclose(_run(relay.cumsum(x, axis=1), x_np).numpy(), np.cumsum(x_np, 1))
    like = relay.broadcast_to_like(relay.var("y", shape=(1, 4)), x)
    np.testing.assert_allclose(_run(like, x_np[:1], x_np).numpy(), np.broadcast_to(x_np[:1], (3, 4)))
    assert _run(relay.cast_like(x, relay.const(np.zeros(1, "int32"))), x_np).numpy().dtype == "int32"
    np.testing.assert_array_equal(
        _run(relay.argmax(x, axis=1), x_np).numpy(), np.argmax(x_np, 1).astype("int32"))
    values = _run(relay.topk(x, k=2, axis=1)[0], x_np).numpy()
    np.testing.assert_allclose(values, -np.sort(-x_np, 1)[:, :2])


def test_nn_ops_attrs_and_text():
    x = relay.var("x", shape=(1, 2, 4, 4))
    w = relay.var("w", shape=(2, 3, 3, 3))
    y = relay.nn.conv2d_transpose(x, w, strides=2, padding=1, output_padding=1)
    assert list(y.attrs.padding) == [1, 1, 1, 1]
    assert y.attrs.kernel_layout == "IOHW"
    assert "nn.conv2d_transpose" in tvm.IRModule.from_expr(relay.Function([x, w], y)).astext()
    b = relay.nn.batch_matmul(relay.var("a", shape=(2, 3, 4)), relay.var("c", shape=(2, 5, 4)))
    assert bool(b.attrs.transpose_b) and not bool(b.attrs.transpose_a)
    r = relay.image.resize2d(x, (8, 8), method="nearest_neighbor")
    assert [float(v) for v in r.attrs.roi] == [0.0] * 4
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([x], r)))
    assert tvm.ir.structural_equal(tvm.parser.parse(mod.astext()), mod)


def test_norms_match_numpy():
    x_np = np.random.RandomState(0).randn(2, 3, 5).astype("float32")
    g = np.linspace(0.5, 1.5, 5).astype("float32")
    b = np.linspace(-1, 1, 5).astype("float32")
    x = relay.var("x", shape=(2, 3, 5))
    out = _run(relay.nn.layer_norm(x, relay.const(g), relay.const(b)), x_np).numpy()
    mean = x_np.mean(-1, keepdims=True)
    var = x_np.var(-1, keepdims=True)
    np.testing.assert_allclose(out, (x_np - mean) / np.sqrt(var + 1e-5) * g + b, rtol=1e-5,
                               atol=1e-5)
