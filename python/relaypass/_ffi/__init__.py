"""tvm._ffi: the names TVM's Python code reaches in its FFI package. relaypass has no FFI of its
own (the library is bound with pybind11), so only ``tvm._ffi.base.TVMError`` is here; the rest
raises OpNotImplemented when used."""
from . import base  # noqa: F401
from .._unsupported import _Missing


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm._ffi." + name)
