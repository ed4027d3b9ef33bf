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
