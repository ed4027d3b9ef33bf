"""relay.var/const, operators with TVM's keyword names, defaults and argument normalisation,
attributes as TVM exposes them, and the expression classes. Expected values: TVM v0.13's
Python wrappers (relay/op/nn/nn.py, relay/expr.py) by hand."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def test_var_forms():
    assert str(relay.var("x", shape=(1, 2)).type_annotation) == "Tensor[(1, 2), float32]"
    assert str(relay.var("x", "int32").type_annotation) == "int32"  # a scalar, as TVM prints it
    t = relay.TensorType((3,), "float16")
    assert relay.var("x", t).type_annotation == t
    assert relay.var("x").type_annotation is None
    with pytest.raises(ValueError):
        relay.var("x", t, shape=(3,))


def test_const_dtypes_follow_tvm():
    assert relay.const(2).data.dtype == "int32"
    assert relay.const(2.0).data.dtype == "float32"
    assert relay.const(2, "float32").data.dtype == "float32"
    assert relay.const(True).data.dtype == "bool"
    assert relay.const(np.zeros((2,), "float64")).data.dtype == "float32"
    assert relay.const(np.zeros((2,), "int64")).data.dtype == "int32"
    assert relay.const(np.zeros((2,), "float16")).data.dtype == "float16"
    assert relay.const(tvm.nd.array(np.ones(3, "float32"))).data.shape == (3,)


def test_conv2d_normalises_arguments_and_exposes_attrs():
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(4, 3, 3, 3))
    call = relay.nn.conv2d(x, w, strides=2, padding=1, kernel_size=3, channels=4)
    assert isinstance(call, relay.expr.Call)
    assert call.op.name == "nn.conv2d"
    assert call.attrs["strides"] == [2, 2]
    assert call.attrs.padding == [1, 1, 1, 1]
    assert call.attrs["kernel_size"] == [3, 3]
    assert call.attrs["data_layout"] == "NCHW"
    attrs = dict(call.attrs)
    assert attrs["groups"] == 1 and attrs["out_dtype"] == ""
    assert relay.nn.conv2d(x, w, padding=(1, 2)).attrs["padding"] == [1, 2, 1, 2]
    # attrs go back into a call, as the AlterOpLayout tutorial does
    attrs["data_layout"] = "NHWC"
    assert relay.nn.conv2d(x, w, **attrs).attrs["data_layout"] == "NHWC"
    with pytest.raises(TypeError):
        relay.nn.conv2d(x, w, no_such_attr=1)


def test_operators_on_expressions_and_wrappers():
    a, b = relay.var("a", shape=(2,)), relay.var("b", shape=(2,))
    assert (a + b).op.name == "add"
    assert (a * b).op.name == "multiply"
    assert (a - b).op.name == "subtract"
    assert (a / b).op.name == "divide"
    assert (-a).op.name == "negative"
    assert a.astype("float16").attrs["dtype"] == "float16"
    with pytest.raises(TypeError):
        a + 1
    parts = relay.split(relay.var("s", shape=(4, 2)), 2)
    assert len(parts) == 2 and isinstance(parts[1], relay.TupleGetItem)
    bn = relay.nn.batch_norm(a, b, b, b, b)
    assert isinstance(bn[0], relay.TupleGetItem) and bn[0].index == 0
    assert relay.sum(a, axis=0).attrs["axis"] == [0]
    assert relay.nn.leaky_relu(a).attrs["alpha"] == pytest.approx(0.01)
    assert relay.nn.pad(a, ((1, 1),)).args[1].data.dtype == "int32"


def test_expression_classes_and_fields():
    x = relay.var("x", shape=(2,))
    t = relay.Tuple([x, x])
    g = relay.TupleGetItem(t, 1)
    f = relay.Function([x], g)
    assert f.params[0] == x and f.body == g and g.tuple_value == t and g.index == 1
    v = relay.var("v", shape=(2,))
    let = relay.Let(v, x, v)
    assert let.var == v and let.value == x and let.body == v
    i = relay.If(relay.const(True), x, x)
    assert i.cond.data.dtype == "bool"
    gv = relay.GlobalVar("f")
    call = relay.Call(gv, [x])
    assert call.op == gv and list(call.args) == [x]
    assert f.with_attr("Primitive", 1).attrs["Primitive"] == 1
    assert f.attrs is None
    assert hash(x) == hash(f.params[0])


def test_bind_params_by_name_and_create_executor():
    x = relay.var("x", shape=(2, 2))
    w = relay.var("w", shape=(2, 2))
    func = relay.Function([x, w], relay.multiply(x, w))
    bound = relay.build_module.bind_params_by_name(func, {"w": np.full((2, 2), 3, "float32")})
    assert [p.name_hint for p in bound.params] == ["x"]
    mod = tvm.IRModule.from_expr(bound)
    data = np.arange(4, dtype="float32").reshape(2, 2)
    out = relay.create_executor("graph", mod=mod, target="llvm").evaluate()(data)
    np.testing.assert_allclose(out.numpy(), data * 3)  # hand computation
    out2 = relay.create_executor(mod=tvm.IRModule.from_expr(func)).evaluate()(data, w=data)
    np.testing.assert_allclose(out2.numpy(), data * data)


def test_analysis():
    x, y = relay.var("x", shape=(2,)), relay.var("y", shape=(2,))
    f = relay.Function([x], relay.add(x, y))
    assert relay.analysis.free_vars(f) == [y]
    assert set(relay.analysis.all_vars(f)) == {x, y}
    seen = []
    relay.analysis.post_order_visit(f, lambda n: seen.append(type(n).__name__))
    assert seen[-1] == "Function" and "Op" in seen


def test_shapes_and_int_attrs_are_int_imms_like_tvms():
    t = relay.TensorType((1, 3), "float32")
    assert t.shape[1].value == 3 and t.shape[1] == 3 and int(t.shape[0]) == 1
    call = relay.nn.conv2d(relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3)))
    assert call.attrs.strides[0].value == 1 and call.attrs["groups"].value == 1
    typed = relay.testing.run_infer_type(relay.Function([], relay.const(1.5)))
    assert str(typed.ret_type) == "float32"
    body = relay.testing.run_infer_type(relay.add(relay.const(1.0), relay.const(2.0)))
    assert isinstance(body, relay.Call)


def test_every_registered_operator_is_callable_from_python():
    from relaypass import _core

    for name in relay.op.list_op_names():
        if _core.is_user_op(name):  # registered by another test (test_user_ops.py)
            continue
        target = relay.op
        for part in name.split("."):
            target = getattr(target, part)
        assert callable(target), name


def test_generic_wrapper_takes_inputs_then_attributes():
    from relaypass.relay.op import _generic

    wrapper = _generic._make_wrapper("nn.softmax", 1, [("axis", "int", True, -1)])
    x = relay.var("x", shape=(2, 3))
    assert wrapper(x, 0).attrs["axis"] == 0
    assert wrapper(x, axis=1).attrs["axis"] == 1
    with pytest.raises(TypeError):
        wrapper(x, 0, axis=1)
