"""The runtime modules of a build (relaypass's side of TVM's GraphExecutorFactory and
GraphExecutor modules): the factory module relay.build and load_module give, whose "default"
function makes an executor module with TVM's packed functions (set_input, run, get_output, ...)
over a _core.GraphExecutor. tvm.contrib.graph_executor.GraphModule and AotModule wrap the latter.
"""
import numpy as np

from .. import _core
from .. import nd as _nd
from .._errors import TVMError
from .arguments import cast_within_kind
from .module import Module


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _input_array(value, name, shape, dtype):
    """A new NDArray holding ``value`` for the input ``name`` of ``shape`` and ``dtype``."""
    if isinstance(value, _nd.NDArray):
        if tuple(value.shape) != tuple(shape) or value.dtype != dtype:
            raise ValueError(
                "input '{}' is {} {}, got an NDArray of shape {} and dtype {}".format(
                    name, _shape_text(shape), dtype, _shape_text(value.shape), value.dtype)
            )
        return _nd.NDArray(value.numpy().copy())
    array = np.asarray(value)
    if array.dtype == object:
        raise TypeError("input '{}': cannot convert {} to an array".format(name, type(value).__name__))
    array = cast_within_kind(array, dtype, "input '{}'".format(name))
    if tuple(array.shape) != tuple(shape):
        raise ValueError(
            "array shape do not match the shape of NDArray {} vs {} (input '{}')".format(
                _shape_text(array.shape), _shape_text(shape), name)
        )
    return _nd.NDArray(np.array(array, order="C", copy=False))


class _Executor:
    """The packed functions of TVM's graph executor module over a _core.GraphExecutor."""

    def __init__(self, executor, built):
        self.ex = executor
        self.built = built

    def index(self, key):
        """The input index of ``key`` (a name or an index), or -1 for an unknown name."""
        if isinstance(key, str):
            return self.ex.input_index(key)
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            if not 0 <= int(key) < self.ex.num_inputs:
                raise TVMError(
                    "input index {} out of range (the graph has {} inputs)".format(key, self.ex.num_inputs)
                )
            return int(key)
        raise TypeError("an input is named by a str or an int, not {}".format(type(key).__name__))

    def set_input(self, key, value):
        index = self.index(key)
        if index < 0:
            raise RuntimeError("Could not find '%s' in graph's inputs" % key)
        self.ex.set_input(
            index,
            _input_array(value, self.ex.input_name(index), self.ex.input_shape(index),
                         self.ex.input_dtype(index)),
        )

    def set_input_zero_copy(self, key, value):
        index = self.index(key)
        if index < 0:
            raise RuntimeError("Could not find '%s' in graph's inputs" % key)
        if not isinstance(value, _nd.NDArray):
            raise TypeError("set_input_zero_copy takes an NDArray")
        self.ex.set_input(index, value)

    def get_input(self, key):
        index = self.index(key)
        if index < 0:
            return None
        value = self.ex.get_input(index)
        # A graph parameter is a constant the evaluator may have packed: hand out a copy, so that
        # writing into it (copyfrom) cannot go unseen.
        return _nd.NDArray(value.numpy().copy()) if self.ex.is_param(index) else value

    def get_output(self, index, out=None):
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError("get_output takes an int index")
        if not 0 <= int(index) < self.ex.num_outputs:
            raise TVMError(
                "output index {} out of range (the graph has {} outputs)".format(index, self.ex.num_outputs)
            )
        result = self.ex.get_output(int(index))
        if out is not None:
            out.copyfrom(result)
            return out
        return result

    def load_params(self, params_bytes):
        from ..runtime.params import load_param_dict

        for name, value in load_param_dict(bytes(params_bytes)).items():
            index = self.ex.input_index(name)
            if index >= 0:
                self.set_input(index, value)

    def share_params(self, other, params_bytes):
        from ..runtime.params import load_param_dict

        other_ex = other.get_function("_executor").ex
        for name in load_param_dict(bytes(params_bytes)):
            mine, theirs = self.ex.input_index(name), other_ex.input_index(name)
            if mine >= 0 and theirs >= 0:
                self.ex.set_input(mine, other_ex.get_input(theirs))

    def get_input_info(self):
        shapes, dtypes = {}, {}
        for i in range(self.ex.num_inputs):
            if not self.ex.is_param(i):
                shapes[self.ex.input_name(i)] = self.ex.input_shape(i)
                dtypes[self.ex.input_name(i)] = self.ex.input_dtype(i)
        return {"shape": shapes, "dtype": dtypes}

    def run_from_inputs(self, device_type, device_id, *args):
        if len(args) % 2:
            raise ValueError("run_from_inputs takes name, value pairs")
        for name, value in zip(args[::2], args[1::2]):
            self.set_input(name, value)
        self.ex.run()
        return [self.ex.get_output(i) for i in range(self.ex.num_outputs)]


def _executor_module(executor, built, type_key="GraphExecutor"):
    """The runtime module of one executor (TVM's GraphExecutor module, or the AotExecutor one,
    which relaypass runs the same way)."""
    e = _Executor(executor, built)
    return Module(
        type_key,
        {
            "set_input": e.set_input,
            "set_input_zero_copy": e.set_input_zero_copy,
            "run": executor.run,
            "get_output": e.get_output,
            "get_input": e.get_input,
            "get_num_outputs": lambda: executor.num_outputs,
            "get_num_inputs": lambda: executor.num_inputs,
            "get_input_index": executor.input_index,
            "get_input_name": executor.input_name,
            "get_input_info": e.get_input_info,
            "load_params": e.load_params,
            "share_params": e.share_params,
            "run_from_inputs": e.run_from_inputs,
            "get_graph_json": lambda: built.graph_json,
            "_executor": e,
        },
    )


def _write_artifact(built, path):
    _core.export_built_module(built, path)


def _check_devices(devs):
    """True, or a TVMError for a device other than the CPU (no silent CPU fallback)."""
    from ..nd import _check_device

    for dev in devs:
        for one in dev if isinstance(dev, (list, tuple)) else [dev]:
            _check_device(one)
    return True


def factory_module(built, executor_kind="graph"):
    """The runtime module of a build: "default" (the module name) makes an executor module;
    the lib it imports (type "relaypass") exports the build."""
    type_key = "AotExecutor" if executor_kind == "aot" else "GraphExecutor"
    functions = {
        built.mod_name: lambda *devs: _executor_module(
            _core.GraphExecutor(built) if _check_devices(devs) else None, built, type_key),
        "get_graph_json": lambda: built.graph_json,
        "get_params": lambda: dict(built.params),
        "_export": lambda path: _write_artifact(built, path),
    }
    lib = Module("relaypass", {
        "_export": lambda path: _write_artifact(built, path),
        "_asm": built.kernel_assembly_source,
    })
    factory = Module("GraphExecutorFactory", functions, [lib])
    factory._default_name = built.mod_name
    lib._factory = factory  # graph_executor.create(graph, lib, dev) finds the build through it
    return factory


def load_module(path, fmt=""):
    """tvm.runtime.load_module: a module written by export_library (docs/artifact.md). A file
    that is not one, damaged or truncated is a TVMError naming it."""
    return factory_module(_core.load_built_module(str(path)))
