"""register_qnn_legalize / register_qnn_canonicalize (TVM's relay.qnn.op.op)."""
from .... import _core

# Hooks registered from Python stay registered for the rest of the process, as in TVM.
_hooks = []


def _registrar(register, op_name, fn, level):
    def _register(f):
        _hooks.append(register(op_name, f, level))
        return f

    return _register(fn) if fn is not None else _register


def register_qnn_legalize(op_name, legal_op=None, level=10):
    """Register ``legal_op(attrs, inputs, types)`` as ``op_name``'s FTVMQnnLegalize hook (a
    decorator when ``legal_op`` is omitted): it returns the expression to use instead, or None
    to keep the call. relay.qnn.transform.Legalize applies these hooks."""
    return _registrar(_core.register_qnn_legalize, op_name, legal_op, level)


def register_qnn_canonicalize(op_name, legal_op=None, level=10):
    """Register ``legal_op(attrs, inputs, types)`` as ``op_name``'s lowering (FTVMQnnCanonicalize),
    used by relay.qnn.transform.CanonicalizeOps instead of the library's own."""
    return _registrar(_core.register_qnn_canonicalize, op_name, legal_op, level)
