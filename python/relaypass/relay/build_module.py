"""relay.build_module: bind_params_by_name and the evaluator (create_executor). Compiling to
machine code (relay.build) is not part of relaypass."""
import numpy as _np

from .. import _core
from .. import nd as _nd
from .._errors import OpNotImplemented
from ..ir import IRModule
from .expr import Function


def _as_ndarray(value):
    if isinstance(value, _nd.NDArray):
        return value
    return _nd.array(_np.asarray(value))


def _check_argument(param, array):
    """An argument must have the shape and dtype its parameter declares (as TVM's executors
    check): the evaluator itself trusts its inputs."""
    declared = param.type_annotation
    if not isinstance(declared, _core.TensorType):
        return
    shape = tuple(int(d) for d in declared.shape)
    if any(d < 0 for d in shape):
        return
    if tuple(array.shape) != shape or array.dtype != declared.dtype:
        raise ValueError(
            "argument '{}' has shape {} and dtype {}, but main declares {}".format(
                param.name_hint, tuple(array.shape), array.dtype, declared)
        )


def bind_params_by_name(func, params):
    """Parameters of ``func`` named in ``params`` become constants (TVM's function)."""
    return _core.bind_params_by_name(func, {k: _as_ndarray(v) for k, v in params.items()})


class Executor:
    """What create_executor returns: ``evaluate()`` gives a function that runs ``main`` on the
    evaluator (CPU kernels) and returns NDArrays (a tuple of them for a tuple result)."""

    def __init__(self, mod, params=None):
        self.mod = mod
        self.params = params or {}

    def evaluate(self, expr=None, binds=None):
        if expr is not None and not isinstance(expr, Function):
            return _core.evaluate_expr(expr, self.mod if self.mod is not None else IRModule())
        mod = self.mod if expr is None else IRModule.from_expr(expr)
        if self.params:
            mod = IRModule.from_expr(mod["main"]) if expr is None else mod
            mod["main"] = bind_params_by_name(mod["main"], self.params)
        main = mod["main"]
        names = [p.name_hint for p in main.params]

        def run(*args, **kwargs):
            values = list(args)
            if len(values) > len(names):
                raise ValueError("main takes {} arguments, got {}".format(len(names), len(values)))
            for name in names[len(values):]:
                if name not in kwargs:
                    raise ValueError("missing argument '{}' of main".format(name))
                values.append(kwargs[name])
            arrays = [_as_ndarray(v) for v in values]
            for param, array in zip(main.params, arrays):
                _check_argument(param, array)
            return _core.run_main(mod, arrays)

        return run


def create_executor(kind="debug", mod=None, device=None, target="llvm", params=None):
    """An executor for ``mod`` (every kind runs relaypass's evaluator on the CPU)."""
    if mod is None:
        mod = IRModule()
    return Executor(mod, params)


def build(*args, **kwargs):
    raise OpNotImplemented(
        "relay.build is not available: relaypass optimizes and evaluates Relay, it does not "
        "compile it to machine code"
    )
