"""tvm._ffi.registry: TVM's table of global functions by name (register_func, get_global_func,
list_global_func_names). relaypass's table holds the Python functions a program registers; TVM's
own C++ globals (``relay.backend....``, ``runtime....``) are not there, so asking for one is the
error TVM gives for any name it does not have."""
from .._errors import TVMError

_GLOBALS = {}


def register_func(func_name, f=None, override=False):
    """Register ``f`` as the global function ``func_name`` (a decorator when ``f`` is omitted; a
    callable as first argument registers it under its own ``__name__``)."""
    if callable(func_name):
        f, func_name = func_name, func_name.__name__
    if not isinstance(func_name, str):
        raise ValueError("expect string function name")

    def register(fn):
        if func_name in _GLOBALS and not override:
            raise TVMError("Global PackedFunc {} is already registered".format(func_name))
        _GLOBALS[func_name] = fn
        return fn

    return register(f) if f is not None else register


def get_global_func(name, allow_missing=False):
    """The global function ``name``; None when it is missing and ``allow_missing``, else a
    ValueError as TVM's."""
    func = _GLOBALS.get(name)
    if func is None and not allow_missing:
        raise ValueError("Cannot find global function {}".format(name))
    return func


def list_global_func_names():
    """The names of the registered global functions."""
    return list(_GLOBALS)


def remove_global_func(name):
    """Remove the global function ``name``."""
    _GLOBALS.pop(name, None)
