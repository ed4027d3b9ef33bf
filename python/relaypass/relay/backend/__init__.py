"""tvm.relay.backend: the Executor and Runtime configuration objects (TVM v0.13's names,
options, checks and messages), graph_executor_codegen, and te_compiler (its lowered-function
cache, always empty here). The rest of TVM's backend package compiles code, which relaypass does
not do: those names resolve to placeholders that raise tvm.error.OpNotImplemented, naming what is
missing, when used."""
from . import executor  # noqa: F401
from . import runtime  # noqa: F401
from .executor import Executor  # noqa: F401
from .runtime import Runtime  # noqa: F401
from . import executor_factory  # noqa: F401
from . import graph_executor_codegen  # noqa: F401
from . import _backend  # noqa: F401
from . import interpreter  # noqa: F401
from . import te_compiler  # noqa: F401


def __getattr__(name):
    # Any other name of TVM's relay.backend (graph_executor_codegen, te_compiler, _backend, ...):
    # a placeholder that fails when used, as tvm.te and the other missing parts do.
    if name.startswith("__"):
        raise AttributeError(name)
    from ..._unsupported import _Missing

    return _Missing("tvm.relay.backend." + name)
