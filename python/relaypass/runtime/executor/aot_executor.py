"""tvm.runtime.executor.AotModule: TVM v0.13's wrapper of the module an AOT build makes.

relaypass has no ahead-of-time code generator: relay.build(..., executor=Executor("aot")) makes
the same optimized module as for the graph executor, and the module ``lib["default"](dev)``
returns runs it on the evaluator. AotModule has the graph executor wrapper's methods (TVM's
AotModule has the same ones, set_input to get_output) and get_input_name."""
from ...contrib.graph_executor import GraphModule


class AotModule(GraphModule):
    """Wraps the module of an AOT build (TVM's tvm.runtime.executor.AotModule)."""

    _TYPE_KEYS = ("AotExecutor", "GraphExecutor")

    def get_input_name(self, index):
        return self.module["get_input_name"](index)
