"""tvm.ir.save_json / load_json of the ADT and polymorphism nodes: type keys and field names of
TVM v0.13 (include/tvm/ir/type.h, ir/type_relation.h, ir/adt.h, relay/adt.h VisitAttrs; the
IRModule's type_definitions and global_type_var_map_), and round trips compared with
StructuralEqual. The v0.6 TypeVar document is the one TVM's test_json_compact.py loads."""
import json

import numpy as np

import relaypass as tvm
from relaypass import relay


def _nodes_by_key(text):
    out = {}
    for node in json.loads(text)["nodes"]:
        out.setdefault(node["type_key"], []).append(node)
    return out


def _list_adt():
    mod = tvm.IRModule()
    a = relay.TypeVar("A")
    lst = relay.GlobalTypeVar("List")
    cons = relay.Constructor("Cons", [a, relay.TypeCall(lst, [a])], lst)
    nil = relay.Constructor("Nil", [], lst)
    mod[lst] = relay.TypeData(lst, [a], [cons, nil])
    return mod, a, lst, cons, nil


def test_type_nodes_keys_and_fields():
    mod, a, lst, cons, nil = _list_adt()
    fn_type = relay.FuncType([a], relay.TypeCall(lst, [a]), [a])
    text = tvm.ir.save_json(fn_type)
    nodes = _nodes_by_key(text)
    assert nodes["TypeVar"][0]["attrs"]["kind"] == "0"  # TypeKind::kType
    assert nodes["GlobalTypeVar"][0]["attrs"]["kind"] == "5"  # TypeKind::kAdtHandle
    assert set(nodes["TypeCall"][0]["attrs"]) == {"func", "args", "span"}
    assert nodes["FuncType"][0]["attrs"]["type_params"] != "0"
    back = tvm.ir.load_json(text)
    assert isinstance(back, tvm.ir.FuncType)
    assert str(back) == str(fn_type) == "fn [A](A) -> List[A]"
    assert tvm.ir.structural_equal(back, fn_type)
    kinds = tvm.ir.load_json(tvm.ir.save_json(relay.TypeVar("n", relay.TypeKind.ShapeVar)))
    assert kinds.kind == relay.TypeKind.ShapeVar


def test_module_with_type_definitions_round_trips():
    mod, a, lst, cons, nil = _list_adt()
    x = relay.Var("x", relay.TypeCall(lst, [relay.scalar_type("float32")]))
    h = relay.Var("h")
    clauses = [
        relay.Clause(relay.PatternConstructor(cons, [relay.PatternVar(h),
                                                     relay.PatternWildcard()]), h),
        relay.Clause(relay.PatternWildcard(), relay.const(0.0)),
    ]
    mod["head_or_zero"] = relay.Function([x], relay.Match(x, clauses, False))
    text = tvm.ir.save_json(mod)
    nodes = _nodes_by_key(text)
    ctor = nodes["relay.Constructor"][0]["attrs"]
    # ConstructorNode::VisitAttrs: no virtual_device_.
    assert set(ctor) == {"name_hint", "inputs", "belong_to", "tag", "span", "_checked_type_"}
    match = nodes["relay.Match"][0]["attrs"]
    assert match["complete"] == "0" and "virtual_device_" in match
    assert set(nodes["relay.TypeData"][0]["attrs"]) == {"header", "type_vars", "constructors",
                                                        "span"}
    module = nodes["IRModule"][0]["attrs"]
    assert module["type_definitions"] != "0" and module["global_type_var_map_"] != "0"
    back = tvm.ir.load_json(text)
    assert tvm.ir.structural_equal(back, mod)
    assert [v.name_hint for v in back.get_global_type_vars()] == ["List"]
    assert back["head_or_zero"].body.complete is False
    # The loaded constructors are the type definition's: tags given, patterns agree.
    _, back_cons, back_nil = back.get_type("List")
    assert back_cons.tag != back_nil.tag


def test_prelude_saves_loads_and_runs():
    # The Prelude with its tensor arrays; the loaded module type-checks and runs
    # (length of a two-element list is 2, by hand).
    p = relay.prelude.Prelude(tvm.IRModule())
    back = tvm.ir.load_json(tvm.ir.save_json(p.mod))
    assert tvm.ir.structural_equal(back, p.mod)
    typed = relay.transform.InferType()(back)
    assert str(typed["map"].checked_type) == "fn [A, B](fn (A) -> B, List[A]) -> List[B]"
    _, cons, nil = back.get_type("List")
    one_two = cons(relay.const(1), cons(relay.const(2), nil()))
    back["main"] = relay.Function([], back.get_global_var("length")(one_two))
    assert relay.create_executor(mod=back).evaluate()().numpy() == 2


def test_polymorphic_function_and_tuple_pattern():
    a = relay.TypeVar("a")
    x = relay.Var("x", relay.TupleType([a, a]))
    first, second = relay.Var("first"), relay.Var("second")
    body = relay.Match(x, [relay.Clause(
        relay.PatternTuple([relay.PatternVar(first), relay.PatternVar(second)]), second)])
    fn = relay.Function([x], body, a, [a])
    text = tvm.ir.save_json(fn)
    assert "relay.PatternTuple" in _nodes_by_key(text)
    back = tvm.ir.load_json(text)
    assert len(back.type_params) == 1 and back.type_params[0].name_hint == "a"
    assert tvm.ir.structural_equal(back, fn)
    mod = tvm.IRModule()
    mod["swap_second"] = back
    y = relay.Var("y", relay.TupleType([relay.scalar_type("int32")] * 2))
    mod["main"] = relay.Function([y], mod.get_global_var("swap_second")(y))
    out = relay.create_executor(mod=mod).evaluate()((np.int32(3), np.int32(4)))
    assert out.numpy() == 4


def test_v06_type_var_reads_its_tir_var_name():
    # TVM 0.6 wrote a TypeVar's name in a TIR Variable (test_json_compact.py::test_type_var).
    nodes = [
        {"type_key": ""},
        {"type_key": "relay.TypeVar", "attrs": {"kind": "0", "span": "0", "var": "2"}},
        {"type_key": "Variable", "attrs": {"dtype": "int32", "name": "in0"}},
    ]
    data = {"root": 1, "nodes": nodes, "attrs": {"tvm_version": "0.6.0"}, "b64ndarrays": []}
    tvar = tvm.ir.load_json(json.dumps(data))
    assert isinstance(tvar, tvm.ir.TypeVar) and tvar.name_hint == "in0"
    nodes[1]["type_key"] = "relay.GlobalTypeVar"
    tvar = tvm.ir.load_json(json.dumps(data))
    assert isinstance(tvar, tvm.ir.GlobalTypeVar) and tvar.name_hint == "in0"
