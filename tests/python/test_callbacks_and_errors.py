"""Instruments, and exceptions in every position where Python code runs under C++: each comes
out of the outer call as the same exception type, its str()'s last line `ValueError: <message>`
as TVM's FFI words it. C++ errors become TVM's exception classes. Expected behaviour: TVM
v0.13's (python/tvm/_ffi/base.py, the pass_instrument tutorial's printed output)."""
import numpy as np
import pytest

import relaypass as tvm
from relaypass import relay
from relaypass.instrument import PassTimingInstrument, pass_instrument


def module():
    x = relay.var("x", shape=(1, 4))
    c = relay.const(np.ones((1, 4), "float32"))
    return tvm.IRModule.from_expr(relay.Function([x], relay.add(relay.add(c, c), x)))


class Boom(ValueError):
    pass


def last_line(exc):
    return str(exc).split("\n")[-1]


@pass_instrument
class Recorder:
    def __init__(self):
        self.events = []

    def enter_pass_ctx(self):
        self.events.append("enter")

    def exit_pass_ctx(self):
        self.events.append("exit")

    def should_run(self, mod, info):
        self.events.append("should_run " + info.name)
        return True

    def run_before_pass(self, mod, info):
        self.events.append("before " + info.name)

    def run_after_pass(self, mod, info):
        self.events.append("after " + info.name)


def test_instrument_hooks_in_order():
    rec = Recorder()
    with tvm.transform.PassContext(instruments=[rec]) as ctx:
        relay.transform.FoldConstant()(module())
        assert ctx.instruments[0] is rec
    # A function pass runs InferType nested, before its own run_after_pass (as TVM).
    assert rec.events == ["enter", "should_run FoldConstant", "before FoldConstant",
                          "should_run InferType", "before InferType", "after InferType",
                          "after FoldConstant", "exit"]


def test_should_run_false_skips_the_pass():
    @pass_instrument
    class Veto:
        def should_run(self, mod, info):
            return info.name != "FoldConstant"

    mod = module()
    with tvm.transform.PassContext(instruments=[Veto()]):
        assert relay.transform.FoldConstant()(mod).same_as(mod)


def test_timing_instrument_renders_tvms_format():
    timing = PassTimingInstrument()
    with tvm.transform.PassContext(instruments=[timing]):
        relay.transform.FoldConstant()(module())
        report = timing.render()
    lines = report.strip().split("\n")
    assert lines[0].startswith("FoldConstant: ") and "us [" in lines[0]
    assert lines[1].startswith("\tInferType: ")


def subclass_instrument(**hooks):
    class Inst(tvm.instrument.PassInstrument):
        pass

    for name, fn in hooks.items():
        setattr(Inst, name, fn)
    return Inst()


def raise_boom(*args):
    raise Boom("boom in hook")


@pytest.mark.parametrize("hook", ["should_run", "run_before_pass", "run_after_pass"])
def test_exception_in_a_pass_hook_comes_out_of_the_pass_call(hook):
    inst = subclass_instrument(**{hook: raise_boom})
    with pytest.raises(Boom) as info:
        with tvm.transform.PassContext(instruments=[inst]):
            relay.transform.FoldConstant()(module())
    assert last_line(info.value) == "Boom: boom in hook"
    assert str(info.value).startswith("Traceback (most recent call last):")


@pytest.mark.parametrize("hook", ["enter_pass_ctx", "exit_pass_ctx"])
def test_exception_in_a_context_hook_comes_out_of_the_with(hook):
    inst = subclass_instrument(**{hook: raise_boom})
    with pytest.raises(Boom) as info:
        with tvm.transform.PassContext(instruments=[inst]):
            pass
    assert last_line(info.value) == "Boom: boom in hook"


def test_exception_in_override_instruments():
    inst = subclass_instrument(enter_pass_ctx=raise_boom)
    ctx = tvm.transform.PassContext()
    with pytest.raises(Boom):
        ctx.override_instruments([inst])


def test_exception_in_a_module_pass_and_a_function_pass():
    @tvm.transform.module_pass(opt_level=0)
    def failing(mod, ctx):
        raise KeyError("missing thing")

    with pytest.raises(KeyError) as info:
        failing(module())
    assert info.value.args[0].split("\n")[-1] == "KeyError: 'missing thing'"
    assert 'raise KeyError("missing thing")' in info.value.args[0]  # the traceback shows it

    @relay.transform.function_pass(opt_level=0)
    def failing_fn(func, mod, ctx):
        raise Boom("in function pass")

    with pytest.raises(Boom) as info:
        tvm.transform.Sequential([relay.transform.FoldConstant(), failing_fn])(module())
    assert last_line(info.value) == "Boom: in function pass"


def test_exception_in_a_mutator_inside_a_pass():
    class Mut(relay.ExprMutator):
        def visit_constant(self, c):
            raise Boom("in mutator")

    @relay.transform.function_pass(opt_level=0)
    def run_mutator(func, mod, ctx):
        return Mut().visit(func)

    with pytest.raises(Boom) as info:
        run_mutator(module())
    assert last_line(info.value) == "Boom: in mutator"


def test_exception_in_post_order_visit_and_alter_hook():
    with pytest.raises(Boom):
        relay.analysis.post_order_visit(module()["main"], raise_boom)

    handle = tvm._core.register_alter_op_layout("nn.conv2d", raise_boom, 177)
    try:
        x = relay.var("x", shape=(1, 3, 8, 8))
        w = relay.var("w", shape=(4, 3, 3, 3))
        mod = tvm.IRModule.from_expr(relay.Function([x, w], relay.nn.conv2d(x, w)))
        with pytest.raises(Boom):
            with tvm.transform.PassContext(opt_level=3):
                relay.transform.AlterOpLayout()(mod)
    finally:
        handle.unregister()


def test_exception_from_nested_python_passes_keeps_one_wording():
    @tvm.transform.module_pass(opt_level=0)
    def inner(mod, ctx):
        raise Boom("deep")

    @tvm.transform.module_pass(opt_level=0)
    def outer(mod, ctx):
        return inner(mod)

    with pytest.raises(Boom) as info:
        outer(module())
    assert str(info.value).count("Traceback (most recent call last):") == 1
    assert last_line(info.value) == "Boom: deep"


def test_cpp_errors_become_tvm_exceptions():
    for kind, cls in [("parse", tvm.error.DiagnosticError), ("type", TypeError),
                      ("pass", tvm.TVMError), ("internal", tvm.TVMError),
                      ("other", tvm.TVMError)]:
        with pytest.raises(cls) as info:
            tvm._core._raise_for_test(kind, "message first")
        assert "message first" in str(info.value)
    x = relay.var("x", shape=(1, 4))
    y = relay.var("y", shape=(2, 5))
    bad = tvm.IRModule.from_expr(relay.Function([x, y], relay.add(x, y)))
    with pytest.raises(tvm.error.DiagnosticError):
        relay.transform.InferType()(bad)


def test_a_context_stays_usable_after_failures():
    inst = subclass_instrument(run_before_pass=raise_boom)
    ctx = tvm.transform.PassContext(instruments=[inst])
    with pytest.raises(Boom):
        with ctx:
            relay.transform.FoldConstant()(module())
    # the default context is current again and works
    assert tvm.transform.PassContext.current().opt_level == 2
    relay.transform.FoldConstant()(module())


def test_report_instrument_writes_the_pass_explorer(tmp_path):
    report = tvm.instrument.ReportInstrument(input="test module")
    seq = tvm.transform.Sequential([relay.transform.FoldConstant(), relay.transform.FuseOps()])
    with tvm.transform.PassContext(opt_level=3, instruments=[report]):
        seq(module())
    path = tmp_path / "report.html"
    report.write(path)
    page = path.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page
    assert '"name":"FoldConstant"' in page and '"name":"FuseOps"' in page
