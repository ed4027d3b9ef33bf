"""tvm.relay.op.register_gradient: the per-operator gradient rules the gradient pass reads
(TVM's "FPrimalGradient" attribute). A rule is ``fgradient(orig, grad)``: ``orig`` is the
type-checked call, ``grad`` the adjoint of its result; it returns one adjoint per argument.
Registering again replaces a rule only at a higher ``level`` (the same level twice is an error,
as TVM's OpRegEntry::set_attr)."""
from ..._errors import TVMError
from ...ir import Op

_RULES = {}  # op name -> (fgradient, level)


def register_gradient(op_name, fgradient=None, level=10):
    """Register ``fgradient(orig, grad)`` as ``op_name``'s gradient (a decorator when
    ``fgradient`` is omitted)."""

    def _register(fn):
        _load_rules()
        name = Op.get(op_name).name  # the operator must exist
        old = _RULES.get(name)
        if old is not None and old[1] == level:
            raise TVMError("Attribute FPrimalGradient of {} is already registered with same "
                           "plevel={}".format(name, level))
        if old is None or old[1] < level:
            _RULES[name] = (fn, level)
        return fn

    if fgradient is not None:
        return _register(fgradient)
    return _register


def get_gradient(op_name):
    """The gradient rule registered for ``op_name``, or None."""
    _load_rules()
    entry = _RULES.get(op_name)
    return None if entry is None else entry[0]


_STATE = {"loaded": False, "loading": False}


def _load_rules():
    """Register the built-in rules (once, before any lookup or user registration, so that a
    user's rule meets them as TVM's meets the ones registered at import)."""
    if _STATE["loaded"] or _STATE["loading"]:
        return
    _STATE["loading"] = True
    try:
        from . import _tensor_grad, _nn_grad, _pool_conv_grad  # noqa: F401 (built-in rules)
    finally:
        _STATE["loading"] = False
    _STATE["loaded"] = True
