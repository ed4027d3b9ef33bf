"""relay.transform.gradient, tvm.relay.op.register_gradient and relay.testing.check_grad.

Expected values: derivatives derived by hand (stated next to each test), or, through
check_grad, NumPy two-sided finite differences of the forward function."""
import numpy as np
import pytest

from relaypass import IRModule, relay
from relaypass._errors import OpNotImplemented, TVMError
from relaypass.relay.testing import check_grad, count_ops, run_infer_type
from relaypass.relay.transform import gradient


def _run(func, *args, mod=None):
    return relay.create_executor(mod=mod).evaluate(func)(*args)


def _grad(func, mode="higher_order", mod=None):
    return run_infer_type(gradient(run_infer_type(func), mod=mod, mode=mode))


def test_signature_and_square():
    # d(x*x)/dx = 2x
    t = relay.TensorType((4,), "float32")
    x = relay.var("x", t)
    back = _grad(relay.Function([x], x * x))
    assert back.checked_type == relay.FuncType([t], relay.TupleType([t, relay.TupleType([t])]))
    xv = np.array([1.0, -2.0, 3.0, 0.5], "float32")
    out, (gx,) = _run(back, xv)
    np.testing.assert_allclose(out.numpy(), xv * xv)
    np.testing.assert_allclose(gx.numpy(), 2 * xv)


@pytest.mark.parametrize("mode", ["higher_order", "first_order"])
def test_broadcast_and_let(mode):
    # f = let y = x + b in y * y with x (2, 3), b (3,): df/dx = 2y, df/db = sum over rows of 2y
    x = relay.var("x", shape=(2, 3))
    b = relay.var("b", shape=(3,))
    y = relay.var("y")
    func = relay.Function([x, b], relay.Let(y, x + b, y * y))
    xv = np.arange(6, dtype="float32").reshape(2, 3)
    bv = np.array([1.0, -1.0, 0.5], "float32")
    out, (gx, gb) = _run(_grad(func, mode), xv, bv)
    yv = xv + bv
    np.testing.assert_allclose(out.numpy(), yv * yv)
    np.testing.assert_allclose(gx.numpy(), 2 * yv)
    np.testing.assert_allclose(gb.numpy(), (2 * yv).sum(axis=0))


def test_tuple_result_seeds_first_field():
    # As TVM: for a tuple result only the first field is seeded with ones: (4x, 2x) -> 4
    x = relay.var("x", shape=(3,))
    func = relay.Function([x], relay.Tuple([x * relay.const(4.0), x + x]))
    (a, b), (gx,) = _run(_grad(func), np.ones(3, "float32"))
    np.testing.assert_allclose(gx.numpy(), np.full(3, 4.0))


def test_tuple_parameter():
    # first_order accepts a tuple parameter: d(t0 * t1)/dt0 = t1, /dt1 = t0
    tt = relay.TupleType([relay.TensorType((2,), "float32")] * 2)
    tup = relay.var("tup", tt)
    func = relay.Function([tup], relay.TupleGetItem(tup, 0) * relay.TupleGetItem(tup, 1))
    a = np.array([1.0, 2.0], "float32")
    b = np.array([3.0, 5.0], "float32")
    out, ((ga, gb),) = _run(_grad(func, "first_order"), (a, b))
    np.testing.assert_allclose(ga.numpy(), b)
    np.testing.assert_allclose(gb.numpy(), a)
    with pytest.raises(TVMError):  # TVM's higher-order AD refuses top-level tuple arguments
        gradient(run_infer_type(func))


def test_global_function_and_closure():
    # q(y) = d(d(y)) with d(x) = 2x (a global), then a local closure times 3: d/dy = 12
    mod = IRModule()
    x = relay.var("x", shape=(2,))
    d = relay.GlobalVar("double")
    mod[d] = relay.Function([x], x + x)
    y = relay.var("y", shape=(2,))
    z = relay.var("z", shape=(2,))
    f = relay.var("f")
    triple = relay.Function([z], z * relay.const(3.0))
    q = relay.GlobalVar("q")
    mod[q] = relay.Function([y], relay.Let(f, triple, relay.Call(f, [d(d(y))])))
    mod = relay.transform.InferType()(mod)
    mod["g"] = gradient(q, mod)
    mod = relay.transform.InferType()(mod)
    out, (gy,) = _run(mod["g"], np.array([1.0, 2.0], "float32"), mod=mod)
    np.testing.assert_allclose(out.numpy(), [12.0, 24.0])
    np.testing.assert_allclose(gy.numpy(), [12.0, 12.0])


def test_recursion_is_refused():
    mod = IRModule()
    f = relay.GlobalVar("f")
    x = relay.var("x", shape=(2,))
    mod[f] = relay.Function([x], f(x), relay.TensorType((2,), "float32"))
    mod = relay.transform.InferType()(mod)
    with pytest.raises(OpNotImplemented, match="recursive"):
        gradient(f, mod)


def test_second_order():
    # f = x^3: the gradient's gradient is 6x
    x = relay.var("x", shape=(3,))
    back = _grad(relay.Function([x], x * x * x))
    y = relay.var("y", shape=(3,))
    fprime = relay.Function([y], relay.TupleGetItem(relay.TupleGetItem(back(y), 1), 0))
    xv = np.array([1.0, 2.0, -1.0], "float32")
    out, (g2,) = _run(_grad(fprime), xv)
    np.testing.assert_allclose(out.numpy(), 3 * xv * xv)
    np.testing.assert_allclose(g2.numpy(), 6 * xv)


def test_references():
    # r := x; r := r * r; !r + x  -> x^2 + x, derivative 2x + 1
    x = relay.var("x", shape=(2,))
    r = relay.var("r")
    u = relay.var("u")
    body = relay.RefRead(r) + x
    body = relay.Let(u, relay.RefWrite(r, relay.RefRead(r) * relay.RefRead(r)), body)
    func = relay.Function([x], relay.Let(r, relay.RefCreate(x), body))
    xv = np.array([3.0, -1.0], "float32")
    out, (gx,) = _run(_grad(func), xv)
    np.testing.assert_allclose(out.numpy(), xv * xv + xv)
    np.testing.assert_allclose(gx.numpy(), 2 * xv + 1)


def test_if_routes_adjoint_to_taken_branch():
    # log(if c then x*x else y): c -> d/dx = 2/x, d/dy = 0; not c -> d/dx = 0, d/dy = 1/y
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(3,))
    y = relay.var("y", shape=(3,))
    back = _grad(relay.Function([c, x, y], relay.log(relay.If(c, x * x, y))))
    xv = np.array([1.0, 2.0, 4.0], "float32")
    yv = np.array([2.0, 5.0, 8.0], "float32")
    _, (_, gx, gy) = _run(back, np.array(True), xv, yv)
    np.testing.assert_allclose(gx.numpy(), 2 / xv, rtol=1e-6)
    np.testing.assert_allclose(gy.numpy(), 0 * yv)
    _, (_, gx, gy) = _run(back, np.array(False), xv, yv)
    np.testing.assert_allclose(gx.numpy(), 0 * xv)
    np.testing.assert_allclose(gy.numpy(), 1 / yv, rtol=1e-6)


def test_long_chain_is_not_recursive():
    # 10,000 additions of a constant: derivative 1
    x = relay.var("x", shape=(2,))
    e = x
    for _ in range(10000):
        e = relay.add(e, relay.const(1.0))
    out, (gx,) = _run(_grad(relay.Function([x], e)), np.zeros(2, "float32"))
    np.testing.assert_allclose(out.numpy(), [10000.0, 10000.0])
    np.testing.assert_allclose(gx.numpy(), [1.0, 1.0])


def test_no_duplicated_forward_work():
    # dense: one forward, two backward (as TVM's test_no_duplication counts)
    x = relay.var("x", shape=(4, 4))
    w = relay.var("w", shape=(4, 4))
    xy = relay.nn.dense(x, w)
    func = run_infer_type(relay.Function([x, w], relay.sum(xy - relay.sum(xy, keepdims=True))))
    assert count_ops(gradient(func, mode="first_order"))["nn.dense"] == 3


def test_missing_rule_is_named():
    x = relay.var("x", shape=(4,), dtype="float32")
    func = run_infer_type(relay.Function([x], relay.argsort(x)))
    with pytest.raises(OpNotImplemented, match="argsort"):
        gradient(func)


def test_register_gradient_levels():
    # A rule at a higher level replaces the built-in one (here: a wrong derivative, 5, to see it)
    from relaypass.relay.op import gradient_registry as reg

    reg._load_rules()
    saved = dict(reg._RULES)
    try:
        relay.op.register_gradient("sigmoid", lambda orig, grad: [grad * relay.const(5.0)],
                                   level=20)
        with pytest.raises(TVMError):
            relay.op.register_gradient("sigmoid", lambda orig, grad: [grad], level=20)
        x = relay.var("x", shape=(2,))
        _, (gx,) = _run(_grad(relay.Function([x], relay.sigmoid(x))), np.zeros(2, "float32"))
        np.testing.assert_allclose(gx.numpy(), [5.0, 5.0])
    finally:
        reg._RULES.clear()
        reg._RULES.update(saved)


@pytest.mark.parametrize("build", [
    lambda x: relay.nn.softmax(x),
    lambda x: relay.nn.log_softmax(x),
    lambda x: relay.mean(x * x, axis=1),
    lambda x: relay.max(x, axis=0),
    lambda x: relay.variance(x, axis=1),
    lambda x: relay.transpose(x, [1, 0]),
    lambda x: relay.strided_slice(x, [0, 1], [3, 4], [2, 2]),
    lambda x: relay.strided_slice(x, [1, -3], [3, 4], [2]),
    lambda x: relay.clip(x, -0.5, 0.5),
    lambda x: relay.collapse_sum_to(x * x, (1, 4)),
    lambda x: relay.stack([x, x * x], axis=1),
    lambda x: relay.reverse(x * x, 1),
    lambda x: relay.nn.leaky_relu(x, 0.2),
    lambda x: relay.nn.pad(x * x, [(1, 0), (2, 1)]),
    lambda x: relay.fast_exp(x),
    lambda x: relay.tile(x * x, (2, 1, 3)),
    lambda x: relay.tile(x * x, (2,)),
    lambda x: relay.repeat(x * x, 2, 0),
    lambda x: relay.repeat(x * x, 3, -1),
    lambda x: relay.power(x * x + relay.const(1.0, "float64"), relay.const(1.5, "float64")),
    lambda x: relay.TupleGetItem(relay.split(x, 2, axis=1).astuple(), 1)
    * relay.const(2.0, "float64"),
])
def test_rules_against_finite_differences(build):
    x = relay.var("x", shape=(3, 4), dtype="float64")
    check_grad(relay.Function([x], build(x)), scale=1.0)


@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pool2d_against_finite_differences(kind):
    x = relay.var("x", shape=(1, 2, 6, 5), dtype="float64")
    pool = relay.nn.max_pool2d if kind == "max" else relay.nn.avg_pool2d
    check_grad(relay.Function([x], pool(x, (3, 2), (2, 2), (1, 1))), scale=1.0)


@pytest.mark.parametrize("groups", [1, 2])
def test_conv2d_against_finite_differences(groups):
    d = relay.var("d", shape=(2, 4, 7, 6), dtype="float64")
    w = relay.var("w", shape=(6, 4 // groups, 3, 2), dtype="float64")
    conv = relay.nn.conv2d(d, w, strides=(2, 1), padding=(1, 0), dilation=(1, 2),
                           groups=groups)
    check_grad(relay.Function([d, w], conv), scale=1.0)


@pytest.mark.parametrize("executor_kind", ["debug", "vm", "graph"])
def test_every_executor(executor_kind):
    # The gradient function is an ordinary Relay function: each executor runs it.
    x = relay.var("x", shape=(2, 3), dtype="float64")
    w = relay.var("w", shape=(4, 3), dtype="float64")
    func = relay.Function([x, w], relay.nn.softmax(relay.nn.dense(x, w)))
    check_grad(func, executor_kind=executor_kind, scale=1.0)


def test_pad_value_gradient():
    # The pad value fills 3 * 5 - 2 * 3 = 9 positions; checked against finite differences
    x = relay.var("x", shape=(2, 3), dtype="float64")
    p = relay.var("p", shape=(), dtype="float64")
    padded = relay.nn.pad(x, [(1, 0), (0, 2)], pad_value=p)
    check_grad(relay.Function([x, p], padded * padded), scale=1.0)


def test_if_computes_only_the_branch_taken():
    # f = if c then sqrt(x) else x, at x = 0 with c false: f' = 1. Were sqrt's branch also
    # computed, its derivative 0.5 / sqrt(0) = inf times a zero adjoint would give NaN.
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    back = _grad(relay.Function([c, x], relay.If(c, relay.sqrt(x), x)))
    out, (_, gx) = _run(back, np.array(False), np.zeros(2, "float32"))
    np.testing.assert_allclose(out.numpy(), [0.0, 0.0])
    np.testing.assert_allclose(gx.numpy(), [1.0, 1.0])
    out, (_, gx) = _run(back, np.array(True), np.array([4.0, 1.0], "float32"))
    np.testing.assert_allclose(gx.numpy(), [0.25, 0.5])  # 1 / (2 sqrt(x))


def test_nested_if_and_shared_branch_expression():
    # e = log(x) appears (the same expression) in both branches and after the If:
    # f = (if a then (if b then e * 2 else e * 3) else e * e) + e
    # f' = (2 / x | 3 / x | 2 log(x) / x) + 1 / x
    a = relay.var("a", shape=(), dtype="bool")
    b = relay.var("b", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    e = relay.log(x)
    inner = relay.If(b, e * relay.const(2.0), e * relay.const(3.0))
    func = relay.Function([a, b, x], relay.If(a, inner, e * e) + e)
    back = _grad(func)
    xv = np.array([2.0, 5.0], "float32")
    for av, bv, expected in ((True, True, 2 / xv), (True, False, 3 / xv),
                             (False, True, 2 * np.log(xv) / xv)):
        _, (_, _, gx) = _run(back, np.array(av), np.array(bv), xv)
        np.testing.assert_allclose(gx.numpy(), expected + 1 / xv, rtol=1e-5)


def test_if_with_a_tuple_result():
    # t = if c then (x * x, x) else (x, x * 3); f = t.0 + t.1 * 2
    # c: f' = 2x + 2; not c: f' = 1 + 6
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    t = relay.If(c, relay.Tuple([x * x, x]), relay.Tuple([x, x * relay.const(3.0)]))
    t_var = relay.var("t")
    body = relay.TupleGetItem(t_var, 0) + relay.TupleGetItem(t_var, 1) * relay.const(2.0)
    back = _grad(relay.Function([c, x], relay.Let(t_var, t, body)))
    xv = np.array([1.5, -2.0], "float32")
    _, (_, gx) = _run(back, np.array(True), xv)
    np.testing.assert_allclose(gx.numpy(), 2 * xv + 2)
    _, (_, gx) = _run(back, np.array(False), xv)
    np.testing.assert_allclose(gx.numpy(), [7.0, 7.0])


@pytest.mark.parametrize("axis, mode, index", [
    (0, "clip", [[2, 0], [2, 5]]), (1, "wrap", [-1, 4, 1]), (None, "fast", [7, 22, 7]),
    (2, "clip", 1),
])
def test_take_against_finite_differences(axis, mode, index):
    # Repeated indices add up; clip and wrap indices land where take reads
    data = relay.var("data", shape=(3, 4, 2), dtype="float64")
    idx = np.array(index, "int64")
    i = relay.var("i", shape=idx.shape, dtype="int64")
    taken = relay.take(data, i, axis=axis, mode=mode)
    func = relay.Function([data, i], taken * taken)
    x = np.random.randn(3, 4, 2)
    check_grad(func, inputs=[x, idx], test_inputs=[x])


def test_references_written_under_if():
    # r := x; if c then (r := !r * !r) else (r := !r * 3); !r + x
    # c: f = x^2 + x, f' = 2x + 1; not c: f = 4x, f' = 4
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    r = relay.var("r")
    u = relay.var("u")
    square = relay.RefWrite(r, relay.RefRead(r) * relay.RefRead(r))
    triple = relay.RefWrite(r, relay.RefRead(r) * relay.const(3.0))
    body = relay.Let(u, relay.If(c, square, triple), relay.RefRead(r) + x)
    back = _grad(relay.Function([c, x], relay.Let(r, relay.RefCreate(x), body)))
    xv = np.array([3.0, -1.0], "float32")
    out, (_, gx) = _run(back, np.array(True), xv)
    np.testing.assert_allclose(out.numpy(), xv * xv + xv)
    np.testing.assert_allclose(gx.numpy(), 2 * xv + 1)
    out, (_, gx) = _run(back, np.array(False), xv)
    np.testing.assert_allclose(out.numpy(), 4 * xv)
    np.testing.assert_allclose(gx.numpy(), [4.0, 4.0])


def test_reference_written_in_one_branch_and_local_reference():
    # r := x; if c then (s := ref(x * 2); r := !s * !r) else (); !r * x
    # c: f = 2x^3, f' = 6x^2; not c: f = x^2, f' = 2x
    c = relay.var("c", shape=(), dtype="bool")
    x = relay.var("x", shape=(2,))
    r, s, u = relay.var("r"), relay.var("s"), relay.var("u")
    then = relay.Let(s, relay.RefCreate(x * relay.const(2.0)),
                     relay.RefWrite(r, relay.RefRead(s) * relay.RefRead(r)))
    body = relay.Let(u, relay.If(c, then, relay.Tuple([])), relay.RefRead(r) * x)
    back = _grad(relay.Function([c, x], relay.Let(r, relay.RefCreate(x), body)))
    xv = np.array([2.0, -1.0], "float32")
    _, (_, gx) = _run(back, np.array(True), xv)
    np.testing.assert_allclose(gx.numpy(), 6 * xv * xv)
    _, (_, gx) = _run(back, np.array(False), xv)
    np.testing.assert_allclose(gx.numpy(), 2 * xv)


def test_user_rule_meets_the_builtin_ones_first():
    # In a fresh interpreter, before any gradient ran: a level-10 rule for exp clashes with the
    # built-in one (TVM registers its rules at import); a new operator's rule is taken.
    import os
    import subprocess
    import sys

    import relaypass

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(relaypass.__file__)))
    code = (
        "from relaypass import relay\n"
        "from relaypass._errors import TVMError\n"
        "try:\n"
        "    relay.op.register_gradient('exp', lambda o, g: [g])\n"
        "    print('no error')\n"
        "except TVMError as e:\n"
        "    print('clash' if 'same plevel=10' in str(e) else e)\n"
        "relay.op.register_gradient('exp', lambda o, g: [g], level=11)\n"
        "print(relay.op.gradient_registry.get_gradient('exp')(None, 7)[0])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    assert out == ["clash", "7"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("op", [relay.nn.cross_entropy, relay.nn.cross_entropy_with_logits])
def test_cross_entropy_against_finite_differences(op, dtype):
    # TVM's cross_entropy(_with_logits)_grad, checked against two-sided finite differences.
    x = relay.var("x", shape=(2, 5), dtype=dtype)
    y = relay.var("y", shape=(2, 5), dtype=dtype)
    check_grad(relay.Function([x, y], op(x, y)), eps=0.01, scale=0.1, mean=1)


def test_cross_entropy_gradient_by_hand():
    # loss = -sum(t * log(x)) / batch: d/dx = -t / (x * batch), d/dt = -log(x) / batch.
    xv = np.array([[0.5, 0.25], [0.2, 0.8]], "float64")
    tv = np.array([[1.0, 0.0], [0.0, 1.0]], "float64")
    x = relay.var("x", shape=(2, 2), dtype="float64")
    t = relay.var("t", shape=(2, 2), dtype="float64")
    back = run_infer_type(gradient(run_infer_type(
        relay.Function([x, t], relay.nn.cross_entropy(x, t)))))
    mod = IRModule.from_expr(back)
    _, (dx, dt) = relay.create_executor("debug", mod=mod).evaluate()(xv, tv)
    np.testing.assert_allclose(dx.numpy(), -tv / (xv * 2))
    np.testing.assert_allclose(dt.numpy(), -np.log(xv) / 2)
