"""tvm._ffi: the names TVM's Python code reaches in its FFI package. relaypass has no FFI of its
own (the library is bound with pybind11), so only ``tvm._ffi.base.TVMError`` and the global
function table (``tvm._ffi.registry``) are here; the rest raises OpNotImplemented when used."""
from . import base  # noqa: F401
from . import registry  # noqa: F401
from .registry import register_func, get_global_func  # noqa: F401
from .._unsupported import _Missing


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm._ffi." + name)
