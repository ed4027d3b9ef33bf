"""relay.op.debug: the identity whose evaluation calls a Python function with its argument's
value (TVM's debug operator and its test_debug.py: the result is the argument's, the function
sees the value). Expected values by hand."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.op import debug


def test_the_function_sees_the_value_and_the_value_passes_through():
    seen = []
    x = relay.var("x", shape=(2,), dtype="int32")
    prog = debug(x + x * x, debug_func=lambda v: seen.append(v.numpy().copy()))
    assert prog.op.name == "debug" and prog.op.support_level == 1
    f = relay.Function([x], prog * relay.const(10, "int32"))
    out = relay.create_executor("debug").evaluate(f)(np.array([2, 3], "int32"))
    np.testing.assert_array_equal(out.numpy(), [60, 120])
    assert len(seen) == 1
    np.testing.assert_array_equal(seen[0], [6, 12])


def test_a_tuple_is_passed_as_a_list_and_no_function_is_the_identity():
    seen = []
    x = relay.var("x", shape=(), dtype="float32")
    tup = debug(relay.Tuple([x, x + relay.const(1.0)]), debug_func=seen.append)
    f = relay.Function([x], relay.TupleGetItem(tup, 1))
    assert float(relay.create_executor("debug").evaluate(f)(np.float32(2)).numpy()) == 3.0
    assert [float(v.numpy()) for v in seen[0]] == [2.0, 3.0]
    plain = relay.Function([x], debug(x))
    assert 'debug_func=' not in plain.astext()
    assert float(relay.create_executor("debug").evaluate(plain)(np.float32(5)).numpy()) == 5.0


def test_an_error_in_the_function_is_reported():
    def boom(value):
        raise RuntimeError("boom")

    x = relay.var("x", shape=(), dtype="float32")
    f = relay.Function([x], debug(x, debug_func=boom))
    with pytest.raises(tvm.TVMError, match="raised: RuntimeError: boom"):
        relay.create_executor("debug").evaluate(f)(np.float32(1))
