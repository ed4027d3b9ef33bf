"""A Python function for every registered operator that has no hand-written wrapper, so an
operator added to the C++ registry is callable from Python at once:
``relay.<name>(*inputs, *attrs, **attrs)`` with the inputs first, then attributes in the
registry's order (which follows TVM's attrs declaration), or by keyword."""
import importlib

from ... import _core
from ._make import call


def _make_wrapper(name, num_inputs, fields):
    field_names = [f[0] for f in fields]

    def op(*args, **attrs):
        n = num_inputs if num_inputs >= 0 else 1
        inputs, positional = list(args[:n]), list(args[n:])
        if len(positional) > len(field_names):
            raise TypeError("{}() takes {} inputs and at most {} attributes".format(
                name, n, len(field_names)))
        for field, value in zip(field_names, positional):
            if field in attrs:
                raise TypeError("{}() got multiple values for '{}'".format(name, field))
            attrs[field] = value
        if num_inputs < 0 and inputs and isinstance(inputs[0], (list, tuple)):
            from ..expr import Tuple

            inputs = [Tuple(list(inputs[0]))]
        return call(name, inputs, **attrs)

    op.__name__ = name.split(".")[-1]
    op.__qualname__ = name
    op.__doc__ = "The {} operator (inputs, then attributes: {}).".format(
        name, ", ".join(field_names) or "none")
    return op


def install(package_name):
    """Adds a generic wrapper to relay.op (or relay.op.nn, ...) for each unwrapped operator."""
    added = []
    for name in _core.list_op_names():
        parts = name.split(".")
        module_name = package_name + ("." + ".".join(parts[:-1]) if len(parts) > 1 else "")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        if hasattr(module, parts[-1]):
            continue
        num_inputs, _, fields = _core.op_signature(name)
        setattr(module, parts[-1], _make_wrapper(name, num_inputs, fields))
        added.append(name)
    return added
