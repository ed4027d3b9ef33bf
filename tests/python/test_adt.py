"""Algebraic data types and polymorphism from Python: relay.TypeVar, GlobalTypeVar, TypeCall,
TypeData, Constructor, Match, Clause and the patterns, the module's type definitions, the
visitors, type inference and the text. Expected values come from TVM v0.13: its Python API
(python/tvm/relay/adt.py, ty.py, expr_functor.py, type_functor.py, ir/module.py), its printer
(relay_text_printer.cc) and its type inferencer (type_infer.cc)."""
import pytest

import relaypass as tvm
from relaypass import relay


def _list_module():
    mod = tvm.IRModule()
    a = relay.TypeVar("A")
    lst = relay.GlobalTypeVar("List")
    cons = relay.Constructor("Cons", [a, relay.TypeCall(lst, [a])], lst)
    nil = relay.Constructor("Nil", [], lst)
    mod[lst] = relay.TypeData(lst, [a], [cons, nil])
    return mod, lst, cons, nil


def test_type_nodes_and_kinds():
    a = relay.TypeVar("A")
    assert a.name_hint == "A" and a.kind == relay.TypeKind.Type
    assert relay.TypeVar("n", tvm.ir.TypeKind.ShapeVar).kind == 1
    lst = relay.GlobalTypeVar("List")
    assert lst.kind == relay.TypeKind.AdtHandle  # TVM's default for a GlobalTypeVar
    call = relay.TypeCall(lst, [a])
    assert str(call) == "List[A]"
    assert call.func.same_as(lst) and call.args[0].same_as(a)
    fn = relay.FuncType([a], a, [a])
    assert str(fn) == "fn [A](A) -> A"
    assert fn.type_params[0].same_as(a)


def test_module_type_definitions():
    mod, lst, cons, nil = _list_module()
    assert mod.get_global_type_var("List").same_as(lst)
    assert list(mod.type_definitions.keys())[0].same_as(lst)
    assert mod[lst].constructors[1].same_as(nil)
    gtv, c0, c1 = mod.get_type("List")
    assert gtv.same_as(lst) and c0.same_as(cons) and c1.same_as(nil)
    assert mod.get_constructor(cons.tag).same_as(cons)
    assert cons.tag != nil.tag and (cons.tag & 0xFFFFFF) == 0 and (nil.tag & 0xFFFFFF) == 1


def test_match_text_and_inference():
    mod, lst, cons, nil = _list_module()
    l = relay.Var("l", relay.TypeCall(lst, [relay.scalar_type("float32")]))
    h = relay.Var("h")
    clauses = [
        relay.Clause(relay.PatternConstructor(cons, [relay.PatternVar(h), relay.PatternWildcard()]), h),
        relay.Clause(relay.PatternConstructor(nil), relay.const(0.0)),
    ]
    mod["main"] = relay.Function([l], relay.Match(l, clauses))
    text = mod.astext(show_meta_data=False)
    assert "type List[A] {\n  Cons(A, List[A]),\n  Nil,\n}" in text
    assert "match (%l) {\n    Cons(%h, _) => {\n      %h\n    },\n    Nil => {\n      0f\n    },\n  }" in text
    typed = relay.transform.InferType()(mod)
    assert str(typed["main"].ret_type) == "float32"
    # The text parses back to the same module.
    assert tvm.ir.structural_equal(tvm.relay.parse(typed.astext()), typed)


def test_constructor_call_and_polymorphic_function():
    mod, lst, cons, nil = _list_module()
    a = relay.TypeVar("A")
    x = relay.Var("x", a)
    mod["id"] = relay.Function([x], x, a, [a])
    one = cons(relay.const(1.0), nil())
    mod["main"] = relay.Function([], relay.Tuple([mod.get_global_var("id")(one), one]))
    typed = relay.transform.InferType()(mod)
    assert str(typed["main"].ret_type) == "(List[float32], List[float32])"
    assert str(typed["id"].checked_type) == "fn [A](A) -> A"


def test_visitors_reach_match_and_constructors():
    mod, lst, cons, nil = _list_module()
    l = relay.Var("l")
    m = relay.Match(l, [relay.Clause(relay.PatternWildcard(), cons(relay.const(1.0), nil()))])
    seen = []

    class Visitor(relay.ExprVisitor):
        def visit_constructor(self, c):
            seen.append(c.name_hint)

    Visitor().visit(m)
    assert sorted(seen) == ["Cons", "Nil"]
    assert tvm.ir.structural_equal(relay.ExprMutator().visit(m), m)
    with pytest.raises(NotImplementedError):
        relay.ExprFunctor().visit(m)


def test_type_functors():
    lst = relay.GlobalTypeVar("List")
    a = relay.TypeVar("A")
    tt = relay.TensorType((1, 2), "float32")
    # (TypeMutator makes a new variable at each visit, so a bound variable that is also used
    # would come back as several: TVM's test_type_functor binds one it does not use.)
    for t in [a, lst, relay.TypeCall(lst, [a]), relay.FuncType([tt], tt, [a])]:
        with pytest.raises(NotImplementedError):
            relay.TypeFunctor().visit(t)
        relay.TypeVisitor().visit(t)
        assert tvm.ir.structural_equal(relay.TypeMutator().visit(t), t, map_free_vars=True)


def test_type_errors():
    mod, lst, cons, nil = _list_module()
    l = relay.Var("l", relay.TypeCall(lst, [relay.scalar_type("float32")]))
    clauses = [
        relay.Clause(relay.PatternConstructor(cons, [relay.PatternWildcard(), relay.PatternWildcard()]),
                     relay.const(1.0)),
        relay.Clause(relay.PatternConstructor(nil), relay.const(1)),
    ]
    mod["main"] = relay.Function([l], relay.Match(l, clauses))
    with pytest.raises(tvm.error.DiagnosticError):
        relay.transform.InferType()(mod)


def test_unmatched_cases_and_complete_match_errors():
    # TVM's match_exhaustion.cc: a wildcard candidate is refined into each constructor.
    mod, lst, cons, nil = _list_module()
    x = relay.Var("x")
    m = relay.Match(x, [relay.Clause(relay.PatternConstructor(nil), relay.const(0.0))])
    missing = relay.analysis.unmatched_cases(m, mod)
    assert [str(p) for p in missing] == ["Cons(_, _)"]
    l = relay.Var("l", relay.TypeCall(lst, [relay.scalar_type("float32")]))
    mod["main"] = relay.Function([l], relay.Match(l, [relay.Clause(relay.PatternConstructor(nil),
                                                                   relay.const(0.0))]))
    with pytest.raises(tvm.error.DiagnosticError, match="does not handle the following cases"):
        relay.transform.InferType()(mod)


def test_check_kind():
    # TVM's KindChecker: a type variable has its kind, compound types are of kind Type.
    check_kind = relay.analysis.check_kind
    assert check_kind(relay.TypeVar("s", relay.TypeKind.ShapeVar)) == relay.TypeKind.ShapeVar
    assert check_kind(relay.TupleType([relay.TypeVar("a")])) == relay.TypeKind.Type
    with pytest.raises(tvm.error.TVMError):
        check_kind(relay.RefType(relay.TypeVar("s", relay.TypeKind.ShapeVar)))


def test_prelude_runs_on_the_interpreter():
    # Values from the definitions of TVM's prelude.rly (test_adt.py's expectations).
    from relaypass.relay.backend.interpreter import ConstructorValue

    p = relay.prelude.Prelude(tvm.IRModule())
    _, cons, nil = p.mod.get_type("List")

    def to_list(v):
        out = []
        while v.tag == cons.tag:
            out.append(v.fields[0].numpy().item())
            v = v.fields[1]
        assert v.tag == nil.tag
        return out

    one_two = cons(relay.const(1), cons(relay.const(2), nil()))
    run = tvm.relay.create_executor(mod=p.mod).evaluate
    assert run(p.length(one_two)).numpy() == 2
    assert to_list(run(p.rev(one_two))) == [2, 1]
    assert to_list(run(p.map(relay.Function([x := relay.Var("x", relay.scalar_type("int32"))],
                                             x + relay.const(10)), one_two))) == [11, 12]
    assert run(p.sum(one_two)).numpy() == 3
    result = run(p.hd(one_two))
    assert result.numpy() == 1
    assert isinstance(run(one_two), ConstructorValue)
    # nat.rly and the testing helpers
    p.mod.import_from_std("nat.rly")
    three = relay.testing.make_nat_expr(p, 3)
    assert relay.testing.count(p, run(p.mod.get_global_var("nat_double")(three))) == 6


def test_well_formed_match_and_bare_int_types():
    # TVM's WellFormedChecker: each clause is a scope binding its pattern's variables; a variable
    # bound by two clauses is bound twice (test_ir_well_formed.py::test_adt).
    mod, lst, cons, nil = _list_module()
    x = relay.Var("x")
    default = relay.Clause(relay.PatternVar(x), x)
    cons_case = relay.Clause(relay.PatternConstructor(cons, [relay.PatternVar(x),
                                                             relay.PatternWildcard()]), x)
    assert relay.analysis.well_formed(relay.Match(nil(), [default]))
    assert not relay.analysis.well_formed(relay.Match(nil(), [cons_case, default]))
    # TVM's parser reads `int` (and `uint`, `float`) without bits as 32-bit.
    parsed = tvm.relay.parse('#[version = "0.0.5"]\ndef @main(%x: int) -> int { %x }')
    assert str(parsed["main"].ret_type) == "int32"


def test_a_normal_form_of_a_match():
    # TVM's Fill for a match: the data is bound in the enclosing scope, each clause's right side
    # gets its own scope of lets; the value is unchanged ((3 + 3) * (3 + 1) = 24, by hand).
    import numpy as np

    p = relay.prelude.Prelude(tvm.IRModule())
    _, cons, nil = p.mod.get_type("List")
    x = relay.Var("x", relay.scalar_type("int32"))
    h, t = relay.Var("h"), relay.Var("t")
    body = relay.Match(cons(x + x, nil()), [
        relay.Clause(relay.PatternConstructor(cons, [relay.PatternVar(h), relay.PatternVar(t)]),
                     h * (x + relay.const(1))),
        relay.Clause(relay.PatternWildcard(), x + x),
    ])
    p.mod["main"] = relay.Function([x], body)
    anf = relay.transform.ToANormalForm()(p.mod)
    text = anf["main"].astext(show_meta_data=False)
    assert "Cons(%h, %t) => {\n      let " in text
    assert relay.analysis.well_formed(anf["main"])
    run = relay.create_executor(mod=anf).evaluate()
    assert run(tvm.nd.array(np.array(3, "int32"))).numpy() == 24


def test_a_function_with_a_free_type_variable_does_not_enter_a_module():
    # TVM's IRModule::Add (relay.ir.WarnIfMalformed): "contains free type variables", an
    # InternalError; every way a function enters a module from Python checks it.
    a = relay.TypeVar("A")
    x = relay.var("x", a)
    free = relay.Function([x], x)
    with pytest.raises(tvm.error.InternalError, match=r"contains free type variables: \[A\]"):
        tvm.IRModule.from_expr(free)
    with pytest.raises(tvm.error.InternalError, match="free type variables"):
        tvm.IRModule({"main": free})
    mod = tvm.IRModule()
    with pytest.raises(tvm.error.InternalError, match="free type variables"):
        mod["main"] = free
    assert len(mod.get_global_vars()) == 0  # left unchanged
    # Bound as a type parameter, it is accepted.
    mod["main"] = relay.Function([x], x, a, [a])
    assert [t.name_hint for t in relay.analysis.bound_type_vars(mod["main"])] == ["A"]
    assert relay.analysis.free_type_vars(mod["main"]) == []


@pytest.mark.parametrize("kind", ["debug", "vm"])
def test_runtime_adt_list_argument(kind):
    # A List passed as TVM's tests pass it to an executor: runtime ADTs whose tags are the
    # constructors' (the same in every module: the type's name and the constructor's index).
    # Expected (hand computation): the sum of [1, 2, 3] is 6, and the list has 3 elements.
    import numpy as np

    from relaypass.relay.prelude import Prelude
    from relaypass.runtime.container import ADT

    mod = tvm.IRModule()
    p = Prelude(mod)
    scalar = relay.TensorType((), "float32")
    xs = relay.var("xs", type_annotation=p.l(scalar))
    acc, item = relay.var("acc", scalar), relay.var("item", scalar)
    total = p.foldl(relay.Function([acc, item], acc + item), relay.const(0.0), xs)
    mod["main"] = relay.Function([xs], relay.Tuple([total, p.length(xs)]))

    other = Prelude(tvm.IRModule())  # tags from another module's Prelude
    value = ADT(other.nil.tag, [])
    for number in (3.0, 2.0, 1.0):
        value = ADT(other.cons.tag, [tvm.nd.array(np.array(number, "float32")), value])
    result = relay.create_executor(kind, mod=mod).evaluate()(value)
    assert float(result[0].numpy()) == 6.0
    assert int(result[1].numpy()) == 3


@pytest.mark.parametrize("kind", ["debug", "vm"])
def test_malformed_adt_arguments_are_refused_before_running(kind):
    # Each malformed List value is a ValueError naming the argument (and, inside it, where),
    # raised before anything runs; the reasons are hand-derived from the List type.
    import numpy as np

    from relaypass.relay.backend.interpreter import ConstructorValue
    from relaypass.relay.prelude import Prelude
    from relaypass.runtime.container import ADT, tuple_object

    mod = tvm.IRModule()
    p = Prelude(mod)
    t = relay.TensorType((2,), "float32")
    xs = relay.var("xs", type_annotation=p.l(t))
    mod["main"] = relay.Function([xs], p.length(xs))
    a = tvm.nd.array(np.ones(2, "float32"))
    nil = ADT(p.nil.tag, [])
    cases = [
        (ADT(12345, []), "tag 12345"),
        (ADT(p.some.tag, [a]), "Some does not build List"),
        (ADT(p.nil.tag, [a, nil]), "Nil takes 0 fields, got 2"),
        (ADT(p.cons.tag, [a]), "Cons takes 2 fields, got 1"),
        (ADT(p.cons.tag, [tvm.nd.array(np.ones(3, "float32")), nil]),
         r"field 0 of Cons\): a tensor of shape \(3,\)"),
        (ADT(p.cons.tag, [a, ADT(p.cons.tag, [3, nil])]), "depth 2"),
        (tuple_object([a]), "expected a value of the ADT List"),
        (ConstructorValue(p.cons.tag, [a], p.cons), "Cons takes 2 fields, got 1"),
    ]
    cyclic = ADT(p.cons.tag, [a, None])
    cyclic._fields[1] = cyclic
    cases.append((cyclic, "contains itself"))
    run = relay.create_executor(kind, mod=mod).evaluate()
    for value, reason in cases:
        with pytest.raises(ValueError, match=reason):
            run(value)
    assert int(run(ADT(p.cons.tag, [a, nil])).numpy()) == 1  # a well-formed one still runs
