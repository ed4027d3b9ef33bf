"""tvm.relay.backend.te_compiler: TVM's cache of operators lowered to tensor expressions. relaypass
runs operators with its CPU kernels and lowers nothing, so the compiler ``get()`` returns holds no
entries: ``items()`` is empty and ``clear()`` (what TVM's tests call between runs) leaves it so.
Lowering itself (``lower``, ``jit``, ``lower_call``, ``select_implementation``, ...) raises
tvm.error.OpNotImplemented."""
from ..._unsupported import _Missing


class TECompiler:
    """The lowered-function cache; relaypass's is always empty."""

    def clear(self):
        """Drop every cached lowered function (relaypass caches none)."""

    def items(self):
        """The cached (key, lowered function) pairs: none."""
        return []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Missing("tvm.relay.backend.te_compiler.TECompiler." + name)


_COMPILER = TECompiler()


def get():
    """The process's TECompiler."""
    return _COMPILER


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm.relay.backend.te_compiler." + name)
