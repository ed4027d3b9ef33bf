"""Sorting and searching operators (tvm.relay.op.algorithm), by TVM's names and signatures.
topk is in transform.py."""
from ._make import call


def sort(data, axis=-1, is_ascend=1):
    """``data`` sorted along ``axis`` (stable)."""
    return call("sort", [data], axis=axis, is_ascend=bool(is_ascend))


def argsort(data, axis=-1, is_ascend=1, dtype="int32"):
    """The positions that sort ``data`` along ``axis`` (stable), as ``dtype``."""
    return call("argsort", [data], axis=axis, is_ascend=bool(is_ascend), dtype=dtype)


def searchsorted(sorted_sequence, values, right=False, dtype="int32"):
    """For each value, where it would be inserted in the matching row of ``sorted_sequence``
    (its innermost axis) to keep the order: before equal elements, or after them with
    ``right``."""
    return call("searchsorted", [sorted_sequence, values], right=bool(right), dtype=dtype)
