"""The converter table: each area file registers its converters with ``@converter(...)``.

A converter is ``fn(ctx, inputs, input_types)`` (ctx: the ConversionContext) and returns a Relay
expression, a tuple of them (one per node output; None for an output TVM leaves unset, such as
the indices of max_pool2d_with_indices), or a Python value (ints, lists). ``needs`` names the Relay
operators it emits that the library may lack: while one is missing the converter stays out of the
table, so the op is reported as TVM reports any op it cannot convert."""
from .... import _core

_ENTRIES = []


def converter(*op_names, needs=()):
    """Registers the decorated function for each TorchScript op kind in ``op_names``."""

    def register(fn):
        for name in op_names:
            _ENTRIES.append((name, fn, tuple(needs)))
        return fn

    return register


def available_ops():
    return set(_core.list_op_names())


def entries():
    """(op kind, converter, Relay ops it needs) for every registration."""
    return list(_ENTRIES)
