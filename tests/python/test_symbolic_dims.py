"""Symbolic dimensions: te.var / te.size_var in shapes, as TVM v0.13's operator tests use them.
Expected types are the ones TVM infers for the same calls (stated in its test_op_level1/4.py);
run-time values come from NumPy."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay, te


def _infer(expr):
    mod = tvm.IRModule.from_expr(expr)
    mod = relay.transform.InferType()(mod)
    body = mod["main"].body if isinstance(expr, relay.Function) else mod["main"].body
    return body.checked_type


def test_shape_gives_back_the_same_variable_and_prints_its_name():
    n = te.size_var("n")
    t = relay.TensorType((n, 3), "float32")
    assert t.shape[0] is n
    assert int(t.shape[1]) == 3
    assert str(t) == "Tensor[(n, 3), float32]"
    assert t == relay.TensorType((n, 3), "float32")
    assert t != relay.TensorType((te.size_var("n"), 3), "float32")  # another variable


def test_relations_that_copy_a_dimension_keep_it():
    n, t = te.size_var("n"), te.size_var("t")
    x = relay.var("x", shape=(n, t, 100))
    y = relay.var("y", shape=(n, t, 100))
    assert _infer(relay.concatenate((x, y), axis=-1)) == relay.TensorType((n, t, 200))
    assert _infer(relay.expand_dims(x, axis=2)) == relay.TensorType((n, t, 1, 100))
    assert _infer(relay.sum(x, axis=1, keepdims=True)) == relay.TensorType((n, 1, 100))
    assert _infer(relay.add(x, y)) == relay.TensorType((n, t, 100))


def test_integer_arithmetic_gives_tvms_expressions():
    # TVM: n + 2 is tir.Add(n, 2); constants fold as arith::TryConstFold (n * 1 is n, n + 0 is
    # n); -n is n * -1; // and % are floordiv and floormod.
    n, m = te.size_var("n"), te.size_var("m")
    t = relay.TensorType((n + 2, (n * m) // 2, m % 3, -n), "float32")
    assert str(t) == "Tensor[((n + 2), floordiv((n*m), 2), floormod(m, 3), (n*-1)), float32]"
    assert t == relay.TensorType((n + 2, (n * m) // 2, m % 3, n * -1), "float32")
    assert t != relay.TensorType((2 + n, (n * m) // 2, m % 3, n * -1), "float32")
    assert n * 1 is n and n + 0 is n and int(n * 0) == 0
    s = n + (-2)
    assert (s.a is n) and int(s.b) == -2
    assert 3 * n == 3 * n  # equal expressions are one object (interned)


def test_other_tir_arithmetic_is_refused_with_a_clear_error():
    n = te.var("n")
    with pytest.raises(tvm.error.OpNotImplemented, match="arithmetic on the symbolic dimension 'n'"):
        n / 2
    with pytest.raises(tvm.error.OpNotImplemented, match="arithmetic on the symbolic dimension 'n'"):
        n * 2.5
    with pytest.raises(tvm.error.OpNotImplemented, match="used as a number"):
        int(n)
    with pytest.raises(tvm.error.RelayTypeError, match="by zero"):
        n // 0


def test_relations_compute_tvms_dimension_expressions():
    # Expected types from TVM v0.13's test_op_level1.py::test_concatenate and
    # test_op_level2.py::test_pad_infer_type / test_flatten_infer_type.
    n, t = te.size_var("n"), te.size_var("t")
    x = relay.var("x", shape=(n, t, 100))
    y = relay.var("y", shape=(n, t, 100))
    assert _infer(relay.concatenate((x, y), axis=1)) == relay.TensorType((n, t + t, 100))
    c, h, w = te.size_var("c"), te.size_var("h"), te.size_var("w")
    p = relay.var("p", relay.TensorType((n, c, h, w), "float32"))
    padded = relay.nn.pad(p, ((-1, -1), (-2, -2), (1, -3), (4, 4)))
    assert _infer(padded) == relay.TensorType((n + (-2), c + (-4), h + (-2), w + 8), "float32")
    d = relay.var("d", relay.TensorType((n, 2, h, 3), "float32"))
    assert _infer(relay.nn.batch_flatten(d)) == relay.TensorType((n, ((2 * h) * 3)), "float32")
    e = relay.var("e", relay.TensorType((n, c, h, w), "float32"))
    assert _infer(relay.nn.batch_flatten(e)) == relay.TensorType((n, (c * h) * w), "float32")


def test_a_function_with_a_symbolic_parameter_runs_on_any_extent():
    n = te.size_var("n")
    x = relay.var("x", shape=(n, 3))
    func = relay.Function([x], relay.add(x, x))
    data = np.arange(12, dtype="float32").reshape(4, 3)
    out = relay.create_executor("debug").evaluate(func)(data)
    np.testing.assert_allclose(out.numpy(), data + data)
