"""tvm.ir.save_json / tvm.ir.load_json (python/relaypass/ir/json.py).

Where expected values come from: round trips are checked against the node saved (structural
equality). The hand-written document in test_load_tvm_layout follows the layout of TVM v0.13's
src/node/serialization.cc (JSONGraph: root, nodes with type_key/attrs/keys/data/repr_str,
b64ndarrays, attrs.tvm_version; nodes[0] the null node, object fields as node indices as text,
null as "0") with the field names of v0.13's VisitAttrs for relay.Var, relay.Id, relay.Call,
relay.TensorType, IntImm, runtime.String and relay.attrs.Conv2DAttrs. Its tensor is TVM's NDArray
byte layout (runtime::SaveDLTensor: magic 0xDD5E40F096B4A13F, reserved, device, ndim, dtype,
shape, byte size, data), written here by hand with struct."""
import base64
import json
import struct

import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def roundtrip(node):
    text = tvm.ir.save_json(node)
    json.loads(text)  # valid JSON
    back = tvm.ir.load_json(text)
    assert tvm.ir.structural_equal(back, node, map_free_vars=True)
    return back


def test_every_expression_kind():
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(4, 3, 3, 3))
    conv = relay.nn.conv2d(x, w, padding=(1, 1), channels=4, kernel_size=(3, 3))
    c = relay.const(np.arange(6, dtype="float32").reshape(2, 3))
    tup = relay.Tuple([conv, c])
    item = relay.TupleGetItem(tup, 1)
    v = relay.var("v")
    body = relay.Let(v, item, relay.If(relay.const(True), tup, relay.Tuple([conv, v])))
    fn = relay.Function([x, w], body).with_attr("Primitive", 1)
    back = roundtrip(fn)
    assert back.attrs["Primitive"] == 1
    ref = relay.RefCreate(relay.const(1))
    roundtrip(relay.Tuple([ref, relay.RefRead(ref), relay.RefWrite(ref, relay.const(2))]))
    roundtrip(relay.GlobalVar("g"))
    roundtrip(relay.op.get("nn.conv2d"))
    roundtrip(relay.var("s"))


def test_types_and_module():
    tt = relay.TensorType((2, 3), "int8")
    roundtrip(tt)
    roundtrip(relay.TupleType([tt, relay.TensorType((), "float32")]))
    roundtrip(relay.FuncType([tt], tt))
    assert isinstance(tvm.ir.load_json(tvm.ir.save_json(relay.IncompleteType())),
                      tvm.ir.IncompleteType)
    roundtrip(relay.RefType(tt))
    x = relay.var("x", shape=(relay.Any(), 3))
    roundtrip(relay.Function([x], relay.nn.relu(x)))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))
    back = tvm.ir.load_json(tvm.ir.save_json(mod))
    assert isinstance(back, tvm.IRModule)
    assert tvm.ir.structural_equal(back, mod)


def test_attrs_and_constants():
    x = relay.var("x", shape=(1, 4))
    call = relay.cast(relay.nn.leaky_relu(x, alpha=0.25), "float16")
    back = roundtrip(call)
    assert dict(back.attrs.items())["dtype"] == "float16"
    assert dict(back.args[0].attrs.items())["alpha"] == 0.25
    data = np.random.rand(3, 5).astype("float64")
    back = roundtrip(relay.const(data, "float64"))
    np.testing.assert_array_equal(back.data.numpy(), data)


def test_shared_nodes_are_saved_once():
    x = relay.var("x", shape=(2,))
    y = relay.add(x, x)
    z = relay.multiply(y, y)
    doc = json.loads(tvm.ir.save_json(z))
    keys = [n["type_key"] for n in doc["nodes"]]
    assert keys.count("relay.Var") == 1
    assert keys.count("relay.Call") == 2
    back = tvm.ir.load_json(json.dumps(doc))
    assert back.args[0].same_as(back.args[1])
    assert back.args[0].args[0].same_as(back.args[0].args[1])


def test_deep_chain():
    x = relay.var("x", shape=(2,))
    e = x
    for _ in range(100000):
        e = relay.negative(e)
    back = tvm.ir.load_json(tvm.ir.save_json(e))
    depth = 0
    while isinstance(back, relay.Call):
        back = back.args[0]
        depth += 1
    assert depth == 100000


def _ndarray_bytes(arr):
    arr = np.ascontiguousarray(arr)
    out = struct.pack("<QQiii", 0xDD5E40F096B4A13F, 0, 1, 0, arr.ndim)
    out += struct.pack("<BBH", 2, 32, 1)  # float32: code kDLFloat=2, 32 bits, 1 lane
    out += struct.pack("<%dq" % arr.ndim, *arr.shape)
    out += struct.pack("<q", arr.nbytes) + arr.tobytes()
    return base64.b64encode(out).decode()


def test_load_tvm_layout():
    nodes = [
        {"type_key": ""},
        {"type_key": "relay.Call", "attrs": {"op": "2", "args": "3", "attrs": "12",
                                             "type_args": "18", "span": "0",
                                             "_checked_type_": "0", "virtual_device_": "0"}},
        {"type_key": "Op", "repr_str": "nn.conv2d"},
        {"type_key": "Array", "data": [4, 11]},
        {"type_key": "relay.Var", "attrs": {"vid": "5", "type_annotation": "7", "span": "0",
                                            "_checked_type_": "0", "virtual_device_": "0"}},
        {"type_key": "relay.Id", "attrs": {"name_hint": "6"}},
        {"type_key": "runtime.String", "repr_str": "data"},
        {"type_key": "relay.TensorType", "attrs": {"dtype": "float32", "shape": "8",
                                                   "span": "0"}},
        {"type_key": "Array", "data": [9, 10, 10, 10]},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "1", "span": "0"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "4", "span": "0"}},
        {"type_key": "relay.Constant", "attrs": {"data": "0", "span": "0",
                                                 "_checked_type_": "0",
                                                 "virtual_device_": "0"}},
        {"type_key": "relay.attrs.Conv2DAttrs", "attrs": {
            "strides": "13", "padding": "14", "dilation": "13", "groups": "1",
            "channels": "9", "kernel_size": "15", "data_layout": "16", "kernel_layout": "17",
            "out_layout": "19", "out_dtype": ""}},
        {"type_key": "Array", "data": [9, 9]},
        {"type_key": "Array", "data": [9, 9, 9, 9]},
        {"type_key": "Array", "data": [9, 9]},
        {"type_key": "runtime.String", "repr_str": "NCHW"},
        {"type_key": "runtime.String", "repr_str": "OIHW"},
        {"type_key": "Array"},
        {"type_key": "runtime.String", "repr_str": ""},
    ]
    weight = np.arange(16, dtype="float32").reshape(1, 4, 2, 2)[:, :, :1, :1]
    doc = {"root": 1, "nodes": nodes, "b64ndarrays": [_ndarray_bytes(weight)],
           "attrs": {"tvm_version": "0.13.0"}}
    call = tvm.ir.load_json(json.dumps(doc))
    data = relay.var("data", shape=(1, 4, 4, 4))
    expected = relay.nn.conv2d(data, relay.const(weight), strides=(1, 1), padding=(1, 1),
                               channels=1, kernel_size=(1, 1))
    assert tvm.ir.structural_equal(call, expected, map_free_vars=True)
    np.testing.assert_array_equal(call.args[1].data.numpy(), weight)


@pytest.mark.parametrize("text,words", [
    ("{bad", "malformed JSON"),
    ("[]", "root"),
    ('{"root": 5, "nodes": [{"type_key": ""}]}', "root"),
    ('{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "NoSuchNode"}]}', "NoSuchNode"),
    ('{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "relay.Tuple", '
     '"attrs": {"fields": "9"}}]}', "out of range"),
    ('{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "relay.Tuple", '
     '"attrs": {"fields": "2"}}, {"type_key": "Array", "data": [1]}]}', "cyclic"),
    ('{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Op", "repr_str": "no.op"}]}',
     "no.op"),
    ('{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "relay.Constant", '
     '"attrs": {"data": "0"}}], "b64ndarrays": ["AAAA"]}', "NDArray"),
])
def test_bad_input(text, words):
    with pytest.raises(tvm.error.TVMError, match=words):
        tvm.ir.load_json(text)


def test_unsupported_value():
    with pytest.raises(tvm.error.TVMError, match="cannot serialize"):
        tvm.ir.save_json(object())


def _doc(nodes, root=1, version="0.6.0"):
    return json.dumps({"root": root, "nodes": [{"type_key": ""}] + nodes,
                       "attrs": {"tvm_version": version}, "b64ndarrays": []})


@pytest.mark.parametrize("key, what", [
    ("Div", "Div is not available: relaypass's IR has no TIR expressions"),
    ("tir.Select", "tir.Select is not available"),
    ("Cast", "Cast is not available"),
])
def test_nodes_relaypass_has_no_counterpart_for_are_named(key, what):
    # Node layouts of TVM v0.6 files as in TVM's json_compact tests: a TypeVar refers to a
    # Variable; a TIR variable has dtype and name. The error names the node kind.
    doc = _doc([{"type_key": key, "attrs": {"dtype": "int32", "name": "x", "var": "0"}}])
    with pytest.raises(tvm.error.OpNotImplemented, match=what):
        tvm.ir.load_json(doc)
    # nested below a node relaypass has, too
    array = {"type_key": "Array", "data": [2]}
    with pytest.raises(tvm.error.OpNotImplemented, match=what):
        tvm.ir.load_json(_doc([array, {"type_key": key, "attrs": {"var": "0"}}]))


def test_module_attrs_are_null():
    # TVM's IRModule.attrs defaults to null (v0.7 files have no attrs field at all)
    doc = _doc([{"type_key": "IRModule", "attrs": {"functions": "0", "global_type_var_map_": "0",
                                                   "global_var_map_": "0", "source_map": "0",
                                                   "type_definitions": "0"}}], version="0.7.0")
    mod = tvm.ir.load_json(doc)
    assert isinstance(mod, tvm.IRModule)
    assert mod.attrs is None


def test_span_values_round_trip():
    # TVM v0.13's SpanNode fields (source_name, line, column, end_line, end_column) and
    # constructor order Span(source_name, line, end_line, column, end_column); SourceName's name
    # is a runtime.String node.
    span = relay.Span(tvm.ir.SourceName("model.py"), 1, 2, 3, 4)
    assert (span.line, span.end_line, span.column, span.end_column) == (1, 2, 3, 4)
    doc = json.loads(tvm.ir.save_json(span))
    node = doc["nodes"][doc["root"]]
    assert node["type_key"] == "Span"
    assert node["attrs"]["line"] == "1" and node["attrs"]["end_column"] == "4"
    name_node = doc["nodes"][int(node["attrs"]["source_name"])]
    assert name_node["type_key"] == "SourceName"
    assert doc["nodes"][int(name_node["attrs"]["name"])]["repr_str"] == "model.py"
    back = tvm.ir.load_json(tvm.ir.save_json(span))
    assert back.source_name.name == "model.py"
    assert (back.line, back.end_line, back.column, back.end_column) == (1, 2, 3, 4)
    nameless = tvm.ir.load_json(tvm.ir.save_json(relay.Span(None, 5, 5, 0, 9)))
    assert nameless.source_name is None and nameless.end_column == 9


def test_tir_variables_and_dimension_arithmetic_load():
    # TVM's json_compact layouts: v0.6 "Variable" / "SizeVar" with a literal name; v0.7+
    # "tir.Var" with name_hint a runtime.String node; Add / Mul / FloorDiv ... with fields a, b.
    # Each loads as the symbolic dimension it is (relaypass/_symbolic.py): one node is one
    # variable, and the arithmetic is TVM's (constants fold).
    x = tvm.ir.load_json(_doc([{"type_key": "Variable", "attrs": {"dtype": "int32", "name": "x"}}]))
    assert isinstance(x, tvm.tir.Var) and x.name == "x"
    y = tvm.ir.load_json(_doc([{"type_key": "SizeVar", "attrs": {"dtype": "int32", "name": "y"}}]))
    assert isinstance(y, tvm.tir.SizeVar) and y.name == "y"
    nodes = [
        {"type_key": "Array", "data": [2, 3]},
        {"type_key": "tir.Add", "attrs": {"a": "4", "b": "5", "dtype": "int32"}},
        {"type_key": "tir.FloorDiv", "attrs": {"a": "4", "b": "6", "dtype": "int32"}},
        {"type_key": "tir.SizeVar", "attrs": {"dtype": "int32", "name_hint": "7"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "2"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "4"}},
        {"type_key": "runtime.String", "repr_str": "n"},
    ]
    total, half = tvm.ir.load_json(_doc(nodes, version="0.13.0"))
    assert str(total) == "(n + 2)" and str(half) == "floordiv(n, 4)"
    assert total.a is half.a  # one variable node, one variable
    n = total.a
    assert relay.TensorType((total, half)) == relay.TensorType((n + 2, n // 4))
    folded = tvm.ir.load_json(_doc([
        {"type_key": "Mul", "attrs": {"a": "2", "b": "3", "dtype": "int32"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "6"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "7"}}]))
    assert int(folded) == 42
    # TVM's test_json_compact.py::test_str_map layout: Max(Add(Add(x, 1), 2), 100).
    biggest = tvm.ir.load_json(_doc([
        {"type_key": "Max", "attrs": {"a": "2", "b": "5", "dtype": "int32"}},
        {"type_key": "Add", "attrs": {"a": "3", "b": "4", "dtype": "int32"}},
        {"type_key": "Variable", "attrs": {"dtype": "int32", "name": "x"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "1"}},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "100"}}]))
    assert str(biggest) == "max((x + 1), 100)"
    # A StrMap loads as relaypass's Map (a dict; tvm.ir.container.Map is its type).
    strmap = tvm.ir.load_json(_doc([
        {"type_key": "StrMap", "keys": ["z"], "data": [2]},
        {"type_key": "IntImm", "attrs": {"dtype": "int32", "value": "2"}}]))
    assert isinstance(strmap, tvm.ir.container.Map) and strmap["z"] == 2
    assert isinstance(tvm.runtime.convert([1]), tvm.ir.Array)
