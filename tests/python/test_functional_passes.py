"""relay.transform.to_cps / un_cps, Defunctionalization and LazyGradientInit from Python (TVM
v0.13's signatures: to_cps(func, mod=None), un_cps(func), Defunctionalization(func, mod),
LazyGradientInit() a pass of opt_level 2). Expected values are NumPy or hand computations of the
programs; the shapes (the continuation parameter last, `<name>_cps` globals, `Defunc`/`apply`
names, GradCell's definitions) are TVM's, from its sources."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.relay import transform
from relaypass.relay.prelude import Prelude
from relaypass.relay.testing import make_nat_expr


def _run(mod, *args):
    return relay.create_executor("debug", mod=mod).evaluate()(*args)


def _through_cps(mod):
    # As TVM's test_pass_to_cps.py::test_recursion: type the CPS function before un_cps.
    mod = transform.InferType()(mod)
    mod["main"] = transform.to_cps(mod["main"], mod=mod)
    mod = transform.InferType()(mod)
    mod["main"] = transform.un_cps(mod["main"])
    return transform.InferType()(mod)


def test_to_cps_signature_and_names():
    x = relay.var("x", shape=(3,))
    f = relay.Function([x], relay.nn.relu(x))
    mod = transform.InferType()(tvm.IRModule.from_expr(f))
    cps = transform.to_cps(mod["main"])  # mod defaults to a fresh module, as TVM
    assert [p.name_hint for p in cps.params] == ["x", "k"]
    assert len(cps.type_params) == 1
    assert str(cps.type_params[0]) == "answer"


def test_references_and_if_through_cps_keep_their_values():
    # r := (c ? 2x : x + 1); result r + x  (hand computation: 3x or 2x + 1)
    x = relay.var("x", shape=(4,))
    c = relay.var("c", shape=(), dtype="bool")
    r = relay.Var("r")
    body = relay.Let(
        r,
        relay.RefCreate(x),
        relay.Let(
            relay.Var("u"),
            relay.If(c, relay.RefWrite(r, x * relay.const(2.0)),
                     relay.RefWrite(r, x + relay.const(1.0))),
            relay.RefRead(r) + x,
        ),
    )
    mod = _through_cps(tvm.IRModule.from_expr(relay.Function([x, c], body)))
    xs = np.array([1.0, -2.0, 0.5, 3.0], dtype="float32")
    np.testing.assert_allclose(_run(mod, xs, True).numpy(), 3 * xs)
    np.testing.assert_allclose(_run(mod, xs, False).numpy(), 2 * xs + 1)


def test_prelude_recursion_through_cps():
    # nat_iterate(double, 3)(i) = 8 i, TVM's test_recursion; the globals it reaches get _cps twins.
    mod = tvm.IRModule()
    p = Prelude(mod)
    p.mod.import_from_std("nat.rly")
    nat_iterate = p.mod.get_global_var("nat_iterate")
    t = relay.TensorType((2, 2), "float32")
    x = relay.var("x", t)
    i = relay.var("i", t)
    mod["main"] = relay.Function(
        [i], nat_iterate(relay.Function([x], x + x), make_nat_expr(p, 3))(i))
    mod = _through_cps(mod)
    assert "nat_iterate_cps" in [g.name_hint for g in mod.get_global_vars()]
    data = np.arange(4, dtype="float32").reshape(2, 2)
    np.testing.assert_allclose(_run(mod, data).numpy(), 8 * data)


def test_to_cps_needs_types():
    x = relay.var("x", shape=(3,))
    with pytest.raises(tvm.error.InternalError):
        transform.to_cps(relay.Function([x], x))


def test_defunctionalization_first_order_and_same_values():
    # sum(map(fn v => v * a, [b, 2])) = a (b + 2): 3 * (1 + 2) = 9.
    mod = tvm.relay.fromtext("""
type List[A] { Cons(A, List[A]), Nil, }
def @map[A, B](%f: fn(A) -> B, %xs: List[A]) -> List[B] {
  match (%xs) { Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)), Nil => Nil, }
}
def @sum(%xs: List[float32]) -> float32 {
  match (%xs) { Cons(%x, %rest) => add(%x, @sum(%rest)), Nil => 0f, }
}
def @main(%a: float32, %b: float32) -> float32 {
  @sum(@map(fn (%v: float32) -> float32 { multiply(%v, %a) }, Cons(%b, Cons(2f, Nil))))
}
""")
    mod = transform.InferType()(mod)
    before = _run(mod, np.float32(3), np.float32(1)).numpy()
    mod["main"] = transform.Defunctionalization(mod["main"], mod)
    mod = transform.InferType()(mod)
    names = [g.name_hint for g in mod.get_global_vars()]
    assert "applyfn (float32) -> float32" in names
    assert any(n.startswith("mapfn (") for n in names)
    assert "@map(" not in mod["main"].astext()
    after = _run(mod, np.float32(3), np.float32(1)).numpy()
    assert before == after == np.float32(9)


def test_defunctionalization_refuses_polymorphic_main():
    mod = tvm.relay.fromtext("def @main[A](%x: A) -> A { %x }")
    mod = transform.InferType()(mod)
    with pytest.raises(tvm.error.InternalError):
        transform.Defunctionalization(mod["main"], mod)


def test_lazy_gradient_init_pass_keeps_type_and_values():
    # x * ones_like(x) + zeros_like(x) * x = x; x * x + 1 through the Raw path (NumPy).
    t = relay.TensorType((3,), "float32")
    x = relay.var("x", t)
    body = relay.Tuple([x * relay.ones_like(x) + relay.zeros_like(x) * x,
                        x * x + relay.const(1.0)])
    mod = transform.InferType()(tvm.IRModule.from_expr(relay.Function([x], body)))
    p = transform.LazyGradientInit()
    assert p.info.name == "LazyGradientInit" and p.info.opt_level == 2
    lazy = p(mod)
    assert lazy["main"].checked_type == mod["main"].checked_type
    assert "GradCell" in [v.name_hint for v in lazy.get_global_type_vars()]
    data = np.array([1.0, -2.0, 0.25], dtype="float32")
    out = _run(lazy, data)
    np.testing.assert_allclose(out[0].numpy(), data)
    np.testing.assert_allclose(out[1].numpy(), data * data + 1)


def test_import_gradient_rly():
    mod = tvm.IRModule()
    mod.import_from_std("gradient.rly")
    mod.import_from_std("gradient.rly")
    names = sorted(g.name_hint for g in mod.get_global_vars())
    assert names == ["AddGradCell", "FromGradCell", "MultiplyGradCell"]
    _, raw, one, zero = mod.get_type("GradCell")
    assert [c.name_hint for c in (raw, one, zero)] == ["Raw", "One", "Zero"]
