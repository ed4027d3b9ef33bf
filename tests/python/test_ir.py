"""IRModule, structural equality/hashing, the text format and types through the Python API.
Expected texts are what TVM v0.13 prints for the same graphs (the printer's format, checked
against TVM by the C++ tests)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def small_function():
    x = relay.var("x", shape=(1, 4))
    return relay.Function([x], relay.nn.relu(relay.add(x, relay.const(1.0))))


def test_from_expr_getitem_setitem_functions_and_print():
    mod = tvm.IRModule.from_expr(small_function())
    assert isinstance(mod["main"], relay.Function)
    assert [gv.name_hint for gv in mod.functions] == ["main"]
    assert mod.get_global_var("main").name_hint == "main"
    text = str(mod)
    assert text.startswith("def @main(%x: Tensor[(1, 4), float32]")
    assert "nn.relu(%0)" in text
    mod["other"] = small_function()
    assert sorted(gv.name_hint for gv in mod.get_global_vars()) == ["main", "other"]
    with pytest.raises(KeyError):
        mod["missing"]


def test_astext_show_meta_data_and_parse_round_trip():
    c = relay.const(np.arange(6, dtype="float32").reshape(2, 3))
    x = relay.var("x", shape=(2, 3))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.add(x, c)))
    mod = relay.transform.InferType()(mod)
    full = mod.astext(show_meta_data=True)
    assert full.startswith('#[version = "0.0.5"]')
    assert "#[metadata]" in full
    short = mod.astext(show_meta_data=False)
    assert "#[metadata]" not in short
    back = tvm.parser.parse(full)
    tvm.ir.assert_structural_equal(back, mod)
    assert tvm.ir.structural_hash(back) == tvm.ir.structural_hash(mod)
    assert relay.fromtext(full)["main"].params[0].name_hint == "x"


def test_structural_equal_free_vars_and_map_free_vars():
    a, b = relay.var("a", shape=(2,)), relay.var("b", shape=(2,))
    assert not tvm.ir.structural_equal(relay.exp(a), relay.exp(b))
    assert tvm.ir.structural_equal(relay.exp(a), relay.exp(b), map_free_vars=True)
    with pytest.raises(ValueError):
        tvm.ir.assert_structural_equal(relay.exp(a), relay.exp(b))


def test_op_get_and_types():
    op = tvm.ir.Op.get("nn.conv2d")
    assert op.name == "nn.conv2d" and op.num_inputs == 2
    assert op.same_as(relay.op.get("nn.conv2d"))
    t = relay.TensorType((1, 3, 224, 224), "float16")
    assert t.shape == (1, 3, 224, 224) and t.dtype == "float16"
    assert str(t) == "Tensor[(1, 3, 224, 224), float16]"
    assert relay.TupleType([t, t]).fields[1] == t
    with pytest.raises(tvm.TVMError):
        tvm.ir.Op.get("nn.no_such_op")


def test_parse_errors_are_diagnostic_errors_with_a_location():
    with pytest.raises(tvm.error.DiagnosticError) as info:
        tvm.parser.parse("def @main(%x: Tensor[(1), float32]) { add(%x, }")
    assert "1:" in str(info.value)


def test_checked_type_before_and_after_infer_type():
    f = small_function()
    with pytest.raises(ValueError):
        f.body.checked_type
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(f))
    assert str(mod["main"].body.checked_type) == "Tensor[(1, 4), float32]"


def test_ndarray_round_trip_and_zero_copy_view():
    data = np.random.RandomState(0).rand(3, 4).astype("float32")
    arr = tvm.nd.array(data)
    assert arr.shape == (3, 4) and arr.dtype == "float32"
    view = arr.numpy()
    np.testing.assert_array_equal(view, data)
    assert not view.flags.writeable  # a view of the tensor's own buffer, not a copy
    assert view.ctypes.data == arr.numpy().ctypes.data
    for dtype in ["int8", "int32", "int64", "uint8", "float16", "float64", "bool"]:
        v = np.ones((2, 2), dtype=dtype)
        np.testing.assert_array_equal(tvm.nd.array(v).numpy(), v)


def test_strided_slice_prints_unset_axes_as_tvm():
    """TVM declares StridedSliceAttrs' begin/end/strides/axes without a default, so its printer
    writes them even when unset: `axes=None` (TVM's printed IR, e.g. CombineParallelConv2D's
    slices). The text without axes still parses, and prints back with it."""
    from relaypass import relay as r
    x = r.var("x", shape=(4, 4))
    text = str(r.strided_slice(x, [0, 0], [2, 2]))
    assert text.endswith("strided_slice(%x, begin=[0, 0], end=[2, 2], strides=[1], axes=None)")
    mod = tvm.relay.fromtext(
        '#[version = "0.0.5"]\ndef @main(%x: Tensor[(4, 4), float32]) {\n'
        "  strided_slice(%x, begin=[0], end=[2], strides=[1])\n}\n")
    assert "strides=[1], axes=None)" in mod.astext()
