"""What relay.build, relay.optimize and relay.vm.compile take: the module (an IRModule, or a
Function with TVM's DeprecationWarning), params (a dict of NDArrays or NumPy arrays) and targets
(only CPU kinds run; any other is an error naming it)."""
import warnings

import numpy as _np

from .. import nd as _nd
from .._errors import TVMError
from ..ir import IRModule
from .expr import Function

# The target kinds relaypass runs (on its CPU evaluator).
_CPU_KINDS = ("llvm", "c")


def _as_ndarray(value):
    if isinstance(value, _nd.NDArray):
        return value
    return _nd.array(_np.asarray(value))


def _params_dict(params):
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise TypeError("params must be a dict of str to NDArray, got {}".format(type(params).__name__))
    out = {}
    for name, value in params.items():
        if not isinstance(name, str):
            raise TypeError("params names must be str, got {!r}".format(name))
        out[name] = _as_ndarray(value)
    return out


def _target_kind(target):
    if target is None:
        return "llvm"
    if isinstance(target, dict):
        if len(target) != 1:
            raise TVMError(
                "relaypass runs one target (the CPU); got the heterogeneous targets {}".format(
                    ", ".join(str(t) for t in target.values()))
            )
        target = next(iter(target.values()))
    text = target if isinstance(target, str) else str(target)
    kind = getattr(target, "kind", None)
    kind = getattr(kind, "name", kind) if not isinstance(target, str) else None
    return kind if isinstance(kind, str) else text.split()[0] if text.split() else ""


def _check_target(target, target_host=None):
    for t in (target, target_host):
        if t is None:
            continue
        kind = _target_kind(t)
        if kind not in _CPU_KINDS:
            raise TVMError(
                "target '{}' is not available: relaypass runs Relay on its CPU evaluator "
                "(targets {})".format(t, ", ".join("'%s'" % k for k in _CPU_KINDS))
            )


def _as_module(ir_mod):
    if isinstance(ir_mod, Function):
        warnings.warn(
            "Please use input parameter mod (tvm.IRModule) instead of deprecated parameter "
            "mod (tvm.relay.function.Function)",
            DeprecationWarning,
        )
        return IRModule.from_expr(ir_mod)
    if not isinstance(ir_mod, IRModule):
        raise ValueError("Type of input parameter mod must be tvm.IRModule")
    return ir_mod


def _target_scope(target):
    from ..target import Target

    if target is None:
        target = "llvm"
    if isinstance(target, dict):
        target = next(iter(target.values()))
    return Target(target) if isinstance(target, str) else target
