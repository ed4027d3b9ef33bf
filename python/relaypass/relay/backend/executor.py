"""tvm.relay.backend.Executor: which executor a compiled module is for ("graph" or "aot") and
its options, as TVM v0.13 (python/tvm/relay/backend/executor.py; the executors and their options
are those src/relay/backend/executor.cc registers). relaypass compiles nothing: these are the
configuration objects a script builds and passes around, checked as TVM checks them."""
from ._registry import ConfigObject, Registry, repr_map

_EXECUTORS = Registry("Executor")
# src/relay/backend/executor.cc (TVM v0.13): TVM_REGISTER_EXECUTOR("aot") and ("graph")
(
    _EXECUTORS.register("aot")
    .add_attr_option("link-params", "IntImm", True)  # Bool, default Bool(true)
    .add_attr_option("unpacked-api", "IntImm")  # Bool
    .add_attr_option("interface-api", "runtime.String")  # String
    .add_attr_option("workspace-byte-alignment", "IntImm")  # Integer
    .add_attr_option("constant-byte-alignment", "IntImm")  # Integer
)
_EXECUTORS.register("graph").add_attr_option("link-params", "IntImm", False)


class Executor(ConfigObject):
    """Executor configuration: ``Executor(name, options=None)``; ``executor["link-params"]``,
    ``"interface-api" in executor``, ``.name``, ``.attrs``. ``str()`` is TVM's: the name followed
    by the attributes (``aot{"link-params": T.bool(True)}``)."""

    flag_registry_name = "executor"
    _registry = _EXECUTORS

    def __str__(self):
        # TVM's ReprPrinter for ExecutorNode: name, then the DictAttrs' map
        return self._name + repr_map(self._attrs)
