"""The converter table of one import: every registered converter whose Relay operators exist,
bound to the import's context, then the user's custom_convert_map over it."""
import functools

# Importing the area files registers their converters.
from . import activations, creation, elementwise, indexing, matmul, misc, nn, reduce  # noqa: F401
from . import attention, counting, qnn_ops, random, rnn, shape_ops, signal, vision  # noqa: F401
from .registry import available_ops, entries


def build_convert_map(ctx, custom_convert_map=None):
    """{op kind: fn(inputs, input_types)}, the shape TVM's custom converters also have."""
    ops = available_ops()
    table = {}
    for kind, fn, needs in entries():
        if all(op in ops for op in needs):
            table[kind] = functools.partial(fn, ctx)
    if custom_convert_map:
        table.update(custom_convert_map)
    return table


def unavailable_converters():
    """{op kind: Relay operators it waits for}: converters written but held back because the
    library lacks an operator they emit."""
    ops = available_ops()
    return {kind: [op for op in needs if op not in ops]
            for kind, _, needs in entries() if any(op not in ops for op in needs)}
