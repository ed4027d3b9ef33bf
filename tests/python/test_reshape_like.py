"""relay.reshape_like (TVM v0.13's ReshapeLikeAttrs / ReshapeLikeRel). Expected shapes are TVM's
rule (data's dims before lhs_begin, shape_like's dims [rhs_begin, rhs_end), data's dims from
lhs_end) applied by hand; values come from NumPy's reshape."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def _typed(expr):
    return relay.transform.InferType()(tvm.IRModule.from_expr(expr))["main"].body.checked_type


@pytest.mark.parametrize("kind", ["debug", "graph", "vm"])
def test_reshape_like_matches_numpy(kind):
    data = np.arange(24, dtype="float32").reshape(2, 3, 4)
    x = relay.var("x", shape=(2, 3, 4))
    y = relay.var("y", shape=(6, 4))
    func = relay.Function([x, y], relay.reshape_like(x, y))
    out = relay.create_executor(kind).evaluate(func)(data, np.zeros((6, 4), "float32"))
    np.testing.assert_array_equal(out.numpy(), data.reshape(6, 4))


def test_reshape_like_ranges_and_text():
    x = relay.var("x", shape=(2, 3, 4))
    y = relay.var("y", shape=(5, 12, 7))
    z = relay.reshape_like(x, y, lhs_begin=1, rhs_begin=1, rhs_end=2)
    assert _typed(z) == relay.TensorType((2, 12))
    assert "lhs_begin=1" in z.astext()
    z = relay.reshape_like(x, y, lhs_begin=-2, lhs_end=None, rhs_begin=1, rhs_end=-1)
    assert _typed(z) == relay.TensorType((2, 12))


def test_reshape_like_refuses_another_element_count():
    x = relay.var("x", shape=(2, 3))
    y = relay.var("y", shape=(4, 2))
    with pytest.raises(tvm.error.TVMError, match="reshape_like"):
        _typed(relay.reshape_like(x, y))
