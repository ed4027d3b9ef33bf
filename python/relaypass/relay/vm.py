"""tvm.relay.vm: compile a module for the VM (TVM v0.13's relay.vm.compile / VMCompiler).

relaypass's VM runs the optimized Relay module on its evaluator, which runs control flow,
closures and recursion (on explicit stacks) as well as dataflow graphs. compile optimizes the
module as relay.build does (the relay.optimize passes at the PassContext's opt_level, FuseOps)
and returns an Executable for tvm.runtime.vm.VirtualMachine.
"""
from .. import _core
from ..ir import IRModule
from ..runtime.vm import Executable
from .build_options import _as_module, _check_target, _params_dict, _target_scope


def compile(mod, target=None, target_host=None, params=None):  # noqa: A001 (TVM's name)
    """An Executable of ``mod`` (an IRModule, or a Function as main) for the VM."""
    mod = _as_module(mod)
    _check_target(target, target_host)
    with _target_scope(target):
        optimized = _core.optimize(mod, _params_dict(params))
    return Executable(optimized)


class VMCompiler:
    """TVM's VMCompiler: set_params, lower, optimize, get_exec."""

    def __init__(self):
        self._params = {}
        self._exec = None

    def set_params(self, params):
        self._params.update(_params_dict(params))

    def get_params(self):
        return dict(self._params)

    def lower(self, mod, target=None, target_host=None):
        self._exec = compile(mod, target, target_host, self._params)

    def codegen(self):
        pass

    def optimize(self, mod, target=None, target_host=None, params=None):
        if params:
            self.set_params(params)
        mod = _as_module(mod) if not isinstance(mod, IRModule) else mod
        with _target_scope(target):
            return _core.optimize(mod, self._params), {}

    def get_exec(self):
        return self._exec
