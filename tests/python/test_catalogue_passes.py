"""Issue 17's passes from Python, by TVM's names and signatures. Expected behaviour: TVM v0.13's
tests/python/relay/test_pass_fast_math.py, test_pass_combine_parallel_dense.py
(test_combine_parallel_dense) and relay/transform/transform.py's signatures."""
import relaypass as tvm
from relaypass import relay


def run_opt_pass(expr, opt_pass):
    mod = tvm.IRModule.from_expr(expr)
    mod = relay.transform.InferType()(mod)
    return opt_pass(mod)["main"]


def test_fast_math_exp_tanh_erf():
    for op, fast in [(relay.exp, "fast_exp"), (relay.tanh, "fast_tanh"), (relay.erf, "fast_erf")]:
        x = relay.var("x", shape=(1, 16, 16, 16), dtype="float32")
        mod = tvm.IRModule.from_expr(relay.Function([x], op(x)))
        assert fast in relay.transform.FastMath()(mod).astext()


def test_combine_parallel_dense_to_batch_matmul():
    i, j, k = 3, 5, 4
    x = relay.var("x", shape=(i, k))
    w1 = relay.var("w1", shape=(j, k))
    w2 = relay.var("w2", shape=(j, k))
    w3 = relay.var("w3", shape=(j + 1, k))
    w4 = relay.var("w4", shape=(j, k))
    args = [x, w1, w2, w3, w4]
    before = relay.Function(args, relay.Tuple((relay.nn.dense(x, w1), relay.nn.dense(x, w2),
                                               relay.nn.dense(x, w3), relay.nn.dense(x, w4))))
    y = relay.nn.batch_matmul(relay.stack((x, x, x), axis=0), relay.stack((w1, w2, w4), axis=0))
    (y1, y2, y4) = relay.split(y, 3)
    expected = relay.Function(args, relay.Tuple((relay.squeeze(y1, [0]), relay.squeeze(y2, [0]),
                                                 relay.nn.dense(x, w3),
                                                 relay.squeeze(y4, [0]))))
    after = run_opt_pass(before, relay.transform.CombineParallelDense(min_num_branches=2))
    expected = run_opt_pass(expected, relay.transform.InferType())
    tvm.ir.assert_structural_equal(after, expected, map_free_vars=True)


def test_signatures_and_infer_type_local():
    assert relay.transform.CombineParallelConv2D(min_num_branches=3).info.opt_level == 4
    assert relay.transform.CombineParallelDense(3, to_batch=False).info.name == \
        "CombineParallelDense"
    assert relay.transform.CombineParallelBatchMatmul().info.opt_level == 4
    assert relay.transform.EtaExpand(expand_global_var=True).info.opt_level == 1
    assert relay.transform.SimplifyFCTranspose(["w"]).info.required == ["DeadCodeElimination"]
    for name in ["DefuseOps", "FoldExplicitPadding", "LambdaLift", "Inline", "DynamicToStatic"]:
        assert getattr(relay.transform, name)().info.name == name
    x = relay.var("x", shape=(2, 3))
    t = relay.transform.InferTypeLocal(relay.sum(relay.nn.relu(x), axis=[1]))
    assert str(t) == "Tensor[(2), float32]"
