"""tvm.relay.frontend.common: the helpers TVM's frontends (and tests) use on expressions being
built: infer_type and infer_shape. Other names of TVM's module are not available."""
from ..._unsupported import _Missing


def infer_type(node, mod=None):
    """``node`` with its checked type: a Function comes back typed; another expression comes back
    as the typed body of a main over its free variables. With ``mod`` (an IRModule), main is
    added to it (TVM's behaviour: the module is updated) and its functions are visible."""
    from ...ir import IRModule
    from .. import analysis, transform
    from ..function import Function

    if isinstance(mod, IRModule):
        mod["main"] = Function(analysis.free_vars(node), node)
        mod = transform.InferType()(mod)
        return mod["main"].body
    new_mod = IRModule.from_expr(node)
    if mod is not None:
        new_mod.update(mod)
    new_mod = transform.InferType()(new_mod)
    entry = new_mod["main"]
    return entry if isinstance(node, Function) else entry.body


def infer_shape(inputs, mod=None):
    """The static shape of ``inputs`` (an expression) as a tuple of ints."""
    checked = infer_type(inputs, mod=mod).checked_type
    return tuple(int(d) for d in checked.shape)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Missing("tvm.relay.frontend.common." + name)
