"""relay.strided_set (TVM v0.13's strided_set: the result has the data's type; values as NumPy's
slice assignment res[begin:end:strides] = v, which topi.testing.strided_set_python computes) and
relay.loops.while_loop (TVM's recursive let-bound function), run by the evaluator; expected
values from NumPy and hand computation."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.loops import while_loop
from relaypass.relay.testing import run_infer_type


def run(func, *args):
    mod = tvm.IRModule.from_expr(func)
    result = relay.create_executor("debug", mod=mod).evaluate()(*args)
    return result.numpy() if hasattr(result, "numpy") else result


@pytest.mark.parametrize("begin,end,strides,vshape", [
    ([0, 0, 0], [4, -5, 4], [1, -1, 2], (3, 1, 2)),
    ([1, -1, 0], [4, -5, 3], [2, -1, 1], (1, 4, 3)),
    ([1, 1, 0], [4, 1000, 3], None, (2, 3, 3)),
    ([1, 1], [4, 4, 3], None, (2, 3, 3)),
    ([0, 0, 0], [3, 4, 3], [1, 1, 1], (3,)),  # v broadcast along the leading axes
])
def test_strided_set_is_numpy_slice_assignment(begin, end, strides, vshape):
    dshape = (3, 4, 3)
    x = relay.var("x", shape=dshape)
    v = relay.var("v", shape=vshape)
    z = relay.strided_set(x, v, relay.const(begin, "int32"), relay.const(end, "int32"),
                          None if strides is None else relay.const(strides, "int32"))
    func = run_infer_type(relay.Function([x, v], z))
    assert func.body.checked_type == relay.TensorType(dshape, "float32")
    assert "strided_set" in func.astext()
    x_np = np.random.default_rng(0).uniform(size=dshape).astype("float32")
    v_np = np.random.default_rng(1).uniform(size=vshape).astype("float32")
    expected = x_np.copy()
    steps = strides or []
    expected[tuple(slice(begin[i] if i < len(begin) else None, end[i] if i < len(end) else None,
                         steps[i] if i < len(steps) else None) for i in range(3))] = v_np
    np.testing.assert_array_equal(run(func, x_np, v_np), expected)


def test_strided_set_rejects_a_zero_stride_and_a_bad_v():
    x = relay.var("x", shape=(3,))
    v = relay.var("v", shape=(2,))
    c = lambda vals: relay.const(vals, "int32")  # noqa: E731
    f = relay.Function([x, v], relay.strided_set(x, v, c([0]), c([3]), c([0])))
    with pytest.raises(tvm.TVMError, match="zero"):
        run(f, np.zeros(3, "float32"), np.zeros(2, "float32"))
    f = relay.Function([x, v], relay.strided_set(x, v, c([0]), c([3])))
    with pytest.raises(tvm.TVMError, match="broadcast"):
        run(f, np.zeros(3, "float32"), np.zeros(2, "float32"))


def test_while_loop_runs_in_the_evaluator():
    # TVM's test_any.py::test_recursive_concat: st gains [i] while i < 10.
    i = relay.var("i", shape=(), dtype="int32")
    st = relay.var("st", shape=(relay.Any(), 1), dtype="int32")

    def cond(i, st):
        return relay.op.min(relay.op.less(i, relay.const(10, "int32")))

    def body(i, st):
        return i + relay.const(1, "int32"), relay.op.concatenate(
            [st, relay.op.reshape(i, (1, 1))], axis=0)

    loop = while_loop(cond, [i, st], body)
    assert isinstance(loop, relay.Let)
    start = relay.var("start", shape=(), dtype="int32")
    result = loop(start, relay.op.reshape(relay.const(0), newshape=(1, 1)))
    out = run(relay.Function([start], relay.TupleGetItem(result, 1)), np.array(3, "int32"))
    np.testing.assert_array_equal(out, np.array([0, 3, 4, 5, 6, 7, 8, 9]).reshape(8, 1))
