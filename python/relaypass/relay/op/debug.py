"""relay.op.debug: TVM's debug operator, which calls a Python function with a value while the
interpreter runs. relaypass's operator registry has no such operator: the name exists so that
code importing it loads, and calling it raises OpNotImplemented."""


def debug(expr, debug_func=None):
    """TVM: ``expr`` unchanged, ``debug_func(value)`` called when the interpreter evaluates it.
    Not available in relaypass (no "debug" operator): raises tvm.error.OpNotImplemented."""
    from ..._errors import OpNotImplemented

    raise OpNotImplemented(
        "relay.op.debug is not available: relaypass's operator registry has no 'debug' "
        "operator (a Python callback run by the interpreter)")
