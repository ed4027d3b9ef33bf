"""tvm.relay.backend.graph_executor_codegen: TVM's GraphExecutorCodegen on an optimized module.

relaypass's lowered form is the fused Relay module itself (the evaluator runs it): codegen
returns TVM's graph JSON, that module, and the graph's parameters (p0, ...)."""
from ... import _core


class GraphExecutorCodegen:
    """The graph codegen of relay.build (``codegen(ir_module, func)``)."""

    def __init__(self, mod, target, mod_name="default"):
        self._mod_name = mod_name
        self._target = target
        self._built = None

    def codegen(self, ir_module, func):
        """``(graph_json, lowered module, params)`` of ``func`` (the optimized main)."""
        from ...ir import IRModule

        mod = IRModule(dict(ir_module.functions))
        mod["main"] = func
        self._built = _core.rebuild_graph(mod, self._mod_name)
        return self._built.graph_json, self._built.mod, dict(self._built.params)
