"""annotation.checkpoint on a tensor and on a tuple of tensors (TVM's IdentityRel: the result has
the argument's type; its compute returns each input), its gradient, and what it refuses.

Expected values: hand computation (d/dx of (x + y) + x * y is 1 + y, d/dy is 1 + x)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _pair():
    x = relay.var("x", shape=(2,))
    y = relay.var("y", shape=(2,))
    c = relay.annotation.checkpoint(relay.Tuple([x + y, x * y]))
    return x, y, c


def test_checkpoint_of_a_tuple_types_and_runs():
    x, y, c = _pair()
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([x, y], c)))
    t = relay.TensorType((2,), "float32")
    assert mod["main"].body.checked_type == relay.TupleType([t, t])
    a = np.array([1.0, 2.0], "float32")
    b = np.array([3.0, 4.0], "float32")
    out = relay.create_executor("debug", mod=mod).evaluate()(a, b)
    np.testing.assert_array_equal(out[0].numpy(), a + b)
    np.testing.assert_array_equal(out[1].numpy(), a * b)


def test_gradient_through_a_checkpointed_tuple():
    x, y, c = _pair()
    f = relay.Function([x, y], relay.TupleGetItem(c, 0) + relay.TupleGetItem(c, 1))
    f = relay.transform.InferType()(tvm.IRModule.from_expr(f))["main"]
    grad = relay.transform.gradient(f)
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(grad))
    a = np.array([1.0, 2.0], "float32")
    b = np.array([3.0, 4.0], "float32")
    value, (da, db) = relay.create_executor("debug", mod=mod).evaluate()(a, b)
    np.testing.assert_array_equal(value.numpy(), a + b + a * b)
    np.testing.assert_array_equal(da.numpy(), 1 + b)
    np.testing.assert_array_equal(db.numpy(), 1 + a)


def test_checkpoint_refuses_nested_tuples():
    x = relay.var("x", shape=(2,))
    nested = relay.annotation.checkpoint(relay.Tuple([x, relay.Tuple([x])]))
    with pytest.raises(tvm.error.RelayTypeError, match="a tensor or a tuple of tensors"):
        relay.transform.InferType()(tvm.IRModule.from_expr(relay.Function([x], nested)))
