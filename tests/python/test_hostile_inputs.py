"""Wrong arguments from Python are Python exceptions, never a crash or a silently wrong result
(issue 19's new surfaces): None where a node is expected, wrong types, impossible values,
mutators that return the wrong kind of thing, arguments that do not fit main."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay

x = relay.var("x", shape=(2,))

CASES = [
    ("None operand", lambda: relay.add(None, x)),
    ("None parameter", lambda: relay.Function([None], x)),
    ("None body", lambda: relay.Function([x], None)),
    ("None callee", lambda: relay.Call(None, [])),
    ("None field", lambda: relay.Tuple([None])),
    ("None tuple", lambda: relay.TupleGetItem(None, 0)),
    ("None let var", lambda: relay.Let(None, x, x)),
    ("None condition", lambda: relay.If(None, x, x)),
    ("None module expr", lambda: tvm.IRModule.from_expr(None)),
    ("None constant data", lambda: relay.Constant(None)),
    ("None module to a pass", lambda: relay.transform.FoldConstant()(None)),
    ("None text", lambda: tvm.parser.parse(None)),
    ("object array", lambda: tvm.nd.array(object())),
    ("string array", lambda: tvm.nd.array(["a", "b"])),
    ("bad dtype", lambda: relay.TensorType((1,), "floaty")),
    ("bad dimension", lambda: relay.TensorType(("a",))),
    ("bad attribute", lambda: relay.nn.conv2d(x, x, strides="ab")),
    ("bad padding", lambda: relay.nn.conv2d(x, x, padding=(1, 2, 3))),
    ("index overflow", lambda: relay.TupleGetItem(x, 2 ** 40)),
    ("not a pass", lambda: tvm.transform.Sequential([1])),
    ("not an instrument", lambda: tvm.transform.PassContext(instruments=[1])),
    ("bad opt_level", lambda: tvm.transform.PassContext(opt_level="a")),
    ("bad option", lambda: relay.transform.FuseOps(fuse_opt_level="x")),
    ("bad config value", lambda: tvm.transform.PassContext(config={"a": object()})),
    ("not a function in a module", lambda: tvm.IRModule({"main": 5})),
    ("ill-typed", lambda: relay.transform.InferType()(
        tvm.IRModule.from_expr(relay.Function([x], relay.TupleGetItem(x, 5))))),
    ("wrong argument shape", lambda: relay.create_executor(
        mod=tvm.IRModule.from_expr(relay.Function([x], relay.add(x, x)))).evaluate()(
        np.ones((3, 3), "float32"))),
    ("missing argument", lambda: relay.create_executor(
        mod=tvm.IRModule.from_expr(relay.Function([x], x))).evaluate()()),
]


@pytest.mark.parametrize("name,make", CASES, ids=[c[0] for c in CASES])
def test_raises_a_python_exception(name, make):
    with pytest.raises(Exception):
        make()


def test_mutator_returning_the_wrong_kind_inside_a_pass():
    class Bad(relay.ExprMutator):
        def visit_constant(self, c):
            return 5

    @relay.transform.function_pass(opt_level=0)
    def bad(func, mod, ctx):
        return Bad().visit(func)

    mod = tvm.IRModule.from_expr(relay.Function([x], relay.add(x, relay.const(1.0))))
    with pytest.raises(TypeError):
        bad(mod)


def test_nodes_outlive_their_module():
    mod = relay.transform.InferType()(
        tvm.IRModule.from_expr(relay.Function([x], relay.add(x, relay.const(1.0)))))
    body = mod["main"].body
    del mod
    assert str(body.checked_type) == "Tensor[(2), float32]"
    assert body.args[0].name_hint == "x"


def test_take_batch_dims_that_do_not_match_is_an_error_not_a_crash():
    # Session 6's kernel-fuzzer finding: indices (0, 4) against data (2, 3) with batch_dims=1 made
    # the take kernel read past the empty indices (SIGSEGV). The type relation refuses it now.
    import relaypass as tvm
    from relaypass import relay

    d = relay.var("d", shape=(2, 3))
    i = relay.var("i", shape=(0, 4), dtype="int32")
    f = relay.Function([d, i], relay.take(d, i, axis=1, batch_dims=1))
    with pytest.raises(tvm.TVMError, match="batch dimension 0 of indices"):
        relay.create_executor("debug").evaluate(f)(
            np.ones((2, 3), "float32"), np.zeros((0, 4), "int32"))


def test_bool_bytes_other_than_zero_and_one_are_stored_as_true():
    # A NumPy bool view of arbitrary bytes (NumPy reads every nonzero byte as True). Kernels read
    # bool elements as C++ bool, so the bytes are made 0/1 where tensors are made from outside
    # bytes: NumPy arrays, parameter files, ONNX raw_data, .npy files. Expected values: NumPy's
    # own reading of the view (nonzero is True) and its logical_and.
    raw = np.array([0, 1, 190, 255, 2, 0], dtype="uint8")
    view = raw.view("bool")
    a = tvm.nd.array(view)
    np.testing.assert_array_equal(a.numpy().view("uint8"), [0, 1, 1, 1, 1, 0])
    loaded = tvm.runtime.load_param_dict(tvm.runtime.save_param_dict({"b": view}))["b"]
    np.testing.assert_array_equal(loaded.numpy().view("uint8"), [0, 1, 1, 1, 1, 0])
    b = relay.var("b", shape=(6,), dtype="bool")
    f = relay.Function([b], relay.logical_and(b, relay.const(np.ones(6, "bool"))))
    out = relay.create_executor("debug", mod=tvm.IRModule.from_expr(f)).evaluate()(view)
    np.testing.assert_array_equal(out.numpy(), np.logical_and(view, True))
