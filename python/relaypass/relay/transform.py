"""relay.transform: every registered pass by TVM's name and Python signature
(``FuseOps(fuse_opt_level=-1)``, ``ConvertLayout(desired_layouts)``, ...), and function_pass."""
import inspect

from .. import _core
from . import fake_quantization_to_integer  # noqa: F401 (tvm.relay.transform's submodule)
from ..transform import (  # noqa: F401
    FunctionPass,
    ModulePass,
    Pass,
    PassContext,
    PassInfo,
    Sequential,
    _wrap,
    _pass_decorator,
    module_pass,
)


def _make_pass_function(name, options, doc):
    """relay.transform.<name>(...): positional or keyword options, registry defaults."""
    params = []
    for opt_name, default, required in options:
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
        params.append(
            inspect.Parameter(opt_name, kind, default=inspect.Parameter.empty if required else default)
        )
    signature = inspect.Signature(params)

    def create(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return _wrap(_core.create_pass(name, list(bound.arguments.items())))

    create.__name__ = name
    create.__qualname__ = name
    create.__signature__ = signature
    create.__doc__ = doc
    return create


def _install_registered_passes():
    names = []
    for name, options, doc in _core.list_passes():
        if name == "PrintIR":  # tvm.transform.PrintIR, not a relay pass
            continue
        globals()[name] = _make_pass_function(name, options, doc)
        names.append(name)
    return names


_REGISTERED = _install_registered_passes()

_eliminate_common_subexpr = globals()["EliminateCommonSubexpr"]
_remove_unused_functions = globals()["RemoveUnusedFunctions"]


def RemoveUnusedFunctions(entry_functions=None):  # noqa: F811 (TVM's signature)
    """Remove the global functions ``entry_functions`` (default ``["main"]``) do not reach."""
    if entry_functions is None:
        entry_functions = ["main"]
    return _remove_unused_functions(list(entry_functions))


def EliminateCommonSubexpr(fskip=None):  # noqa: F811 (TVM's signature)
    """Eliminate common subexpressions. ``fskip`` (a Python predicate) is not supported."""
    if fskip is not None:
        from .._errors import OpNotImplemented

        raise OpNotImplemented("EliminateCommonSubexpr(fskip=...) is not supported by relaypass")
    return _eliminate_common_subexpr()


def InferTypeLocal(expr):
    """The type of ``expr`` inferred from the types its typed parts carry (not a pass)."""
    return _core.infer_type_local(expr)


def ToANormalFormExpr(e):  # noqa: N802 (TVM's name)
    """TVM's ToANormalFormExpr: ``e`` in A-normal form (each sub-expression bound once by a let,
    shared ones once), through the ToANormalForm pass on a module whose main takes e's free
    variables and returns e."""
    from ..ir import IRModule
    from .analysis import free_vars
    from .function import Function

    mod = IRModule()
    mod["main"] = Function(free_vars(e), e)
    return globals()["ToANormalForm"]()(mod)["main"].body


def function_pass(pass_func=None, opt_level=None, name=None, required=None):
    """Make a function pass from a function ``(func, mod, ctx) -> func`` or a class with
    ``transform_function(self, func, mod, ctx)``; as a decorator or called directly."""
    return _pass_decorator("function", pass_func, opt_level, name, required, FunctionPass,
                           _core.make_function_pass, "transform_function")


def default_pipeline_names():
    """TVM v0.13's relay.optimize pass list for one llvm target, as registered here."""
    return list(_core.default_pipeline_names())


def DefaultPipeline():
    """The default pipeline (relay-opt's --pipeline=default) as one Sequential; the PassContext's
    opt_level decides which passes run, as in relay.optimize."""
    return Sequential([_wrap(_core.create_pass(name, [])) for name in default_pipeline_names()])


def MergeComposite(pattern_table):  # noqa: F811 (TVM's signature)
    """Merge the matches of each (name, pattern[, check]) row of ``pattern_table`` into
    functions with a Composite attribute (docs/patterns.md)."""
    from .dataflow_pattern import _pattern

    rows = []
    for row in pattern_table:
        name, pat = row[0], _pattern(row[1])._node
        rows.append((name, pat, row[2]) if len(row) > 2 else (name, pat))
    return _wrap(_core.merge_composite(rows))


_annotate_target = globals()["AnnotateTarget"]


def AnnotateTarget(targets, include_non_call_ops=True):  # noqa: F811 (TVM's signature)
    """Annotate the calls the ``targets`` (a name or a list, in priority order) take with
    compiler_begin / compiler_end."""
    if isinstance(targets, str):
        targets = [targets]
    return _annotate_target(list(targets), include_non_call_ops)


def gradient(expr, mod=None, mode="higher_order"):
    """Reverse-mode automatic differentiation (TVM's relay.transform.gradient): a function with
    ``expr``'s parameters returning ``Tuple(result, Tuple(gradient of each parameter))``. See
    relay/gradient.py and docs/gradient.md."""
    from .gradient import gradient as _gradient

    return _gradient(expr, mod=mod, mode=mode)


def to_cps(func, mod=None):
    """Turn ``func`` into continuation-passing style (TVM's relay.transform.to_cps): every
    intermediate result is passed to a continuation. Global functions it reaches are added to
    ``mod`` converted, as ``<name>_cps``."""
    return _core.to_cps(func, mod)


def un_cps(func):
    """A function without the continuation parameter of the CPS function ``func`` (TVM's
    relay.transform.un_cps): it calls ``func`` with the identity continuation. Higher-order
    inputs and outputs stay in CPS form, as in TVM."""
    return _core.un_cps(func)


def Defunctionalization(func, mod):
    """``func`` (monomorphic, first-order itself) made first-order (TVM's
    relay.transform.Defunctionalization): higher-order globals are cloned per type, function
    arguments become ADT values called through ``apply`` globals; ``mod`` receives them."""
    return _core.defunctionalization(func, mod)


# TVM's span passes: relaypass's parser gives spans to what it parses, but it has neither pass.
AnnotateSpans = __import__("relaypass._unsupported", fromlist=["_Missing"])._Missing(
    "tvm.relay.transform.AnnotateSpans")


from .recast import recast  # noqa: E402,F401 (TVM's relay.transform.recast, in Python)
from .change_batch import _make as _make_change_batch  # noqa: E402

ChangeBatch = _make_change_batch(function_pass)  # TVM's Python function pass

from .split_args import _make as _make_split_args  # noqa: E402

SplitArgs = _make_split_args(function_pass)  # TVM's pass, in Python here


def PartialEvaluate():
    """TVM's PartialEvaluate: a module pass ("PartialEval", opt_level 1) that evaluates what is
    known statically in every global function and leaves the rest let-bound (A-normal form).
    Run DeadCodeElimination after it to drop the bindings it made unused. See
    relay/partial_eval.py and docs/gradient.md."""
    from .partial_eval import partial_evaluate_module

    return module_pass(lambda mod, ctx: partial_evaluate_module(mod), opt_level=1,
                       name="PartialEval")


_plan_devices = globals()["PlanDevices"]


def PlanDevices(config=None):  # noqa: F811 (TVM's signature)
    """TVM's PlanDevices(config): the virtual device of every sub-expression, from
    ``tvm.target.make_compilation_config``; without a config, the one-device no-op."""
    if config is None:
        return _plan_devices({})
    option = config._as_option() if hasattr(config, "_as_option") else config
    return _plan_devices(option)


def RecoverVirtualDeviceMap(mod, expr):  # noqa: N802 (TVM's global function)
    """TVM's relay.transform.RecoverVirtualDeviceMap: {sub-expression: VirtualDevice} of ``expr``
    (a function of ``mod`` after PlanDevices), as the device-aware visitors recover it."""
    return _core.recover_virtual_device_map(mod, expr)


def _register_globals():
    from .._ffi.registry import register_func

    register_func("relay.transform.RecoverVirtualDeviceMap", RecoverVirtualDeviceMap,
                  override=True)


_register_globals()
