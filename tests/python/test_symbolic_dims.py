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


def test_arithmetic_on_a_variable_is_refused_with_a_clear_error():
    n = te.var("n")
    with pytest.raises(tvm.error.OpNotImplemented, match="arithmetic on the symbolic dimension 'n'"):
        n * 2
    with pytest.raises(tvm.error.OpNotImplemented, match="used as a number"):
        int(n)


def test_a_function_with_a_symbolic_parameter_runs_on_any_extent():
    n = te.size_var("n")
    x = relay.var("x", shape=(n, 3))
    func = relay.Function([x], relay.add(x, x))
    data = np.arange(12, dtype="float32").reshape(4, 3)
    out = relay.create_executor("debug").evaluate(func)(data)
    np.testing.assert_allclose(out.numpy(), data + data)
