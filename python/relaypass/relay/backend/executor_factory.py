"""tvm.relay.backend.executor_factory: what relay.build returns (TVM v0.13's
GraphExecutorFactoryModule), and the runtime modules around it.

``factory["default"](dev)`` (or ``factory.module["default"](dev)``) makes a graph executor
module, which ``tvm.contrib.graph_executor.GraphModule`` wraps. ``export_library(path)`` writes
the optimized module, its parameters and the graph JSON to one file (docs/artifact.md);
``tvm.runtime.load_module(path)`` reads it back as a module with the same ``["default"]``.
"""
import warnings

from ...runtime.graph_factory import factory_module


class ExecutorFactoryModule:
    """Base of what relay.build returns (tvm.relay.backend.executor_factory)."""

    def get_executor_config(self):
        raise NotImplementedError

    def get_params(self):
        raise NotImplementedError

    def get_lib(self):
        raise NotImplementedError

    def __getitem__(self, item):
        return self.module.__getitem__(item)

    def __iter__(self):
        warnings.warn(
            "legacy graph executor behavior of producing json / lib / params will be "
            "removed in the next release."
            " Please see documents of tvm.contrib.graph_executor.GraphModule for the "
            " new recommended usage.",
            DeprecationWarning,
            2,
        )
        return self

    def __next__(self):
        if self.iter_cnt > 2:
            raise StopIteration
        objs = [self.get_executor_config(), self.lib, self.params]
        obj = objs[self.iter_cnt]
        self.iter_cnt += 1
        return obj


class GraphExecutorFactoryModule(ExecutorFactoryModule):
    """relay.build's result for the graph executor."""

    def __init__(self, ir_mod, target, executor, runtime, built, function_metadata=None):
        self.ir_mod = ir_mod
        self.target = target
        self.executor = executor
        self.runtime = runtime
        self._built = built
        self.graph_json = built.graph_json
        self.params = dict(built.params)
        self.libmod_name = built.mod_name
        self.module = factory_module(built, getattr(executor, "name", "graph"))
        self.lib = self.module.imported_modules[0]
        self.function_metadata = function_metadata or {}
        self.iter_cnt = 0

    # The optimized module relaypass runs (TVM's factory has no such field; relaypass's tools
    # and tests read it).
    @property
    def optimized_mod(self):
        return self._built.mod

    def export_library(self, file_name, fcompile=None, addons=None, **kwargs):
        self.module.export_library(file_name, fcompile, addons, **kwargs)

    def get_devices(self):
        return []

    def get_graph_json(self):
        return self.graph_json

    def get_executor_config(self):
        return self.graph_json

    def get_lib(self):
        return self.lib

    def get_params(self):
        return self.params


class AOTExecutorFactoryModule(GraphExecutorFactoryModule):
    """relay.build's result for Executor("aot"): the same optimized module, run on the
    evaluator behind tvm.runtime.executor.AotModule (relaypass generates no AOT code)."""

    def get_executor_config(self):
        return None
