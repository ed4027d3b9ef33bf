"""tvm.contrib.graph_executor: GraphModule and create, as TVM v0.13's, on relaypass's evaluator.

The module relay.build returns makes the executor (``lib["default"](dev)``); GraphModule wraps
it with TVM's methods. Inputs are main's parameters and then the graph's parameters (p0, ...).
Every value set is checked against the graph's shape and dtype: a NumPy array is converted to
the input's dtype where NumPy casts within the same kind (float64 to float32, as TVM's copyfrom
converts), anything else is an error; a run with an input never set is an error naming it.
"""
import numpy as np

from .. import _core
from .. import nd as _nd
from .._errors import TVMError
from ..runtime.module import Module


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
    if not np.can_cast(array.dtype, np.dtype(dtype) if dtype != "bool" else np.bool_, "same_kind"):
        raise TypeError(
            "input '{}' is {}, got an array of dtype {} (which does not convert to it without "
            "changing kind)".format(name, dtype, array.dtype)
        )
    if tuple(array.shape) != tuple(shape):
        raise ValueError(
            "array shape do not match the shape of NDArray {} vs {} (input '{}')".format(
                _shape_text(array.shape), _shape_text(shape), name)
        )
    return _nd.NDArray(np.array(array, dtype=dtype, order="C", copy=False))


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


def create(graph_json_str, libmod, device):
    """An executor of a graph relay.build made (TVM's graph_executor.create): ``libmod`` is the
    build's module (``lib`` of ``graph, lib, params = relay.build(...)``, or the factory)."""
    from ..relay.backend.executor_factory import GraphExecutorFactoryModule

    if isinstance(libmod, GraphExecutorFactoryModule):
        libmod = libmod.module
    factory = libmod
    if isinstance(libmod, Module) and libmod.type_key == "relaypass":
        factory = getattr(libmod, "_factory", None)
    if not isinstance(factory, Module) or not factory.implements_function("get_graph_json"):
        raise TVMError(
            "graph_executor.create needs the module relay.build returned (or its get_lib()), "
            "got {}".format(type(libmod).__name__)
        )
    if not isinstance(graph_json_str, str):
        raise TypeError("graph_json_str must be a str")
    if graph_json_str != factory["get_graph_json"]():
        raise TVMError(
            "graph_executor.create: the graph JSON is not the one relay.build made for this "
            "module (relaypass runs the module it built, not a JSON edited since)"
        )
    return GraphModule(factory[factory._default_name](device))


class GraphModule:
    """Wrapper of a graph executor module (TVM's tvm.contrib.graph_executor.GraphModule)."""

    # The kinds of module this class wraps (AotModule wraps the AOT build's).
    _TYPE_KEYS = ("GraphExecutor",)

    def __init__(self, module):
        if not isinstance(module, Module) or module.type_key not in self._TYPE_KEYS:
            raise TypeError(
                "{} wraps the module lib[\"default\"](dev) makes, got {}".format(
                    type(self).__name__, type(module).__name__)
            )
        self.module = module
        self._set_input = module["set_input"]
        self._run = module["run"]
        self._get_output = module["get_output"]
        self._get_input = module["get_input"]
        self._get_num_outputs = module["get_num_outputs"]
        self._get_input_index = module["get_input_index"]
        self._get_input_info = module["get_input_info"]
        self._get_num_inputs = module["get_num_inputs"]
        self._load_params = module["load_params"]
        self._share_params = module["share_params"]

    def set_input(self, key=None, value=None, **params):
        if key is not None:
            self._set_input(key, value)
        if params:
            # As TVM: names the graph does not have are skipped.
            for k, v in params.items():
                if self._get_input_index(k) >= 0:
                    self._set_input(k, v)

    def set_input_zero_copy(self, key=None, value=None, **params):
        if key is not None:
            self.module["set_input_zero_copy"](key, value)
        for k, v in params.items():
            if self._get_input_index(k) >= 0:
                self.module["set_input_zero_copy"](k, v)

    def run(self, **input_dict):
        if input_dict:
            self.set_input(**input_dict)
        self._run()

    def get_num_outputs(self):
        return self._get_num_outputs()

    def get_num_inputs(self):
        return self._get_num_inputs()

    def get_input(self, index, out=None):
        value = self._get_input(index)
        if value is None:
            raise RuntimeError("Could not find '%s' in graph's inputs" % index)
        if out:
            out.copyfrom(value)
            return out
        return value

    def get_input_index(self, name):
        return self._get_input_index(name)

    def get_input_info(self):
        info = self._get_input_info()
        return info["shape"], info["dtype"]

    def get_output(self, index, out=None):
        return self._get_output(index, out)

    def debug_get_output(self, node, out):
        raise NotImplementedError("Please use debugger.debug_executor as graph_executor instead.")

    def load_params(self, params_bytes):
        self._load_params(bytearray(params_bytes))

    def share_params(self, other, params_bytes):
        self._share_params(other.module, bytearray(params_bytes))

    def __getitem__(self, key):
        return self.module[key]

    def benchmark(self, device, func_name="run", repeat=5, number=5, min_repeat_ms=None,
                  limit_zero_time_iterations=100, end_to_end=False, cooldown_interval_ms=0,
                  repeats_to_cooldown=1, **kwargs):
        """Times ``func_name`` as TVM's benchmark does; a BenchmarkResult (seconds)."""
        min_repeat_ms = 0 if min_repeat_ms is None else min_repeat_ms
        if end_to_end:
            args = []
            for k, v in kwargs.items():
                args.append(k)
                args.append(v)
            return self.module.time_evaluator(
                "run_from_inputs", device, repeat=repeat, number=number,
                min_repeat_ms=min_repeat_ms,
                limit_zero_time_iterations=limit_zero_time_iterations,
                cooldown_interval_ms=cooldown_interval_ms,
                repeats_to_cooldown=repeats_to_cooldown,
            )(1, 0, *args)
        if kwargs:
            self.set_input(**kwargs)
        return self.module.time_evaluator(
            func_name, device, repeat=repeat, number=number, min_repeat_ms=min_repeat_ms,
            limit_zero_time_iterations=limit_zero_time_iterations,
            cooldown_interval_ms=cooldown_interval_ms, repeats_to_cooldown=repeats_to_cooldown,
        )()
