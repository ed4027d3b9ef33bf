"""Operator registry access from Python: Op.get, AlterOpLayout and Legalize hooks, mixed
precision conversion rules."""
from ... import _core
from ...ir import Op

# Hooks registered from Python stay registered for the rest of the process, as in TVM.
_alter_op_layout_hooks = []
_legalize_hooks = []


def get(op_name):
    """The Op named ``op_name``."""
    return Op.get(op_name)


def register(op_name, describe=""):
    """Register a new operator ``op_name`` (TVM's relay.op.op.register): no arguments, type
    relation or kernel until set with the Op's setters and register_pattern /
    register_stateful. A taken name is an error."""
    _core.register_user_op(op_name, describe)


class OpPattern:
    """TVM's operator patterns (TOpPattern), as fusion orders them."""

    ELEMWISE = 0
    BROADCAST = 1
    INJECTIVE = 2
    COMM_REDUCE = 3
    OUT_ELEMWISE_FUSABLE = 4
    TUPLE = 7
    OPAQUE = 8


def register_pattern(op_name, pattern, level=10):
    """Set ``op_name``'s TOpPattern (TVM: register_op_attr(op_name, "TOpPattern", ...))."""
    from ...ir import op_attrs

    op_attrs.register(op_name, "TOpPattern", pattern, level)


def register_stateful(op_name, stateful, level=10):
    """Set ``op_name``'s TOpIsStateful (TVM: register_op_attr(op_name, "TOpIsStateful", ...))."""
    from ...ir import op_attrs

    op_attrs.register(op_name, "TOpIsStateful", stateful, level)


def list_op_names():
    """The names of every registered operator."""
    return _core.list_op_names()


def register_alter_op_layout(op_name, alter_layout=None, level=10):
    """Register ``alter_layout(attrs, inputs, tinfos, out_type)`` as ``op_name``'s
    AlterOpLayout hook (a decorator when ``alter_layout`` is omitted). The hook returns the
    expression to use instead of the call, or None to keep it; it may read
    tvm.target.Target.current()."""

    def _register(fn):
        hook = _core.register_alter_op_layout(op_name, fn, level)
        _alter_op_layout_hooks.append(hook)
        return fn

    if alter_layout is not None:
        return _register(alter_layout)
    return _register


def register_legalize(op_name, legal_op=None, level=10):
    """Register ``legal_op(attrs, inputs, types)`` as ``op_name``'s Legalize hook (a decorator
    when ``legal_op`` is omitted). ``types`` are the argument types followed by the result type;
    the hook returns the call to use instead, or None to keep it (TVM's FTVMLegalize)."""

    def _register(fn):
        hook = _core.register_legalize(op_name, fn, level)
        _legalize_hooks.append(hook)
        return fn

    if legal_op is not None:
        return _register(legal_op)
    return _register


def register_mixed_precision_conversion(op_name, func=None, level=10):
    """Register ``func(call_node, mixed_precision_type)`` as ``op_name``'s ToMixedPrecision
    rule (a decorator when ``func`` is omitted): it returns ``[category, accumulation_dtype,
    output_dtype]`` with category 0 (always), 1 (follow) or 2 (never), as TVM's
    FTVMMixedPrecisionConversionType. It replaces the default rule (``level`` is accepted for
    TVM's signature)."""

    def _register(fn):
        _core.register_mixed_precision_conversion(op_name, fn)
        return fn

    if func is not None:
        return _register(func)
    return _register
