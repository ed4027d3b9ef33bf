"""Calls to registered operators with keyword attributes (TVM's op._make.* functions)."""
from ... import _core


def call(op_name, args, **attrs):
    """A call to ``op_name`` on ``args`` with the given attributes (the rest take defaults)."""
    return _core.make_op_call(op_name, list(args), attrs)


def get_pad_tuple2d(padding):
    """conv2d/pool2d padding as 4 values (top, left, bottom, right), as TVM's wrappers."""
    if isinstance(padding, int):
        return (padding, padding, padding, padding)
    padding = tuple(int(p) for p in padding)
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    if len(padding) == 4:
        return padding
    raise ValueError("Size of padding can only be 2 or 4")


def pair(value):
    """An int as (v, v); a sequence as a tuple."""
    if isinstance(value, int):
        return (value, value)
    return tuple(value)
