"""Passes by TVM's Python names and signatures, Sequential, PassContext and the pass
decorators. Expected behaviour: TVM v0.13's (tvm/ir/transform.py, relay/transform/transform.py)
and the printed outputs of the tutorials."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay


def example():
    x = relay.var("x", shape=(1, 4))
    c = relay.const(np.ones((1, 4), "float32"))
    y = relay.add(relay.add(c, c), x)
    return tvm.IRModule.from_expr(relay.Function([x], relay.add(y, y)))


def count_ops(mod):
    names = []
    relay.analysis.post_order_visit(
        mod["main"], lambda n: names.append(n.op.name)
        if isinstance(n, relay.Call) and isinstance(n.op, tvm.ir.Op) else None)
    return names


def test_registered_passes_have_tvms_signatures():
    assert relay.transform.FuseOps().info.name == "FuseOps"
    assert relay.transform.FuseOps(fuse_opt_level=2).info.opt_level == 0
    assert relay.transform.FoldConstant().info.opt_level == 2
    assert relay.transform.DeadCodeElimination(inline_once=True, ignore_impurity=False)
    assert relay.transform.ConvertLayout({"nn.conv2d": ["NHWC", "default"]}).info.name == \
        "ConvertLayout"
    with pytest.raises(TypeError):
        relay.transform.ConvertLayout()  # desired_layouts is required, as in TVM
    assert isinstance(relay.transform.FoldConstant(), tvm.transform.Pass)


def test_passinfo_str_is_tvms():
    info = relay.transform.EliminateCommonSubexpr().info
    assert str(info) == ("The meta data of the pass - pass name: EliminateCommonSubexpr, "
                         "opt_level: 3, required passes: [\nInferType, ]\n")
    info = tvm.transform.PassInfo(1, "Mine")
    assert str(info).startswith("The meta data of the pass - pass name: Mine, opt_level: 1")


def test_fold_constant_and_sequential_with_pass_context():
    mod = example()
    folded = relay.transform.FoldConstant()(mod)
    assert count_ops(folded) == ["add", "add"]
    seq = tvm.transform.Sequential([relay.transform.FoldConstant(),
                                    relay.transform.EliminateCommonSubexpr()])
    with tvm.transform.PassContext(opt_level=3):
        assert count_ops(seq(mod)) == ["add", "add"]
    with tvm.transform.PassContext(opt_level=1):  # FoldConstant (level 2) is skipped
        assert count_ops(seq(mod)) == ["add", "add", "add"]
    with tvm.transform.PassContext(opt_level=1, required_pass=["FoldConstant"]):
        assert count_ops(seq(mod)) == ["add", "add"]
    with tvm.transform.PassContext(opt_level=3, disabled_pass=["FoldConstant"]):
        assert count_ops(seq(mod)) == ["add", "add", "add"]


def test_pass_context_current_config_and_nesting():
    outer = tvm.transform.PassContext(opt_level=3)
    with outer:
        assert tvm.transform.PassContext.current().opt_level == 3
        with tvm.transform.PassContext(opt_level=1):
            assert tvm.transform.PassContext.current().opt_level == 1
        assert tvm.transform.PassContext.current().same_as(outer)
    assert tvm.transform.PassContext.current().opt_level == 2
    with pytest.raises(tvm.TVMError):
        tvm.transform.PassContext(config={"no.such.key": 1})


def test_module_pass_as_class_function_and_direct_call():
    @tvm.transform.module_pass(opt_level=1)
    def drop_to_fold(mod, ctx):
        assert isinstance(ctx, tvm.transform.PassContext)
        return relay.transform.FoldConstant()(mod)

    assert drop_to_fold.info.name == "drop_to_fold"
    assert count_ops(drop_to_fold(example())) == ["add", "add"]

    @tvm.transform.module_pass(opt_level=2, name="Renamed")
    class Identity:
        def __init__(self, tag):
            self.tag = tag

        def transform_module(self, mod, ctx):
            return mod

    p = Identity("t")
    assert p.info.name == "Renamed" and p.tag == "t"
    assert isinstance(p, tvm.transform.ModulePass)
    mod = example()
    assert p(mod).same_as(mod)

    direct = tvm.transform.module_pass(lambda m, c: m, opt_level=0, name="Lam")
    assert direct.info.name == "Lam"
    with pytest.raises(ValueError):
        tvm.transform.module_pass(lambda m, c: m)  # no opt_level


def test_function_pass_class_and_python_mutator():
    @relay.transform.function_pass(opt_level=1)
    class DoubleConstants:
        def transform_function(self, func, mod, ctx):
            class Mut(relay.ExprMutator):
                def visit_constant(self, c):
                    return relay.multiply(c, relay.const(2.0))

            return Mut().visit(func)

    p = DoubleConstants()
    assert p.info.name == "DoubleConstants"
    out = p(example())
    # InferType runs after a function pass: the new calls are typed.
    assert str(out["main"].body.checked_type) == "Tensor[(1, 4), float32]"
    assert count_ops(out).count("multiply") == 1  # the shared constant is visited once


def test_wrong_return_type_from_a_python_pass_is_a_type_error():
    bad = tvm.transform.module_pass(lambda m, c: 42, opt_level=0, name="Bad")
    with pytest.raises(TypeError):
        bad(example())


def test_print_ir_and_apply_pass_to_function(capfd):
    mod = example()
    out = tvm.transform.PrintIR()(mod)
    assert out.same_as(mod)
    assert "def @main" in capfd.readouterr().err
    mod["helper"] = example()["main"]
    only_helper = tvm.transform.ApplyPassToFunction(relay.transform.FoldConstant(), "helper")
    res = only_helper(mod)
    assert len(count_ops(tvm.IRModule.from_expr(res["main"]))) == 3
    assert len(count_ops(tvm.IRModule.from_expr(res["helper"]))) == 2


def test_register_alter_op_layout_under_a_target():
    seen = []

    def hook(attrs, inputs, tinfos, out_type):
        seen.append(str(tvm.target.Target.current()))
        new_attrs = dict(attrs)
        new_attrs["data_layout"] = "NHWC"
        new_attrs["kernel_layout"] = "HWIO"
        return relay.nn.conv2d(*inputs, **new_attrs)

    handle = tvm._core.register_alter_op_layout("nn.conv2d", hook, 150)
    try:
        x = relay.var("x", shape=(1, 3, 8, 8))
        w = relay.var("w", shape=(4, 3, 3, 3))
        mod = tvm.IRModule.from_expr(relay.Function([x, w], relay.nn.conv2d(x, w)))
        with tvm.transform.PassContext(opt_level=3), tvm.target.Target("llvm"):
            out = relay.transform.AlterOpLayout()(mod)
        assert seen == ["llvm -keys=cpu "]  # TVM's str(Target("llvm"))
        assert "layout_transform" in count_ops(out)
    finally:
        handle.unregister()


def test_register_legalize_and_the_relay_optimize_passes():
    # Legalize calls the hook with (attrs, inputs, types): the argument types then the result's.
    seen = []

    def hook(attrs, inputs, types):
        seen.append(len(types))
        return relay.clip(inputs[0], 0.0, 6.0)

    handle = tvm._core.register_legalize("nn.relu", hook, 150)
    try:
        x = relay.var("x", shape=(2,))
        mod = tvm.IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))
        out = relay.transform.Legalize()(mod)
        assert seen == [2]
        assert count_ops(out) == ["clip"]
    finally:
        handle.unregister()
    assert callable(relay.op.register_legalize)
    # TVM's signatures: RemoveUnusedFunctions(entry_functions=None), SimplifyExpr().
    x = relay.var("x", shape=(2,))
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.add(x, relay.const(0.0))))
    assert relay.transform.RemoveUnusedFunctions()(mod)["main"] is not None
    assert count_ops(relay.transform.SimplifyExpr()(mod)) == []
    names = relay.transform.default_pipeline_names()
    assert names[0] == "RemoveUnusedFunctions" and names[-2:] == ["PlanDevices", "FuseOps"]
    with tvm.transform.PassContext(opt_level=3):
        assert count_ops(relay.transform.DefaultPipeline()(mod)) == []
