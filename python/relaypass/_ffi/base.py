"""tvm._ffi.base: the error class TVM's tests catch (``except tvm._ffi.base.TVMError``) and
``py_str``; its other names raise OpNotImplemented when used."""
from .._errors import TVMError  # noqa: F401
from .._unsupported import _Missing


def py_str(x):
    """bytes as str (UTF-8), as TVM's helper."""
    return x.decode("utf-8")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm._ffi.base." + name)
