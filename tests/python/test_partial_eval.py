"""relay.transform.PartialEvaluate (TVM v0.13's PartialEval pass, relay/partial_eval.py).

Expected values: the graphs TVM's tests/python/relay/test_pass_partial_eval.py asserts after
PartialEvaluate + DeadCodeElimination(inline_once=True) (named "TVM's test_x" below), hand
computation of the folded constants and Peano numbers, and, for the effects, the value the
original program evaluates to (the pass must not change it)."""
import numpy as np
import pytest

from relaypass import IRModule, relay, transform as tvm_transform
from relaypass.ir import assert_structural_equal
from relaypass.relay import Clause, Match, PatternConstructor, PatternVar, transform
from relaypass.relay.prelude import Prelude
from relaypass.relay.testing import make_nat_expr


def _dcpe(func, mod=None, ignore_impurity=False):
    """PartialEvaluate then DeadCodeElimination(inline_once=True), as TVM's tests run them."""
    mod = mod if mod is not None else IRModule()
    mod["main"] = func
    seq = tvm_transform.Sequential(
        [
            transform.PartialEvaluate(),
            transform.DeadCodeElimination(inline_once=True, ignore_impurity=ignore_impurity),
        ]
    )
    return seq(mod)["main"]


def _typed(func, mod=None):
    mod = mod if mod is not None else IRModule()
    mod["main"] = func
    return transform.InferType()(mod)["main"]


def _run(func, *args, mod=None):
    return relay.create_executor(mod=mod).evaluate(func)(*args)


def _nat_module():
    mod = IRModule()
    p = Prelude(mod)
    p.mod.import_from_std("nat.rly")
    return mod, p


def test_pass_info():
    # TVM's registration: CreateModulePass(pass_func, 1, "PartialEval", {}).
    info = transform.PartialEvaluate().info
    assert info.name == "PartialEval"
    assert info.opt_level == 1
    assert list(info.required) == []


def test_function_of_constants_folds():
    # fn () { 1f + 2f } is fn () { 3f } (hand computation).
    res = _dcpe(relay.Function([], relay.add(relay.const(1.0), relay.const(2.0))))
    assert_structural_equal(res.body, relay.const(3.0))


def test_tuple_field_of_known_tuple():
    # TVM's test_tuple: fn [t](%x: t) { (4f, %x).1 } is fn [t](%x: t) { %x }.
    t = relay.TypeVar("t")
    x = relay.Var("x", t)
    f = relay.Function([x], relay.TupleGetItem(relay.Tuple([relay.const(4.0), x]), 1), None, [t])
    expected = _typed(relay.Function([x], x, None, [t]))
    assert_structural_equal(_dcpe(f), expected)


def test_const_inline():
    # TVM's test_const_inline: (fn (%d) { %d + %d })(4f) is 8f.
    d = relay.Var("d", relay.TensorType([], "float32"))
    double = relay.Function([d], d + d)
    res = _dcpe(relay.Function([], double(relay.const(4.0))))
    assert_structural_equal(res.body, relay.const(8.0))


def test_ref_write_then_read():
    # TVM's test_ref: let r = ref(d); r := r! * r!; r! is fn (%d) { %d * %d } once the writes are
    # dropped (ignore_impurity, as TVM's checkpoint tests run DCE).
    t = relay.TensorType([], "float32")
    d = relay.Var("d", t)
    r = relay.Var("r", relay.RefType(t))
    x = relay.Var("x")
    body = relay.RefRead(r)
    body = relay.Let(x, relay.RefWrite(r, relay.RefRead(r) * relay.RefRead(r)), body)
    body = relay.Let(r, relay.RefCreate(d), body)
    square = relay.Function([d], body)
    res = _dcpe(square, ignore_impurity=True)
    assert_structural_equal(res, _typed(relay.Function([d], d * d)))
    # With DCE keeping effects the write stays, and the value is the same: 3 * 3.
    kept = _dcpe(square)
    np.testing.assert_allclose(_run(kept, np.float32(3.0)).numpy(), 9.0)


def test_call_on_a_tuple_of_constants_folds():
    # concatenate((1f, 2f) as (1,) tensors) is [1, 2] (hand computation), as FoldConstant folds
    # calls on tuples of constants.
    a = relay.const(np.array([1.0], "float32"))
    b = relay.const(np.array([2.0], "float32"))
    res = _dcpe(relay.Function([], relay.concatenate(relay.Tuple([a, b]), 0)))
    assert isinstance(res.body, relay.Constant)
    np.testing.assert_allclose(res.body.data.numpy(), [1.0, 2.0])


def test_if_on_constant_takes_its_branch():
    # if (1 < 2) { x } else { x * x }: 1 < 2 is true, so the function is the identity.
    x = relay.var("x", shape=(3,))
    cond = relay.less(relay.const(1.0), relay.const(2.0))
    f = relay.Function([x], relay.If(cond, x, x * x))
    assert_structural_equal(_dcpe(f), _typed(relay.Function([x], x)))


def test_dynamic_parts_stay_and_constants_fold_inside_them():
    # add(x, 1f + 2f) keeps the add on the parameter and folds 1f + 2f to 3f.
    x = relay.var("x", shape=(2,))
    f = relay.Function([x], relay.add(x, relay.add(relay.const(1.0), relay.const(2.0))))
    res = _dcpe(f)
    assert_structural_equal(res, _typed(relay.Function([x], relay.add(x, relay.const(3.0)))))
    xv = np.array([1.0, -1.0], "float32")
    np.testing.assert_allclose(_run(res, xv).numpy(), xv + 3.0)


def test_output_is_let_bound():
    # The pass's own output (before DCE) is in A-normal form: every call is a let's value.
    x = relay.var("x", shape=(2,))
    y = relay.nn.relu(x)
    f = relay.Function([x], relay.add(y, y))
    mod = IRModule.from_expr(f)
    out = transform.PartialEvaluate()(mod)["main"]
    body = out.body
    while isinstance(body, relay.Let):
        body = body.body
    assert isinstance(body, relay.Var)


def test_if_ref():
    # TVM's test_if_ref: both branches call u, which doubles r (1): the result is 2.
    d = relay.Var("d", relay.TensorType((), "bool"))
    r = relay.Var("r")
    update = relay.Function([], relay.RefWrite(r, relay.RefRead(r) + relay.RefRead(r)))
    u = relay.Var("u")
    eff = relay.Var("eff")
    body = relay.Let(eff, relay.If(d, u(), u()), relay.RefRead(r))
    body = relay.Let(u, update, body)
    f = relay.Function([d], relay.Let(r, relay.RefCreate(relay.const(1)), body))
    mod = tvm_transform.Sequential(
        [transform.InferType(), transform.PartialEvaluate(), transform.InferType()]
    )(IRModule.from_expr(f))
    for cond in (True, False):
        assert int(_run(f, cond).numpy()) == 2
        assert int(_run(mod["main"], cond).numpy()) == 2


def test_function_invalidate():
    # TVM's test_function_invalidate: r is 0, then written 1 before fetch runs: the result is 1.
    d = relay.Var("d", relay.TensorType((), "bool"))
    r = relay.Var("r")
    fetch = relay.Function([], relay.RefRead(r))
    fet = relay.Var("fetch")
    fet_obscured = relay.Var("fetch_obscured")
    u = relay.Var("u")
    body = relay.If(d, fet_obscured(), fet_obscured())
    body = relay.Let(u, relay.RefWrite(r, relay.const(1)), body)
    body = relay.Let(fet_obscured, relay.If(d, fet, fet), body)
    body = relay.Let(fet, fetch, body)
    body = relay.Let(r, relay.RefCreate(relay.const(0)), body)
    f = relay.Function([d], body)
    mod = tvm_transform.Sequential(
        [transform.InferType(), transform.PartialEvaluate(), transform.InferType()]
    )(IRModule.from_expr(f))
    assert int(_run(f, True).numpy()) == 1
    assert int(_run(mod["main"], True).numpy()) == 1


def test_unknown_call_forgets_the_store():
    # g is a parameter: it may call w, which writes 1 into r, so r! after g(w) is not the 0 the
    # store held. With g = fn (h) { h() } the result is 1 before and after the pass.
    unit = relay.TupleType([])
    thunk_type = relay.FuncType([], unit)
    g = relay.Var("g", relay.FuncType([thunk_type], unit))
    r = relay.Var("r")
    w = relay.Var("w")
    e = relay.Var("e")
    body = relay.Let(e, g(w), relay.RefRead(r))
    body = relay.Let(w, relay.Function([], relay.RefWrite(r, relay.const(1))), body)
    f = relay.Function([g], relay.Let(r, relay.RefCreate(relay.const(0)), body))
    h = relay.Var("h", thunk_type)
    caller_body = relay.Function([h], h())
    mod = IRModule()
    mod["main"] = f
    pe = transform.PartialEvaluate()(transform.InferType()(mod))
    pe = transform.InferType()(pe)
    for m in (transform.InferType()(mod), pe):
        call = relay.Function([], m["main"](caller_body))
        assert int(_run(call).numpy()) == 1


def test_references_disappear_when_every_read_is_known():
    # The idea of TVM's test_cps_pe (test_pass_to_cps.py) on a program written in continuation-
    # passing style by hand: each branch writes a function into f_ref and calls the continuation
    # k, which reads f_ref and calls what it holds. Inlining k in each branch makes every read
    # known, so after DCE (ignore_impurity, as that test) no reference is left:
    # fn (%cond) { if (%cond) { 1f } else { 2f } } (hand computation).
    cond = relay.var("cond", shape=(), dtype="bool")
    f_ref, k, g = relay.Var("f_ref"), relay.Var("k"), relay.Var("g")
    xk = relay.Var("xk", relay.TupleType([]))
    continuation = relay.Function([xk], relay.Let(g, relay.RefRead(f_ref), g()))

    def branch(value):
        w = relay.Var("w")
        thunk = relay.Function([], relay.const(value))
        return relay.Let(w, relay.RefWrite(f_ref, thunk), k(w))

    body = relay.Let(k, continuation, relay.If(cond, branch(1.0), branch(2.0)))
    body = relay.Let(f_ref, relay.RefCreate(relay.Function([], relay.const(0.0))), body)
    res = _dcpe(relay.Function([cond], body), ignore_impurity=True)
    expected = relay.Function([cond], relay.If(cond, relay.const(1.0), relay.const(2.0)))
    assert_structural_equal(res, _typed(expected))


def _same_value_after_pe(func, args=(), mod=None):
    """Evaluates func before and after PartialEvaluate (no DCE) and returns both values."""
    mod = mod if mod is not None else IRModule()
    mod["main"] = func
    mod = transform.InferType()(mod)
    pe = transform.InferType()(transform.PartialEvaluate()(mod))
    before = relay.create_executor(mod=mod).evaluate()(*args)
    after = relay.create_executor(mod=pe).evaluate()(*args)
    return before.numpy(), after.numpy()


def test_write_through_an_alias_in_a_tuple():
    # let r = ref(0); let t = (r, r); t.0 := 5; t.1! is 5: both fields are the same cell.
    c = relay.const
    r, t, w = relay.Var("r"), relay.Var("t"), relay.Var("w")
    body = relay.Let(
        w, relay.RefWrite(relay.TupleGetItem(t, 0), c(5)), relay.RefRead(relay.TupleGetItem(t, 1))
    )
    body = relay.Let(r, relay.RefCreate(c(0)), relay.Let(t, relay.Tuple([r, r]), body))
    assert _same_value_after_pe(relay.Function([], body)) == (5, 5)


def test_closure_reads_the_store_at_each_call():
    # g reads r: 1 at the first call, 10 after r := 10, so g() + g() is 11.
    c = relay.const
    r, g, a1, a2, w = [relay.Var(s) for s in ("r", "g", "a1", "a2", "w")]
    body = relay.Let(a2, g(), relay.add(a1, a2))
    body = relay.Let(a1, g(), relay.Let(w, relay.RefWrite(r, c(10)), body))
    body = relay.Let(g, relay.Function([], relay.RefRead(r)), body)
    body = relay.Let(r, relay.RefCreate(c(1)), body)
    assert _same_value_after_pe(relay.Function([], body)) == (11, 11)


def _counting_loop_module():
    """@loop(n, rr) adds 1 to the cell rr n times (if n > 0 { rr := rr! + 1; loop(n - 1, rr) })."""
    c = relay.const
    mod = IRModule()
    loop = relay.GlobalVar("loop")
    n = relay.Var("n", relay.TensorType((), "int32"))
    rr = relay.Var("rr", relay.RefType(relay.TensorType((), "int32")))
    w = relay.Var("w")
    step = relay.Let(
        w,
        relay.RefWrite(rr, relay.add(relay.RefRead(rr), c(1))),
        loop(relay.subtract(n, c(1)), rr),
    )
    mod[loop] = relay.Function(
        [n, rr], relay.If(relay.greater(n, c(0)), step, relay.Tuple([])), relay.TupleType([])
    )
    return mod, loop


def test_constant_counter_unrolls():
    # TVM's FTValue fuel: the int32 counter 3, 2, 1, 0 gets smaller at each call, so loop(3, r)
    # unrolls completely and r! is 3 (hand computation); with the writes dropped (DCE
    # ignore_impurity) the function is the constant 3.
    mod, loop = _counting_loop_module()
    r, e = relay.Var("r"), relay.Var("e")
    c = relay.const
    body = relay.Let(r, relay.RefCreate(c(0)), relay.Let(e, loop(c(3), r), relay.RefRead(r)))
    res = _dcpe(relay.Function([], body), mod, ignore_impurity=True)
    assert_structural_equal(res.body, c(3))


def test_recursion_stopped_by_fuel_forgets_the_store():
    # With an unknown counter the first call is inlined, the recursive call (no argument got
    # smaller) stays, and it may write r: r! after it must not be folded. loop(5, r) gives 5
    # before and after the pass (hand computation).
    mod, loop = _counting_loop_module()
    r, e = relay.Var("r"), relay.Var("e")
    count = relay.var("count", shape=(), dtype="int32")
    body = relay.Let(e, loop(count, r), relay.RefRead(r))
    body = relay.Let(r, relay.RefCreate(relay.const(0)), body)
    func = relay.Function([count], body)
    assert _same_value_after_pe(func, (np.int32(5),), mod=mod) == (5, 5)


def test_inlined_copies_keep_their_type_annotations():
    # h's unused inner function keeps `b: float32` in the inlined copy (without it, type inference
    # could not type b before DCE drops it); h(2f) is 3f (hand computation).
    t = relay.TensorType((), "float32")
    a, b, unused, h = relay.Var("a", t), relay.Var("b", t), relay.Var("unused"), relay.Var("h")
    inner = relay.Let(unused, relay.Function([b], b), relay.add(a, relay.const(1.0)))
    prog = relay.Let(h, relay.Function([a], inner), h(relay.const(2.0)))
    res = _dcpe(relay.Function([], prog))
    assert_structural_equal(res.body, relay.const(3.0))


def test_head_cons():
    # TVM's test_head_cons: hd(Cons(x, Nil)) is x.
    mod = IRModule()
    p = Prelude(mod)
    _, cons, nil = p.mod.get_type("List")
    hd = p.mod.get_global_var("hd")
    t = relay.TypeVar("t")
    x = relay.Var("x", t)
    res = _dcpe(relay.Function([x], hd(cons(x, nil())), None, [t]), mod)
    assert_structural_equal(res, relay.Function([x], x, t, [t]))


def test_map_over_a_static_list_unrolls():
    # TVM's test_map: map(f, [1, 2, 3]) with f the identity is [1, 2, 3].
    mod = IRModule()
    p = Prelude(mod)
    _, cons, nil = p.mod.get_type("List")
    map_ = p.mod.get_global_var("map")
    f = relay.GlobalVar("f")
    t = relay.TypeVar("t")
    a = relay.Var("a", t)
    mod[f] = relay.Function([a], a, t, [t])
    c = relay.const
    orig = map_(f, cons(c(1), cons(c(2), cons(c(3), nil()))))
    expected = cons(c(1), cons(c(2), cons(c(3), nil())))
    res = _dcpe(relay.Function([], orig), mod)
    assert_structural_equal(res.body, _typed(relay.Function([], expected), mod).body)


def test_loop_without_progress_stays_a_call():
    # TVM's test_loop: loop(x) = loop(x); loop(1) stays loop(1) (no fuel is spent).
    mod = IRModule()
    t = relay.TypeVar("t")
    x = relay.Var("x", t)
    loop = relay.GlobalVar("loop")
    mod[loop] = relay.Function([x], loop(x), t, [t])
    res = _dcpe(relay.Function([], loop(relay.const(1))), mod)
    assert_structural_equal(res.body, _typed(relay.Function([], loop(relay.const(1))), mod).body)


def test_swap_loop():
    # TVM's test_swap_loop: loop(x, y) = loop(y, x); loop(1, 2) unrolls once, to loop(2, 1), and
    # once more (the second argument got smaller), back to loop(1, 2), where nothing got smaller.
    mod, p = _nat_module()
    nat, _, _ = p.mod.get_type("nat")
    x = relay.Var("x", nat())
    y = relay.Var("y", nat())
    loop = relay.GlobalVar("loop")
    mod[loop] = relay.Function([x, y], loop(y, x), nat())
    prog = loop(make_nat_expr(p, 1), make_nat_expr(p, 2))
    res = _dcpe(relay.Function([], prog), mod)
    assert_structural_equal(res.body, prog)


def test_abs_diff():
    # TVM's test_abs_diff: diff(7, 3) is 4 (hand computation on Peano numbers).
    mod, p = _nat_module()
    nat, z, s = p.mod.get_type("nat")
    x, y = relay.Var("x", nat()), relay.Var("y", nat())
    xp, yp = relay.Var("x'", nat()), relay.Var("y'", nat())
    diff = relay.GlobalVar("diff")
    y_z_case = Clause(PatternConstructor(z, []), x)
    y_s_case = Clause(PatternConstructor(s, [PatternVar(yp)]), diff(yp, xp))
    x_z_case = Clause(PatternConstructor(z, []), y)
    x_s_case = Clause(PatternConstructor(s, [PatternVar(xp)]), Match(y, [y_z_case, y_s_case]))
    mod[diff] = relay.Function([x, y], Match(x, [x_z_case, x_s_case]))
    res = _dcpe(relay.Function([], diff(make_nat_expr(p, 7), make_nat_expr(p, 3))), mod)
    assert_structural_equal(res.body, make_nat_expr(p, 4))


def test_match_nat_id():
    # TVM's test_match_nat_id: nat_id(3) by a match rebuilding its argument is 3.
    mod, p = _nat_module()
    nat, z, s = p.mod.get_type("nat")
    x, y = relay.Var("x", nat()), relay.Var("y", nat())
    nat_id = relay.GlobalVar("nat_id")
    z_case = Clause(PatternConstructor(z, []), z())
    s_case = Clause(PatternConstructor(s, [PatternVar(y)]), s(y))
    mod[nat_id] = relay.Function([x], Match(x, [z_case, s_case]))
    res = _dcpe(relay.Function([], nat_id(make_nat_expr(p, 3))), mod)
    assert_structural_equal(res.body, make_nat_expr(p, 3))


def test_nat_id():
    # TVM's test_nat_id: the identity on 3 is 3.
    mod, p = _nat_module()
    nat, _, _ = p.mod.get_type("nat")
    x = relay.Var("x", nat())
    nat_id = relay.GlobalVar("nat_id")
    mod[nat_id] = relay.Function([x], x)
    res = _dcpe(relay.Function([], nat_id(make_nat_expr(p, 3))), mod)
    assert_structural_equal(res.body, make_nat_expr(p, 3))


def test_global_match_nat_id():
    # TVM's test_global_match_nat_id: a match on the literal 3 rebuilding it is 3.
    mod, p = _nat_module()
    nat, z, s = p.mod.get_type("nat")
    x = relay.Var("x", nat())
    z_case = Clause(PatternConstructor(z, []), z())
    s_case = Clause(PatternConstructor(s, [PatternVar(x)]), s(x))
    orig = Match(make_nat_expr(p, 3), [z_case, s_case])
    res = _dcpe(relay.Function([], orig), mod)
    assert_structural_equal(res.body, make_nat_expr(p, 3))


def test_double():
    # TVM's test_double: nat_double(3) is 6.
    mod, p = _nat_module()
    double = p.mod.get_global_var("nat_double")
    res = _dcpe(relay.Function([], double(make_nat_expr(p, 3))), mod)
    assert_structural_equal(res.body, make_nat_expr(p, 6))


def test_match_on_unknown_data_stays():
    # nat_id on a parameter: nothing is known, the match stays and evaluates as before
    # (nat_id(2) is 2).
    mod, p = _nat_module()
    nat, z, s = p.mod.get_type("nat")
    x, y, n = relay.Var("x", nat()), relay.Var("y", nat()), relay.Var("n", nat())
    z_case = Clause(PatternConstructor(z, []), z())
    s_case = Clause(PatternConstructor(s, [PatternVar(y)]), s(y))
    res = _dcpe(relay.Function([n], Match(n, [z_case, s_case])), mod)
    assert "match" in res.astext()
    mod["main"] = relay.Function([], res(make_nat_expr(p, 2)))
    out = relay.create_executor(mod=mod).evaluate()()
    # A nat value is a constructor value with one field per succ: count them.
    depth = 0
    while out.fields:
        out = out.fields[0]
        depth += 1
    assert depth == 2


def test_recursive_local_function_with_static_argument_unrolls():
    # let rec count = fn (n) { match n { z => 0, s(m) => 1 + count(m) } } in count(3) is 3
    # (hand computation): the argument shrinks at each call, so every call is inlined.
    mod, p = _nat_module()
    nat, z, s = p.mod.get_type("nat")
    count = relay.Var("count")
    n, m = relay.Var("n", nat()), relay.Var("m", nat())
    body = Match(
        n,
        [
            Clause(PatternConstructor(z, []), relay.const(0)),
            Clause(PatternConstructor(s, [PatternVar(m)]), relay.add(relay.const(1), count(m))),
        ],
    )
    prog = relay.Let(count, relay.Function([n], body), count(make_nat_expr(p, 3)))
    res = _dcpe(relay.Function([], prog), mod)
    assert_structural_equal(res.body, relay.const(3))


def test_primitive_functions_are_left_alone():
    # A fused (Primitive) function is neither entered nor inlined, as TVM's function passes.
    # Its constant add stays (2f is still there; folded, it would be 3f); the call computes
    # 1 + (1 + 2) = 4 (hand computation).
    x = relay.var("x", shape=(2,))
    prim = relay.Function([x], relay.add(x, relay.add(relay.const(1.0), relay.const(2.0))))
    prim = prim.with_attr("Primitive", 1)
    f = relay.Function([], prim(relay.const(np.ones(2, "float32"))))
    res = _dcpe(f)
    text = res.astext()
    assert "Primitive=1" in text and "2f" in text and "3f" not in text
    np.testing.assert_allclose(_run(res).numpy(), [4.0, 4.0])


def test_call_the_evaluator_refuses_stays():
    # An integer division by zero cannot be computed at compile time: as FoldConstant, the call
    # stays for run time (where, if ever, it fails).
    f = relay.Function([], relay.divide(relay.const(1, "int32"), relay.const(0, "int32")))
    res = _dcpe(f)
    assert isinstance(res.body, relay.Call) and res.body.op.name == "divide"


def test_functions_for_an_external_compiler_are_left_alone():
    # A global function with a Compiler attribute is not entered, as TVM's function passes.
    x = relay.var("x", shape=(2,))
    ext = relay.Function([x], relay.add(x, relay.add(relay.const(1.0), relay.const(2.0))))
    ext = ext.with_attr("Compiler", "ccompiler").with_attr("global_symbol", "ext")
    mod = IRModule()
    mod["ext"] = ext
    mod["main"] = relay.Function([x], x)
    out = transform.PartialEvaluate()(mod)
    assert_structural_equal(out["ext"], mod["ext"])


def test_input_module_is_unchanged():
    x = relay.var("x", shape=(2,))
    one = relay.const(1.0)
    mod = IRModule.from_expr(relay.Function([x], relay.add(x, relay.add(one, one))))
    before = mod.astext()
    transform.PartialEvaluate()(mod)
    assert mod.astext() == before


@pytest.mark.parametrize("n", [200_000])
def test_long_let_chain(n):
    # n lets alternating add(v, 1f) and relu: no recursion on the chain's length (200,000 here
    # to keep the suite fast; 1,000,000 was run by hand: about a minute). With x = 0 the result
    # is n / 2 (each add adds 1, relu keeps positives): hand computation.
    x = relay.var("x", shape=(1, 4))
    names = [relay.var("v%d" % i) for i in range(n)]
    body = names[-1]
    for i in range(n - 1, -1, -1):
        prev = x if i == 0 else names[i - 1]
        value = relay.add(prev, relay.const(1.0)) if i % 2 == 0 else relay.nn.relu(prev)
        body = relay.Let(names[i], value, body)
    mod = IRModule.from_expr(relay.Function([x], body))
    out = transform.PartialEvaluate()(mod)
    res = relay.create_executor(mod=out).evaluate()(np.zeros((1, 4), "float32"))
    np.testing.assert_allclose(res.numpy(), np.full((1, 4), n / 2, "float32"))
