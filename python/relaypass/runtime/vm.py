"""tvm.runtime.vm: Executable and VirtualMachine (TVM v0.13's names) over relaypass's evaluator.

A VirtualMachine holds one evaluator of the executable's module, made once: repeated invoke()
calls reuse its plan and packed weights. Results are NDArrays, and ADTs for tuples.
"""
import numpy as _np

from .. import _core
from .. import nd as _nd
from .._errors import TVMError
from .arguments import check_adt_argument, check_argument, coerce_argument, constructor_of_tag
from .container import ADT
from .module import BenchmarkResult, _time


class Executable:
    """What relay.vm.compile returns: the optimized module."""

    def __init__(self, mod):
        self.mod = mod

    @property
    def ir_mod(self):
        return self.mod

    def get_function_arity(self, name):
        return len(self.mod[name].params)

    def get_function_param_name(self, name, index):
        return self.mod[name].params[index].name_hint

    @property
    def function_names(self):
        return [gv.name_hint for gv in self.mod.get_global_vars()]

    @property
    def lib(self):
        from .module import Module

        return Module("relaypass")

    @property
    def stats(self):
        return "relaypass VM executable: {} functions".format(len(self.function_names))

    def save(self):
        raise TVMError("Executable.save is not available: relaypass's VM executable is its Relay "
                       "module (export a relay.build module for files)")

    def move_late_bound_consts(self, path, byte_limit=256):
        pass


def _wrap(value):
    """A result as TVM's VM returns it: tuples and ADT values (the interpreter's
    ConstructorValues) both as ADTs (a tuple's tag is 0), on an explicit stack (a list result
    nests as deep as it is long)."""
    from ..relay.backend.interpreter import ConstructorValue

    def open_(v):
        if isinstance(v, tuple):
            return 0, list(v)
        if isinstance(v, ConstructorValue):
            return v.tag, list(v.fields)
        return None

    return _rebuild(value, open_, lambda tag, fields: ADT(tag, fields))


def _to_value(value, mod):
    """An argument as the evaluator takes it: NDArrays (from arrays and constants), tuples,
    lists and ADTs of tag 0 as lists, and an ADT of a constructor's tag as a ConstructorValue of
    ``mod``'s constructor (TVM's VM takes List values so); on an explicit stack."""
    from ..relay.backend.interpreter import ConstructorValue

    def open_(v):
        if isinstance(v, ADT):
            return v.tag, list(v)
        if isinstance(v, (tuple, list)):
            return 0, list(v)
        return None

    def close(tag, fields):
        if tag == 0:
            return fields
        return ConstructorValue(tag, fields, constructor_of_tag(mod, tag))

    return _rebuild(value, open_, close, leaf=_leaf_value)


def _leaf_value(value):
    if isinstance(value, _nd.NDArray):
        return value
    if hasattr(value, "data") and isinstance(getattr(value, "data"), _nd.NDArray):
        return value.data  # a relay Constant
    from ..relay.backend.interpreter import ConstructorValue, RefValue

    if isinstance(value, (ConstructorValue, RefValue)):
        return value
    return _nd.array(_np.asarray(value))


def _rebuild(value, open_, close, leaf=lambda v: v):
    """``value`` rebuilt bottom-up: ``open_(v)`` gives (tag, children) of a node to rebuild, or
    None for a leaf (converted by ``leaf``); ``close(tag, children)`` builds the new node. A node
    that contains itself is refused (a ValueError), not followed forever."""
    opened = open_(value)
    if opened is None:
        return leaf(value)
    stack = [(opened[0], iter(opened[1]), [], id(value))]
    open_ids = {id(value)}
    while True:
        tag, items, done, ident = stack[-1]
        item = next(items, _END)
        if item is _END:
            stack.pop()
            open_ids.discard(ident)
            built = close(tag, done)
            if not stack:
                return built
            stack[-1][2].append(built)
            continue
        opened = open_(item)
        if opened is None:
            done.append(leaf(item))
            continue
        if id(item) in open_ids:
            raise ValueError("a VM argument contains itself (an element of type {} holds itself)"
                             .format(type(item).__name__))
        open_ids.add(id(item))
        stack.append((opened[0], iter(opened[1]), [], id(item)))


_END = object()


class VirtualMachine:
    """Runs an Executable (TVM's tvm.runtime.vm.VirtualMachine)."""

    def __init__(self, exe, device=None, memory_cfg=None):
        if not isinstance(exe, Executable):
            raise TypeError("VirtualMachine takes the Executable relay.vm.compile returns, got {}"
                            .format(type(exe).__name__))
        from ..nd import _check_device

        for dev in device if isinstance(device, (list, tuple)) else [device]:
            _check_device(dev)
        self.executable = exe
        self.device = device
        self._runners = {}
        self._inputs = {}
        self._outputs = None

    def _runner(self, func_name):
        if func_name not in self._runners:
            mod = self.executable.mod
            if func_name not in [gv.name_hint for gv in mod.get_global_vars()]:
                raise TVMError("VM: the executable has no function '{}'".format(func_name))
            if func_name != "main":
                from ..ir import IRModule

                mod = IRModule(dict(mod.functions), dict(mod.type_definitions))
                mod["main"] = self.executable.mod[func_name]
            self._runners[func_name] = _core.ModuleRunner(mod)
        return self._runners[func_name]

    def _arguments(self, func_name, args, kwargs):
        func = self.executable.mod[func_name]
        names = [p.name_hint for p in func.params]
        values = list(args)
        if len(values) > len(names):
            raise TypeError("{} takes {} arguments, got {}".format(func_name, len(names), len(values)))
        for name in names[len(values):]:
            if name not in kwargs:
                raise TypeError("missing argument '{}' of {}".format(name, func_name))
            values.append(kwargs[name])
        out = []
        for param, value in zip(func.params, values):
            value = _to_value(coerce_argument(param, value), self.executable.mod)
            if isinstance(value, _nd.NDArray):
                check_argument(param, value)  # the evaluator trusts its inputs
            else:
                check_adt_argument(param, value, self.executable.mod)
            out.append(value)
        return out

    def set_input(self, func_name, *args, **kwargs):
        self._inputs[func_name] = self._arguments(func_name, args, kwargs)

    def set_one_input(self, func_name, *args, **kwargs):
        raise TVMError("VM.set_one_input is not available in relaypass; use set_input")

    def invoke(self, func_name, *args, **kwargs):
        if args or kwargs:
            self.set_input(func_name, *args, **kwargs)
        if func_name not in self._inputs:
            if self.executable.get_function_arity(func_name) == 0:
                self._inputs[func_name] = []
            else:
                raise TVMError("VM: the inputs of '{}' were not set (set_input or invoke with "
                               "arguments)".format(func_name))
        result = self._runner(func_name).run_main(self._inputs[func_name])
        self._outputs = result
        return _wrap(result)

    def run(self, *args, **kwargs):
        return self.invoke("main", *args, **kwargs)

    def invoke_stateful(self, func_name, *args, **kwargs):
        self.invoke(func_name, *args, **kwargs)

    def get_outputs(self):
        if self._outputs is None:
            raise TVMError("VM: get_outputs before invoke_stateful")
        if isinstance(self._outputs, tuple):
            return list(self._outputs)
        return [self._outputs]

    def get_input_index(self, input_name, func_name="main"):
        names = [p.name_hint for p in self.executable.mod[func_name].params]
        return names.index(input_name) if input_name in names else -1

    def benchmark(self, device, *args, func_name="main", repeat=5, number=5, min_repeat_ms=None,
                  limit_zero_time_iterations=100, end_to_end=False, cooldown_interval_ms=0,
                  repeats_to_cooldown=1, **kwargs):
        if args or kwargs:
            self.set_input(func_name, *args, **kwargs)
        return _time(lambda: self.invoke(func_name), (), number, repeat,
                     0 if min_repeat_ms is None else min_repeat_ms, limit_zero_time_iterations,
                     cooldown_interval_ms, repeats_to_cooldown)


__all__ = ["Executable", "VirtualMachine", "BenchmarkResult"]
