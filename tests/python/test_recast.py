"""relay.transform.recast (python/relaypass/relay/recast.py).

Where expected values come from: the expected expressions are built by hand from what TVM
v0.13's python/tvm/relay/transform/recast.py does (read, not copied): inputs of each recast call
cast to ``dtype``; ``out_dtype`` replaced when the attrs have it; the result cast back to the
call's original dtype (its out_dtype, else its inferred type); concatenate's tuple fields cast one
by one; layers numbered from the first valid op (0) toward the output, with TVM's visiting order
(later arguments of a valid call are reached at the call's own depth)."""
import relaypass as tvm
from relaypass import relay
from relaypass.relay.transform import recast


def conv(x, w, out_dtype="float32"):
    return relay.nn.conv2d(x, w, padding=(1, 1), out_dtype=out_dtype)


def test_module_in_module_out_and_negative_skip():
    x = relay.var("x", shape=[1, 4, 6, 6])
    w1 = relay.var("w1", shape=[4, 4, 3, 3])
    w2 = relay.var("w2", shape=[4, 4, 3, 3])
    mod = tvm.IRModule.from_expr(relay.Function([x, w1, w2], conv(conv(x, w1), w2)))
    out = recast(mod, "int8", "int32", skip_layers=[-1])  # -1: the last layer, the outer conv
    assert isinstance(out, tvm.IRModule)
    first = relay.cast(conv(relay.cast(x, "int8"), relay.cast(w1, "int8"), "int32"), "float32")
    expected = relay.Function([x, w1, w2], conv(first, w2))
    assert tvm.ir.structural_equal(out["main"], expected)
    # the caller's list is not changed (TVM rewrites negative entries in place)
    skip = [-1]
    recast(mod, "int8", "int32", skip_layers=skip)
    assert skip == [-1]


def test_op_without_out_dtype_gets_its_inferred_dtype_back():
    x = relay.var("x", shape=[2, 3], dtype="float64")
    f = relay.Function([x], relay.nn.relu(x))
    out = recast(f, "float16", "float16", ops=["nn.relu"])
    expected = relay.Function([x], relay.cast(relay.nn.relu(relay.cast(x, "float16")), "float64"))
    assert tvm.ir.structural_equal(out, expected)
    # the result type checks and runs
    mod = relay.transform.InferType()(tvm.IRModule.from_expr(out))
    assert mod["main"].ret_type.dtype == "float64"


def test_other_ops_are_untouched():
    x = relay.var("x", shape=[2, 3])
    f = relay.Function([x], relay.nn.relu(relay.exp(x)))
    assert tvm.ir.structural_equal(recast(f, "float16", "float16", ops=["nn.conv2d"]), f)


def test_layer_numbers_follow_tvms_visiting_order():
    # add(add(a, b), add(c, d)) with ops=["add"]: two layers. The outer add is layer 1; its first
    # argument is reached one level deeper (layer 0), its second at the outer add's own depth,
    # so TVM numbers it layer 1 too.
    a, b, c, d = (relay.var(n, shape=[2]) for n in "abcd")
    f = relay.Function([a, b, c, d], relay.add(relay.add(a, b), relay.add(c, d)))

    def down(e):
        return relay.cast(e, "float16")

    def back(e):
        return relay.cast(e, "float32")

    out = recast(f, "float16", "float16", ops=["add"], skip_layers=[1])
    inner0 = back(relay.add(down(a), down(b)))
    expected = relay.Function([a, b, c, d], relay.add(inner0, relay.add(c, d)))
    assert tvm.ir.structural_equal(out, expected)

    out = recast(f, "float16", "float16", ops=["add"], skip_layers=[0])
    inner1 = back(relay.add(down(c), down(d)))
    expected = relay.Function(
        [a, b, c, d], back(relay.add(down(relay.add(a, b)), down(inner1))))
    assert tvm.ir.structural_equal(out, expected)


def test_deep_chain():
    x = relay.var("x", shape=[4])
    y = x
    for _ in range(600):
        y = relay.nn.relu(y)
    out = recast(relay.Function([x], y), "float16", "float16", ops=["nn.relu"],
                 skip_layers=list(range(1, 600)))
    expected = relay.cast(relay.nn.relu(relay.cast(x, "float16")), "float32")
    for _ in range(599):
        expected = relay.nn.relu(expected)
    assert tvm.ir.structural_equal(out, relay.Function([x], expected))
