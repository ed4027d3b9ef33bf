"""TVM's tensor arrays (relay.prelude.TensorArrayOps, StaticTensorArrayOps): names, types, and
runs on the debug and VM executors. Names and signatures come from TVM v0.13's
python/tvm/relay/prelude.py (get_name, _get_name_static, the define_* functions); the values a
run must give are computed with NumPy from the inputs (np.stack, np.concatenate, slicing)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay.prelude import Prelude, StaticTensorArrayOps, TensorArrayOps

EXECUTORS = ["debug", "vm"]


@pytest.fixture(scope="module")
def prelude():
    return Prelude(tvm.IRModule())


def _run(p, params, body, args, kind):
    mod = tvm.IRModule()
    mod.update(p.mod)
    mod["main"] = relay.Function(params, body)
    return relay.create_executor(kind, mod=mod).evaluate()(*args)


def _fields(value):
    """An ADT value's fields: the debug executor returns TVM's interpreter ConstructorValue
    (.fields), the VM TVM's runtime ADT (indexed), as in TVM."""
    return value.fields if hasattr(value, "fields") else list(value)


def _tensor_of(value):
    """The tensor inside a tensor_t value (tensor0..6 or tensor_constructor)."""
    assert len(_fields(value)) == 1
    return _fields(value)[0].numpy()


def _list_of(p, value):
    out = []
    while value.tag == p.cons.tag:
        out.append(_fields(value)[0])
        value = _fields(value)[1]
    assert value.tag == p.nil.tag
    return out


def test_names_follow_tvm(prelude):
    # TVM's Prelude.get_name and _get_name_static, applied by hand.
    assert prelude.get_name("tensor_t", "float32") == "tensor_float32_t"
    assert prelude.get_name("tensor_array_read", "int8") == "tensor_array_read_int8"
    any_ = relay.Any()
    name = prelude.get_name_static
    assert name("tensor_t", "float32", (2, 3)) == "static_tensor_float32_2_3_t"
    assert name("tensor_array", "float32", (any_, 3)) == "tensor_array_float32_any_3"
    assert name("tensor_array", "int32", ()) == "tensor_array_int32_scalar"
    assert name("tensor_array_stack", "float32", (3,), 1) == "tensor_array_stack_float32_batch1_3"
    assert name("tensor_array_stack", "float32", (3,), 2) == "tensor_array_stack_float32_3"
    assert name("tensor_constructor", "float32", (3,), 1) == "tensor_constructor_float32_3"
    ops = StaticTensorArrayOps(prelude, "float32", (any_, 3))
    # TVM's prelude spells the dimension tvm.tir.Any, which is relay.Any.
    assert isinstance(any_, tvm.tir.Any)
    assert StaticTensorArrayOps(prelude, "int8", (tvm.tir.Any(),)).get_name("tensor_t") == \
        "static_tensor_int8_any_t"
    assert ops.get_name("tensor_array_scatter", {"indices": (2,)}) == \
        "tensor_array_scatter_float32_any_3_indices_2"


def test_load_prelude_registers_nine_dtypes(prelude):
    names = {v.name_hint for v in prelude.mod.get_global_type_vars()}
    for dtype in ["float32", "float16", "float64", "int32", "uint8", "int8", "int16", "uint16",
                  "int64"]:
        assert "tensor_%s_t" % dtype in names
        assert prelude.get_global_var("tensor_array_stack", dtype).name_hint == \
            "tensor_array_stack_" + dtype
    ctors = [c.name_hint for c in prelude.mod.get_type("tensor_float32_t")[1:]]
    assert ctors == ["tensor_nil_float32"] + ["tensor%d_float32" % i for i in range(7)]
    assert prelude.get_tensor_ctor("tensor2", "int64").name_hint == "tensor2_int64"
    assert prelude.get_var("tensor_take", "uint8").same_as(
        prelude.get_global_var("tensor_take", "uint8"))
    # Set as attributes, as TVM's definers do.
    assert prelude.tensor_array_concat_float32.name_hint == "tensor_array_concat_float32"
    with pytest.raises(Exception, match="could not find"):
        prelude.get_ctor("tensor_float32_t", "tensor9", "float32")


def test_tensor_array_functions_type_check(prelude):
    # The signatures of TVM's docstrings (tensor_array_read: list[tensor_t] -> int32 ->
    # tensor_t, ...), as the type inferencer gives them.
    mod = relay.transform.InferType()(prelude.mod)

    def sig(name):
        return str(mod[name].checked_type)

    lst = "List[tensor_float32_t[]]"
    assert sig("tensor_array_float32") == "fn (int32) -> %s" % lst
    assert sig("tensor_array_read_float32") == "fn (%s, int32) -> tensor_float32_t[]" % lst
    assert sig("tensor_array_write_float32") == \
        "fn (%s, int32, tensor_float32_t[]) -> %s" % (lst, lst)
    assert sig("tensor_array_unstack_tensor2_float32") == \
        "fn (Tensor[(?, ?), float32]) -> %s" % lst
    assert sig("tensor_array_scatter_float32") == \
        "fn (%s, Tensor[(?), int32], %s) -> %s" % (lst, lst, lst)
    assert sig("tensor_array_stack_float32") == "fn (%s) -> tensor_float32_t[]" % lst
    # TVM's stack is in A-normal form: the mapped list is bound once and shared.
    assert "let %" in mod["tensor_array_stack_float32"].astext(show_meta_data=False)


def test_to_a_normal_form_expr_binds_a_shared_expression_once():
    # TVM's ToANormalFormExpr (what its tensor_array_stack is built with): the shared
    # add(x, x) is bound by one let, used twice; free variables stay free.
    x = relay.var("x", shape=(2,))
    shared = relay.add(x, x)
    anf = relay.transform.ToANormalFormExpr(relay.multiply(shared, shared))
    assert isinstance(anf, relay.Let)
    text = anf.astext(show_meta_data=False)
    assert text.count("add(%x, %x)") == 1 and text.count("let %") == 2
    assert relay.analysis.free_vars(anf)[0].same_as(x)


@pytest.mark.parametrize("kind", EXECUTORS)
def test_write_read_and_stack(prelude, kind):
    p = prelude
    tensor1 = p.get_tensor_ctor("tensor1", "float32")
    write = p.get_global_var("tensor_array_write", "float32")
    read = p.get_global_var("tensor_array_read", "float32")
    stack = p.get_global_var("tensor_array_stack", "float32")
    v1 = relay.var("v1", shape=(relay.Any(),))
    v2 = relay.var("v2", shape=(relay.Any(),))
    ta = p.get_global_var("tensor_array", "float32")(relay.const(2))
    ta = write(write(ta, relay.const(0), tensor1(v1)), relay.const(1), tensor1(v2))
    a = np.array([1, 2, 3], "float32")
    b = np.array([4, 5, 6], "float32")
    got = _run(p, [v1, v2], read(ta, relay.const(1)), [a, b], kind)
    np.testing.assert_array_equal(_tensor_of(got), b)
    got = _run(p, [v1, v2], stack(ta), [a, b], kind)
    np.testing.assert_array_equal(_tensor_of(got), np.stack([a, b]))


@pytest.mark.parametrize("kind", EXECUTORS)
def test_unstack_then_stack_round_trip(prelude, kind):
    p = prelude
    x = relay.var("x", shape=(relay.Any(), relay.Any()))
    unstack = p.get_global_var("tensor_array_unstack_tensor2", "float32")
    stack = p.get_global_var("tensor_array_stack", "float32")
    data = np.arange(12, dtype="float32").reshape(4, 3)
    rows = _run(p, [x], unstack(x), [data], kind)
    items = _list_of(p, rows)
    assert len(items) == 4
    np.testing.assert_array_equal(_tensor_of(items[2]), data[2])
    got = _run(p, [x], stack(unstack(x)), [data], kind)
    np.testing.assert_array_equal(_tensor_of(got), np.stack(list(data)))


@pytest.mark.parametrize("kind", EXECUTORS)
def test_concat_split_and_take(prelude, kind):
    p = prelude
    tensor2 = p.get_tensor_ctor("tensor2", "float32")
    x = relay.var("x", shape=(relay.Any(), relay.Any()))
    lengths = relay.var("lengths", shape=(relay.Any(),), dtype="int32")
    data = np.arange(18, dtype="float32").reshape(6, 3)
    sizes = np.array([1, 3, 2], "int32")
    ta = p.get_global_var("tensor_array", "float32")(relay.const(3))
    split = p.get_global_var("tensor_array_split", "float32")(ta, tensor2(x), lengths)
    pieces = _list_of(p, _run(p, [x, lengths], split, [data, sizes], kind))
    expected = np.split(data, np.cumsum(sizes)[:-1])
    for piece, want in zip(pieces, expected):
        np.testing.assert_array_equal(_tensor_of(piece), want)
    concat = p.get_global_var("tensor_array_concat", "float32")(split)
    got = _run(p, [x, lengths], concat, [data, sizes], kind)
    np.testing.assert_array_equal(_tensor_of(got), np.concatenate(expected))
    take = p.get_global_var("tensor_take", "float32")(tensor2(x), relay.const(2), relay.const(5))
    np.testing.assert_array_equal(_tensor_of(_run(p, [x], take, [data], kind)), data[2:5])


@pytest.mark.parametrize("kind", EXECUTORS)
def test_scatter_and_gather(prelude, kind):
    p = prelude
    ops = TensorArrayOps(p, "float32")
    ops.tensor_type_var = p.get_type("tensor_t", "float32")
    ops.define_tensor_array_gather()  # TVM's register() leaves gather out
    tensor1 = p.get_tensor_ctor("tensor1", "float32")
    write = p.get_global_var("tensor_array_write", "float32")
    v = [relay.var("v%d" % i, shape=(relay.Any(),)) for i in range(3)]
    values = p.get_global_var("tensor_array", "float32")(relay.const(2))
    values = write(values, relay.const(0), tensor1(v[0]))
    values = write(values, relay.const(1), tensor1(v[1]))
    ta = p.get_global_var("tensor_array", "float32")(relay.const(3))
    ta = write(ta, relay.const(1), tensor1(v[2]))
    indices = relay.var("indices", shape=(relay.Any(),), dtype="int32")
    scattered = p.get_global_var("tensor_array_scatter", "float32")(ta, indices, values)
    gathered = p.get_global_var("tensor_array_gather", "float32")(scattered, relay.const(
        np.array([2, 1, 0], "int32")))
    arrays = [np.array([1, 2], "float32"), np.array([3, 4], "float32"),
              np.array([5, 6], "float32")]
    idx = np.array([2, 0], "int32")
    out = _list_of(p, _run(p, v + [indices], scattered, arrays + [idx], kind))
    # values[k] lands at idx[k]: slot 2 gets arrays[0], slot 0 arrays[1], slot 1 keeps arrays[2].
    np.testing.assert_array_equal(_tensor_of(out[2]), arrays[0])
    np.testing.assert_array_equal(_tensor_of(out[0]), arrays[1])
    np.testing.assert_array_equal(_tensor_of(out[1]), arrays[2])
    got = _run(p, v + [indices], gathered, arrays + [idx], kind)
    np.testing.assert_array_equal(_tensor_of(got), np.stack([arrays[0], arrays[2], arrays[1]]))


@pytest.mark.parametrize("kind", EXECUTORS)
def test_static_tensor_array(kind):
    p = Prelude(tvm.IRModule())
    ops = StaticTensorArrayOps(p, "float32", (2, 3))
    ops.register()
    ctor = ops.get_ctor("tensor_constructor")
    assert ctor.name_hint == "tensor_constructor_float32_2_3"
    assert ops.get_type("tensor_t").name_hint == "static_tensor_float32_2_3_t"
    write = ops.get_global_var("tensor_array_write")
    stack = ops.get_global_var("tensor_array_stack")
    v1 = relay.var("v1", shape=(2, 3))
    v2 = relay.var("v2", shape=(2, 3))
    ta = ops.get_global_var("tensor_array")(relay.const(2))
    ta = write(write(ta, relay.const(0), ctor(v1)), relay.const(1), ctor(v2))
    a = np.arange(6, dtype="float32").reshape(2, 3)
    b = a + 10
    mod = relay.transform.InferType()(p.mod)
    assert str(mod["tensor_array_stack_float32_2_3"].ret_type) == \
        "static_tensor_float32_any_2_3_t[]"
    got = _run(p, [v1, v2], stack(ta), [a, b], kind)
    np.testing.assert_array_equal(_tensor_of(got), np.stack([a, b]))
    data = ops.get_global_var("tensor_get_data")(ops.get_global_var("tensor_array_read")(
        ta, relay.const(1)))
    np.testing.assert_array_equal(_run(p, [v1, v2], data, [a, b], kind).numpy(), b)
    # unstack: the rows of a (2, 3) tensor as static_tensor_float32_3_t values.
    x = relay.var("x", shape=(2, 3))
    rows = _list_of(p, _run(p, [x], ops.get_global_var("tensor_array_unstack")(x), [a], kind))
    constructor = p.get_tensor_ctor_static("tensor_constructor", "float32", (3,))
    assert [r.tag for r in rows] == [constructor.tag] * 2
    np.testing.assert_array_equal(_tensor_of(rows[1]), a[1])


def test_static_batch1_scatter_and_shape():
    p = Prelude(tvm.IRModule())
    ops = StaticTensorArrayOps(p, "float32", (3,), batch_dim=1)
    ops.register()
    # batch_dim 1: stack's result has a leading axis of extent 1 (TVM's batch1 names).
    stack = p.get_global_var_static("tensor_array_stack", "float32", (3,), 1)
    assert stack.name_hint == "tensor_array_stack_float32_batch1_3"
    mod = relay.transform.InferType()(p.mod)
    assert str(mod[stack.name_hint].ret_type) == "static_tensor_float32_1_3_t[]"
    ops.define_tensor_array_scatter(indices_shape=(2,), force_update=True)
    assert "tensor_array_scatter_float32_batch1_3_indices_2" in [
        g.name_hint for g in p.mod.get_global_vars()]
    ta = ops.get_global_var("tensor_array")(relay.const(2))
    shape = relay.prelude.get_tensor_array_shape(ta, "float32", p)
    assert shape == (3,)
    dynamic = p.get_global_var("tensor_array", "float32")(relay.const(2))
    assert relay.prelude.get_tensor_array_shape(dynamic, "float32", p) is None


def test_static_split_with_static_shapes():
    p = Prelude(tvm.IRModule())
    ops = StaticTensorArrayOps(p, "float32", (relay.Any(), 2))
    ops.register()
    ops.define_tensor_array_split(value_shape=(4, 2), lengths_shape=(2,), force_update=True)
    tensor_4_2 = p.get_ctor_static("tensor_t", "tensor_constructor", "float32", (4, 2))
    x = relay.var("x", shape=(4, 2))
    ta = ops.get_global_var("tensor_array")(relay.const(2))
    split = ops.get_global_var("tensor_array_split")(
        ta, tensor_4_2(x), relay.const(np.array([1, 3], "int32")))
    data = np.arange(8, dtype="float32").reshape(4, 2)
    pieces = _list_of(p, _run(p, [x], split, [data], "debug"))
    np.testing.assert_array_equal(_tensor_of(pieces[0]), data[:1])
    np.testing.assert_array_equal(_tensor_of(pieces[1]), data[1:])
    # TVM's static concat takes a list of (?, shape[1:]) tensors: the split's pieces.
    concat = ops.get_global_var("tensor_array_concat")(split)
    np.testing.assert_array_equal(_tensor_of(_run(p, [x], concat, [data], "debug")), data)
