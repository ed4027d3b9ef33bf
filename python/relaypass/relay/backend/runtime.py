"""tvm.relay.backend.Runtime: which runtime a compiled module is for ("cpp" or "crt") and its
options, as TVM v0.13 (python/tvm/relay/backend/runtime.py; the runtimes and their options are
those src/relay/backend/runtime.cc registers). relaypass compiles nothing: these are the
configuration objects a script builds and passes around, checked as TVM checks them."""
from ._registry import ConfigObject, Registry

_RUNTIMES = Registry("Runtime")
# src/relay/backend/runtime.cc (TVM v0.13): TVM_REGISTER_RUNTIME(kTvmRuntimeCrt) and (...Cpp)
_RUNTIMES.register("crt").add_attr_option("system-lib", "IntImm")  # Bool
_RUNTIMES.register("cpp").add_attr_option("system-lib", "IntImm")  # Bool


class Runtime(ConfigObject):
    """Runtime configuration: ``Runtime(name, options=None)``; ``runtime["system-lib"]``,
    ``"system-lib" in runtime``, ``.name``, ``.attrs``. ``str()`` is the name, as TVM's."""

    flag_registry_name = "runtime"
    _registry = _RUNTIMES

    def __str__(self):
        # TVM's ReprPrinter for RuntimeNode prints the name only
        return self._name
