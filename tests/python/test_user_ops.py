"""Operators registered from Python (relay.op.op.register and the Op setters), Op.support_level
and the TOpPattern / TOpIsStateful attributes.

Expected values: support levels are those TVM v0.13's src/relay/op/tensor/unary.cc and binary.cc
set (10, TVM's default, elsewhere); the registration calls and errors follow TVM's
ir.RegisterOp and OpRegEntry (python/tvm/ir/op.py, relay/op/op.py)."""
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.op import op as _op


def test_support_levels_are_tvms():
    for name, level in [("log", 1), ("tanh", 1), ("add", 1), ("floor_mod", 1), ("ceil", 3),
                        ("negative", 3), ("isnan", 3), ("clip", 3), ("power", 4),
                        ("equal", 4), ("zeros_like", 4), ("nn.conv2d", 10)]:
        assert relay.op.get(name).support_level == level, name


def test_builtin_pattern_and_statefulness_are_readable():
    assert _op.get("add").get_attr("TOpPattern") == _op.OpPattern.BROADCAST
    assert _op.get("nn.conv2d").get_attr("TOpPattern") == _op.OpPattern.OUT_ELEMWISE_FUSABLE
    assert _op.get("exp").get_attr("TOpIsStateful") is False


def test_register_an_operator_and_use_it():
    name = "test_user_ops.identity2"
    _op.register(name, "Two inputs, the first one's type.")
    op = _op.get(name)
    op.set_num_inputs(2)
    op.add_argument("data_0", "Tensor", "The input data tensor.")
    op.add_argument("data_1", "Tensor", "The input data tensor.")
    op.add_type_rel("Identity")
    op.set_support_level(2)
    _op.register_pattern(name, _op.OpPattern.ELEMWISE)
    _op.register_stateful(name, False)
    assert op.name == name and op.num_inputs == 2 and op.support_level == 2
    assert op.description == "Two inputs, the first one's type."
    assert op.get_attr("TOpPattern") == _op.OpPattern.ELEMWISE
    assert op.get_attr("TOpIsStateful") is False
    # TVM's IdentityRel: the result takes the first argument's type.
    x = relay.var("x", shape=(2, 3))
    y = relay.var("y", shape=(2, 3))
    mod = tvm.IRModule.from_expr(relay.Function([x, y], relay.Call(op, [x, y])))
    mod = relay.transform.InferType()(mod)
    assert mod["main"].body.checked_type == relay.TensorType((2, 3), "float32")
    # A lower level does not replace the pattern; the same level again is TVM's error.
    _op.register_pattern(name, _op.OpPattern.OPAQUE, level=5)
    assert op.get_attr("TOpPattern") == _op.OpPattern.ELEMWISE
    with pytest.raises(tvm.TVMError, match="already registered with same plevel=10"):
        _op.register_pattern(name, _op.OpPattern.OPAQUE)


def test_registration_errors():
    with pytest.raises(tvm.TVMError, match="Operator add is registered before"):
        _op.register("add")
    with pytest.raises(tvm.TVMError, match="a built-in operator cannot be changed"):
        _op.get("add").set_num_inputs(3)
    with pytest.raises(tvm.TVMError, match="already registered with same plevel=10"):
        _op.register_pattern("add", _op.OpPattern.OPAQUE)
    name = "test_user_ops.bad_rel"
    _op.register(name)
    with pytest.raises(tvm.TVMError, match="no type relation named Nope"):
        _op.get(name).add_type_rel("Nope")
    with pytest.raises(tvm.error.OpNotImplemented, match="written in Python"):
        _op.get(name).add_type_rel("Mine", lambda *args: None)
