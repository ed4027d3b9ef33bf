"""tvm.contrib.graph_executor: GraphModule and create, as TVM v0.13's, on relaypass's evaluator.

The module relay.build returns makes the executor (``lib["default"](dev)``); GraphModule wraps
it with TVM's methods. Inputs are main's parameters and then the graph's parameters (p0, ...).
Every value set is checked against the graph's shape and dtype: a NumPy array is converted to
the input's dtype where NumPy casts within the same kind (float64 to float32, as TVM's copyfrom
converts), anything else is an error; a run with an input never set is an error naming it.
"""
from .._errors import TVMError
from ..runtime.module import Module


def create(graph_json_str, libmod, device):
    """An executor of a graph relay.build made (TVM's graph_executor.create): ``libmod`` is the
    build's module (``lib`` of ``graph, lib, params = relay.build(...)``, or the factory)."""
    if not isinstance(libmod, Module) and isinstance(getattr(libmod, "module", None), Module):
        libmod = libmod.module  # the factory relay.build returned
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
