"""relay.op.debug: TVM's debug operator, whose evaluation calls a Python function with the value
of its argument (the value itself passes through unchanged)."""
import itertools

from ... import _core

_names = itertools.count()


def debug(expr, debug_func=None):
    """``expr`` unchanged; when the evaluator runs the call, ``debug_func(value)`` is called with
    the argument's value (a tvm.nd.NDArray, or a list of them for a tuple). As TVM, the function
    is registered under a new name (``debugger_func<N>``) that the call's attrs hold."""
    from ._make import call

    name = ""
    if debug_func is not None:
        name = "debugger_func{}".format(next(_names))
        _core.register_debug_callback(name, debug_func)
    return call("debug", [expr], debug_func=name)
