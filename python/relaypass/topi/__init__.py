"""tvm.topi: of TVM's operator library relaypass has only ``tvm.topi.testing``, the NumPy
reference functions TVM's Relay operator tests compare against, and ``tvm.topi.utils``'s
get_const_tuple. Every other name (``tvm.topi.nn``, ``tvm.topi.cuda``, ...) is a placeholder, as
the parts of TVM in relaypass._unsupported are: it imports and can be named, and using it raises
OpNotImplemented.
"""
from . import testing, utils  # noqa: F401


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    from .._unsupported import _Missing

    return _Missing("tvm.topi." + name)
